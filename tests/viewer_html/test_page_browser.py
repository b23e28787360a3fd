"""The --html page in headless Chromium (viewer.md §11.12): it loads without console errors,
draws exactly the printed tree (of one profile, a diff or a merge), and zoom, search, sort
and hover work. Screenshots go to
$PROTON_ARTIFACT_DIR."""
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from report_helpers import (RANKS, REFDATA, SLOW_RANK, SOURCE, printed_merge_tree, printed_tree,
                            run_viewer, write_rank_files)

ARTIFACTS = Path(os.environ.get("PROTON_ARTIFACT_DIR", "build/artifacts/browser"))


@pytest.fixture(scope="module")
def browser():
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000", "--force-device-scale-factor=1"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


def open_page(browser, path, screenshot):
    browser.get(path.resolve().as_uri())
    assert browser.execute_script("return !!(window.protonReport && protonReport.ready)")
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert errors == []
    browser.save_screenshot(str(ARTIFACTS / screenshot))


def test_console_errors_are_seen(browser, tmp_path):
    """The console check of open_page can fail: a page that throws is reported."""
    page = tmp_path / "throws.html"
    page.write_text("<!DOCTYPE html><script>throw new Error('deliberate')</script>")
    browser.get(page.resolve().as_uri())
    messages = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert any("deliberate" in m for m in messages)


def page_state(browser):
    return browser.execute_script("""
        const r = protonReport;
        const nodes = Object.assign({}, r.data.nodes);
        nodes.name = nodes.name.map(k => nodes.names[k]);
        return {frames: r.frames.map(f => [f.id, f.x, f.w, f.row]), width: r.canvasWidth,
                depth: r.data.depthLimit, nodes};""")


def page_depths(nodes):
    depths = []
    for p in nodes["parent"]:
        depths.append(0 if p < 0 else depths[p] + 1)
    return depths


def check_drawn_frames(state, printed, weights):
    """Printed rows and page nodes (within -d) correspond one to one, in order; a frame is
    drawn exactly when its width is at least one pixel, at its share of its parent."""
    nodes, width = state["nodes"], state["width"]
    depths = page_depths(nodes)
    shown = [i for i in range(nodes["size"]) if depths[i] < state["depth"]]
    assert len(shown) == len(printed)
    for i, row in zip(shown, printed):
        assert nodes["name"][i] == row["name"]
        value = nodes["values"][0][i]
        if value is None:
            assert math.isnan(row["value"]), row
        else:
            assert f"{value:.3f}" == f"{row['value']:.3f}", (row, value)
    # The layout rule: children share their parent's width by weight, scaled down to fit
    # where they add up to more than the parent; siblings left to right in print order.
    child_sum = {}
    for i in shown[1:]:
        child_sum[nodes["parent"][i]] = child_sum.get(nodes["parent"][i], 0) + weights[i]
    left, span, cursor = {shown[0]: 0.0}, {shown[0]: float(width)}, {}
    for i in shown[1:]:
        p = nodes["parent"][i]
        denominator = max(weights[p], child_sum[p])
        span[i] = span[p] * weights[i] / denominator if denominator > 0 else 0
        left[i] = cursor.get(p, left[p])
        cursor[p] = left[i] + span[i]
    drawn = {f[0]: f for f in state["frames"]}
    # Drawn exactly when at least a pixel wide, with every ancestor drawn.
    expected = {i for i in shown if span[i] >= 1 and (i == shown[0] or nodes["parent"][i] in drawn)}
    assert set(drawn) == expected
    for i in expected:
        assert drawn[i][1] == pytest.approx(left[i], abs=0.01)
        assert drawn[i][2] == pytest.approx(span[i], abs=0.01)
        assert drawn[i][3] == depths[i]
    return drawn


@pytest.mark.parametrize("shape", [
    ["-f", "function_line", "-d", "9", "-e", ".*44@main"],
    ["-i", ".*add", "-t", "5"],
])
def test_options_shape_the_graph_as_the_tree(browser, tmp_path, shape):
    page = tmp_path / "shaped.html"
    args = ["-m", "time/us", *shape, REFDATA / "ref_python.hatchet"]
    printed = printed_tree(run_viewer(*args, "--html", page).stdout)
    open_page(browser, page, "shaped_%s.png" % shape[0].strip("-"))
    state = page_state(browser)
    weights = [max(v or 0, 0) for v in state["nodes"]["values"][0]]
    unshaped = printed_tree(run_viewer("-m", "time/us", REFDATA / "ref_python.hatchet").stdout)
    assert len(printed) < len(unshaped)
    check_drawn_frames(state, printed, weights)


