"""The whole recipe of the shipped models, as one command:

    python -m dicecam.training.recipe            # about 14 h on a 2-core CPU; writes models/
    python -m dicecam.training.recipe --device cuda   # where a GPU is lent: the networks learn there

Stages, each named for what it makes (models/HISTORY.md says why each is there and what it
measured; the round numbers there match the run folders' numbers here):
1. render the synthetic crop cache for the reader (data/synth_crops.npz);
2. the base detector, from scratch in one 9000-step schedule (runs/detector), a fifth of
   train held out; exported to models/ only so that stage 3 can run it;
3. mine hard negatives with it (data/hard_negatives.npz): every box it finds on the train
   photos and 300 rendered scenes that frames no labelled die (mining runs the detector
   only, so the reader in models/ does not matter);
4. the base reader, from scratch in one 18000-step schedule with those negatives, on every
   train photo (side faces of matteop65_wood's dice among its "not a die" crops);
5-8. four 3000-step fine-tunes of the base detector on every train photo and rendered
   throws, differing in seed, rendered share and byler_d6's weight;
9. the four fine-tunes' weights averaged (`training.learn.soup`) into runs/soup;
10-13. four 3000-step fine-tunes of that average on rendered throws as an upright phone
   takes them, tilted views never given quarter turns (`--upright`);
14. those four averaged into runs/soup-upright;
15. the upright detector: that average fine-tuned 3000 more upright steps, exported to
   models/ with the peak threshold `training.export.MIN_SCORE`;
16. that file turned back into a checkpoint (`training.learn.from_onnx`,
   runs/detector-restored), as the steep-view tunes start from it;
17. mine hard negatives again, with the upright detector (its own mistakes), on the
   train photos and 300 upright rendered scenes;
18. the base reader fine-tuned 6000 steps on those negatives (runs/reader-tuned);
19. render the upright crop cache (data/synth_crops_upright.npz);
20-21. two more such fine-tunes, trained upright (`--upright`: tilted dice keep the
   photo's way up), seeds 43 and 44;
22. the three reader fine-tunes averaged (`training.learn.soup --reader`) into runs/reader-soup;
23. the glossy reader: that average tuned 3000 upright steps at a low rate on the upright
   crop cache (whose dice include glossy ones that mirror the room and marbled ones with
   red pips), exported to models/;
24-25. the upright detector tuned twice more, 3000 upright steps each, one on rendered
   throws seen steeply more often (`--steep`), one not (one thread each, as they were
   trained side by side);
26. the steep-view pair averaged (`training.learn.soup`) into runs/detector-pair, exported
   to models/;
27. the glossy reader turned back into a checkpoint (runs/reader-restored);
28-31. four 2700-step upright tunes of it on rendered crops drawn new for every batch
   (`--fresh-crops`), batches of 128, seeds 49-52 (on a lent GPU);
32. the fresh-crop reader: those four averaged (`training.learn.soup --reader`) into
   runs/reader-fresh-soup, exported to models/;
33. the steep-view pair turned back into a checkpoint (runs/detector-pair-restored);
34-38. five tunes of it with batches of 16 (on a lent GPU): four upright, steep
   (`--steep`) and plain, seeds 58 and 59, and one steep and turned any way (not
   `--upright`), seed 58;
39. the five-tune detector: those five averaged, the turned one a fifth of the weight,
   exported to models/. It is made from the upright detector, whose mistakes the reader
   learned (stage 17);
40. the confidence fit for those two networks (`training.calibrate`): whether a reading
   was right, from the reader's probability, the detector's peak and the box's size, on
   2,000 rendered throws, written to models/confidence.json.
41. the top faces of roboflow_dice's train photos (`training.data.top_faces`,
   data/top_faces.json): its boxes frame the whole die, so the networks in models/ find
   the top face inside each (the box read as the labelled value first, then the higher one;
   a die the detector misses gets an estimated face);
42. mine hard negatives again with the five-tune detector, now on every train photo
   (roboflow_dice's game tables among them) and 600 upright throws rendered on a cluttered
   game table (`--clutter`: boards, number tokens, pieces, cards, numeral dice, hardware);
43. the game-table reader: the fresh-crop reader tuned 2500 upright steps at 5e-4 with
   roboflow_dice at 0.6 of its weight, 60% of its rendered crops cut from cluttered scenes
   (their decoys shown as "not a die"), 15% mined negatives, exported to models/;
44. the game-table detector: the five-tune detector tuned 2500 upright steps at 1e-3 on
   the same data (roboflow_dice's top faces), exported to models/;
45. the confidence fit for those two networks, half of its 2,000 rendered throws on a
   cluttered table (there the reader's "not a die" probability tells a token from a die).
Every stage is the command that made the shipped files; models/HISTORY.md tells why each
is there and what it measured.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

#: The fine-tunes of the base detector whose average the upright fine-tunes start from:
#: run folder, rendered share, seed, other options.
FINE_TUNES: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("detector-tune-45", "0.7", "45", ()),
    ("detector-tune-46", "0.5", "46", ()),
    ("detector-tune-47", "0.5", "47", ()),
    ("detector-tune-48", "0.5", "48", ("--weight", "byler_d6=2")),
)

#: The upright fine-tunes of that average, averaged before the last upright round.
UPRIGHT_TUNES: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("detector-upright-51", "0.6", "51", ()),
    ("detector-upright-52", "0.5", "52", ("--weight", "byler_d6=2")),
    ("detector-upright-53", "0.7", "53", ()),
    ("detector-upright-54", "0.5", "54", ()),
)


#: The steep-view pair: two tunes of the upright detector, side by side (one thread each),
#: one drawing steep views more often.
STEEP_PAIR: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("detector-steep-57", "0.6", "57", ("--steep",)),
    ("detector-plain-57", "0.6", "57", ()),
)


def _fine_tune(init: str, name: str, synth: str, seed: str, *options: str, out: str | None = None,
               threads: str = "2", steps: str = "3000") -> tuple[str, ...]:
    """A detector fine-tune (3000 steps) from `init` into runs/NAME, exported there or to `out`."""
    return ("dicecam.training.learn.train", "detector", *options, "--init", init, "--det-steps", steps,
            "--det-lr", "1e-3",
            "--synth", synth, "--seed", seed, "--threads", threads, "--runs", f"runs/{name}",
            "--out", out or f"runs/{name}")


def _reader_tune(name: str, seed: str, options: tuple[str, ...] = (), *, init: str = "runs/reader/reader.pt",
                 steps: str = "6000", lr: str = "1e-3", out: str | None = None) -> tuple[str, ...]:
    """A fine-tune of a reader (the base one: 6000 steps at 1e-3) on the shipped detector's
    negatives, into runs/NAME, exported there or to `out`."""
    return ("dicecam.training.learn.train", "reader", *options, "--init", init, "--reader-steps", steps,
            "--reader-lr", lr, "--synth", "0.45", "--seed", seed, "--threads", "2", "--runs", f"runs/{name}",
            "--out", out or f"runs/{name}")


#: The reader fine-tunes averaged into runs/reader-soup: run folder, seed, options.
READER_TUNES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("reader-tuned", "43", ()),
    ("reader-upright-43", "43", ("--upright",)),
    ("reader-upright-44", "44", ("--upright",)),
)


def _average(tunes: tuple[tuple[Any, ...], ...], folder: str, *options: str,
             out: str | None = None) -> tuple[str, ...]:
    """The fine-tunes' weights (each tune's run folder named first) averaged (`training.learn.soup`)
    into `folder`'s checkpoint, its ONNX file there or to `out`; readers with `--reader`."""
    what = "reader" if "--reader" in options else "detector"
    return ("dicecam.training.learn.soup", *(f"runs/{name}/{what}.pt" for name, *_ in tunes), *options,
            "--out", out or folder,
            "--checkpoint", f"{folder}/{what}.pt")


