"""How fast the scoring side is: CLI start-up, replaying game files, listing options.

Run: python benchmarks/scoring_speed.py   (prints one line per measurement)
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

from dicecam.scoring import Game

ROOT = Path(__file__).resolve().parents[1]


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
        ms = _ms(partial(Game.from_dict, data), 50)
        print(f"replay {name}: {n} events in {ms:.2f} ms median ({1000 * ms / n:.0f} us/event)")
    game = Game.from_dict(json.loads((ROOT / "examples" / "wuerfelspiel-seed.json").read_text()))
    ms = _ms(lambda: game.options([6, 6, 6, 6, 5]), 200)
    print(f"options() on the Würfelspiel seed sheet: {ms:.3f} ms median")
    long_log()


def long_log(n: int = 100_000) -> None:
    """Issue 33.3's worst case: a Würfelpoker file of `n` busts, loaded, written, undone."""
    players = ["Anna", "Ben"]
    data = {"variant": "wuerfelpoker", "players": players,
            "events": [{"player": players[i % 2], "throw": [2, 3, 4, 6, 2, 3]} for i in range(n)]}
    for what, fn in (("load", lambda: Game.from_dict(data)),):
        wall, cpu = time.perf_counter(), time.process_time()
        game = fn()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"{what} {n} Würfelpoker busts: {wall:.2f} s wall, {cpu:.2f} s CPU "
              f"({1e6 * cpu / n:.1f} us/event)")
    for what, call in (("to_dict", game.to_dict), ("state", game.state), ("undo", game.undo)):
        t = time.perf_counter()
        call()
        print(f"  {what}() of it: {time.perf_counter() - t:.2f} s")


if __name__ == "__main__":
    main()
