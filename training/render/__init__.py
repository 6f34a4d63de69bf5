"""Synthetic photos and crops of dice (numpy and OpenCV only: the benchmarks render with it too)."""
