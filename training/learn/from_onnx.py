"""A trainable checkpoint from a shipped ONNX file, to fine-tune the shipped networks on a
machine that lacks the recipe's runs/ folder:

    python -m dicecam.training.learn.from_onnx models/reader.onnx runs/shipped/reader.pt [--upright]
    python -m dicecam.training.learn.from_onnx models/detector.onnx runs/shipped/detector.pt [--upright]
    python -m dicecam.training.learn.train reader --init runs/shipped/reader.pt ...

The export folds each batch norm into the convolution before it (`W * g / s`, bias
`b - m * g / s`), which loses the norm's own scale and statistics. They are measured
again here: training batches run through the folded network, and each convolution gets
back a norm whose running mean and variance are what its output really is on them, with
the convolution rescaled to unit output variance (a scale that Adam's step size and the
weight decay treat like the fresh networks'). The network in eval mode computes what the
file computes (checked against onnxruntime); in train mode the batch statistics start
near the running ones, so a fine-tune starts where the shipped network is.
"""

from __future__ import annotations

import argparse
import copy
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import torch
from torch import nn


class RestoreError(ValueError):
    """The ONNX file is not one of this project's networks, or does not match it."""


def _module_path(node_name: str) -> str:
    # The TorchScript exporter names a node by its module scopes, each scope by its own
    # qualified name: "/stem/stem.1/dw/dw.0/Conv" is module "stem.1.dw.0".
    scopes = node_name.strip("/").split("/")[:-1]
    return ".".join(scope.rsplit(".", 1)[-1] for scope in scopes)


def _blank_network(onnx_model) -> nn.Module:
    from dicecam.training.learn.nets import DiceDetector, FaceReader, head_grid

    meta = {entry.key: entry.value for entry in onnx_model.metadata_props}
    if "crop_size" in meta:
        ops = {node.op_type for node in onnx_model.graph.node}
        # The head is the one 2-D weight (7 x features).
        head = next(t for t in onnx_model.graph.initializer if len(t.dims) == 2)
        # The widest convolution is the last, 128 channels a `wide`.
        wide = max(t.dims[0] for t in onnx_model.graph.initializer if len(t.dims) == 4) // 128
        return FaceReader(contrast="ReduceMean" in ops, grid=head_grid(max(head.dims), wide=wide), wide=wide)
    if "input_side" in meta:
        return DiceDetector(deep=_deep_in(onnx_model))
    raise RestoreError("the file is neither a dicecam detector nor a reader (no crop_size or input_side metadata)")


def crop_size_of(path: Path) -> int:
    """The side of the crops a reader file reads (its `crop_size` metadata)."""
    import onnx

    meta = {entry.key: entry.value for entry in onnx.load(str(path)).metadata_props}
    return int(float(meta["crop_size"]))


def _deep_in(onnx_model) -> int:
    """How many times a detector file's stride-8 and coarser layers are widened (`DiceDetector(deep=)`)."""
    from dicecam.training.learn.nets import DEEP_PROBE, STRIDE8_CHANNELS

    shapes = {init.name: init.dims for init in onnx_model.graph.initializer}
    probe = DEEP_PROBE.rsplit(".", 1)[0]  # the convolution's module path
    for node in onnx_model.graph.node:
        if node.op_type == "Conv" and _module_path(node.name) == probe and node.input[1] in shapes:
            return int(shapes[node.input[1]][0]) // STRIDE8_CHANNELS
    return 1


def _neighbour(path: str, step: int) -> str:
    """The layer `step` places along in the same `conv_bn` block: "stem.0.0" -> "stem.0.1"."""
    parent, _, index = path.rpartition(".")
    return f"{parent}.{int(index) + step}"


def _norm_after(network: nn.Module, conv_path: str) -> nn.BatchNorm2d | None:
    """The batch norm that the export folded into this convolution (conv_bn's second layer)."""
    if not conv_path.rpartition(".")[2].isdigit():
        return None
    try:
        follower = network.get_submodule(_neighbour(conv_path, 1))
    except AttributeError:
        return None
    return follower if isinstance(follower, nn.BatchNorm2d) else None


def _statistics(norm: nn.BatchNorm2d) -> tuple[torch.Tensor, torch.Tensor]:
    """A norm's running mean and variance: every norm of this project's networks tracks them."""
    if norm.running_mean is None or norm.running_var is None:
        raise RestoreError("the network has a batch norm without running statistics")
    return norm.running_mean, norm.running_var


