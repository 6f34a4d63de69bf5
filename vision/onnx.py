"""Loading this project's ONNX networks for onnxruntime on the CPU."""

from __future__ import annotations

import hashlib
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
    # Two sessions take turns on a few cores: threads left spinning by one after its run
    # would starve the other (it made reading the crops 3-5x slower on 2 cores). Spinning
    # only within a run reads a lone photo 10% faster, but beside another read, process or
    # busy program 1.3-1.7x slower (C311, withdrawn: models/HISTORY.md).
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])


def metadata(session: ort.InferenceSession, key: str, default: float) -> float:
    """A number the exporter stored in the file (input size, stride, thresholds), else `default`."""
    return float(session.get_modelmeta().custom_metadata_map.get(key, default))


def text_metadata(session: ort.InferenceSession, key: str) -> str | None:
    """A text the exporter stored in the file, else None."""
    return session.get_modelmeta().custom_metadata_map.get(key)


def twin_path(path: Path) -> Path:
    """Where a search network's twin lies (its 2x enlargement folded into its first layer,
    `training.learn.fold`): `search.onnx` -> `search_x2.onnx`."""
    return path.with_name(f"{path.stem}_x2{path.suffix}")


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes: a twin records its network's, and is used only beside it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()
