"""The two torch networks: a CenterNet-style die detector and a face reader.

Both are small enough to run in a few milliseconds on a phone-class CPU through
onnxruntime; `training.learn.export` writes them to ONNX.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from dicecam.training.shapes import NOT_A_DIE, READER_SIZE, SEARCH_STRIDE, STRIDE  # noqa: F401  (the contract)

#: The weights whose rows are the stride-8 features' channels: `STRIDE8_CHANNELS` times `deep`.
DEEP_PROBE = "down8.0.pw.0.weight"
STRIDE8_CHANNELS = 64


def conv_bn(cin: int, cout: int, *, k: int = 3, s: int = 1, groups: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, s, k // 2, groups=groups, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class SepBlock(nn.Module):
    """Depthwise 3x3 then pointwise 1x1, residual when shapes allow."""

    def __init__(self, cin: int, cout: int, *, s: int = 1) -> None:
        super().__init__()
        self.dw = conv_bn(cin, cin, s=s, groups=cin)
        self.pw = conv_bn(cin, cout, k=1)
        self.residual = s == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.pw(self.dw(x))
        return x + y if self.residual else y


def coarse_layers(c2: int, c3: int) -> tuple[nn.Module, ...]:
    """A detector's stride-8 and coarser layers, in the order (and so under the names) both
    detectors give them: down8, down16, down32, lat16, lat16b, fuse16, lat8, up8, fuse8.
    They take stride-4 features of `c2` channels; `c3` channels at stride 8, twice at 16 and 32."""
    c4 = 2 * c3
    return (nn.Sequential(SepBlock(c2, c3, s=2), SepBlock(c3, c3), SepBlock(c3, c3)),  # /8
            nn.Sequential(SepBlock(c3, c4, s=2), SepBlock(c4, c4), SepBlock(c4, c4)),  # /16
            nn.Sequential(SepBlock(c4, c4, s=2), SepBlock(c4, c4)),  # /32: context for big dice
            conv_bn(c4, c3, k=1), conv_bn(c4, c3, k=1), SepBlock(c3, c3),
            conv_bn(c3, c2, k=1), conv_bn(c3, c2, k=1), SepBlock(c2, c2))


def stride8_features(net: DiceDetector | SearchDetector, x4: torch.Tensor) -> torch.Tensor:
    """The stride-8 features (`c2` channels) a detector's `coarse_layers` make of its stride-4
    ones, with what the stride-16 and stride-32 layers see around each cell."""
    x8 = net.down8(x4)
    x16 = net.down16(x8)
    x32 = net.down32(x16)
    p16 = net.fuse16(net.lat16(x16) + F.interpolate(net.lat16b(x32), scale_factor=2.0, mode="nearest"))
    return net.fuse8(net.lat8(x8) + F.interpolate(net.up8(p16), scale_factor=2.0, mode="nearest"))


class DiceDetector(nn.Module):
    """Heat map of die centres (1 channel, logits), box size (2, log pixels/STRIDE) and sub-cell offset (2).

    Input: BGR float image in 0..1, N x 3 x H x W with H, W multiples of 32.
    `deep` multiplies the channels of the stride-8 and coarser layers alone (`widen` grows
    a trained detector so, keeping what it computes).

    Output: N x 5 x H/4 x W/4; with `whole`, 3 channels more (N x 8): the heat map and box
    size of whole dice (top and side faces, as `roboflow_dice` labels them), so a side
    face can be told from a second die. `whole_stride` 8 puts that branch on the stride-8
    features (a quarter of the cells, so a quarter of its cost; a whole die needs no
    finer place) and enlarges its maps to stride 4. With `whole_sides` the branch gives 4
    channels instead (N x 9): at every cell inside a whole die, the log distances (in
    cells) to that die's left, top, right and bottom edges, so any face found there knows
    where its die's top edge is (a side face lies low on its die, under the top face).
    """

    def __init__(self, width: int = 1, *, deep: int = 1, whole: bool = False, whole_stride: int = 4,
                 whole_sides: bool = False) -> None:
        super().__init__()
        # `deep` widens only the stride-8 and coarser layers: what tells a die from a board's
        # print is seen there, on a sixteenth of the cells, so it costs far less than `width`.
        c1, c2, c3 = 16 * width, 32 * width, STRIDE8_CHANNELS * width * deep
        self.stem = nn.Sequential(conv_bn(3, c1, s=2), SepBlock(c1, c1))              # /2
        self.down4 = nn.Sequential(SepBlock(c1, c2, s=2), SepBlock(c2, c2))          # /4
        (self.down8, self.down16, self.down32, self.lat16, self.lat16b, self.fuse16,
         self.lat8, self.up8, self.fuse8) = coarse_layers(c2, c3)
        self.lat4 = conv_bn(c2, c2, k=1)
        self.up4 = conv_bn(c2, c2, k=1)
        self.fuse4 = nn.Sequential(SepBlock(c2, c2), SepBlock(c2, c2))
        self.head = nn.Conv2d(c2, 5, 1)
        bias = self.head.bias
        assert bias is not None  # nn.Conv2d has one unless made with bias=False
        nn.init.constant_(bias, 0.0)
        with torch.no_grad():
            bias[0] = -4.0  # start with "no die anywhere"
        # A whole die's centre lies off its top face's, towards its side faces: a branch of its
        # own sees further round each cell than the top faces' 1x1 head.
        self.whole_head: nn.Sequential | None = None
        if whole_stride not in (4, 8):
            raise ValueError(f"the whole-die branch sits on the stride-4 or stride-8 features, not {whole_stride}")
        self.whole_at = whole_stride
        #: Set by `freeze_top_faces`: only the whole-die branch learns.
        self.top_frozen = False
        if whole:
            out = nn.Conv2d(c2, 4 if whole_sides else 3, 1)
            assert out.bias is not None
            # Sides start at e^1.5, about 4.5 cells: a die's half side at a usual size.
            nn.init.constant_(out.bias, 1.5 if whole_sides else 0.0)
            with torch.no_grad():
                if not whole_sides:
                    out.bias[0] = -4.0
            self.whole_head = nn.Sequential(SepBlock(c2, c2), SepBlock(c2, c2), out)
            # Kept with the weights, so a checkpoint says where its branch sits (`detector_of`).
            self.register_buffer("whole_stride", torch.tensor(whole_stride))

    def freeze_top_faces(self) -> None:
        """Learn only the whole-die branch: the rest keeps its weights and its batch-norm
        statistics, so its top faces stay exactly those of the detector it started from."""
        if self.whole_head is None:
            raise ValueError("only a detector with a whole-die branch can learn it alone")
        self.top_frozen = True
        for name, weights in self.named_parameters():
            weights.requires_grad_(name.startswith("whole_head."))
        self.train(self.training)

    def train(self, mode: bool = True) -> DiceDetector:
        super().train(mode)
        if self.top_frozen:
            for name, part in self.named_children():
                if name != "whole_head":
                    part.eval()
        return self

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x4 = self.down4(self.stem(x))
        p8 = stride8_features(self, x4)
        p4 = self.fuse4(self.lat4(x4) + F.interpolate(self.up4(p8), scale_factor=2.0, mode="nearest"))
        if self.whole_head is None:
            return self.head(p4)
        if self.whole_at == 4:
            return torch.cat([self.head(p4), self.whole_head(p4)], dim=1)
        whole = F.interpolate(self.whole_head(p8), scale_factor=2.0, mode="bilinear", align_corners=False)
        return torch.cat([self.head(p4), whole], dim=1)


class SearchDetector(nn.Module):
    """The count's search network: `DiceDetector`'s maps (5 channels) at stride 8, for a photo
    enlarged 2.5 times, where the dice a count still lacks come out 24 px or more.

    Its stride-8 and coarser layers are the detector's (same names, so a detector's weights
    start them: `search_from_detector`); below them a 4x4 patch convolution and one block
    replace the detector's stride-2 and stride-4 stages, and the head reads the stride-8
    features: those stages and the stride-4 decoder are two thirds of the detector's time
    on the search's 1,280 px photo (models/HISTORY.md, session 51).
    """

    def __init__(self) -> None:
        super().__init__()
        c2, c3 = 32, STRIDE8_CHANNELS
        # 4x4 cells side by side (no padding): each input pixel seen once.
        self.patch = nn.Sequential(nn.Conv2d(3, c2, 4, 4, 0, bias=False), nn.BatchNorm2d(c2),  # /4
                                   nn.ReLU(inplace=True))
        self.near = SepBlock(c2, c2)
        (self.down8, self.down16, self.down32, self.lat16, self.lat16b, self.fuse16,
         self.lat8, self.up8, self.fuse8) = coarse_layers(c2, c3)
        self.head = nn.Conv2d(c2, 5, 1)
        assert self.head.bias is not None
        nn.init.constant_(self.head.bias, 0.0)
        with torch.no_grad():
            self.head.bias[0] = -4.0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(stride8_features(self, self.near(self.patch(x))))


#: A search network's own layer, in a state dict (a detector's has none).
SEARCH_PROBE = "patch.0.weight"


def search_from_detector(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """A search network's starting weights from a plain detector's (`deep` 1, no whole-die
    branch): its stride-8 and coarser layers and its head, the head's sizes halved to count
    in stride-8 cells; the patch convolution and its block keep their fresh start."""
    own = SearchDetector().state_dict()
    out = {name: state[name].clone() if name in state and state[name].shape == w.shape else w
           for name, w in own.items()}
    out["head.bias"][1:3] -= math.log(SEARCH_STRIDE / STRIDE)
    return out


def search_of(state: dict[str, torch.Tensor]) -> SearchDetector:
    """A search network with these weights (a search checkpoint's, or a detector's to start from)."""
    model = SearchDetector()
    model.load_state_dict(state if SEARCH_PROBE in state else search_from_detector(state))
    return model


def deep_of(state: dict[str, torch.Tensor]) -> int:
    """How many times a detector checkpoint's stride-8 and coarser layers are widened (`deep`)."""
    return int(state[DEEP_PROBE].shape[0]) // STRIDE8_CHANNELS