def test_single_profile_draws_the_printed_tree(browser, tmp_path):
    page = tmp_path / "gpt2.html"
    printed = run_viewer("-m", "time/us", "--html", page, REFDATA / "gpt2_shadow.hatchet")
    open_page(browser, page, "gpt2_single.png")
    state = page_state(browser)
    weights = [max(v or 0, 0) for v in state["nodes"]["values"][0]]
    drawn = check_drawn_frames(state, printed_tree(printed.stdout), weights)
    assert len(drawn) > 20
    title = browser.execute_script("return document.title")
    assert title == f"proton-viewer: {REFDATA / 'gpt2_shadow.hatchet'}"  # the path as given
    command = browser.find_element(By.ID, "command").text
    assert command.startswith("proton-viewer -m time/us --html ")
    # The device table is the profile's (element 1 of the JSON document).
    devices = json.loads((REFDATA / "gpt2_shadow.hatchet").read_text())[1]
    expected = [[str(REFDATA / "gpt2_shadow.hatchet"), kind, index, str(info["arch"]),
                 *(str(info[f]) for f in ("bus_width", "clock_rate", "memory_clock_rate",
                                          "num_sms"))]
                for kind, table in devices.items() for index, info in table.items()]
    rows = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
            for tr in browser.find_elements(By.CSS_SELECTOR, "#devices tbody tr")]
    assert rows == expected


def side_values(path, metric):
    return {r["path"][1:]: r["value"] for r in printed_tree(run_viewer("-m", metric, path).stdout)}


def test_diff_draws_both_sides(browser, tmp_path):
    new, old = REFDATA / "ref_hook.hatchet", REFDATA / "ref_shadow.hatchet"
    page = tmp_path / "diff.html"
    printed = printed_tree(run_viewer("-m", "time/us", "-diff", old, "--html", page, new).stdout)
    open_page(browser, page, "diff.png")
    state = page_state(browser)
    nodes = state["nodes"]
    # The width is the larger side, each side as printed on its own.
    now, base = side_values(new, "time/us"), side_values(old, "time/us")
    depths = page_depths(nodes)
    paths, weights = [], []
    for i in range(nodes["size"]):
        p = nodes["parent"][i]
        paths.append(() if p < 0 else paths[p] + (nodes["name"][i],))
        weights.append(max(now.get(paths[i], 0), base.get(paths[i], 0)))
    check_drawn_frames(state, printed, weights)
    shown = [i for i in range(nodes["size"]) if depths[i] < state["depth"]]
    assert [nodes["side"][i] for i in shown] == [r["side"] for r in printed]
    assert {1, 2} <= set(r["side"] for r in printed)
    legend = browser.find_element(By.ID, "legend").text
    assert "grew" in legend and "shrank" in legend and f"only in {old}" in legend


def frame_centre(browser, node):
    return browser.execute_script("""
        const f = protonReport.frames.find(f => f.id === arguments[0]);
        return [f.x + f.w / 2, f.y + f.h / 2];""", node)


def click_canvas(browser, x, y):
    canvas = browser.find_element(By.ID, "flame")
    size = canvas.size
    ActionChains(browser).move_to_element_with_offset(
        canvas, x - size["width"] / 2, y - size["height"] / 2).click().perform()


