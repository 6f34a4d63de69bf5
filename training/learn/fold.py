"""A network's first convolution with a 2x enlargement folded in: `search_x2.onnx`.

The count's search looks at a 640 px photo (roboflow's, a phone's small export) enlarged
2x to 1,280 px, and its network starts with a 4x4 patch convolution of stride 4. OpenCV's
bilinear 2x (half-pixel centres, border replicated) and that convolution are both linear,
so together they are one 4x4 convolution of stride 2 over the photo with its border
replicated by a pixel. The folded network takes the photo as it is: no 1,280 px image is
made or converted to floats, and the first layer reads a quarter of the pixels.

Only the rounding of the enlarged photo to bytes, which the folded network skips, tells
the two apart (`vision.detector.DieDetector._closer` uses the folded file where a pass
enlarges by exactly 2).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

#: Bilinear 2x as weights: enlarged pixels 4p..4p+3 (rows) from photo pixels 2p-1..2p+2
#: (columns): each enlarged pixel lies a quarter of a pixel from its nearest photo pixel.
ENLARGE_2X = np.array([[0.25, 0.75, 0.0, 0.0],
                       [0.0, 0.75, 0.25, 0.0],
                       [0.0, 0.25, 0.75, 0.0],
                       [0.0, 0.0, 0.75, 0.25]])
#: What `vision` reads from the folded file's metadata: the enlargement it has built in.
ENLARGES = "enlarges"
#: The folded file's name beside `search.onnx`.
FOLDED_SEARCH_FILE = "search_x2.onnx"


class NotFoldable(ValueError):
    """The network does not start with a 4x4 convolution of stride 4 on its input."""


def folded_kernel(kernel: np.ndarray) -> np.ndarray:
    """The (out, in, 4, 4) stride-2 kernel over the edge-padded photo that equals bilinear 2x
    followed by `kernel` (out, in, 4, 4) at stride 4."""
    a = ENLARGE_2X
    return np.einsum("ta,ub,octu->ocab", a, a, kernel.astype(np.float64)).astype(np.float32)


def fold_enlargement(model):
    """A copy of `model` (an `onnx.ModelProto`) that takes the photo itself where `model` took it
    enlarged 2x: a 1 px edge pad, then its first convolution folded (`folded_kernel`) at stride 2.
    `NotFoldable` where the first layer is not a bias-free-padding 4x4 stride-4 convolution."""
    import onnx
    from onnx import helper, numpy_helper

    folded = onnx.ModelProto()
    folded.CopyFrom(model)
    graph = folded.graph
    first, image = graph.node[0], graph.input[0].name
    attrs = {a.name: helper.get_attribute_value(a) for a in first.attribute}
    if (first.op_type != "Conv" or first.input[0] != image or list(attrs.get("strides", [])) != [4, 4]
            or list(attrs.get("kernel_shape", [])) != [4, 4] or any(attrs.get("pads", [0])) or attrs.get("group", 1) != 1):
        raise NotFoldable("the network's first layer is not a 4x4 convolution of stride 4 on the photo")
    weights = next(i for i in graph.initializer if i.name == first.input[1])
    weights.CopyFrom(numpy_helper.from_array(folded_kernel(numpy_helper.to_array(weights)), weights.name))
    for a in first.attribute:
        if a.name == "strides":
            a.ints[:] = [2, 2]
    graph.initializer.append(numpy_helper.from_array(np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64), "edge_pads"))
    graph.node.insert(0, helper.make_node("Pad", [image, "edge_pads"], ["edge_padded"], mode="edge", name="/edge_pad"))
    first.input[0] = "edge_padded"
    entry = folded.metadata_props.add()
    entry.key, entry.value = ENLARGES, "2"
    onnx.checker.check_model(folded)
    return folded


def fold_file(source: Path, out: Path) -> None:
    """Write `fold_enlargement` of the ONNX file `source` to `out`."""
    import onnx

    onnx.save(fold_enlargement(onnx.load(str(source))), str(out))


def main(argv: list[str] | None = None) -> None:
    """`python -m dicecam.training.learn.fold models/search.onnx models/search_x2.onnx`"""
    import argparse

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("source", type=Path)
    p.add_argument("out", type=Path)
    args = p.parse_args(argv)
    fold_file(args.source, args.out)


if __name__ == "__main__":
    main()