def detector_of(state: dict[str, torch.Tensor]) -> DiceDetector:
    """The detector a checkpoint's weights are for (with its whole-die branch, where it has
    one, on the features it was trained on), the weights loaded."""
    whole = any(name.startswith("whole_head.") for name in state)
    stride = int(state["whole_stride"]) if "whole_stride" in state else 4
    sides = whole and state["whole_head.2.weight"].shape[0] == 4
    model = DiceDetector(deep=deep_of(state), whole=whole, whole_stride=stride, whole_sides=sides)
    if whole and "whole_stride" not in state:  # saved before the branch could sit elsewhere
        state = state | {"whole_stride": torch.tensor(4)}
    model.load_state_dict(state)
    return model


class CropContrast(nn.Module):
    """Each crop at zero mean per channel, divided by its own contrast: a dim die looks like a bright one."""

    def __init__(self) -> None:
        super().__init__()
        # Marks a checkpoint as trained with this step, which has no weights of its own.
        self.register_buffer("on", torch.ones(()))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x - x.mean(dim=(2, 3), keepdim=True)
        spread = torch.sqrt((x * x).mean(dim=(1, 2, 3), keepdim=True))
        return x / (spread + 0.05)  # a flat crop is not blown up into noise


class FaceReader(nn.Module):
    """Classifies a crop centred on a die's top face: logits for values 1-6 and "not a die".

    `grid`: the last features are pooled to a `grid` x `grid` layout before the linear head
    (1: one average over the crop). A face's value is where its pips lie as much as how
    many there are; with a 3 x 3 layout the head sees the middle row a 6 has and a 4 lacks
    (though a tune with it read the orange 6s no better: R169 in models/HISTORY.md).
    `wide`: its 12 px and 6 px layers that many times as wide (the full-resolution layers,
    which cost the most, stay), room to tell wide-set pips and small dice apart.
    """

    def __init__(self, *, contrast: bool = False, grid: int = 1, wide: int = 1) -> None:
        super().__init__()
        if grid < 1:
            raise ValueError(f"the reader's layout grid must be at least 1, got {grid}")
        if wide < 1:
            raise ValueError(f"the reader's width must be at least 1, got {wide}")
        self.contrast = CropContrast() if contrast else nn.Identity()
        self.features = nn.Sequential(
            conv_bn(3, 16),                 # 48: full resolution first, for small dark pips
            conv_bn(16, 32, s=2),           # 24
            conv_bn(32, 32),
            conv_bn(32, 64 * wide, s=2),    # 12
            conv_bn(64 * wide, 64 * wide),
            conv_bn(64 * wide, 128 * wide, s=2),  # 6
            conv_bn(128 * wide, 128 * wide),
            nn.AdaptiveAvgPool2d(grid),
        )
        self.classify = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(128 * wide * grid * grid, 7))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.classify(self.features(self.contrast(x)))