def test_hover_zoom_and_breadcrumb(browser, tmp_path):
    page = tmp_path / "zoom.html"
    run_viewer("-m", "time/us,count", "--html", page, REFDATA / "gpt2_shadow.hatchet")
    open_page(browser, page, "zoom_before.png")
    # The widest child of ROOT.
    target = browser.execute_script("""
        const fs = protonReport.frames.filter(f => f.row === 1);
        return fs.reduce((a, b) => (b.w > a.w ? b : a)).id;""")
    name = browser.execute_script("return protonReport.nameOf(arguments[0])", target)
    x, y = frame_centre(browser, target)
    canvas = browser.find_element(By.ID, "flame")
    ActionChains(browser).move_to_element_with_offset(
        canvas, x - canvas.size["width"] / 2, y - canvas.size["height"] / 2).perform()
    tooltip = browser.find_element(By.ID, "tooltip")
    assert tooltip.is_displayed()
    assert name in tooltip.text and "time/us (inc): " in tooltip.text and "count" in tooltip.text
    click_canvas(browser, x, y)
    state = browser.execute_script(
        "return [protonReport.state.zoom, protonReport.frames[0].id, protonReport.frames[0].w,"
        " protonReport.canvasWidth]")
    assert state[0] == target and state[1] == target
    assert state[2] == pytest.approx(state[3])
    crumbs = browser.find_elements(By.CSS_SELECTOR, "#breadcrumb a, #breadcrumb span[data-node]")
    assert [c.text for c in crumbs] == ["ROOT", name]
    browser.save_screenshot(str(ARTIFACTS / "zoom_after.png"))
    browser.find_element(By.CSS_SELECTOR, "#breadcrumb a").click()
    assert browser.execute_script("return protonReport.state.zoom") == 0


def test_search_highlights_and_reports_share(browser, tmp_path):
    page = tmp_path / "search.html"
    run_viewer("-m", "time/us", "--html", page, REFDATA / "gpt2_shadow.hatchet")
    open_page(browser, page, "search_before.png")
    box = browser.find_element(By.ID, "search")
    box.send_keys("vectorized_(elementwise|gather)")
    share = browser.execute_script("return protonReport.state.share")
    expected = browser.execute_script("""
        const n = protonReport.data.nodes, v = n.values[0], re = /vectorized_(elementwise|gather)/;
        const name = n.name.map(k => n.names[k]);
        let count = 0, covered = 0;
        const under = new Set();
        for (let i = 0; i < n.size; i++) {
          const inside = n.parent[i] >= 0 && under.has(n.parent[i]);
          if (inside) under.add(i);
          if (re.test(name[i])) { count++; if (!inside) { covered += v[i]; under.add(i); } }
        }
        return [count, covered / v[0]];""")
    assert expected[0] > 0
    assert share["count"] == expected[0]
    assert share["fraction"] == pytest.approx(expected[1], rel=1e-9)
    text = browser.find_element(By.ID, "search-result").text
    assert text.startswith(f"{expected[0]} matching frames, {100 * expected[1]:.2f}% of ")
    browser.save_screenshot(str(ARTIFACTS / "search.png"))
    box.send_keys("(")  # "...gather)(" is not a regular expression
    assert "invalid" in browser.find_element(By.ID, "search-result").text


def table_names(browser):
    return browser.execute_script(
        "return protonReport.state.tableRows.map(i => protonReport.nameOf(i))")


def test_table_is_print_sorted_and_sortable(browser, tmp_path):
    page = tmp_path / "table.html"
    printed = run_viewer("-m", "time/us,count", "--print-sorted", "--html", page,
                         REFDATA / "gpt2_shadow.hatchet").stdout
    open_page(browser, page, "table.png")
    sorted_part = printed.split("Sorted kernels by metric ")[1].splitlines()[1:]
    expected = [line[:105].rstrip() for line in sorted_part if line.strip()]
    # --print-sorted cuts names at 100 characters.
    shown = [n if len(n) <= 100 else n[:100] + "..." for n in table_names(browser)]
    assert len(shown) == min(len(expected), 500) and shown == expected[:len(shown)]
    # Sort by count, ascending: the values are in order.
    header = browser.find_element(By.CSS_SELECTOR, "#sorted th[data-column='2']")
    header.click()
    header = browser.find_element(By.CSS_SELECTOR, "#sorted th[data-column='2']")
    header.click()
    counts = [float(td.text) for td in
              browser.find_elements(By.CSS_SELECTOR, "#sorted tbody tr td:nth-child(3)")]
    assert counts == sorted(counts) and counts[0] < counts[-1]
    browser.find_element(By.CSS_SELECTOR, "#sorted th[data-column='0']").click()
    names = table_names(browser)
    assert names == sorted(names)
    # A row shows its frame.
    row = browser.find_elements(By.CSS_SELECTOR, "#sorted tbody tr")[3]
    node = int(row.get_attribute("data-node"))
    row.click()
    state = browser.execute_script("return [protonReport.state.zoom, protonReport.state.selected]")
    assert state[1] == node
    chain = browser.execute_script("""
        const p = protonReport.data.nodes.parent, out = [];
        for (let a = arguments[0]; a >= 0; a = p[a]) out.push(a);
        return out;""", node)
    assert state[0] in chain


