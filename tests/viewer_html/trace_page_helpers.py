"""A small Chrome trace whose report is known, for the --trace-report --html tests: GPU 0
Stream 7 runs A at 100 us, then <b>&B at 5110 us (a 5 ms gap, the largest), then C; Stream 8
runs 200 kernels of 1 us back to back (merged into one rectangle); Stream 9 runs one gemm."""
import json

STREAMS = ["GPU 0 Stream 7", "GPU 0 Stream 8", "GPU 0 Stream 9"]
GAP_AT_NS = 10_000          # A ends 10 us after the trace's first kernel starts
GAP_LENGTH_NS = 5_000_000


def write_trace(path):
    events = [{"name": "thread_name", "ph": "M", "pid": 0, "tid": tid + 1,
               "args": {"name": name}} for tid, name in enumerate(STREAMS)]

    def kernel(name, tid, ts, dur):
        events.append({"cat": "kernel", "name": name, "ph": "X", "pid": 0, "tid": tid,
                       "ts": ts, "dur": dur})

    kernel("A", 1, 100, 10)
    kernel("<b>&B", 1, 5110, 10)
    kernel("C", 1, 5130, 10)
    for i in range(200):
        kernel("tiny", 2, 200 + i, 1)
    kernel("gemm", 3, 150, 100)
    path.write_text(json.dumps({"traceEvents": events}))
    return path
