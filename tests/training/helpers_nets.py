"""Networks that look trained, for tests that compare what two networks compute."""

from __future__ import annotations

from typing import TypeVar

import torch
from torch import nn

Net = TypeVar("Net", bound=nn.Module)


def trained_looking(network: Net, seed: int) -> Net:
    """Random norm weights and statistics far from a fresh network's (gamma, beta, mean, var), in eval mode."""
    torch.manual_seed(seed)
    with torch.no_grad():
        for module in network.modules():
            if isinstance(module, nn.BatchNorm2d):
                assert module.running_mean is not None and module.running_var is not None
                module.weight.uniform_(0.3, 3.0)
                module.bias.normal_(0.0, 0.5)
                module.running_mean.normal_(0.0, 0.5)
                module.running_var.uniform_(0.2, 4.0)
    return network.eval()