def test_names_are_text_never_markup(browser, tmp_path):
    evil = ["</script><script>window.__pwned = 1</script>",
            "<img src=x onerror=\"window.__pwned = 2\">", "a & b \"q\" 'r' <!--"]
    profile = [{"frame": {"name": "ROOT", "type": "function"}, "metrics": {"time (ns)": 0},
                "children": [{"frame": {"name": n, "type": "function"},
                              "metrics": {"time (ns)": 1000 * (k + 1), "count": 1},
                              "children": []} for k, n in enumerate(evil)]}, {}]
    source = tmp_path / "evil.hatchet"
    source.write_text(json.dumps(profile))
    page = tmp_path / "evil.html"
    run_viewer("-m", "time/us", "--html", page, source)
    open_page(browser, page, "escaping.png")
    assert browser.execute_script("return window.__pwned === undefined")
    assert browser.find_elements(By.TAG_NAME, "img") == []
    assert len(browser.find_elements(By.TAG_NAME, "script")) == 2
    cells = [td.get_attribute("textContent") for td in
             browser.find_elements(By.CSS_SELECTOR, "#sorted tbody td:first-child")]
    assert sorted(cells) == sorted(evil)


def test_20000_nodes_open_in_under_2_seconds(browser, tmp_path):
    profile = tmp_path / "20k.hatchet"
    subprocess.run([sys.executable, SOURCE / "bench" / "viewer" / "gen_profile.py",
                    "--nodes", "20000", profile], check=True)
    page = tmp_path / "20k.html"
    run_viewer("-m", "time/us,flops16", "--html", page, profile)
    start = time.monotonic()
    browser.get(page.resolve().as_uri())
    ready = browser.execute_script("return !!(window.protonReport && protonReport.ready)")
    elapsed = time.monotonic() - start
    assert ready
    timing = browser.execute_script("return protonReport.state.readyMs")
    print(f"20,000 nodes: {page.stat().st_size} bytes, ready at {timing:.0f} ms "
          f"(page start), {elapsed:.2f} s round trip")
    assert timing < 2000
    browser.save_screenshot(str(ARTIFACTS / "20k.png"))
    assert len(browser.execute_script("return protonReport.frames")) > 100


def merge_page(browser, tmp_path, mode, screenshot):
    ranks = write_rank_files(tmp_path)
    page = tmp_path / f"merge_{mode}.html"
    printed = run_viewer("-m", "time/us", f"--merge={mode}", "--html", page, *ranks).stdout
    open_page(browser, page, screenshot)
    return ranks, printed


def open_merge_stats(browser, tmp_path):
    """The --merge=stats page of the rank files, checked against the printed statistics:
    the rank files, the printed rows and the page node of each printed name."""
    ranks, stdout = merge_page(browser, tmp_path, "stats", "merge_stats.png")
    printed = printed_merge_tree(stdout)
    state = page_state(browser)
    nodes = state["nodes"]
    assert browser.execute_script("return protonReport.data.mode") == "merge"
    assert browser.execute_script("return document.title") == "proton-viewer: <merge of 4 files>"
    weights = [max(v or 0, 0) for v in nodes["values"][0]]
    drawn = check_drawn_frames(state, printed, weights)  # widths by the printed medians
    assert len(drawn) == len(printed) == 7
    # The spread beside each median is the printed one.
    for i, row in enumerate(printed):
        spread = {k: nodes["spread"][0][k][i] for k in ("min", "mean", "max", "imbalance")}
        assert {k: f"{v:.3f}" for k, v in spread.items()} == \
            {k: f"{row[k]:.3f}" for k in spread}, row
        assert nodes["spread"][0]["argmax"][i] == row["argmax"]
        assert nodes["files"][i] == row["files"]
    by_name = {row["name"]: i for i, row in enumerate(printed)}
    assert printed[by_name["fwd_matmul"]]["imbalance"] == pytest.approx(2.0)
    assert printed[by_name["bwd_allreduce"]]["files"] == RANKS - 1
    return ranks, printed, by_name


