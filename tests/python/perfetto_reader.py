"""A small reader of our .perfetto_trace files (formats.md §7) for the Python and launcher
tests: the protobuf wire format decoded by hand (the tests need no protobuf package), the
packets turned into tracks and events with every interned name resolved. It raises
ValueError on what the layout forbids: a packet off sequence 1, an iid used before it was
interned, an event without SEQ_NEEDS_INCREMENTAL_STATE or on an undeclared track."""

import struct

# Field numbers: Perfetto's (src/util/perfetto_fields.h names the same ones).
TRACE_PACKET = 1
CLOCK_SNAPSHOT, TIMESTAMP, SEQUENCE_ID, TRACK_EVENT = 6, 8, 10, 11
INTERNED_DATA, SEQUENCE_FLAGS, DEFAULTS, TRACK_DESCRIPTOR = 12, 13, 59, 60
SLICE_BEGIN, SLICE_END, INSTANT = 1, 2, 3


def fields(buf):
    """(number, value) of each field of one message: int for varints and fixed64 (raw
    bits), bytes for length-delimited fields."""
    i = 0
    while i < len(buf):
        key, i = _varint(buf, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _varint(buf, i)
        elif wire == 1:
            value, i = struct.unpack_from("<Q", buf, i)[0], i + 8
        elif wire == 2:
            size, i = _varint(buf, i)
            if i + size > len(buf):
                raise ValueError("truncated field")
            value, i = bytes(buf[i:i + size]), i + size
        else:
            raise ValueError("unexpected wire type %d" % wire)
        yield number, value


def _varint(buf, i):
    value, shift = 0, 0
    while True:
        if i >= len(buf) or shift > 63:
            raise ValueError("bad varint")
        b = buf[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, i


def _entries(data, index):
    iid, name = None, None
    for number, value in fields(data):
        if number == 1:
            iid = value
        elif number == 2:
            name = value.decode("utf-8", "surrogateescape")
    index[iid] = name


def _resolve(index, iid, what):
    if iid not in index:
        raise ValueError("%s iid %d used before it was interned" % (what, iid))
    return index[iid]


class _Reader:
    def __init__(self):
        self.trace = {"clocks": {}, "primary_clock": None, "default_clock": None,
                      "tracks": {}, "events": []}
        self.cleared = False
        self.index = {1: {}, 2: {}, 3: {}, 29: {}}  # InternedData field -> {iid: string}

    def packet(self, data):
        parts = dict(fields(data))  # our packets never repeat a field
        if parts.get(SEQUENCE_ID) != 1:
            raise ValueError("packet not on sequence 1")
        flags = parts.get(SEQUENCE_FLAGS, 0)
        if flags & 1:
            self.cleared = True
            self.index = {1: {}, 2: {}, 3: {}, 29: {}}
        if flags & 2 and not self.cleared:
            raise ValueError("incremental state needed before it was cleared")
        if CLOCK_SNAPSHOT in parts:
            self.clock_snapshot(parts[CLOCK_SNAPSHOT])
        if DEFAULTS in parts:
            self.trace["default_clock"] = dict(fields(parts[DEFAULTS])).get(58)
        if INTERNED_DATA in parts:
            for number, value in fields(parts[INTERNED_DATA]):
                _entries(value, self.index[number])
        if TRACK_DESCRIPTOR in parts:
            self.track(parts[TRACK_DESCRIPTOR])
        if TRACK_EVENT in parts:
            if TIMESTAMP not in parts or not flags & 2:
                raise ValueError("event without a timestamp or SEQ_NEEDS_INCREMENTAL_STATE")
            self.event(parts[TRACK_EVENT], parts[TIMESTAMP])

    def clock_snapshot(self, data):
        for number, value in fields(data):
            if number == 1:
                clock = dict(fields(value))
                self.trace["clocks"][clock[1]] = clock[2]
            elif number == 2:
                self.trace["primary_clock"] = value

    def track(self, data):
        t = {"parent": 0, "pid": None, "rank": None}
        for number, value in fields(data):
            if number == 1:
                t["uuid"] = value
            elif number == 2:
                t["name"] = value.decode()
            elif number == 3:
                t["pid"] = dict(fields(value)).get(1)
            elif number == 5:
                t["parent"] = value
            elif number == 12:
                t["rank"] = value
        self.trace["tracks"][t["uuid"]] = t

    def annotation(self, data):
        name, value = None, None
        for number, v in fields(data):
            if number == 1:
                name = _resolve(self.index[3], v, "annotation name")
            elif number in (3, 4):
                value = v if number == 3 or v < 1 << 63 else v - (1 << 64)
            elif number == 5:
                value = struct.unpack("<d", struct.pack("<Q", v))[0]
            elif number == 17:
                value = _resolve(self.index[29], v, "string value")
            elif number == 12:
                value = (value or []) + [self.annotation(v)[1]]
        return name, value

    def event(self, data, ts):
        e = {"ts": ts, "categories": [], "annotations": {}, "flow_ids": [],
             "terminating_flow_ids": [], "name": None}
        for number, value in fields(data):
            if number == 9:
                e["type"] = value
            elif number == 11:
                e["track_uuid"] = value
            elif number == 10:
                e["name"] = _resolve(self.index[2], value, "event name")
            elif number == 3:
                e["categories"].append(_resolve(self.index[1], value, "category"))
            elif number == 4:
                name, v = self.annotation(value)
                e["annotations"][name] = v
            elif number == 36:
                e["flow_ids"].append(value)
            elif number == 42:
                e["terminating_flow_ids"].append(value)
        if e.get("track_uuid") not in self.trace["tracks"]:
            raise ValueError("event on an undeclared track")
        e["track"] = self.trace["tracks"][e["track_uuid"]]["name"]
        self.trace["events"].append(e)


def read_trace(data):
    """The trace in `data` (bytes): {"clocks": {clock id: ns}, "primary_clock",
    "default_clock", "tracks": {uuid: {...}}, "events": [{"track": name, "type", "ts",
    "name", "categories", "annotations": {name: value}, "flow_ids",
    "terminating_flow_ids"}, ...] in file order}."""
    reader = _Reader()
    first = True
    for number, value in fields(data):
        if number != TRACE_PACKET or not isinstance(value, bytes):
            raise ValueError("not a Trace.packet")
        if first and CLOCK_SNAPSHOT not in dict(fields(value)):
            raise ValueError("the first packet is not the clock snapshot")
        first = False
        reader.packet(value)
    return reader.trace


def call_stack(event):
    """A kernel event's whole call stack as .chrome_trace writes it: "ROOT", its
    call_stack_<i> annotations in order, then its name (formats.md §7.5)."""
    frames = ["ROOT"]
    while "call_stack_%d" % (len(frames) - 1) in event["annotations"]:
        frames.append(event["annotations"]["call_stack_%d" % (len(frames) - 1)])
    return frames + [event["name"]]


def check_tracks(trace):
    """Raises ValueError unless every track's time never goes back, its slices begin and end
    on it in LIFO order, and every flow has both ends (formats.md §7.4)."""
    last, open_slices = {}, {}
    starts, ends = [], []
    for e in trace["events"]:
        track = e["track_uuid"]
        if e["ts"] < last.get(track, 0):
            raise ValueError("time goes back on %s" % e["track"])
        last[track] = e["ts"]
        if e["type"] == SLICE_BEGIN:
            open_slices.setdefault(track, []).append(e)
        elif e["type"] == SLICE_END:
            if not open_slices.get(track):
                raise ValueError("an end without a begin on %s" % e["track"])
            open_slices[track].pop()
        starts += e["flow_ids"]
        ends += e["terminating_flow_ids"]
    if any(open_slices.values()):
        raise ValueError("a slice never ends")
    if sorted(starts) != sorted(ends) or len(set(starts)) != len(starts):
        raise ValueError("a flow lacks one end")
