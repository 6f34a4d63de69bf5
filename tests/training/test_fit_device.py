"""`training.learn.train.fit` learns where it is told, with several sample workers, and saves for the CPU."""

from __future__ import annotations

import pytest

pytest.importorskip("torch", reason="training needs the `train` extra")

import torch
from torch.utils.data import IterableDataset, get_worker_info

import dicecam.training.learn.train as train

DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


class _Line(IterableDataset):
    """Endless (x, {"y": 2x + 1}) pairs; `x` tells which worker drew it (its sign)."""

    def __iter__(self):
        info = get_worker_info()
        sign = 1.0 if info is None or info.id == 0 else -1.0
        g = torch.Generator().manual_seed(0 if info is None else info.id)
        while True:
            x = sign * torch.rand(1, generator=g)
            yield x, {"y": 2 * x + 1}


def _step(seen: list[torch.Tensor]):
    def loss_step(model: torch.nn.Module, data: train.Batch) -> tuple[torch.Tensor, str]:
        x, target = data
        seen.append(x.detach().cpu())
        assert x.device.type == next(model.parameters()).device.type
        return torch.nn.functional.mse_loss(model(x), target["y"]), ""

    return loss_step


@pytest.mark.parametrize("device", DEVICES)
def test_fit_learns_on_the_device_from_every_worker_and_saves_for_the_cpu(tmp_path, device):
    torch.manual_seed(0)
    model = torch.nn.Linear(1, 1)
    seen: list[torch.Tensor] = []
    fitted = train.fit(model, _Line(), 300, batch=16, lr=0.05, resume=None, checkpoint=tmp_path / "m.pt",
                       log_every=1000, loss_step=_step(seen), device=device, workers=2)
    assert next(fitted.parameters()).device.type == "cpu"
    assert fitted.weight.item() == pytest.approx(2.0, abs=0.1)
    assert fitted.bias.item() == pytest.approx(1.0, abs=0.1)
    # Both workers' streams reached the learner, not one stream twice.
    xs = torch.cat(seen)
    assert (xs > 0).any() and (xs < 0).any()
    saved = torch.load(tmp_path / "m.pt")
    assert all(t.device.type == "cpu" for t in saved.values())
    assert torch.equal(saved["weight"], fitted.weight.detach())


def test_batches_move_with_their_structure():
    batch = (torch.zeros(2), {"heat": torch.ones(1), "rest": [torch.zeros(1), 3]})
    moved = train._to(batch, "cpu")
    assert isinstance(moved, tuple) and isinstance(moved[1], dict) and isinstance(moved[1]["rest"], list)
    assert moved[1]["rest"][1] == 3
    assert torch.equal(moved[1]["heat"], torch.ones(1))
