"""A small Perfetto trace decoder for the tests (formats.md §7, §8), written from the protobuf
wire format alone so that it shares nothing with the C++ reader and writer it checks.
Standard library only."""


def varint(data, i):
    value = shift = 0
    while True:
        b = data[i]
        i += 1
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value, i
        shift += 7


def fields(data):
    """[(number, value)]: ints for varints and fixed64, bytes for length-delimited."""
    out, i = [], 0
    while i < len(data):
        key, i = varint(data, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = varint(data, i)
        elif wire == 1:
            value, i = int.from_bytes(data[i:i + 8], "little"), i + 8
        elif wire == 2:
            n, i = varint(data, i)
            value, i = data[i:i + n], i + n
        elif wire == 5:
            value, i = int.from_bytes(data[i:i + 4], "little"), i + 4
        else:
            raise ValueError("wire type %d" % wire)
        out.append((number, value))
    return out


def first(fs, number, default=None):
    for n, v in fs:
        if n == number:
            return v
    return default


def decode(data):
    """The trace as dicts: processes {uuid: {name, pid, cmdline}}, lanes {uuid: {name, parent}},
    and events [{ts, type, track, name, category, annotations, flows_out, flows_in}] with
    interned names resolved per packet sequence."""
    processes, lanes, events, interned = {}, {}, [], {}
    for number, packet in fields(data):
        assert number == 1, "a record that is not a packet"
        p = fields(packet)
        seq = first(p, 10, 0)
        if first(p, 13, 0) & 1:
            interned[seq] = {1: {}, 2: {}, 3: {}, 29: {}}
        table = interned.setdefault(seq, {1: {}, 2: {}, 3: {}, 29: {}})
        for n, v in p:
            if n == 12:
                for kind, entry in fields(v):
                    e = fields(entry)
                    table[kind][first(e, 1)] = first(e, 2, b"").decode()
            elif n == 60:
                t = fields(v)
                uuid, proc = first(t, 1), first(t, 3)
                if proc is not None:
                    d = fields(proc)
                    processes[uuid] = {"name": first(d, 6, b"").decode(), "pid": first(d, 1),
                                       "cmdline": first(d, 2, b"").decode(), "seq": seq}
                else:
                    lanes[uuid] = {"name": first(t, 2, b"").decode(), "parent": first(t, 5)}
        event = first(p, 11)
        if event is None:
            continue
        e = fields(event)
        annotations = {}
        for n, v in e:
            if n == 4:
                a = dict(fields(v))
                name = table[3][a[1]]
                annotations[name] = table[29][a[17]] if 17 in a else a.get(4, a.get(3))
        events.append({
            "ts": first(p, 8), "seq": seq, "type": first(e, 9), "track": first(e, 11),
            "name": table[2].get(first(e, 10)) if first(e, 10) else None,
            "category": table[1].get(first(e, 3)) if first(e, 3) else None,
            "annotations": annotations,
            "flows_out": [v for n, v in e if n == 36],
            "flows_in": [v for n, v in e if n == 42],
        })
    return {"processes": processes, "lanes": lanes, "events": events}


def slices(trace):
    """Completed slices and instants: dicts with start, end, and the begin event's fields;
    asserts that on every track timestamps never go back and ends match begins."""
    open_by_track, last, out = {}, {}, []
    for e in trace["events"]:
        track = e["track"]
        assert e["ts"] >= last.get(track, 0), "a timestamp goes back on track %d" % track
        last[track] = e["ts"]
        if e["type"] == 1:
            open_by_track.setdefault(track, []).append(e)
        elif e["type"] == 2:
            begin = open_by_track[track].pop()
            out.append(dict(begin, start=begin["ts"], end=e["ts"]))
        else:
            out.append(dict(e, start=e["ts"], end=e["ts"]))
    assert all(not s for s in open_by_track.values()), "a slice never ends"
    return out


def process_of(trace, track):
    return trace["processes"][trace["lanes"][track]["parent"]]["name"]
