"""The shipped networks (`detector.onnx`, `reader.onnx`) and their confidence fit, as package data.

`importlib.resources.files("dicecam.models")` finds them in a checkout and in an installed wheel alike.
"""
