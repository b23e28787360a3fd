// The --html page's script (viewer.md §11.12): draws the data of html_data.h as an icicle
// graph on one canvas (ROOT on top), with hover, zoom, search, the sorted frame table and the
// device table. Everything the page shows is set with textContent or drawn on the canvas, so
// frame names can never become markup. window.protonReport exposes the drawn geometry and
// the actions, for tests and for the console. A "merge" page (--merge=stats) draws the
// medians and shows each frame's spread over the files. The page has no other script, so the
// top-level names below are this script's own.
'use strict';

const started = performance.now();
const data = JSON.parse(document.getElementById('proton-data').textContent);
const parsed = performance.now();
const nodes = data.nodes;
const N = nodes.size;
const parent = nodes.parent;
// Each distinct name is stored once (html_data.h); nodes refer to it by index.
const nameIndex = nodes.name;
const names = nameIndex.map((k) => nodes.names[k]);
const fullTable = nodes.fullNames || nodes.names;
const fullNames = nameIndex.map((k) => fullTable[k]);
const values = nodes.values;
const isDiff = data.mode === 'diff';
const isMerge = data.mode === 'merge';
const spread = nodes.spread;  // merge: per column {min, mean, max, imbalance, argmax}
const fileCount = data.profiles.length;
const ROW = 18;
const MAX_ROWS = 1600;        // a canvas taller than ~32,000 px is not drawn by browsers
const TABLE_ROWS = 500;       // rows put in the DOM at once (the table of 1e6 frames)
const KIND_NAMES = ['root', 'scope', 'Python frame', 'kernel'];
const KIND_COLORS = ['#b8b8b8', '#8db4e2', '#93cf8a', '#f2a65a'];
const SIDE_MARKERS = ['', '\u25c0 ', '\u25b6 '];
const PARTIAL_MARKER = '\u25cc ';  // merge: a frame that some files lack
const IMBALANCE_HOT = 2;           // merge: max/mean at which a frame is fully red
// A merge's first column is its median: what the width and the table's order are by.
const widthLabel = data.columns[0].label + (isMerge ? ':median' : '');
const partial = (i) => isMerge && nodes.files[i] < fileCount;
// The marker before a frame's name: its diff side, or that some merged files lack it.
function markerOf(i) {
  if (isDiff) return SIDE_MARKERS[nodes.side[i]];
  return partial(i) ? PARTIAL_MARKER : '';
}

// ---- The tree: depth, subtree end (ids are pre-order, so a subtree is [i, end[i])),
// width weight and the sum of the children's weights.
const depth = new Int32Array(N);
const end = new Int32Array(N);
const weight = new Float64Array(N);
const childSum = new Float64Array(N);
const positive = (v) => (typeof v === 'number' && v > 0 && Number.isFinite(v) ? v : 0);
for (let i = 0; i < N; i++) {
  depth[i] = parent[i] < 0 ? 0 : depth[parent[i]] + 1;
  // A diff frame is as wide as the larger side, so frames of either side can be seen.
  weight[i] = isDiff ? Math.max(positive(nodes.now[i]), positive(nodes.base[i]))
                     : positive(values[0][i]);
}
for (let i = N - 1; i >= 0; i--) {
  if (end[i] < i + 1) end[i] = i + 1;
  const p = parent[i];
  if (p >= 0) {
    if (end[p] < end[i]) end[p] = end[i];
    childSum[p] += weight[i];
  }
}

const state = { zoom: 0, selected: -1, regex: null, matched: null, sortColumn: 1,
                sortDescending: true, frames: [], rows: [], share: null, tableRows: [] };

// ---- Layout: x and width as fractions of the zoomed frame. Children share their parent's
// width in proportion to their weights; where they add up to more than the parent (an
// exclusive metric, a diff) they are scaled down to fit.
const x = new Float64Array(N);
const w = new Float64Array(N);
const cursor = new Float64Array(N);
function layout(z) {
  x[z] = 0; w[z] = 1; cursor[z] = 0;
  for (let i = z + 1; i < end[z]; i++) {
    const p = parent[i];
    const denominator = Math.max(weight[p], childSum[p]);
    x[i] = cursor[p];
    w[i] = denominator > 0 ? w[p] * weight[i] / denominator : 0;
    cursor[p] += w[i];
    cursor[i] = x[i];
  }
}

