"""CenterNet losses for the detector."""

from __future__ import annotations

import torch
import torch.nn.functional as F


def focal_heat_loss(logits: torch.Tensor, target: torch.Tensor, *, alpha: float = 2.0,
                    beta: float = 4.0) -> torch.Tensor:
    """Penalty-reduced focal loss of CenterNet, normalised by the number of dice."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    neg = 1.0 - pos
    pos_loss = torch.log(p) * (1 - p) ** alpha * pos
    neg_loss = torch.log(1 - p) * p**alpha * (1 - target) ** beta * neg
    n = pos.sum().clamp(min=1.0)
    return -(pos_loss.sum() + neg_loss.sum()) / n


def detector_loss(out: torch.Tensor, t: dict[str, torch.Tensor]) -> tuple[torch.Tensor, dict[str, float]]:
    heat = focal_heat_loss(out[:, 0], t["heat"])
    m = t["mask"].unsqueeze(1)
    n = m.sum().clamp(min=1.0)
    size = (F.l1_loss(out[:, 1:3], t["size"], reduction="none") * m).sum() / n
    off = (F.l1_loss(torch.sigmoid(out[:, 3:5]), t["offset"], reduction="none") * m).sum() / n
    total = heat + 1.0 * size + 1.0 * off
    parts = {"heat": heat.item(), "size": size.item(), "offset": off.item()}
    if out.shape[1] == 8:  # a detector that also boxes whole dice (`DiceDetector(whole=True)`)
        whole, whole_size = whole_die_loss(out[:, 5:8], t)
        total = total + whole + whole_size
        parts |= {"whole": whole.item(), "whole_size": whole_size.item()}
    elif out.shape[1] == 9:  # ... or knows each cell's die's edges (`whole_sides=True`)
        sides = die_side_loss(out[:, 5:9], t)
        total = total + sides
        parts |= {"sides": sides.item()}
    return total, parts


def die_side_loss(out: torch.Tensor, t: dict[str, torch.Tensor]) -> torch.Tensor:
    """L1 of the log distances to the whole die's edges, over the cells inside a whole die
    of the photos whose whole dice are known."""
    known = t["has_whole"] > 0
    if not bool(known.any()):
        return out.sum() * 0.0
    m = t["sides_mask"][known].unsqueeze(1)
    return (F.l1_loss(out[known], t["sides"][known], reduction="none") * m).sum() / (4 * m.sum()).clamp(min=1.0)


def whole_die_loss(out: torch.Tensor, t: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
    """Heat and size losses of the whole-die channels, over the photos whose whole dice are known."""
    known = t["has_whole"] > 0
    if not bool(known.any()):
        zero = out.sum() * 0.0
        return zero, zero
    heat = focal_heat_loss(out[known, 0], t["whole_heat"][known])
    m = t["whole_mask"][known].unsqueeze(1)
    size = (F.l1_loss(out[known, 1:3], t["whole_size"][known], reduction="none") * m).sum() / m.sum().clamp(min=1.0)
    return heat, size
