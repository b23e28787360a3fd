"""A phase manager as vLLM's Proton backend drives proton's phases (profiler.md §1.7, §3.11),
re-created from its public behaviour: one session per profiling run, and per session a manager
that rotates phases, exports each sealed phase once it is complete (data.get or get_msgpack to
a temporary file, os.replace, data.clear), drains at the end; optionally a background exporter
thread. Shared by the CPU tests (test_vllm_phase_manager.py) and the GPU proof
(tests/gpu/workloads/phases.py). Standard library and proton only."""

import json
import os
import tempfile
import threading
import time
import uuid

import proton


def wait_for(predicate, what, timeout=20.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.002)


def start_run(directory, worker, run, backend="fake", mode=None):
    """vLLM's start: one session per run, named after worker, pid, a uuid and the run."""
    name = os.path.join(str(directory),
                        f"proton_{worker}_{os.getpid()}_{uuid.uuid4().hex[:8]}_run{run}")
    session = proton.start(name=name, context="shadow", data="tree", backend=backend,
                           mode=mode, hook=None)
    if session is None:
        raise RuntimeError("proton.start returned None: profiling is disabled")
    return session, name


class PhaseManager:
    """One per session: rotates phases and exports each sealed phase once it is complete."""

    def __init__(self, session, name, fmt):
        self.session = session
        self.name = name
        self.fmt = fmt  # "json" or "msgpack"
        self._lock = threading.Lock()
        self._sealed = []        # sealed phases not yet taken for export, oldest first
        self.exported = {}       # phase -> name of the thread that exported it

    def rotate(self):
        phase = proton.data.advance_phase(self.session)
        with self._lock:
            self._sealed.append(phase - 1)
        return phase

    def export(self):
        self.rotate()
        proton.deactivate(session=self.session, flushing=True)

    def _take(self, only_complete):
        with self._lock:
            if not self._sealed:
                return None
            phase = self._sealed[0]
            if only_complete and not proton.data.is_phase_complete(self.session, phase):
                return None
            return self._sealed.pop(0)

    def _write(self, phase):
        if self.fmt == "json":
            payload, suffix = json.dumps(proton.data.get(self.session, phase)).encode(), "json"
        else:
            payload, suffix = proton.data.get_msgpack(self.session, phase), "msgpack"
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(self.name), prefix=".phase_", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
        os.replace(tmp, f"{self.name}.phase_{phase}.{suffix}")
        proton.data.clear(self.session, phase)
        with self._lock:
            self.exported[phase] = threading.current_thread().name

    def poll(self, timeout=20.0):
        """Synchronous: waits for each sealed phase to complete, then exports it."""
        while True:
            phase = self._take(only_complete=False)
            if phase is None:
                return
            wait_for(lambda: proton.data.is_phase_complete(self.session, phase),
                     f"phase {phase} to complete", timeout)
            self._write(phase)

    def poll_ready(self):
        """Non-blocking (the exporter thread): exports the oldest sealed phase if complete."""
        phase = self._take(only_complete=True)
        if phase is None:
            return False
        self._write(phase)
        return True

    def drain(self):
        proton.activate(session=self.session)
        self.export()
        self.poll()

    def close(self):
        with self._lock:
            assert not self._sealed, self._sealed


class Exporter(threading.Thread):
    def __init__(self, manager):
        super().__init__(name="exporter", daemon=True)
        self.manager = manager
        self.stop = threading.Event()
        self.error = None

    def run(self):
        try:
            while not self.stop.is_set():
                if not self.manager.poll_ready():
                    self.stop.wait(0.002)
        except BaseException as e:  # reported by the main thread
            self.error = e
