"""Loading this project's ONNX networks for onnxruntime on the CPU."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import onnxruntime as ort


class Runs(Protocol):
    """What the reader's parts ask of a network: to run it, and the numbers in its file."""

    def run(self, outputs: Sequence[str] | None, feeds: Mapping[str, np.ndarray]) -> Any: ...

    def get_modelmeta(self) -> Any: ...


class _Traffic:
    """How many pieces of network work this process has in flight: reads (`busy`), and
    runs made outside any read."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._busy = 0
        self._local = threading.local()
        #: Whether other processes that read photos share this one's cores (`share_cores`).
        self.shared = False

    @contextmanager
    def busy(self) -> Iterator[None]:
        """Count this thread's work while it lasts (once, however deeply nested)."""
        outer = not getattr(self._local, "depth", 0)
        self._local.depth = getattr(self._local, "depth", 0) + 1
        if outer:
            with self._lock:
                self._busy += 1
        try:
            yield
        finally:
            self._local.depth -= 1
            if outer:
                with self._lock:
                    self._busy -= 1

    def alone(self) -> bool:
        """Whether no other thread has work in flight (the caller's own counted), in a
        process whose cores are its own."""
        return not self.shared and self._busy <= 1


_TRAFFIC = _Traffic()


def share_cores(shared: bool = True) -> None:
    """Say that other processes reading photos share this process's cores (a server's
    worker processes): its networks' workers then never spin, since what one process
    cannot see, another's read, would wait for them (two processes reading at once took
    65% longer spinning, models/HISTORY.md C311)."""
    _TRAFFIC.shared = shared


def busy() -> AbstractContextManager[None]:
    """Mark a read of several networks as one piece of work: its runs spin only where no
    other thread's read is in flight, even between its own runs (`Network`)."""
    return _TRAFFIC.busy()


class Network:
    """One ONNX network, run by one of two sessions: where no other thread's work is in
    flight (`busy`) its workers spin between the network's layers instead of sleeping and
    waking for each (a photo about 10% faster on 2 cores, models/HISTORY.md C311); beside
    another read (a server reading two photos, or a live camera's frames beside a photo)
    they sleep, as spinning threads would take the cores the other read needs (two reads
    at once a third slower, C311)."""

    def __init__(self, path: Path, threads: int) -> None:
        self.alone = _session(path, threads, spin=True)
        self.beside = _session(path, threads, spin=False)

    def run(self, outputs: Sequence[str] | None, feeds: Mapping[str, np.ndarray]) -> list[np.ndarray]:
        with _TRAFFIC.busy():
            return (self.alone if _TRAFFIC.alone() else self.beside).run(outputs, feeds)

    def get_inputs(self) -> list[Any]:
        return self.alone.get_inputs()

    def get_outputs(self) -> list[Any]:
        return self.alone.get_outputs()

    def get_modelmeta(self) -> Any:
        return self.alone.get_modelmeta()


def session(path: Path, threads: int) -> Network:
    """The network at `path` run with `threads` threads; `FileNotFoundError` naming it if it is missing."""
    if not path.is_file():
        raise FileNotFoundError(f"dice model not found: {path}")
    return Network(path, threads)


def _session(path: Path, threads: int, *, spin: bool) -> ort.InferenceSession:
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.log_severity_level = 3
    # Spinning stops as each run returns: the reader's networks take turns on a few cores,
    # and threads left spinning by one would starve the next (reading the crops 3-5x slower).
    opts.add_session_config_entry("session.intra_op.allow_spinning", "1" if spin else "0")
    opts.add_session_config_entry("session.force_spinning_stop", "1")
    return ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])


def metadata(session: Runs, key: str, default: float) -> float:
    """A number the exporter stored in the file (input size, stride, thresholds), else `default`."""
    return float(session.get_modelmeta().custom_metadata_map.get(key, default))
