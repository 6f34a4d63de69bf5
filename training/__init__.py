"""Training of the vision model (torch lives only here, in the `train` extra).

`python -m dicecam.training.train` trains the detector and the face reader from the
shared datasets' train splits plus rendered synthetic photos, and exports both
to ONNX in `models/`.
"""