def test_merge_stats_draws_the_medians(browser, tmp_path):
    open_merge_stats(browser, tmp_path)


def test_merge_stats_colours_marks_and_hover(browser, tmp_path):
    ranks, printed, by_name = open_merge_stats(browser, tmp_path)
    colour = lambda name: browser.execute_script(
        "return protonReport.colourOf(arguments[0])", by_name[name])
    # The slow rank's frames are hot; an even frame stays neutral.
    assert colour("fwd_matmul") == "rgb(214,39,40)"
    neutral = [int(c) for c in colour("fwd_add")[4:-1].split(",")]
    assert all(abs(c - 238) <= 5 for c in neutral), neutral
    legend = browser.find_element(By.ID, "legend").text
    assert "colour: imbalance (max/mean of time/us (inc))" in legend
    assert "\u2265 2.0" in legend and "in some files only" in legend
    # Frames some files lack are marked in the table (and drawn dashed); the others not.
    cells = {td.get_attribute("textContent") for td in
             browser.find_elements(By.CSS_SELECTOR, "#sorted tbody td:first-child")}
    assert "\u25cc bwd_allreduce" in cells and "fwd_matmul" in cells
    assert sum(c.startswith("\u25cc ") for c in cells) == \
        sum(r["files"] < RANKS for r in printed[1:])
    # Hovering the slow frame names the file holding its max and the files holding it.
    x, y = frame_centre(browser, by_name["fwd_matmul"])
    canvas = browser.find_element(By.ID, "flame")
    ActionChains(browser).move_to_element_with_offset(
        canvas, x - canvas.size["width"] / 2, y - canvas.size["height"] / 2).perform()
    tooltip = browser.find_element(By.ID, "tooltip")
    assert tooltip.is_displayed()
    text = tooltip.text
    assert "fwd_matmul" in text and "imbalance 2.000" in text
    assert f"max in {ranks[SLOW_RANK]}" in text and "in 4 of 4 files" in text
    browser.save_screenshot(str(ARTIFACTS / "merge_hover.png"))
    hover = browser.execute_script("return protonReport.tooltipOf(arguments[0])",
                                   by_name["bwd_allreduce"])
    assert f"in {RANKS - 1} of {RANKS} files" in hover


def test_merge_stats_table_sorts_by_statistics(browser, tmp_path):
    ranks, printed, by_name = open_merge_stats(browser, tmp_path)
    headers = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#sorted th")]
    assert headers[:2] == ["name", "time/us (inc):median \u25bc"]
    assert headers[2:] == ["time/us (inc):" + s for s in
                           ("min", "mean", "max", "imbalance", "argmax")] + ["files"]
    browser.find_element(By.CSS_SELECTOR, "#sorted th[data-column='5']").click()
    rows = [[td.get_attribute("textContent") for td in tr.find_elements(By.TAG_NAME, "td")]
            for tr in browser.find_elements(By.CSS_SELECTOR, "#sorted tbody tr")]
    imbalances = [float(r[5]) for r in rows]
    assert imbalances == sorted(imbalances, reverse=True) and imbalances[0] > imbalances[-1]
    expected = {r["name"]: f"{r['imbalance']:.3f}" for r in printed[1:]}
    assert {r[0].removeprefix("\u25cc "): r[5] for r in rows} == expected
    # argmax is shown as the file's name.
    assert rows[0][6] == str(ranks[SLOW_RANK])
    browser.find_element(By.CSS_SELECTOR, "#sorted th[data-column='7']").click()
    files = [int(tr.find_elements(By.TAG_NAME, "td")[7].get_attribute("textContent"))
             for tr in browser.find_elements(By.CSS_SELECTOR, "#sorted tbody tr")]
    assert files == sorted(files, reverse=True) and files[-1] == RANKS - 1


def test_merge_stats_devices_name_their_files(browser, tmp_path):
    ranks, _, _ = open_merge_stats(browser, tmp_path)
    rows = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
            for tr in browser.find_elements(By.CSS_SELECTOR, "#devices tbody tr")]
    assert [r[:3] for r in rows] == [[str(p), "CUDA", str(k)] for k, p in enumerate(ranks)]
    command = browser.find_element(By.ID, "command").text
    assert command.startswith("proton-viewer -m time/us --merge=stats --html ")


