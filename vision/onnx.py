"""Loading this project's ONNX networks for onnxruntime on the CPU."""

from __future__ import annotations

from pathlib import Path

import onnxruntime as ort


def session(path: Path, threads: int) -> ort.InferenceSession:
    """An inference session for the network at `path`; `FileNotFoundError` naming it if it is missing."""
    if not path.is_file():
        raise FileNotFoundError(f"dice model not found: {path}")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.log_severity_level = 3
    # Within a run, workers spin between a network's layers instead of sleeping and waking
    # for each (a photo about 10% faster on 2 cores, models/HISTORY.md C311); they stop as the run
    # returns. Two sessions take turns on a few cores: threads left spinning by one after its
    # run would starve the next (it made reading the crops 3-5x slower on 2 cores).
    opts.add_session_config_entry("session.intra_op.allow_spinning", "1")
    opts.add_session_config_entry("session.force_spinning_stop", "1")
    return ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])


def metadata(session: ort.InferenceSession, key: str, default: float) -> float:
    """A number the exporter stored in the file (input size, stride, thresholds), else `default`."""
    return float(session.get_modelmeta().custom_metadata_map.get(key, default))
