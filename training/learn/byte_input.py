"""A photo network that takes the photo's bytes as they are: uint8, height x width x BGR.

    python -m dicecam.training.learn.byte_input models/detector.onnx models/search.onnx

The exporters write networks that take float32 planes (1, 3, H, W) scaled to 0..1. Making
those from a decoded photo is a copy and a conversion of every pixel in Python, 5 ms of
a 1,280 px search pass on 2 cores; inside the graph, onnxruntime does the same transpose,
cast and scale on both threads (C399, models/HISTORY.md). This puts those three nodes in
front of a network file, in place: its maps are the same to the bit, its metadata stays,
and `vision.detector` feeds such a file the photo's bytes (it tells by the input's type).
A file that already takes bytes is left as it is.
"""

from __future__ import annotations

import argparse
from pathlib import Path

#: The name of the front's nodes' scope, which `from_onnx` reads past.
FRONT = "byte_input"


def takes_bytes(model) -> bool:
    """Whether an ONNX model's (first) input is uint8."""
    import onnx

    return model.graph.input[0].type.tensor_type.elem_type == onnx.TensorProto.UINT8


def byte_input(path: Path) -> bool:
    """Give the network file at `path` a uint8 (1, H, W, 3) input of the same name, in
    place; False where it took bytes already."""
    import onnx
    from onnx import TensorProto, helper

    model = onnx.load(str(path))
    if takes_bytes(model):
        return False
    graph = model.graph
    old = graph.input[0]
    name = old.name
    inner = f"/{FRONT}/scaled"
    for node in graph.node:
        node.input[:] = [inner if i == name else i for i in node.input]
    dims = old.type.tensor_type.shape.dim  # N, C, H, W: H and W stay dynamic by their names
    shape = [d.dim_param or d.dim_value for d in (dims[0], dims[2], dims[3])]
    front = [
        helper.make_node("Transpose", [name], [f"/{FRONT}/planes"], perm=[0, 3, 1, 2], name=f"/{FRONT}/Transpose"),
        helper.make_node("Cast", [f"/{FRONT}/planes"], [f"/{FRONT}/float"], to=TensorProto.FLOAT,
                         name=f"/{FRONT}/Cast"),
        helper.make_node("Mul", [f"/{FRONT}/float", f"/{FRONT}/step"], [inner], name=f"/{FRONT}/Mul"),
    ]
    graph.initializer.append(helper.make_tensor(f"/{FRONT}/step", TensorProto.FLOAT, [], [1 / 255]))
    nodes = front + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    graph.input.remove(old)
    graph.input.insert(0, helper.make_tensor_value_info(name, TensorProto.UINT8, [*shape, 3]))
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return True


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="Give photo networks (detector, search) a uint8 BGR input, in place.")
    p.add_argument("files", type=Path, nargs="+")
    for path in p.parse_args(argv).files:
        print(f"{path}: {'takes bytes now' if byte_input(path) else 'took bytes already'}")


if __name__ == "__main__":
    main()