#: The fresh-crop reader tunes: the glossy reader restored, tuned upright on crops rendered
#: anew for every batch, batches of 128, 5 sample workers (on a lent GPU): run folder, seed.
FRESH_READERS: tuple[tuple[str, str], ...] = tuple((f"reader-fresh-{seed}", seed) for seed in ("49", "50", "51", "52"))


def _fresh_reader(name: str, seed: str) -> tuple[str, ...]:
    return _reader_tune(name, seed, ("--upright", "--fresh-crops", "--reader-batch", "128", "--workers", "5"),
                        init="runs/reader-restored/reader.pt", steps="2700", lr="3e-4")


#: The five-tune detector's tunes: the steep-view pair restored, batches of 16, 5 sample
#: workers (on a lent GPU): run folder, steps, seed, options.
DETECTOR_TUNES: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("detector-steep-58", "1400", "58", ("--upright", "--steep")),
    ("detector-plain-58", "1400", "58", ("--upright",)),
    ("detector-steep-59", "1400", "59", ("--upright", "--steep")),
    ("detector-plain-59", "1400", "59", ("--upright",)),
    ("detector-turned-steep-58", "1500", "58", ("--steep",)),
)


def _detector_tune(name: str, steps: str, seed: str, options: tuple[str, ...]) -> tuple[str, ...]:
    """A tune of the restored steep-view pair, into runs/NAME."""
    return _fine_tune("runs/detector-pair-restored/detector.pt", name, "0.6", seed, *options, "--det-batch", "16",
                      "--workers",
                      "5", steps=steps)


