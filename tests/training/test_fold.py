"""Folding a 2x bilinear enlargement into a search network's first layer (`training.learn.fold`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.lib.stride_tricks import sliding_window_view

from dicecam.training.learn.fold import fold_enlargement, folded_kernel, twin_path
from dicecam.vision.reader import DEFAULT_MODELS, SEARCH_FILE


def _conv(image: np.ndarray, kernel: np.ndarray, stride: int) -> np.ndarray:
    """(out, H', W') of a CHW float image, unpadded."""
    windows = sliding_window_view(image, kernel.shape[2:], axis=(1, 2))[:, ::stride, ::stride]
    return np.einsum("chwab,ocab->ohw", windows, kernel)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), half_h=st.integers(2, 12), half_w=st.integers(2, 12))
def test_the_folded_kernel_over_the_photo_is_the_kernel_over_its_bilinear_enlargement(seed, half_h, half_w):
    rng = np.random.default_rng(seed)
    photo = rng.integers(0, 256, (2 * half_h, 2 * half_w, 3)).astype(np.float32)
    kernel = rng.normal(size=(2, 3, 4, 4)).astype(np.float32)
    enlarged = cv2.resize(photo, (4 * half_w, 4 * half_h), interpolation=cv2.INTER_LINEAR)
    want = _conv(enlarged.transpose(2, 0, 1), kernel, 4)
    edged = np.pad(photo, ((1, 1), (1, 1), (0, 0)), mode="edge").transpose(2, 0, 1)
    got = _conv(edged, folded_kernel(kernel), 2)
    assert got.shape == want.shape == (2, half_h, half_w)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-2)


def test_the_shipped_twin_is_the_fold_of_the_shipped_search_network(tmp_path):
    pytest.importorskip("onnx", reason="folding needs the `train` extra")
    fold_enlargement(DEFAULT_MODELS / SEARCH_FILE, tmp_path / "search_x2.onnx")
    assert twin_path(DEFAULT_MODELS / SEARCH_FILE).name == "search_x2.onnx"
    assert (tmp_path / "search_x2.onnx").read_bytes() == (DEFAULT_MODELS / "search_x2.onnx").read_bytes()


def test_a_network_whose_first_layer_is_not_a_stride_4_patch_does_not_fold(tmp_path):
    pytest.importorskip("onnx", reason="folding needs the `train` extra")
    with pytest.raises(ValueError, match="not an unpadded stride-4 convolution"):
        fold_enlargement(DEFAULT_MODELS / "detector.onnx", tmp_path / "detector_x2.onnx")
    assert not (tmp_path / "detector_x2.onnx").exists()


def test_only_a_4x4_kernel_folds():
    with pytest.raises(ValueError, match="4x4"):
        folded_kernel(np.zeros((2, 3, 3, 3), np.float32))
