"""A network's 2x enlargement folded into its first layer: the twin `vision`'s passes at 2x or more use.

The count's search looks at a 640 px photo enlarged to 1,280 px. A bilinear 2x resize (OpenCV's:
half-pixel centres, edges repeated) is linear, and the search network's first layer is a 4x4,
stride-4 convolution, so the two compose into one 4x4, stride-2 convolution over the photo itself,
edge-padded by a pixel: the same maps (to float rounding) without making, converting and reading
four times the pixels (session 95: a P447 pass 13.5 -> 10.0 ms).

    python -m dicecam.training.learn.fold models/search.onnx   # writes models/search_x2.onnx
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from dicecam.vision.onnx import file_digest, twin_path

#: Row a: the enlarged pixel 4j + a; column b: the photo's pixel 2j + b - 1. Bilinear 2x puts the
#: enlarged pixel 2k at photo position k - 1/4 and 2k + 1 at k + 1/4.
ENLARGE_2X = np.array([[0.25, 0.75, 0.0, 0.0],
                       [0.0, 0.75, 0.25, 0.0],
                       [0.0, 0.25, 0.75, 0.0],
                       [0.0, 0.0, 0.75, 0.25]])


def folded_kernel(weights: np.ndarray) -> np.ndarray:
    """A 4x4 stride-4 kernel (out, in, 4, 4) over a 2x-enlarged image as a 4x4 stride-2 kernel
    over the image itself (its first tap one pixel before the enlarged patch's source)."""
    if weights.shape[2:] != (4, 4):
        raise ValueError(f"only a 4x4 first layer folds, not {weights.shape[2:]}")
    return np.einsum("ab,ocad,de->ocbe", ENLARGE_2X, weights.astype(np.float64), ENLARGE_2X).astype(np.float32)


def fold_enlargement(source: Path, target: Path) -> None:
    """Write `target`: the ONNX network at `source` (its first node a 4x4, stride-4 convolution
    of the input `image`) taking the image at half the scale, with `enlarges` 2 and half the
    stride in its metadata. `ValueError` for a network whose first layer does not fold."""
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(source))
    graph = model.graph
    first = graph.node[0]
    attrs = {a.name: helper.get_attribute_value(a) for a in first.attribute}
    if (first.op_type != "Conv" or first.input[0] != "image" or list(attrs.get("strides", [])) != [4, 4]
            or any(attrs.get("pads", [0]))):
        raise ValueError(f"{source.name}: its first layer is not an unpadded stride-4 convolution of the image")
    weights = next(i for i in graph.initializer if i.name == first.input[1])
    weights.CopyFrom(numpy_helper.from_array(folded_kernel(numpy_helper.to_array(weights)), weights.name))
    graph.initializer.append(helper.make_tensor("enlarge_pads", onnx.TensorProto.INT64, [8], [0, 0, 1, 1, 0, 0, 1, 1]))
    # The resize repeats the edge pixels; zeros here would darken the border cells.
    graph.node.insert(0, helper.make_node("Pad", ["image", "enlarge_pads"], ["image_edged"], mode="edge",
                                          name="enlarge_pad"))
    first.input[0] = "image_edged"
    for a in first.attribute:
        if a.name == "strides":
            a.ints[:] = [2, 2]
    meta = {p.key: p.value for p in model.metadata_props}
    meta["stride"] = str(int(meta.get("stride", 8)) // 2)
    meta["enlarges"] = "2"
    # `vision` uses a twin only beside the very file it was folded from.
    meta["folded_from"] = file_digest(source)
    del model.metadata_props[:]
    helper.set_model_props(model, meta)
    onnx.checker.check_model(model)
    onnx.save(model, str(target))


def main(argv: list[str] | None = None) -> None:
    """Write each named network's twin beside it."""
    p = argparse.ArgumentParser(description=main.__doc__)
    p.add_argument("networks", type=Path, nargs="+")
    for path in p.parse_args(argv).networks:
        fold_enlargement(path, twin_path(path))
        print(f"wrote {twin_path(path)}")


if __name__ == "__main__":
    main()
