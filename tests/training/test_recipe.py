"""The recipe's stages fit together: a typo there shows only hours into a training run."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="training needs the `train` extra")
pytest.importorskip("onnx", reason="training needs the `train` extra")

from dicecam.training.learn import train
from dicecam.training.recipe import STAGES


def _walk() -> list[tuple[str, dict]]:
    """Each stage as (module, what it reads and writes), checkpoint paths as the stages spell them."""
    steps = []
    for module, *argv in STAGES:
        if module == "dicecam.training.learn.train":
            args = train.parser().parse_args(argv)
            assert args.what in ("detector", "reader"), "a stage trains one network"
            steps.append((module, {"init": args.init, "writes": args.runs / f"{args.what}.pt",
                                   "exports": args.out / f"{args.what}.onnx", "what": args.what}))
        elif module == "dicecam.training.learn.soup":
            what = "reader" if "--reader" in argv else "detector"
            inputs = [Path(a) for a in argv if a.endswith(".pt")]
            inputs = inputs[:-1] if "--checkpoint" in argv else inputs
            out = Path(argv[argv.index("--out") + 1])
            checkpoint = Path(argv[argv.index("--checkpoint") + 1]) if "--checkpoint" in argv else None
            steps.append((module, {"inputs": inputs, "exports": out / f"{what}.onnx", "writes": checkpoint,
                                   "what": what}))
        elif module == "dicecam.training.learn.from_onnx":  # a shipped file back into a checkpoint
            onnx, checkpoint = (Path(a) for a in argv[:2])
            steps.append((module, {"reads": onnx, "writes": checkpoint, "what": onnx.stem}))
        else:
            steps.append((module, {}))
    return steps


@pytest.mark.parametrize("module", sorted({stage[0] for stage in STAGES}))
def test_every_stage_is_a_command(module):
    assert callable(importlib.import_module(module).main)


def test_every_checkpoint_a_stage_starts_from_was_written_before_it():
    written: set[Path] = set()
    for module, step in _walk():
        if module == "dicecam.training.learn.train":
            if step["init"] is not None:
                assert step["init"] in written, f"{step['init']} is read before any stage writes it"
                assert step["init"].name == f"{step['what']}.pt"
            written.add(step["writes"])
        elif module == "dicecam.training.learn.soup":
            assert len(step["inputs"]) >= 2 and set(step["inputs"]) <= written
            assert all(path.name == f"{step['what']}.pt" for path in step["inputs"])
            if step["writes"] is not None:  # the average's weights, for fine-tunes to start from
                written.add(step["writes"])
        elif module == "dicecam.training.learn.from_onnx":
            assert step["writes"].name == f"{step['what']}.pt"
            written.add(step["writes"])


def _made_of(steps: list[tuple[str, dict]], index: int) -> set[int]:
    """The stages whose weights the network of stage `index` is made from, itself included."""
    module, step = steps[index]
    sources = {"dicecam.training.learn.train": [step.get("init")],
               "dicecam.training.learn.soup": step.get("inputs", []),
               "dicecam.training.learn.from_onnx": [step.get("reads")]}.get(module, [])
    found = {index}
    for source in filter(None, sources):
        makers = [i for i in range(index) if source in (steps[i][1].get("writes"), steps[i][1].get("exports"))]
        if makers:
            found |= _made_of(steps, max(makers))
    return found


def test_the_shipped_reader_learns_the_mistakes_of_the_detector_the_shipped_one_is_made_from():
    """The last mining before the shipped reader runs a detector the shipped one is made from,
    and readers the shipped one is made of learn its negatives."""
    steps = _walk()
    last = {name: max(i for i, (_, step) in enumerate(steps) if step.get("exports") == Path("models") / name)
            for name in ("detector.onnx", "reader.onnx")}
    mined = max(i for i, (module, _) in enumerate(steps)
                if module == "dicecam.training.data.mine" and i < last["reader.onnx"])
    readers = [i for i in _made_of(steps, last["reader.onnx"]) if steps[i][0] == "dicecam.training.learn.train"]
    assert any(i > mined for i in readers), "a reader in the shipped one learns the last mined negatives"
    mined_with = max(i for i in range(mined) if steps[i][1].get("exports") == Path("models") / "detector.onnx")
    assert mined_with in _made_of(steps, last["detector.onnx"])


def test_upright_readers_are_trained_after_their_crops_are_rendered():
    steps = list(zip(STAGES, _walk()))
    cached = [i for i, (stage, _) in enumerate(steps)
              if stage[0] == "dicecam.training.data.crop_cache" and "--upright" in stage]
    upright = [i for i, (stage, (module, step)) in enumerate(steps)
               if module == "dicecam.training.learn.train" and step["what"] == "reader" and "--upright" in stage]
    assert upright and cached and min(cached) < min(upright)


def test_the_recipe_passes_its_device_to_the_training_stages_only(monkeypatch):
    from dicecam.training import recipe

    ran = []
    monkeypatch.setattr(recipe.subprocess, "run", lambda command, **kwargs: ran.append(command[2:]))
    recipe.main(["--from-stage", str(len(STAGES) - 3), "--device", "cuda"])
    assert [command[0] for command in ran] == [stage[0] for stage in STAGES[-4:]]
    assert {command[0] for command in ran} >= {"dicecam.training.learn.train", "dicecam.training.calibrate"}
    for command in ran:
        if command[0] == "dicecam.training.learn.train":
            assert command[-2:] == ["--device", "cuda"] and train.parser().parse_args(command[1:]).device == "cuda"
        else:
            assert "--device" not in command


def test_the_confidence_fit_is_made_after_the_last_network_is_shipped():
    shipped = [i for i, (_, step) in enumerate(_walk()) if step.get("exports", Path()).parent == Path("models")]
    fits = [i for i, stage in enumerate(STAGES) if stage[0] == "dicecam.training.calibrate" and stage[1] == "models"]
    assert fits and max(fits) > max(shipped)