def load_folded(path: Path, *, network: nn.Module | None = None) -> nn.Module:
    """The network in `path` with identity batch norms: eval output equals the file's.
    `network`: the blank network to fill (default: the detector or reader the file's
    metadata names; a search network's file is stamped as a detector's)."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    weights = {init.name: torch.from_numpy(numpy_helper.to_array(init).copy()) for init in model.graph.initializer}
    for node in model.graph.node:
        # The exporter shares equal folded tensors (a fresh network's zero biases) through Identity nodes.
        if node.op_type == "Identity" and node.input[0] in weights:
            weights[node.output[0]] = weights[node.input[0]]
    network = network if network is not None else _blank_network(model)
    filled: set[str] = set()
    for node in model.graph.node:
        if node.op_type not in ("Conv", "Gemm"):
            continue
        module_path = _module_path(node.name)
        try:
            layer = network.get_submodule(module_path)
        except AttributeError as err:
            raise RestoreError(f"the file's layer {module_path!r} is not in this project's network") from err
        if not isinstance(layer, (nn.Conv2d, nn.Linear)):
            raise RestoreError(f"the file's layer {module_path!r} is a {type(layer).__name__} "
                               "in this project's network")
        if len(node.input) < 3:
            raise RestoreError(f"layer {module_path!r} has no bias: the file was not exported by training.learn.export")
        weight, bias = (weights[name] for name in node.input[1:3])
        if node.op_type == "Gemm" and not any(a.name == "transB" and a.i == 1 for a in node.attribute):
            weight = weight.T
        if tuple(weight.shape) != tuple(layer.weight.shape):
            raise RestoreError(f"layer {module_path!r}: the file has {tuple(weight.shape)}, "
                               f"the network {tuple(layer.weight.shape)}")
        with torch.no_grad():
            layer.weight.copy_(weight)
            norm = _norm_after(network, module_path)
            if norm is None:
                if layer.bias is None:
                    raise RestoreError(f"layer {module_path!r} has no bias in this project's network")
                layer.bias.copy_(bias)
            else:
                # Identity norm carrying the folded bias: (x - 0) / sqrt(1 - eps + eps) * 1 + b.
                running_mean, running_var = _statistics(norm)
                running_mean.zero_()
                running_var.fill_(1.0 - norm.eps)
                norm.weight.fill_(1.0)
                norm.bias.copy_(bias)
                filled.add(_neighbour(module_path, 1))
        filled.add(module_path)
    missing = [name for name, module in network.named_modules()
               if isinstance(module, (nn.Conv2d, nn.Linear, nn.BatchNorm2d)) and name not in filled]
    if missing:
        raise RestoreError(f"the file holds no weights for {', '.join(missing)}")
    return network.eval()


def recalibrate(network: nn.Module, batches: Iterable[torch.Tensor]) -> nn.Module:
    """Give each batch norm of a `load_folded` network the statistics of its input on `batches`.

    Eval output is unchanged (up to rounding); each convolution is rescaled so that its
    output has unit variance on the batches, and its norm scales it back.
    """
    norms = {name: m for name, m in network.named_modules() if isinstance(m, nn.BatchNorm2d)}
    sums = {name: torch.zeros(m.num_features, dtype=torch.float64) for name, m in norms.items()}
    squares = {name: torch.zeros_like(s) for name, s in sums.items()}
    counts = dict.fromkeys(norms, 0)

    def hook(name: str):
        def record(_module, inputs, _output) -> None:
            x = inputs[0].detach().double().transpose(0, 1).reshape(inputs[0].shape[1], -1)
            sums[name] += x.sum(dim=1)
            squares[name] += (x * x).sum(dim=1)
            counts[name] += x.shape[1]
        return record

    handles = [m.register_forward_hook(hook(name)) for name, m in norms.items()]
    network.eval()
    with torch.no_grad():
        for x in batches:
            network(x)
    for handle in handles:
        handle.remove()
    if not all(counts.values()):
        raise RestoreError("no calibration batches: the norms' statistics cannot be measured")
    with torch.no_grad():
        for name, norm in norms.items():
            # The identity norm holds the folded bias; its input is the convolution's output.
            conv = network.get_submodule(_neighbour(name, -1))
            if not isinstance(conv, nn.Conv2d):
                raise RestoreError(f"the batch norm {name!r} follows no convolution")
            mean = sums[name] / counts[name]
            var = (squares[name] / counts[name] - mean * mean).clamp_min(0.0)
            scale = torch.sqrt(var + norm.eps)  # unit output variance after the rescale
            folded_bias = norm.bias.double().clone()
            conv.weight.div_(scale.view(-1, 1, 1, 1).to(conv.weight.dtype))
            running_mean, running_var = _statistics(norm)
            running_mean.copy_(mean / scale)
            running_var.copy_(var / scale**2)
            # y = w * (x/scale - mean/scale) / sqrt(var/scale^2 + eps) + b  ==  x + folded_bias
            norm.weight.copy_(torch.sqrt(var / scale**2 + norm.eps) * scale)
            norm.bias.copy_(mean + folded_bias)
    return network.eval()


def check_against_file(network: nn.Module, path: Path, x: torch.Tensor, *, atol: float = 1e-3) -> float:
    """The largest difference between the network's eval output and onnxruntime's on `x`."""
    import onnxruntime as ort

    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    if session.get_inputs()[0].shape[0] == 1:  # the detector's file takes one photo at a time
        x = x[:1]
    expected = session.run(None, {session.get_inputs()[0].name: x.numpy()})[0]
    with torch.no_grad():
        got = network.eval()(x).numpy()
    gap = float(np.max(np.abs(got - expected)))
    if gap > atol:
        raise RestoreError(f"the restored network differs from {path} by {gap:.2g} (more than {atol})")
    return gap


def train_mode_drift(network: nn.Module, x: torch.Tensor) -> float:
    """Mean gap between the output with batch statistics (train mode, no dropout) and eval output.

    Measured on a copy: a forward pass in train mode moves the norms' running statistics.
    """
    probe = copy.deepcopy(network).train()
    for module in probe.modules():
        if isinstance(module, nn.Dropout):
            module.eval()
    with torch.no_grad():
        return float((probe(x) - network.eval()(x)).abs().mean())


def _calibration_batches(kind: str, *, count: int, upright: bool, seed: int,
                         crop_size: int | None = None) -> list[torch.Tensor]:
    """Training batches as `training.learn.train` draws them (its streams and batch sizes);
    a reader's at the `crop_size` its file reads."""
    from torch.utils.data import DataLoader, IterableDataset

    from dicecam.training.learn.train import DetectorStream, ReaderStream, parser
    from dicecam.training.shapes import READER_SIZE

    # The rendered shares of the recipe's tunes (readers 0.45, detectors 0.5 and more).
    stream: IterableDataset
    if kind == "reader":
        stream = ReaderStream(synth_fraction=0.45, seed=seed, upright=upright, crop_size=crop_size or READER_SIZE)
    else:
        stream = DetectorStream(synth_fraction=0.5, seed=seed, upright=upright)
    batch = parser().get_default(f"{'reader' if kind == 'reader' else 'det'}_batch")
    batches = []
    for data in DataLoader(stream, batch_size=batch, num_workers=1):
        batches.append(data[0])
        if len(batches) == count:
            return batches
    raise RestoreError("the training stream ended before the calibration batches were drawn")


