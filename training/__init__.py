"""Building the vision model; never imported by the app at run time.

- `render`: synthetic photos and crops of dice (numpy and OpenCV only; benchmarks use it too).
- `data`: the shared train photos, rendered sources, augmentation, targets, caches, mining
  (numpy and OpenCV only).
- `learn`: the torch networks, training, export to ONNX (needs the `train` extra).
- `calibrate`: the confidence fit for a models folder; `recipe`: every stage that made the
  shipped files, in order (`python -m dicecam.training.recipe`).
"""
