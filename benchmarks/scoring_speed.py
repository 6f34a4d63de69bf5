"""How fast the scoring side is: CLI start-up, replaying game files, listing options.

Run: python benchmarks/scoring_speed.py   (prints one line per measurement)
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from dicecam.scoring import Game


def _ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    cmd = [sys.executable, "-m", "dicecam", "score", "kniffel", "3", "3", "3", "5", "5", "--json"]
    cli = _ms(lambda: subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True), 7)
    base = _ms(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), 7)
    print(f"dicecam score (whole process): {cli:.0f} ms median, bare python {base:.0f} ms")
    for name in ("wuerfelspiel-seed.json", "wuerfelpoker-seed.json"):
        data = json.loads((ROOT / "examples" / name).read_text(encoding="utf-8"))
        n = len(data["events"])
        ms = _ms(lambda: Game.from_dict(data), 50)
        print(f"replay {name}: {n} events in {ms:.2f} ms median ({1000 * ms / n:.0f} us/event)")
    game = Game.from_dict(json.loads((ROOT / "examples" / "wuerfelspiel-seed.json").read_text()))
    ms = _ms(lambda: game.options([6, 6, 6, 6, 5]), 200)
    print(f"options() on the Würfelspiel seed sheet: {ms:.3f} ms median")


if __name__ == "__main__":
    main()
