"""A reader tune held to another reader's word where that reader is right (`train reader --anchor`)."""

from __future__ import annotations

import pytest

pytest.importorskip("torch", reason="training needs the `train` extra")

import torch
from helpers_nets import trained_looking

from dicecam.training.learn import train
from dicecam.training.learn.nets import NOT_A_DIE, FaceReader


def _logits(*rows: list[float]) -> torch.Tensor:
    return torch.tensor(rows, dtype=torch.float32)


def test_a_reader_that_says_what_the_anchor_says_has_moved_nowhere():
    anchor = _logits([3.0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 2.0, 1.0])
    held, share = train.anchored_loss(anchor.clone(), anchor, torch.tensor([0, 5]))
    assert held.item() == pytest.approx(0.0, abs=1e-6) and share == 1.0


def test_it_is_held_only_where_the_anchor_is_right():
    anchor = _logits([3.0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 3.0, 0, 0, 0])
    y = torch.tensor([0, 5])  # the anchor reads the second crop 4, labelled 6
    moved_on_wrong = _logits([3.0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 3.0, 0])
    held, share = train.anchored_loss(moved_on_wrong, anchor, y)
    assert held.item() == pytest.approx(0.0, abs=1e-6) and share == 0.5
    moved_on_right = _logits([0, 3.0, 0, 0, 0, 0, 0], [0, 0, 0, 3.0, 0, 0, 0])
    held, _ = train.anchored_loss(moved_on_right, anchor, y)
    assert held.item() > 1.0


def test_a_step_with_an_anchor_adds_its_divergence_and_says_so():
    torch.manual_seed(0)
    model = trained_looking(FaceReader(), seed=1)
    anchor = trained_looking(FaceReader(), seed=2)
    x = torch.rand(8, 3, 48, 48)
    y = anchor(x).argmax(1)  # every crop read right by the anchor
    plain, _ = train._reader_step(model, (x, y))
    anchored, message = train._reader_step(model, (x, y), anchor=anchor, anchor_weight=2.0)
    held, share = train.anchored_loss(model(x), anchor(x), y)
    assert share == 1.0 and held.item() > 0
    assert anchored.item() == pytest.approx(plain.item() + 2.0 * held.item(), rel=1e-4)
    assert "anchor" in message


def test_a_tune_held_to_its_start_learns_the_anchors_mistake_and_keeps_the_rest():
    torch.manual_seed(0)
    start = trained_looking(FaceReader(), seed=3)
    x = torch.rand(32, 3, 48, 48)
    with torch.no_grad():
        said = start(x).argmax(1)
    y = said.clone()
    y[:4] = (said[:4] + 1) % NOT_A_DIE  # four crops the start reads wrong
    model = trained_looking(FaceReader(), seed=3)
    model.load_state_dict(start.state_dict())
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(60):
        model.train()
        loss, _ = train._reader_step(model, (x, y), anchor=start, anchor_weight=1.0)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        now = model(x).argmax(1)
    assert (now[:4] == y[:4]).sum() >= 3
    assert (now[4:] == said[4:]).float().mean() >= 0.9


@pytest.mark.parametrize("argv", [["detector", "--anchor", "runs/reader.pt"],
                                  ["reader", "--anchor", "runs/reader.pt", "--anchor-weight", "-1"]])
def test_an_anchor_is_for_readers_and_weighs_zero_or_more(argv):
    with pytest.raises(SystemExit):
        train.main(argv)
