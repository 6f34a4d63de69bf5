"""Where training data comes from and where its stages leave their caches (relative to the
working folder, as the recipe runs).

One place for the paths, so the stage that writes a cache and the source that reads it
need not import each other.
"""

import os
from pathlib import Path

#: The shared labelled photo sets (`DICECAM_DATASETS`, else `../shared/datasets` beside the checkout).
DATASETS = Path(os.environ.get("DICECAM_DATASETS", Path(__file__).resolve().parents[3] / "shared" / "datasets"))
#: Sets whose boxes cover each whole die (top face and the sides in view), not its top face.
WHOLE_DIE_SETS = ("roboflow_dice",)

#: Rendered reader crops (`crop_cache`), drawn from with fresh jitter on every use.
CROPS = Path("data") / "synth_crops.npz"
#: The same as an upright phone sees the dice (`crop_cache --upright`).
UPRIGHT_CROPS = Path("data") / "synth_crops_upright.npz"
#: Boxes the shipped networks take for dice where there is none (`mine`): the reader's hard negatives.
HARD_NEGATIVES = Path("data") / "hard_negatives.npz"
#: Windows on rendered game-table decoys (numeral dice, dominoes, tokens...), by kind (`decoy_cache`).
DECOYS = Path("data") / "decoys.npz"
#: The detector's top faces inside whole-die labels (`top_faces`), what it learns to find on those photos.
TOP_FACES = Path("data") / "top_faces.json"
