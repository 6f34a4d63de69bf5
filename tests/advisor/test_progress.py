"""Table builds report their progress to whoever listens (the CLI's progress line)."""

import threading

import numpy as np
import pytest

from dicecam.scoring.advisor import cache
from dicecam.scoring.advisor.progress import listening, report
from dicecam.scoring.advisor.solver import N_MASKS, ColumnTable, solve_column
from dicecam.scoring.advisor.tables import column_rules


def test_nobody_listening_costs_nothing():
    report("table:x", 1, 2)  # no listener: nothing happens, nothing fails


def test_a_listener_hears_only_inside_its_block():
    heard = []
    with listening(lambda *a: heard.append(a)):
        report("table:x", 1, 13)
    report("table:x", 2, 13)
    assert heard == [("table:x", 1, 13)]


def test_other_threads_are_not_heard():
    """The web app warms tables in a background thread; that is nobody's progress line."""
    heard = []
    with listening(lambda *a: heard.append(a)):
        t = threading.Thread(target=report, args=("table:x", 1, 13))
        t.start()
        t.join()
    assert heard == []


def test_a_table_build_reports_through_the_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("DICECAM_CACHE", str(tmp_path))
    rules = column_rules("yahtzee")

    def fake_solve(rules, *, progress=None, **_):
        for k in range(1, 14):
            progress(k, 13)
        return ColumnTable(rules, np.zeros((N_MASKS, 2, rules.threshold + 1)))

    monkeypatch.setattr(cache, "solve_column", fake_solve)
    heard = []
    with listening(lambda *a: heard.append(a)):
        cache.load_or_build(rules, use_cache=False)
    assert heard == [("table:yahtzee", k, 13) for k in range(1, 14)]


@pytest.mark.slow
def test_the_solver_reports_every_layer():
    done = []
    solve_column(column_rules("wuerfelspiel"), progress=lambda d, t: done.append((d, t)))
    assert done == [(k, 13) for k in range(1, 14)]
