"""One report on a candidate models folder against the shipped one, measured the same way
every time: what a ship rule in models/HISTORY.md asks about.

    python benchmarks/candidate.py runs/eval/R143 [--against models] [--datasets DIR ...]
        [--split dev] [--scenes 300] [--no-acceptance] [--json]

For each dataset (default: the four shared sets), both folders read the split without and
with each photo's labelled count, by the product's own command (`dicecam eval --json`:
read F1, exact-roll rate, the share of sure dice that are wrong, the share marked unsure,
the photos read wrong with no die marked unsure),
and the labelled dice the candidate reads right where the other does not, and the reverse,
with how many of the lost ones the other read surely (`dice_diff.py`), the candidate's gain in
read F1 with and without the count and its 95% interval from resampling the photos (a paired
bootstrap, `paired.paired_gain`; on roboflow dev about +-0.008 for a check or reader
candidate: a gain whose interval holds 0 is not one the split can show), and where each
folder's missed dice go without a count (`missed_dice.py`: no box, the whole-die check,
"not a die", ...), which says whether the detector or the reader moved. Both read the
rendered clutter benchmark (`rendered_scenes.py --upright --clutter 1`: read F1, boxes on
decoys and how many sure, those on numeral dice and dominoes). Last, the acceptance tests
run with the candidate as the reader (`DICECAM_MODELS=DIR python -m pytest tests/vision`):
a candidate that meets its figures can still misread a sample die surely.

A folder is refused before anything is read when it lacks a network, its confidence fit
(the fit belongs to the networks it was made with), or the whole-die check the other one
has, with the command or copy that makes it whole.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from dice_diff import compared, summary
from missed_dice import missed
from paired import paired_gain

from dicecam.vision.reader import DETECTOR_FILE, READER_FILE, WHOLE_DIE_FILE, DiceReader

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("DICECAM_DATASETS", ROOT.parent / "shared" / "datasets"))
SETS = ("roboflow_dice", "byler_d6", "matteop65_wood", "chase_dji")
#: The rendered decoys a pip reader is most often sure of (models/README.md, "How it holds up on other photos").
WORST_DECOYS = ("numeral_d6", "numeral_die", "domino")


class CandidateError(ValueError):
    """A models folder that cannot be compared as it is."""


def check_folder(folder: Path, against: Path) -> None:
    """Refuse `folder` where it lacks what reading needs, or the check `against` has."""
    if not folder.is_dir():
        raise CandidateError(f"{folder} is not a folder")
    missing = [name for name in (DETECTOR_FILE, READER_FILE) if not (folder / name).is_file()]
    if missing:
        raise CandidateError(f"{folder} has no {' or '.join(missing)}: copy them from {against} "
                             "if the candidate leaves them as they are")
    if (against / WHOLE_DIE_FILE).is_file() and not (folder / WHOLE_DIE_FILE).is_file():
        raise CandidateError(f"{folder} has no {WHOLE_DIE_FILE} while {against} has: copy it, "
                             "or the candidate is read without the check")
    if not (folder / "confidence.json").is_file():
        raise CandidateError(f"{folder} has no confidence fit: python -m dicecam.training.calibrate "
                             f"{folder} --clutter 0.5")


def evaluate(folder: Path, dataset: Path, split: str, *, count: bool) -> dict[str, Any]:
    """`dicecam eval`'s JSON figures for `folder` on one split."""
    command = [sys.executable, "-m", "dicecam", "eval", str(dataset), "--split", split, "--json",
               "--models", str(folder), *(["--dice"] if count else [])]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if done.returncode:
        raise CandidateError(f"dicecam eval failed on {dataset}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def rendered(folder: Path, scenes: int) -> dict[str, Any]:
    """The rendered clutter benchmark's figures for `folder`."""
    command = [sys.executable, str(ROOT / "benchmarks" / "rendered_scenes.py"), "--scenes", str(scenes),
               "--upright", "--clutter", "1", "--json", "--models", str(folder)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if done.returncode:
        raise CandidateError(f"the rendered benchmark failed: {done.stderr.strip()}")
    return json.loads(done.stdout)


def acceptance(folder: Path) -> dict[str, Any]:
    """The vision tests' outcome with `folder` as the reader: the summary line and what failed."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rf", "tests/vision"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "DICECAM_MODELS": str(folder.resolve())})
    lines = done.stdout.strip().splitlines()
    return {"passed": done.returncode == 0, "summary": lines[-1].strip("= ") if lines else done.stderr.strip(),
            "failed": [line.split(" ", 1)[1].split(" - ")[0] for line in lines if line.startswith("FAILED ")]}


def compare(before: DiceReader, after: DiceReader, dataset: Path,
            split: str) -> tuple[dict[str, int], dict[str, list[float]]]:
    """The dice the candidate (`after`) wins and loses without the count (`dice_diff.summary`),
    and its read F1 gain over `before` on the same photos with its 95% interval (gain, low,
    high), without and with each photo's labelled count: each photo read once each way."""
    found, first, second = compared(before, after, dataset, split, count=False)
    gain = {"plain": paired_gain(first, second)}
    _, first, second = compared(before, after, dataset, split, count=True)
    gain["count"] = paired_gain(first, second)
    return summary(found, low_confidence=before.low_confidence), {k: [round(v, 4) for v in g] for k, g in gain.items()}


def _figures(result: dict[str, Any]) -> dict[str, float]:
    return {key: result[key] for key in ("read_f1", "exact_roll_rate", "silent_per_sure_die", "unsure_share",
                                         "silent_throws")}


def _decoys(result: dict[str, Any]) -> dict[str, Any]:
    kinds = result["decoys_by_kind"]
    return {"read_f1": result["read_f1"], "boxes_on_decoys": result["boxes_on_decoys"],
            "sure_on_decoys": sum(k["sure"] for k in kinds.values()),
            "sure_on_worst": sum(kinds.get(name, {}).get("sure", 0) for name in WORST_DECOYS)}


def report(folder: Path, against: Path, datasets: list[Path], *, split: str, scenes: int,
           tests: bool) -> dict[str, Any]:
    """Every figure of the report, candidate beside the folder it is compared with."""
    check_folder(folder, against)
    check_folder(against, against)
    before, after = DiceReader(against), DiceReader(folder)
    sets = {}
    for dataset in datasets:
        row: dict[str, Any] = {}
        for name, models in (("candidate", folder), ("against", against)):
            row[name] = {"plain": _figures(evaluate(models, dataset, split, count=False)),
                         "count": _figures(evaluate(models, dataset, split, count=True))}
        row["dice"], row["gain"] = compare(before, after, dataset, split)
        row["missed"] = {name: {why: len(sides) for why, sides in missed(reader, dataset, split).items()}
                         for name, reader in (("candidate", after), ("against", before))}
        sets[dataset.name] = row
    out: dict[str, Any] = {"candidate": str(folder), "against": str(against), "split": split, "sets": sets}
    if scenes > 0:
        out["rendered"] = {name: _decoys(rendered(models, scenes))
                           for name, models in (("candidate", folder), ("against", against))}
    if tests:
        out["acceptance"] = acceptance(folder)
    return out


def _line(name: str, f: dict[str, dict[str, float]]) -> str:
    plain, count = f["plain"], f["count"]
    return (f"  {name:9s} {plain['read_f1']:.3f} / {plain['exact_roll_rate']:.3f}   "
            f"{count['read_f1']:.3f} / {count['exact_roll_rate']:.3f}   "
            f"{100 * plain['silent_per_sure_die']:5.1f}% / {100 * count['silent_per_sure_die']:4.1f}%   "
            f"{100 * plain['unsure_share']:4.0f}% / {100 * count['unsure_share']:3.0f}%   "
            f"{plain['silent_throws']:4d} / {count['silent_throws']:3d}")


def _gain_line(gain: dict[str, list[float]]) -> str:
    """The read F1 gain and its 95% interval, without and with the count."""
    parts = [f"{label} {g:+.3f} ({lo:+.3f} to {hi:+.3f})"
             for label, (g, lo, hi) in (("", gain["plain"]), ("with the count", gain["count"]))]
    return "  read F1 gain, 95% interval:" + ", ".join(parts)


def _missed_line(missed_dice: dict[str, dict[str, int]]) -> str:
    """Missed dice by reason, candidate / against, the commonest first."""
    cand, other = missed_dice["candidate"], missed_dice["against"]
    reasons = sorted(set(cand) | set(other), key=lambda why: -(cand.get(why, 0) + other.get(why, 0)))
    parts = [f"{why} {cand.get(why, 0)} / {other.get(why, 0)}" for why in reasons]
    return "  missed dice, candidate / against: " + (", ".join(parts) if parts else "none")


def print_report(out: dict[str, Any]) -> None:
    print(f"{out['candidate']} against {out['against']} ({out['split']} splits)")
    print("            read F1 / exact   with the count    silent (count)   unsure (count)  "
          "silent throws (count)")
    for name, row in out["sets"].items():
        d = row["dice"]
        print(f"{name}: the candidate wins {d['won']} dice ({d['won_sure']} sure), "
              f"loses {d['lost']} ({d['lost_sure']} read surely before)")
        print(_line("candidate", row["candidate"]))
        print(_line("against", row["against"]))
        print(_gain_line(row["gain"]))
        print(_missed_line(row["missed"]))
    if "rendered" in out:
        for name, r in out["rendered"].items():
            print(f"rendered clutter, {name}: read F1 {r['read_f1']:.3f}, {r['boxes_on_decoys']} boxes on decoys "
                  f"({r['sure_on_decoys']} sure; on numeral dice and dominoes {r['sure_on_worst']} sure)")
    if "acceptance" in out:
        a = out["acceptance"]
        print(f"acceptance (pytest tests/vision with the candidate): {a['summary']}")
        for test in a["failed"]:
            print(f"  failed: {test}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("candidate", type=Path, help="the candidate's models folder")
    p.add_argument("--against", type=Path, default=ROOT / "models", help="the folder to compare with (the shipped)")
    p.add_argument("--datasets", type=Path, nargs="+", default=[SHARED / name for name in SETS])
    p.add_argument("--split", default="dev", help="which split of each dataset ('all' for every photo)")
    p.add_argument("--scenes", type=int, default=300, help="rendered clutter scenes (0: none)")
    p.add_argument("--no-acceptance", dest="tests", action="store_false", help="leave the vision tests out")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    try:
        out = report(args.candidate, args.against, args.datasets, split=args.split, scenes=args.scenes,
                     tests=args.tests)
    except CandidateError as exc:
        print(f"candidate: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(out))
    else:
        print_report(out)
    return 0 if out.get("acceptance", {"passed": True})["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
