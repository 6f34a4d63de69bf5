"""Several exported face readers as one ONNX file that averages their class probabilities.

    python -m training.ensemble models/reader.onnx runs/r8/reader.onnx --out runs/ens

Readers trained from other seeds and negatives make different mistakes; the average of
their probabilities is read more surely than any one of them. The merged file keeps the
reader's contract (input `crops`, output `logits`, the first member's metadata): its
output is the log of the averaged probabilities, whose softmax is that average, so
`vision.reader` runs it like any reader.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import onnx
from onnx import compose, helper

INPUT, OUTPUT = "crops", "logits"
#: Floor under the averaged probabilities before the log: keeps the output finite.
FLOOR = 1e-12


def merge_readers(members: Sequence[onnx.ModelProto]) -> onnx.ModelProto:
    """One model running every member on the same crops; output: log of their mean softmax."""
    if len(members) < 2:
        raise ValueError("an average needs at least two readers")
    opsets = {next(o.version for o in m.opset_import if o.domain in ("", "ai.onnx")) for m in members}
    if len(opsets) != 1:
        raise ValueError(f"the readers use different ONNX opsets: {sorted(opsets)}")
    nodes, inits, probs = [], [], []
    for i, member in enumerate(members):
        names = ([x.name for x in member.graph.input], [x.name for x in member.graph.output])
        if names != ([INPUT], [OUTPUT]):
            raise ValueError(f"reader {i} is not a face reader (inputs/outputs {names})")
        # Every member reads the shared input; all its other names get a prefix of their own.
        own = compose.add_prefix(member, f"m{i}_", rename_inputs=False)
        nodes.extend(own.graph.node)
        inits.extend(own.graph.initializer)
        probs.append(f"m{i}_probs")
        nodes.append(helper.make_node("Softmax", [f"m{i}_{OUTPUT}"], [probs[-1]], axis=1))
    nodes += [
        helper.make_node("Mean", probs, ["mean_probs"]),
        helper.make_node("Constant", [], ["floor"], value=helper.make_tensor("floor", onnx.TensorProto.FLOAT, [], [FLOOR])),
        helper.make_node("Max", ["mean_probs", "floor"], ["kept_probs"]),
        helper.make_node("Log", ["kept_probs"], [OUTPUT]),
    ]
    first = members[0]
    graph = helper.make_graph(nodes, "face_reader_average", list(first.graph.input), list(first.graph.output), inits)
    model = helper.make_model(graph, opset_imports=list(first.opset_import), producer_name="dicecam.training.ensemble")
    model.ir_version = first.ir_version
    for entry in first.metadata_props:
        model.metadata_props.add(key=entry.key, value=entry.value)
    model.metadata_props.add(key="members", value=str(len(members)))
    onnx.checker.check_model(model)
    return model


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("readers", nargs="+", type=Path, help="exported reader.onnx files")
    p.add_argument("--out", type=Path, required=True, help="folder for the merged reader.onnx")
    args = p.parse_args(argv)
    merged = merge_readers([onnx.load(str(path)) for path in args.readers])
    args.out.mkdir(parents=True, exist_ok=True)
    onnx.save(merged, str(args.out / "reader.onnx"))
    print(f"{len(args.readers)} readers -> {args.out / 'reader.onnx'}")


if __name__ == "__main__":
    main()
