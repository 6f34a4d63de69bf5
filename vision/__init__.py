"""Photo in, dice out. Knows nothing of games.

Public names:
- `Dice`, `Die`: the result type (boxes, values, confidences).
- `decode_image`, `ImageError`: bytes -> BGR ndarray, at the edge.
- `DiceReader`: the trained model (onnxruntime); `reader.read(image) -> Dice`.
- `annotate`: draw a `Dice` onto a copy of a photo.
"""

from dicecam.vision.annotate import annotate
from dicecam.vision.decode import ImageError, decode_image, load_image
from dicecam.vision.detections import Dice, Die

__all__ = ["Dice", "Die", "ImageError", "annotate", "decode_image", "load_image"]
