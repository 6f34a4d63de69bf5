"""The torch side: the two networks, their losses, training, export to ONNX, soups and restores."""