#: The game-table tunes of the fresh-crop reader and the five-tune detector, one thread
#: each (they were trained side by side): roboflow_dice's photos, cluttered rendered scenes.
CLUTTER_TUNES: tuple[tuple[str, ...], ...] = (
    ("dicecam.training.learn.train", "reader", "--init", "runs/reader-fresh-soup/reader.pt", "--upright",
     "--reader-steps", "2500", "--reader-lr", "5e-4", "--synth", "0.45", "--clutter", "0.6",
     "--weight", "roboflow_dice=0.6", "--hard-share", "0.15", "--seed", "71", "--threads", "1",
     "--runs", "runs/reader-clutter-71", "--out", "models"),
    ("dicecam.training.learn.train", "detector", "--init", "runs/detector-five/detector.pt", "--upright",
     "--det-steps", "2500", "--det-lr", "1e-3", "--det-batch", "8", "--synth", "0.5", "--clutter", "0.6",
     "--weight", "roboflow_dice=0.6", "--seed", "72", "--threads", "1",
     "--runs", "runs/detector-clutter-72", "--out", "models"),
)


STAGES: tuple[tuple[str, ...], ...] = (
    ("dicecam.training.data.crop_cache", "--count", "12000"),
    ("dicecam.training.learn.train", "detector", "--det-steps", "9000", "--det-lr", "3e-3", "--synth", "0.5",
     "--seed", "44",
     "--threads", "2", "--holdout", "0.2", "--runs", "runs/detector", "--out", "models"),
    ("dicecam.training.data.mine", "models", "--scenes", "300"),
    ("dicecam.training.learn.train", "reader", "--reader-steps", "18000", "--reader-lr", "3e-3", "--synth", "0.45",
     "--seed", "42", "--threads", "2", "--runs", "runs/reader", "--out", "runs/reader"),
    *(_fine_tune("runs/detector/detector.pt", name, synth, seed, *extra) for name, synth, seed, extra in FINE_TUNES),
    _average(FINE_TUNES, "runs/soup"),
    *(_fine_tune("runs/soup/detector.pt", name, synth, seed, "--upright", *extra)
      for name, synth, seed, extra in UPRIGHT_TUNES),
    _average(UPRIGHT_TUNES, "runs/soup-upright"),
    _fine_tune("runs/soup-upright/detector.pt", "detector-upright-55", "0.6", "55", "--upright", out="models"),
    ("dicecam.training.learn.from_onnx", "models/detector.onnx", "runs/detector-restored/detector.pt", "--upright"),
    ("dicecam.training.data.mine", "models", "--scenes", "300", "--upright"),
    _reader_tune(*READER_TUNES[0]),
    ("dicecam.training.data.crop_cache", "--count", "12000", "--upright"),
    *(_reader_tune(*tune) for tune in READER_TUNES[1:]),
    _average(READER_TUNES, "runs/reader-soup", "--reader"),
    _reader_tune("reader-glossy-47", "47", ("--upright",), init="runs/reader-soup/reader.pt", steps="3000",
                 lr="3e-4", out="models"),
    *(_fine_tune("runs/detector-restored/detector.pt", name, synth, seed, "--upright", *extra, threads="1")
      for name, synth, seed, extra in STEEP_PAIR),
    _average(STEEP_PAIR, "runs/detector-pair", out="models"),
    ("dicecam.training.learn.from_onnx", "models/reader.onnx", "runs/reader-restored/reader.pt", "--upright"),
    *(_fresh_reader(*tune) for tune in FRESH_READERS),
    _average(FRESH_READERS, "runs/reader-fresh-soup", "--reader", "--upright", out="models"),
    ("dicecam.training.learn.from_onnx", "models/detector.onnx", "runs/detector-pair-restored/detector.pt",
     "--upright"),
    *(_detector_tune(*tune) for tune in DETECTOR_TUNES),
    _average(DETECTOR_TUNES, "runs/detector-five", out="models"),
    ("dicecam.training.calibrate", "models", "--scenes", "2000", "--seeds", "61,62"),
    # Game tables: the networks above learn roboflow_dice and rendered clutter.
    ("dicecam.training.data.top_faces", "models"),
    ("dicecam.training.data.mine", "models", "--scenes", "600", "--upright", "--clutter", "1.0"),
    *CLUTTER_TUNES,
    # Last: the confidence fit belongs to the networks it was made with.
    ("dicecam.training.calibrate", "models", "--scenes", "2000", "--seeds", "61,62", "--clutter", "0.5"),
)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--from-stage", type=int, default=1, help="skip the stages before this one (1-based)")
    p.add_argument("--device", default="cpu", help="where the networks learn: cpu (default) or cuda, where one is lent")
    args = p.parse_args(argv)
    # One thread per process: the trainer and its data worker share 2 cores, and idle
    # OpenMP threads spinning on the other core made training 5x slower here.
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    for number, stage in enumerate(STAGES, start=1):
        if number < args.from_stage:
            continue
        if stage[0] == "dicecam.training.learn.train":
            stage = (*stage, "--device", args.device)
        print(f"== stage {number}/{len(STAGES)}: {' '.join(stage)}", flush=True)
        subprocess.run([sys.executable, "-m", *stage], check=True, env=env, cwd=Path(__file__).resolve().parents[1])


if __name__ == "__main__":
    main()