// ---- Colours.
function mix(from, to, t) {
  const c = (k) => Math.round(from[k] + (to[k] - from[k]) * t);
  return 'rgb(' + c(0) + ',' + c(1) + ',' + c(2) + ')';
}
// Over the frames below ROOT: ROOT's inclusive value would make every other frame pale.
function finiteRange(column) {
  let min = Infinity, max = -Infinity;
  for (let i = 1; i < column.length; i++) {
    const v = column[i];
    if (typeof v === 'number' && Number.isFinite(v)) {
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
  }
  return min <= max ? { min, max } : null;
}
const growth = new Float64Array(N);  // diff: FILE − DIFF_PROFILE of the first column
let maxGrowth = 0;
if (isDiff) {
  for (let i = 0; i < N; i++) {
    const number = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
    growth[i] = number(nodes.now[i]) - number(nodes.base[i]);
    if (i > 0) maxGrowth = Math.max(maxGrowth, Math.abs(growth[i]));
  }
}
const colourRange = !isDiff && values.length > 1 ? finiteRange(values[1]) : null;
// A merge's spread, max/mean: 1 (every file alike) is neutral, IMBALANCE_HOT or more red,
// linear between, so that only frames where some file stands out catch the eye.
function imbalanceColour(v) {
  if (typeof v !== 'number' || !Number.isFinite(v)) return '#dddddd';
  const t = Math.min(1, Math.max(0, (v - 1) / (IMBALANCE_HOT - 1)));
  return mix([238, 238, 238], [214, 39, 40], t);
}
function frameColour(i) {
  if (isMerge && values.length === 1) return imbalanceColour(spread[0].imbalance[i]);
  if (isDiff) {
    const t = maxGrowth > 0 ? Math.sqrt(Math.min(1, Math.abs(growth[i]) / maxGrowth)) : 0;
    return growth[i] >= 0 ? mix([238, 238, 238], [214, 39, 40], t)
                          : mix([238, 238, 238], [31, 119, 180], t);
  }
  if (values.length > 1) {
    const v = values[1][i];
    if (typeof v !== 'number' || !Number.isFinite(v) || !colourRange) return '#dddddd';
    const span = colourRange.max - colourRange.min;
    const t = span > 0 ? Math.min(1, Math.max(0, (v - colourRange.min) / span)) : 1;
    return mix([255, 255, 178], [189, 0, 38], Math.sqrt(t));  // sqrt: small values still show
  }
  return KIND_COLORS[nodes.kind[i]];
}

// ---- Numbers as the terminal prints them (%.3f, nan, inf).
function formatValue(v) {
  if (typeof v !== 'number' || Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  return v.toFixed(3);
}
function percent(part, whole) {
  return whole > 0 ? (100 * part / whole).toFixed(2) + '%' : '';
}

// ---- Drawing. Frames narrower than a pixel are folded into their parent (not drawn, and
// neither are their descendants), which keeps 1,000,000-node pages interactive.
const canvas = document.getElementById('flame');
const graph = document.getElementById('graph');
function visibleFrames(width) {
  const frames = [];
  const top = depth[state.zoom];
  for (let i = state.zoom; i < end[state.zoom];) {
    const px = w[i] * width;
    const row = depth[i] - top;
    if (depth[i] >= data.depthLimit || px < 1 || row >= MAX_ROWS) { i = end[i]; continue; }
    frames.push({ id: i, x: x[i] * width, y: row * ROW, w: px, h: ROW - 1, row });
    i++;
  }
  return frames;
}
function drawFrame(ctx, f, charWidth) {
  const i = f.id;
  const dim = state.matched !== null && !state.matched[i];
  ctx.globalAlpha = dim ? 0.35 : 1;
  ctx.fillStyle = frameColour(i);
  ctx.fillRect(f.x, f.y, Math.max(f.w - 0.5, 0.5), f.h);
  if (state.matched !== null && state.matched[i]) {
    ctx.strokeStyle = '#c000c0'; ctx.lineWidth = 2;
    ctx.strokeRect(f.x + 1, f.y + 1, Math.max(f.w - 2, 0), f.h - 2);
  }
  if ((isDiff && nodes.side[i] !== 0) || partial(i)) {
    ctx.setLineDash(isDiff && nodes.side[i] === 1 ? [] : [3, 2]);
    ctx.strokeStyle = '#333'; ctx.lineWidth = 1;
    ctx.strokeRect(f.x + 0.5, f.y + 0.5, Math.max(f.w - 1.5, 0), f.h - 1);
    ctx.setLineDash([]);
  }
  if (i === state.selected) {
    ctx.strokeStyle = '#000'; ctx.lineWidth = 2;
    ctx.strokeRect(f.x + 1, f.y + 1, Math.max(f.w - 2, 0), f.h - 2);
  }
  const label = markerOf(i) + names[i];
  const fits = Math.floor((f.w - 6) / charWidth);
  if (fits >= 3) {
    ctx.fillStyle = '#111';
    const text = label.length <= fits ? label : label.slice(0, fits - 1) + '\u2026';
    ctx.fillText(text, f.x + 3, f.y + 13);
  }
  ctx.globalAlpha = 1;
}
function draw() {
  const width = Math.max(graph.clientWidth, 100);
  layout(state.zoom);
  const frames = visibleFrames(width);
  const rows = [];
  for (const f of frames) (rows[f.row] = rows[f.row] || []).push(f);
  const ratio = window.devicePixelRatio || 1;
  const height = Math.max(rows.length, 1) * ROW;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  canvas.style.width = width + 'px';
  canvas.style.height = height + 'px';
  const ctx = canvas.getContext('2d');
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.font = '11px ui-monospace, "DejaVu Sans Mono", monospace';
  const charWidth = ctx.measureText('M').width || 7;
  for (const f of frames) drawFrame(ctx, f, charWidth);
  state.frames = frames;
  state.rows = rows;
  state.canvasWidth = width;
}

// ---- Finding the frame under the mouse: the row, then a binary search on x.
function frameAt(event) {
  const box = canvas.getBoundingClientRect();
  const px = event.clientX - box.left, py = event.clientY - box.top;
  const row = state.rows[Math.floor(py / ROW)];
  if (!row) return null;
  let lo = 0, hi = row.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (row[mid].x + row[mid].w <= px) lo = mid + 1;
    else if (row[mid].x > px) hi = mid - 1;
    else return row[mid];
  }
  return null;
}

// ---- Hover: the full name and every column.
const tooltip = document.getElementById('tooltip');
// A merge's lines: per column its statistics and the file holding the max, then how many
// files hold the frame.
function spreadLines(i) {
  const lines = [];
  data.columns.forEach((c, k) => {
    const s = spread[k];
    lines.push(c.label + ': median ' + formatValue(values[k][i]) + ', min ' +
               formatValue(s.min[i]) + ', mean ' + formatValue(s.mean[i]) + ', max ' +
               formatValue(s.max[i]) + ', imbalance ' + formatValue(s.imbalance[i]));
    if (s.argmax[i] !== null) lines.push('  max in ' + data.profiles[s.argmax[i]]);
  });
  lines.push((partial(i) ? PARTIAL_MARKER : '') + 'in ' + nodes.files[i] + ' of ' + fileCount +
             ' files');
  return lines;
}
function tooltipText(i) {
  const lines = [fullNames[i], KIND_NAMES[nodes.kind[i]]];
  if (isMerge) lines.push(...spreadLines(i));
  else data.columns.forEach((c, k) => lines.push(c.label + ': ' + formatValue(values[k][i])));
  const share = percent(weight[i], weight[0]);
  const widthName = isDiff ? 'width' : data.columns[0].item + (isMerge ? ':median' : '');
  if (share) lines.push(widthName + ': ' + share + ' of ROOT');
  if (isDiff) {
    lines.push(data.profiles[0] + ': ' + formatValue(nodes.now[i]));
    lines.push(data.profiles[1] + ': ' + formatValue(nodes.base[i]));
    if (nodes.side[i] === 1) lines.push('\u25c0 only in ' + data.profiles[0]);
    if (nodes.side[i] === 2) lines.push('\u25b6 only in ' + data.profiles[1]);
  }
  return lines.join('\n');
}
canvas.addEventListener('mousemove', (event) => {
  const f = frameAt(event);
  if (!f) { tooltip.hidden = true; return; }
  tooltip.textContent = tooltipText(f.id);
  tooltip.hidden = false;
  const left = Math.min(event.clientX + 12, window.innerWidth - tooltip.offsetWidth - 4);
  tooltip.style.left = Math.max(left, 0) + 'px';
  tooltip.style.top = (event.clientY + 14) + 'px';
});
canvas.addEventListener('mouseleave', () => { tooltip.hidden = true; });
canvas.addEventListener('click', (event) => {
  const f = frameAt(event);
  if (f) zoomTo(f.id);
});

// ---- Zoom and its breadcrumb (the path from ROOT; every part but the last is a link).
const breadcrumb = document.getElementById('breadcrumb');
function zoomTo(i) {
  state.zoom = i;
  const path = [];
  for (let a = i; a >= 0; a = parent[a]) path.unshift(a);
  breadcrumb.textContent = '';
  path.forEach((a, k) => {
    if (k > 0) {
      const sep = document.createElement('span');
      sep.className = 'sep'; sep.textContent = '\u203a';
      breadcrumb.appendChild(sep);
    }
    const part = document.createElement(k === path.length - 1 ? 'span' : 'a');
    part.textContent = names[a];
    part.dataset.node = String(a);
    if (k < path.length - 1) part.addEventListener('click', () => zoomTo(a));
    breadcrumb.appendChild(part);
  });
  draw();
}

// ---- Search: frames whose stored name matches the regular expression (anywhere, case
// sensitive, as -i/-e patterns are), and the share of ROOT they cover (nested matches
// counted once).
const searchBox = document.getElementById('search');
const searchResult = document.getElementById('search-result');
function search(text) {
  searchBox.classList.remove('invalid');
  state.matched = null; state.share = null; searchResult.textContent = '';
  if (text !== '') {
    let regex;
    try { regex = new RegExp(text); } catch (e) {
      searchBox.classList.add('invalid');
      searchResult.textContent = 'invalid regular expression';
      draw();
      return null;
    }
    const nameMatches = fullTable.map((name) => regex.test(name));  // once per distinct name
    const matched = new Uint8Array(N);
    let count = 0, covered = 0;
    for (let i = 0; i < N; i++) if (nameMatches[nameIndex[i]]) { matched[i] = 1; count++; }
    for (let i = 0; i < N;) {
      if (matched[i]) { covered += weight[i]; i = end[i]; } else i++;
    }
    state.matched = matched;
    state.share = { count, fraction: weight[0] > 0 ? covered / weight[0] : 0 };
    searchResult.textContent = count + ' matching frame' + (count === 1 ? '' : 's') + ', ' +
        (100 * state.share.fraction).toFixed(2) + '% of ' +
        (isDiff ? 'the width' : widthLabel);
  }
  draw();
  return state.share;
}
searchBox.addEventListener('input', () => search(searchBox.value));

// ---- The sorted table: --print-sorted's rows (every frame but ROOT, by the first column,
// descending, NaN last, ties in row order), sortable by any column: a merge's table has
// every statistic (argmax shown as the file's name, sorted by its index) and "files".
const table = document.getElementById('sorted');
const rowOrder = nodes.rowOrder || Array.from({ length: N }, (_, i) => i);
const rank = new Int32Array(N);
rowOrder.forEach((id, k) => { rank[id] = k; });
const tableIds = rowOrder.filter((id) => id !== 0);
function buildTableColumns() {
  if (!isMerge) {
    return data.columns.map((c, k) => ({ label: c.label, values: values[k], text: formatValue }));
  }
  const columns = [];
  data.columns.forEach((c, k) => {
    columns.push({ label: c.label + ':median', values: values[k], text: formatValue });
    for (const stat of ['min', 'mean', 'max', 'imbalance']) {
      columns.push({ label: c.label + ':' + stat, values: spread[k][stat], text: formatValue });
    }
    columns.push({ label: c.label + ':argmax', values: spread[k].argmax,
                   text: (v) => (v === null ? '' : data.profiles[v]) });
  });
  columns.push({ label: 'files', values: nodes.files, text: String });
  return columns;
}
const tableColumns = buildTableColumns();
// A column as a Float64Array (null = NaN): sorting 1,000,000 rows reads it 20 million times.
const numericColumns = [];
function numericColumn(k) {
  if (!numericColumns[k]) {
    numericColumns[k] = Float64Array.from(tableColumns[k].values, (v) => (v === null ? NaN : v));
  }
  return numericColumns[k];
}
function compareRows(column, descending) {
  if (column === 0) {
    return (a, b) => {
      const c = names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0;
      return (descending ? -c : c) || rank[a] - rank[b];
    };
  }
  const v = numericColumn(column - 1);
  return (a, b) => {
    const va = v[a], vb = v[b];
    const na = Number.isNaN(va), nb = Number.isNaN(vb);
    if (na || nb) return na === nb ? rank[a] - rank[b] : na ? 1 : -1;
    const c = va < vb ? -1 : va > vb ? 1 : 0;
    return (descending ? -c : c) || rank[a] - rank[b];
  };
}
// The first `k` rows in `compare` order, without sorting them all: a heap of the best k
// seen so far, its worst row on top (1,000,000 frames: one comparison each, mostly).
function firstRows(compare, k) {
  const heap = [];
  const worse = (a, b) => compare(heap[a], heap[b]) > 0;
  const swap = (a, b) => { const t = heap[a]; heap[a] = heap[b]; heap[b] = t; };
  for (const id of tableIds) {
    if (heap.length < k) {
      heap.push(id);
      for (let c = heap.length - 1; c > 0 && worse(c, (c - 1) >> 1); c = (c - 1) >> 1) {
        swap(c, (c - 1) >> 1);
      }
    } else if (compare(id, heap[0]) < 0) {
      heap[0] = id;
      for (let p = 0; ;) {
        const l = 2 * p + 1, r = l + 1;
        let top = p;
        if (l < heap.length && worse(l, top)) top = l;
        if (r < heap.length && worse(r, top)) top = r;
        if (top === p) break;
        swap(p, top);
        p = top;
      }
    }
  }
  return heap.sort(compare);
}
function tableHeader() {
  const row = document.createElement('tr');
  ['name'].concat(tableColumns.map((c) => c.label)).forEach((text, k) => {
    const th = document.createElement('th');
    const arrow = k === state.sortColumn ? (state.sortDescending ? ' \u25bc' : ' \u25b2') : '';
    th.textContent = text + arrow;
    th.dataset.column = String(k);
    // A second click reverses; a new column starts descending (names: ascending).
    const descending = () => (k === state.sortColumn ? !state.sortDescending : k !== 0);
    th.addEventListener('click', () => sortBy(k, descending()));
    row.appendChild(th);
  });
  table.tHead.textContent = '';
  table.tHead.appendChild(row);
}
function sortBy(column, descending) {
  state.sortColumn = column;
  state.sortDescending = descending;
  tableHeader();
  const body = document.createElement('tbody');
  state.tableRows = firstRows(compareRows(column, descending), TABLE_ROWS);
  for (const id of state.tableRows) {
    const tr = document.createElement('tr');
    tr.dataset.node = String(id);
    const name = document.createElement('td');
    name.textContent = markerOf(id) + names[id];
    name.title = fullNames[id];
    tr.appendChild(name);
    tableColumns.forEach((column) => {
      const td = document.createElement('td');
      td.textContent = column.text(column.values[id]);
      tr.appendChild(td);
    });
    tr.addEventListener('click', () => showFrame(id));
    body.appendChild(tr);
  }
  table.replaceChild(body, table.tBodies[0]);
  document.getElementById('table-note').textContent = tableIds.length > TABLE_ROWS
      ? 'The first ' + TABLE_ROWS + ' of ' + tableIds.length + ' frames; click a heading to sort.'
      : tableIds.length + ' frames; click a heading to sort, a row to show its frame.';
}

// A table row's frame: zoomed into (or its deepest drawn ancestor, below -d) and outlined.
function showFrame(id) {
  let shown = id;
  while (depth[shown] >= data.depthLimit && parent[shown] >= 0) shown = parent[shown];
  state.selected = id;
  for (const tr of table.tBodies[0].rows) {
    tr.classList.toggle('selected', tr.dataset.node === String(id));
  }
  zoomTo(shown);
  graph.scrollIntoView({ block: 'nearest' });
}

// ---- Legend, devices, title and command line.
function legendItem(colour, text, dashed) {
  const item = document.createElement('span');
  const swatch = document.createElement('span');
  swatch.className = 'swatch';
  swatch.style.background = colour;
  if (dashed) swatch.style.borderStyle = 'dashed';
  item.append(swatch, text);
  return item;
}
function buildLegend() {
  const legend = document.getElementById('legend');
  const label = widthLabel;
  if (isMerge && values.length === 1) {
    legend.append('width: ' + label + '; colour: imbalance (max/mean of ' +
                  data.columns[0].label + ')',
      legendItem(imbalanceColour(1), '1.0'),
      legendItem(imbalanceColour((1 + IMBALANCE_HOT) / 2), ((1 + IMBALANCE_HOT) / 2).toFixed(1)),
      legendItem(imbalanceColour(IMBALANCE_HOT), '\u2265 ' + IMBALANCE_HOT.toFixed(1)));
  } else if (isDiff) {
    legend.append('width: larger side of ' + label + ';',
      legendItem('rgb(214,39,40)', 'grew (' + data.profiles[0] + ' > ' + data.profiles[1] + ')'),
      legendItem('rgb(31,119,180)', 'shrank'),
      legendItem('#eee', '\u25c0 only in ' + data.profiles[0]),
      legendItem('#eee', '\u25b6 only in ' + data.profiles[1], true));
  } else if (values.length > 1) {
    const r = colourRange || { min: NaN, max: NaN };
    legend.append('width: ' + label + '; colour: ' + data.columns[1].label +
                  (isMerge ? ':median' : ''),
      legendItem('rgb(255,255,178)', formatValue(r.min)),
      legendItem('rgb(189,0,38)', formatValue(r.max)));
  } else {
    legend.append('width: ' + label + ';');
    KIND_NAMES.forEach((kind, k) => legend.append(legendItem(KIND_COLORS[k], kind)));
  }
  if (isMerge) legend.append(legendItem('#eee', PARTIAL_MARKER + 'in some files only', true));
}
// A table row of `tag` cells holding `texts`.
function tableRow(tag, texts) {
  const tr = document.createElement('tr');
  for (const text of texts) {
    const cell = document.createElement(tag);
    cell.textContent = text;
    tr.appendChild(cell);
  }
  return tr;
}
function buildDevices() {
  const fields = ['type', 'index', 'arch', 'bus_width', 'clock_rate', 'memory_clock_rate',
                  'num_sms'];
  const devices = document.getElementById('devices');
  devices.tHead.appendChild(tableRow('th', ['profile'].concat(fields)));
  for (const d of data.devices) {
    const texts = fields.map((f) => (d[f] === undefined ? '' : String(d[f])));
    devices.tBodies[0].appendChild(tableRow('td', [data.profiles[d.profile]].concat(texts)));
  }
  if (data.devices.length === 0) {
    devices.tBodies[0].appendChild(tableRow('td', ['no device information in the profile']));
  }
}
// --stragglers (viewer.md §11.15): a rank × step grid of each rank's lag behind the step's
// median (red from 0 up to four times the "slow" threshold, the slowest rank outlined), the
// persistent stragglers, and one row per step with the frame that explains most of its lag.
function lagText(lag) {
  if (typeof lag !== 'number' || !Number.isFinite(lag)) return '';
  return (lag >= 0 ? '+' : '') + (100 * lag).toFixed(1) + '%';
}
function lagColour(lag, slowPct) {
  if (typeof lag !== 'number' || !Number.isFinite(lag)) return '#f4f4f4';
  const hot = Math.max(4 * slowPct, 1) / 100;
  return mix([255, 255, 255], [214, 39, 40], Math.min(1, Math.max(0, lag / hot)));
}
function stragglerCell(st, s, k) {
  const cell = document.createElement('td');
  const v = st.values[s][k];
  const lag = typeof v === 'number' && st.median[s] > 0 ? (v - st.median[s]) / st.median[s] : NaN;
  cell.textContent = lagText(lag);
  cell.style.background = lagColour(lag, st.slowPct);
  cell.title = st.ranks[k] + ', step ' + st.steps[s] + ': ' + formatValue(v) + ' ' + st.item;
  if (lag * 100 > st.slowPct) cell.classList.add('slow');
  if (st.slowest[s] === k) cell.classList.add('slowest');
  return cell;
}
function buildStragglerGrid(st) {
  const grid = document.getElementById('stragglers-heat');
  grid.tHead.appendChild(tableRow('th', ['rank \\ step'].concat(st.steps.map(String),
                                                                 ['slow steps'])));
  st.ranks.forEach((rank, k) => {
    const tr = document.createElement('tr');
    const head = document.createElement('th');
    head.textContent = rank;
    tr.appendChild(head);
    if (st.persistent[k]) tr.classList.add('persistent');
    st.steps.forEach((_, s) => tr.appendChild(stragglerCell(st, s, k)));
    tr.appendChild(tableRow('td', [st.rankSlow[k] + ' of ' + st.rankSteps[k]]).firstChild);
    grid.tBodies[0].appendChild(tr);
  });
}
function buildStragglers() {
  const st = data.stragglers;
  if (!st) return;
  document.getElementById('stragglers-section').hidden = false;
  document.getElementById('stragglers-note').textContent =
      st.ranks.length + ' ranks, ' + st.steps.length + ' steps, ' + st.item +
      ' of each rank\'s part at ROOT. Each cell is the rank\'s lag behind the step\'s median; ' +
      'bold: slow (more than ' + st.slowPct + '% above), outlined: the step\'s slowest rank.';
  buildStragglerGrid(st);
  const persistent = [];
  st.ranks.forEach((rank, k) => {
    if (!st.persistent[k]) return;
    persistent.push(rank + ' (slow in ' + st.rankSlow[k] + ' of ' + st.rankSteps[k] +
                    ' steps, median lag ' + lagText(st.rankMedianLag[k]) + ')');
  });
  document.getElementById('stragglers-persistent').textContent = persistent.length === 0
      ? 'Persistent stragglers: none.'
      : 'Persistent stragglers (slow in more than half of their steps): ' +
        persistent.join(', ') + '.';
  const steps = document.getElementById('stragglers-steps');
  steps.tHead.appendChild(tableRow('th', ['step', 'ranks', 'median', 'slowest', st.item, 'lag',
                                          'most of the lag in']));
  st.steps.forEach((step, s) => {
    const top = st.topFrame[s];
    const k = st.slowest[s];
    steps.tBodies[0].appendChild(tableRow('td', [String(step),
        String(st.values[s].filter((v) => typeof v === 'number').length),
        formatValue(st.median[s]), k >= 0 ? st.ranks[k] : '-',
        k >= 0 ? formatValue(st.values[s][k]) : '', lagText(st.lag[s]),
        top ? top[top.length - 1] + ' (+' + formatValue(st.topExcess[s]) + ')' : '']));
  });
}
function shellQuote(arg) {
  return /^[A-Za-z0-9_\-+=:,./@%]+$/.test(arg) ? arg : "'" + arg.replace(/'/g, "'\\''") + "'";
}

// Several profiles without a diff are a merge (either kind): named as in the messages.
const title = isDiff ? data.profiles[0] + ' \u2212 ' + data.profiles[1]
    : fileCount > 1 ? '<merge of ' + fileCount + ' files>' : data.profiles[0];
document.title = 'proton-viewer: ' + title;
document.getElementById('title').textContent = 'proton-viewer: ' + title;
document.getElementById('command').textContent = data.command.map(shellQuote).join(' ');
document.getElementById('table-title').textContent =
    'Frames sorted by ' + widthLabel + (isDiff ? ' (difference)' : '');
buildLegend();
buildDevices();
buildStragglers();
const prepared = performance.now();
zoomTo(0);
const drawn = performance.now();
sortBy(1, true);
// Where the load time goes (ms), for bench/viewer/html_bench.py.
state.timings = { scriptStart: started, parse: parsed - started, prepare: prepared - parsed,
                  draw: drawn - prepared, table: performance.now() - drawn };
window.addEventListener('resize', draw);

state.readyMs = performance.now();  // since navigation started: the page's load time
window.protonReport = {
  data, state, zoomTo, search, sortBy, showFrame,
  nameOf: (i) => names[i],
  colourOf: frameColour,
  tooltipOf: tooltipText,
  get frames() { return state.frames; },
  get canvasWidth() { return state.canvasWidth; },
  ready: true,
};