def test_merge_sum_is_a_single_page(browser, tmp_path):
    ranks, stdout = merge_page(browser, tmp_path, "sum", "merge_sum.png")
    state = page_state(browser)
    data = browser.execute_script("return [protonReport.data.mode, protonReport.data.profiles]")
    assert data == ["single", [str(p) for p in ranks]]
    assert browser.execute_script("return document.title") == "proton-viewer: <merge of 4 files>"
    weights = [max(v or 0, 0) for v in state["nodes"]["values"][0]]
    drawn = check_drawn_frames(state, printed_tree(stdout), weights)
    assert len(drawn) == 7


def test_merge_stats_with_two_columns_colours_by_the_second(browser, tmp_path):
    ranks = write_rank_files(tmp_path)
    page = tmp_path / "merge_two.html"
    stdout = run_viewer("-m", "time/us,count", "--merge", "--html", page, *ranks).stdout
    open_page(browser, page, "merge_two_columns.png")
    legend = browser.find_element(By.ID, "legend").text
    assert "width: time/us (inc):median; colour: count (inc):median" in legend
    assert "imbalance" not in legend and "in some files only" in legend
    headers = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#sorted th")]
    stats = ("median", "min", "mean", "max", "imbalance", "argmax")
    assert [h.removesuffix(" \u25bc") for h in headers] == \
        ["name"] + [f"{label}:{s}" for label in ("time/us (inc)", "count (inc)")
                    for s in stats] + ["files"]
    # The widths are still the first column's printed medians.
    state = page_state(browser)
    first = printed_tree(stdout)
    assert [f"{v:.3f}" for v in state["nodes"]["values"][0]] == \
        [f"{r['value']:.3f}" for r in first]


def test_stragglers_section_shows_the_slow_rank(browser, tmp_path):
    """--merge --stragglers --html (viewer.md §11.15): the grid has a cell per rank and step,
    the known slow rank (rank 2, steps 1-3 of 4) is outlined as each of those steps' slowest
    and named as the one persistent straggler; pages without the option hide the section."""
    sys.path.insert(0, str(SOURCE / "tests" / "viewer_reports"))
    import synth
    parts = []
    for rank in range(4):
        for step in range(4):
            slow = 2.0 if rank == 2 and step >= 1 else 1.0
            parts.append(synth.write_part(tmp_path, f"run.rank{rank}", step,
                                          {"s/matmul": 1e6 * slow * (1 + 0.01 * rank),
                                           "s/add": 5e5}))
    page = tmp_path / "stragglers.html"
    run_viewer("-m", "time/ms", "--merge", "--stragglers", "--html", page, *parts)
    open_page(browser, page, "stragglers.png")
    grid = browser.execute_script("""
        const rows = [...document.querySelectorAll('#stragglers-heat tbody tr')];
        return {hidden: document.getElementById('stragglers-section').hidden,
                ranks: rows.map(r => r.querySelector('th').textContent),
                cells: rows.map(r => r.querySelectorAll('td').length),
                outlined: rows.map(r => [...r.querySelectorAll('td')].map(
                    (td, i) => td.classList.contains('slowest') ? i : -1).filter(i => i >= 0)),
                persistent: document.getElementById('stragglers-persistent').textContent,
                steps: document.querySelectorAll('#stragglers-steps tbody tr').length};""")
    assert grid["hidden"] is False
    assert grid["ranks"] == ["rank0", "rank1", "rank2", "rank3"]
    assert grid["cells"] == [5] * 4  # four steps and the "slow steps" count
    assert grid["outlined"][2] == [1, 2, 3]
    assert grid["outlined"][3] == [0]  # step 0: rank3 (the 1% spread) is the slowest
    assert grid["persistent"].startswith(
        "Persistent stragglers (slow in more than half of their steps): rank2 (slow in 3 of 4")
    assert grid["steps"] == 4
    plain = tmp_path / "plain.html"
    run_viewer("-m", "time/ms", "--merge", "--html", plain, *parts)
    open_page(browser, plain, "merge_without_stragglers.png")
    assert browser.execute_script("return document.getElementById('stragglers-section').hidden")
