"""Photo in, dice out. Knows nothing of games.

Public names:
- `Dice`, `Die`: the result type (boxes, values, confidences); `CountedDice`: a count's
  dice and the dice seen beyond it (`DiceReader.read_counted`).
- `decode_image`, `ImageError`: bytes -> BGR ndarray, at the edge.
- `DiceReader`: the trained model (onnxruntime); `reader.read(image) -> Dice`.
- `annotate`: draw a `Dice` onto a copy of a photo.
"""

from dicecam.vision.annotate import annotate
from dicecam.vision.decode import ImageError, decode_image, load_image
from dicecam.vision.detections import CountedDice, Dice, Die

__all__ = ["CountedDice", "Dice", "Die", "ImageError", "annotate", "decode_image", "load_image"]