#: The reader's linear head, in a state dict.
READER_HEAD = "classify.2.weight"


#: The reader's last layer's weight, whose first dimension is its width (128 channels a `wide`).
READER_LAST = "features.6.0.weight"


def head_grid(features: int, *, wide: int = 1) -> int:
    """The layout grid of a reader head that reads `features` inputs (128 x `wide` channels a cell)."""
    channels = 128 * wide
    cells = features // channels
    grid = math.isqrt(cells)
    if grid * grid * channels != features:
        raise ValueError(f"a reader head reading {features} features is no square layout of {channels} channels")
    return grid


def reader_wide(state: dict[str, torch.Tensor]) -> int:
    """How many times as wide as the first reader a reader's weights are (`FaceReader(wide=...)`)."""
    return state[READER_LAST].shape[0] // 128


def reader_grid(state: dict[str, torch.Tensor]) -> int:
    """The layout grid (`FaceReader(grid=...)`) a reader's weights were made for."""
    return head_grid(state[READER_HEAD].shape[1], wide=reader_wide(state))


def reader_of(state: dict[str, torch.Tensor]) -> FaceReader:
    """A reader built for `state` (its contrast step, width and layout grid) with those weights loaded."""
    model = FaceReader(contrast="contrast.on" in state, grid=reader_grid(state), wide=reader_wide(state))
    model.load_state_dict(state)
    return model


def spread_head(state: dict[str, torch.Tensor], grid: int) -> dict[str, torch.Tensor]:
    """`state` (a reader's weights) with its head read over a `grid` layout, giving the same logits.

    Each cell of the layout is the mean of its part of the last features, so the whole
    crop's mean is the mean of the cells: the head's weights, copied to every cell and
    divided by their number, start the layout reader exactly where the one-average reader was.
    """
    old = reader_grid(state)
    if old == grid:
        return state
    if old != 1:
        raise ValueError(f"only a one-average reader's head can be spread over a layout (this one reads {old} x {old})")
    return state | {READER_HEAD: state[READER_HEAD].repeat_interleave(grid * grid, dim=1) / (grid * grid)}