def main(argv: list[str] | None = None) -> None:
    from dicecam.training.learn.nets import FaceReader

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("onnx", type=Path, help="a detector.onnx or reader.onnx of this project")
    p.add_argument("checkpoint", type=Path, help="where to write the restored detector.pt / reader.pt")
    p.add_argument("--batches", type=int, default=32, help="training batches to measure the norms on")
    p.add_argument("--upright", action="store_true", help="draw them as `training.learn.train --upright` does")
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args(argv)
    torch.manual_seed(args.seed)
    network = load_folded(args.onnx)
    kind = "reader" if isinstance(network, FaceReader) else "detector"
    batches = _calibration_batches(kind, count=args.batches, upright=args.upright, seed=args.seed,
                                   crop_size=crop_size_of(args.onnx) if kind == "reader" else None)
    recalibrate(network, batches)
    gap = check_against_file(network, args.onnx, batches[0])
    drift = train_mode_drift(network, batches[-1])
    args.checkpoint.parent.mkdir(parents=True, exist_ok=True)
    torch.save(network.state_dict(), args.checkpoint)
    print(f"{kind} from {args.onnx} -> {args.checkpoint}: eval output within {gap:.1e} of the file, "
          f"train-mode output {drift:.3f} from eval on average ({args.batches} batches)")


if __name__ == "__main__":
    main()
