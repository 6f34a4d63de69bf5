"""decode_image: formats, EXIF orientation, and every kind of bad input the issue names."""

from __future__ import annotations

import resource
import struct
import zlib

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicecam.vision.decode import ImageError, decode_cost, decode_image, load_image, read_header


def _visual(height: int = 60, width: int = 96) -> np.ndarray:
    """An upright test picture whose every flip and rotation looks different: 4x6 blocks of distinct colours."""
    rng = np.random.default_rng(7)
    colours = rng.integers(0, 256, size=(4, 6, 3), dtype=np.uint8)
    return np.repeat(np.repeat(colours, height // 4, axis=0), width // 6, axis=1)


def _jpeg(image: np.ndarray, *params: int) -> bytes:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95, *params])
    assert ok
    return buf.tobytes()


def _encode(ext: str, image: np.ndarray, *params: int) -> bytes:
    ok, buf = cv2.imencode(ext, image, list(params))
    assert ok
    return buf.tobytes()


def _tiff_orientation(value: int, order: str = "<") -> bytes:
    """A minimal TIFF block: IFD0 with one entry, Orientation (0x0112, SHORT) = value."""
    head = (b"II*\x00" if order == "<" else b"MM\x00*") + struct.pack(order + "I", 8)
    entry = struct.pack(order + "HHIHH", 0x0112, 3, 1, value, 0)
    return head + struct.pack(order + "H", 1) + entry + struct.pack(order + "I", 0)


def _with_exif_jpeg(jpeg: bytes, tiff: bytes) -> bytes:
    payload = b"Exif\x00\x00" + tiff
    app1 = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    return jpeg[:2] + app1 + jpeg[2:]


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _with_exif_png(png: bytes, tiff: bytes) -> bytes:
    # Put eXIf right after IHDR (8-byte signature + 25-byte IHDR chunk).
    return png[:33] + _png_chunk(b"eXIf", tiff) + png[33:]


def _with_exif_webp(webp: bytes, tiff: bytes, width: int, height: int) -> bytes:
    """Wrap a simple WebP in the extended (VP8X) container with an EXIF chunk."""
    image_chunk = webp[12:]
    vp8x = b"VP8X" + struct.pack("<I", 10) + bytes([0x08, 0, 0, 0])
    vp8x += (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    exif = b"EXIF" + struct.pack("<I", len(tiff)) + tiff + (b"\x00" if len(tiff) % 2 else b"")
    body = b"WEBP" + vp8x + image_chunk + exif
    return b"RIFF" + struct.pack("<I", len(body)) + body


# The EXIF 2.3 definition of Orientation: which side of the visual picture the
# stored 0th row and 0th column show.
_EXIF_SIDES = {
    1: ("top", "left"), 2: ("top", "right"), 3: ("bottom", "right"), 4: ("bottom", "left"),
    5: ("left", "top"), 6: ("right", "top"), 7: ("right", "bottom"), 8: ("left", "bottom"),
}


def _stored_as_camera(visual: np.ndarray, orientation: int) -> np.ndarray:
    """The pixels a camera stores for `visual` when it tags them with `orientation`.

    Built straight from the row/column table above with index arithmetic, so it
    shares nothing with the rotations `decode_image` uses.
    """
    height, width = visual.shape[:2]
    row_side, col_side = _EXIF_SIDES[orientation]
    if row_side in ("top", "bottom"):
        r, c = np.mgrid[0:height, 0:width]
        vr = r if row_side == "top" else height - 1 - r
        vc = c if col_side == "left" else width - 1 - c
    else:
        r, c = np.mgrid[0:width, 0:height]
        vc = r if row_side == "left" else width - 1 - r
        vr = c if col_side == "top" else height - 1 - c
    return np.ascontiguousarray(visual[vr, vc])


def _close(a: np.ndarray, b: np.ndarray, tol: float = 6.0) -> bool:
    return a.shape == b.shape and float(np.abs(a.astype(int) - b.astype(int)).mean()) < tol


# --- orientation -----------------------------------------------------------

@pytest.mark.parametrize("orientation", range(1, 9))
@pytest.mark.parametrize("order", ["<", ">"])
def test_jpeg_exif_orientation_shows_the_photo_upright(orientation, order):
    visual = _visual()
    data = _with_exif_jpeg(_jpeg(_stored_as_camera(visual, orientation)), _tiff_orientation(orientation, order))
    assert _close(decode_image(data), visual)


def test_the_test_picture_tells_all_orientations_apart():
    # Otherwise the orientation tests above could pass with a wrong rotation.
    visual = _visual()
    for orientation in range(2, 9):
        assert not _close(_stored_as_camera(visual, orientation), visual)


@pytest.mark.parametrize("orientation", [3, 6, 8])
def test_png_exif_chunk_orientation_is_applied(orientation):
    visual = _visual()
    data = _with_exif_png(_encode(".png", _stored_as_camera(visual, orientation)), _tiff_orientation(orientation))
    assert np.array_equal(decode_image(data), visual)


@pytest.mark.parametrize("orientation", [2, 6, 7])
def test_webp_exif_chunk_orientation_is_applied(orientation):
    visual = _visual()
    stored = _stored_as_camera(visual, orientation)
    webp = _encode(".webp", stored, cv2.IMWRITE_WEBP_QUALITY, 101)
    data = _with_exif_webp(webp, _tiff_orientation(orientation), stored.shape[1], stored.shape[0])
    assert read_header(data).orientation == orientation
    assert np.array_equal(decode_image(data), visual)


@pytest.mark.parametrize(
    "tiff",
    [b"", b"II*\x00", b"II*\x00\xff\xff\xff\xff", b"MM\x00*\x00\x00\x00\x08\x00\x05", _tiff_orientation(9)],
    ids=["empty", "header-only", "ifd-out-of-range", "entries-cut-off", "orientation-9"],
)
def test_damaged_exif_does_not_reject_the_photo(tiff):
    visual = _visual()
    data = _with_exif_jpeg(_jpeg(visual), tiff)
    assert read_header(data).orientation == 1
    assert _close(decode_image(data), visual)


# --- formats ----------------------------------------------------------------

def test_png_and_lossless_webp_round_trip_exactly():
    visual = _visual()
    assert np.array_equal(decode_image(_encode(".png", visual)), visual)
    assert np.array_equal(decode_image(_encode(".webp", visual, cv2.IMWRITE_WEBP_QUALITY, 101)), visual)


def test_lossy_webp_decodes():
    visual = _visual()
    data = _encode(".webp", visual, cv2.IMWRITE_WEBP_QUALITY, 90)
    assert read_header(data).format == "WebP" and data[12:16] == b"VP8 "
    assert _close(decode_image(data), visual, tol=15)


@pytest.mark.parametrize("ext", [".png", ".jpg"])
def test_grey_becomes_three_equal_channels(ext):
    grey = cv2.cvtColor(_visual(), cv2.COLOR_BGR2GRAY)
    decoded = decode_image(_encode(ext, grey))
    assert decoded.shape == (*grey.shape, 3) and decoded.dtype == np.uint8
    assert np.array_equal(decoded[:, :, 0], decoded[:, :, 1])
    assert np.array_equal(decoded[:, :, 1], decoded[:, :, 2])
    assert _close(decoded[:, :, 0], grey)


def test_alpha_is_dropped():
    visual = _visual()
    alpha = np.tile(np.linspace(0, 255, visual.shape[1]).astype(np.uint8), (visual.shape[0], 1))
    decoded = decode_image(_encode(".png", np.dstack([visual, alpha])))
    assert np.array_equal(decoded, visual)


def test_sixteen_bit_is_scaled_to_eight_bit():
    values = np.array([[0, 257, 32896, 65535]], np.uint16)
    colour = np.dstack([values, values // 2, values // 4])
    decoded = decode_image(_encode(".png", colour))
    assert decoded.dtype == np.uint8
    assert decoded[0, :, 0].tolist() == [0, 1, 128, 255]
    assert decoded[0, :, 1].tolist() == [0, 0, 64, 127]


def test_progressive_and_restart_jpegs_decode():
    visual = _visual(240, 384)
    for params in ([cv2.IMWRITE_JPEG_PROGRESSIVE, 1], [cv2.IMWRITE_JPEG_RST_INTERVAL, 2]):
        assert _close(decode_image(_jpeg(visual, *params)), visual)


def test_data_after_the_jpeg_end_is_allowed():
    # Phones append trailers (motion-photo videos, maker data) after the image.
    visual = _visual()
    assert _close(decode_image(_jpeg(visual) + b"\x00\xff\xd8 trailer \xff\xd9 more"), visual)


def test_any_size_from_one_pixel():
    assert decode_image(_encode(".png", np.full((1, 1, 3), 9, np.uint8))).shape == (1, 1, 3)


def test_header_reports_stored_size_and_format():
    stored = _stored_as_camera(_visual(), 6)
    data = _with_exif_jpeg(_jpeg(stored), _tiff_orientation(6))
    header = read_header(data)
    assert (header.format, header.width, header.height, header.orientation) == ("JPEG", 60, 96, 6)
    assert decode_image(data).shape == (60, 96, 3)


# --- bad input ---------------------------------------------------------------

def test_empty_file():
    with pytest.raises(ImageError, match="empty") as exc:
        decode_image(b"")
    assert exc.value.code == "empty"


@pytest.mark.parametrize(
    "data",
    [b"hello dice", b"\x00" * 100, b'{"dice": [1, 2, 3]}', b"\xff\xd8"],
    ids=["text", "zeros", "json", "two-bytes"],
)
def test_not_an_image(data):
    with pytest.raises(ImageError, match="not an image") as exc:
        decode_image(data)
    assert exc.value.code == "not_an_image"


@pytest.mark.parametrize(
    ("data", "word"),
    [
        (b"\x00\x00\x00\x18ftypheic" + b"\x00" * 40, "HEIC"),
        (b"GIF89a" + b"\x00" * 40, "GIF"),
        (b"%PDF-1.4\n" + b"\x00" * 40, "PDF"),
    ],
)
def test_unsupported_formats_are_named(data, word):
    with pytest.raises(ImageError, match=word) as exc:
        decode_image(data)
    assert exc.value.code == "unsupported"


def test_bmp_is_named_as_unsupported():
    with pytest.raises(ImageError, match="BMP"):
        decode_image(_encode(".bmp", _visual()))


@pytest.mark.parametrize("keep", [0.3, 0.6, 0.9, -2, -1])
def test_truncated_jpeg_is_refused(keep):
    data = _jpeg(_visual(240, 384))
    cut = data[: int(len(data) * keep)] if keep > 0 else data[:keep]
    with pytest.raises(ImageError, match="incomplete") as exc:
        decode_image(cut)
    assert exc.value.code == "truncated"


def test_truncated_progressive_jpeg_is_refused():
    data = _jpeg(_visual(240, 384), cv2.IMWRITE_JPEG_PROGRESSIVE, 1)
    with pytest.raises(ImageError, match="incomplete"):
        decode_image(data[: len(data) * 2 // 3])


@pytest.mark.parametrize("ext", [".png", ".webp"])
def test_truncated_png_and_webp_are_refused(ext):
    data = _encode(ext, _visual(240, 384))
    for cut in (len(data) // 2, len(data) - 1):
        with pytest.raises(ImageError, match="incomplete"):
            decode_image(data[:cut])


def _png_bomb(width: int, height: int) -> bytes:
    """A complete, tiny PNG whose header claims width x height RGB pixels."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00" * (1 + 3 * 64))  # one filter byte and a few pixels: far too little
    return b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr) + _png_chunk(b"IDAT", idat) + _png_chunk(b"IEND", b"")


def test_png_decompression_bomb_is_refused_before_decoding():
    bomb = _png_bomb(40000, 40000)
    assert len(bomb) < 200
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(ImageError, match=r"too large \(40000x40000") as exc:
        decode_image(bomb)
    assert exc.value.code == "too_large"
    # 40000x40000x3 bytes would be 4.8 GB; the peak memory must not have moved by anything like it.
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before
    assert grown_kib < 100_000


def test_the_pixel_limit_is_adjustable():
    data = _encode(".png", _visual())  # 60x96 = 5760 pixels
    with pytest.raises(ImageError, match="too large"):
        decode_image(data, max_pixels=5759)
    assert decode_image(data, max_pixels=5760).shape == (60, 96, 3)


def test_jpeg_and_webp_bombs_are_refused_from_the_header():
    jpeg = bytearray(_jpeg(_visual()))
    sof = jpeg.index(b"\xff\xc0")
    jpeg[sof + 5 : sof + 9] = struct.pack(">HH", 60000, 60000)
    with pytest.raises(ImageError, match="too large"):
        decode_image(bytes(jpeg))
    webp = _encode(".webp", _visual(), cv2.IMWRITE_WEBP_QUALITY, 101)
    huge = _with_exif_webp(webp, _tiff_orientation(1), 1 << 24, 1 << 24)
    with pytest.raises(ImageError, match="too large"):
        decode_image(huge)


def test_jpeg_with_broken_segments_is_refused():
    data = bytearray(_jpeg(_visual()))
    sos = data.index(b"\xff\xda")
    data[sos : sos + 2] = b"\x00\x00"  # the scan's marker is gone
    with pytest.raises(ImageError, match="damaged") as exc:
        decode_image(bytes(data))
    assert exc.value.code == "damaged"


@settings(max_examples=60, deadline=None)
@given(data=st.binary(max_size=300))
def test_arbitrary_bytes_never_crash(data):
    try:
        image = decode_image(data)
    except ImageError:
        return
    assert image.ndim == 3 and image.shape[2] == 3 and image.dtype == np.uint8


_GOOD = {ext: _encode(ext, _visual(120, 192)) for ext in (".jpg", ".png", ".webp")}


@settings(max_examples=60, deadline=None)
@given(ext=st.sampled_from(sorted(_GOOD)), fraction=st.floats(0.0, 0.999))
def test_every_truncation_is_refused(ext, fraction):
    data = _GOOD[ext]
    with pytest.raises(ImageError):
        decode_image(data[: int(len(data) * fraction)])


@settings(max_examples=40, deadline=None)
@given(ext=st.sampled_from(sorted(_GOOD)), index=st.integers(0, 10_000), value=st.integers(0, 255))
def test_a_flipped_byte_gives_an_image_or_an_image_error(ext, index, value):
    data = bytearray(_GOOD[ext])
    data[index % len(data)] = value
    try:
        image = decode_image(bytes(data))
    except ImageError:
        return
    header = read_header(bytes(data))  # a flipped size byte may change the size, consistently
    assert image.shape == (header.height, header.width, 3) and image.dtype == np.uint8


# --- files -------------------------------------------------------------------

def test_load_image_reads_a_file(tmp_path):
    path = tmp_path / "wurf.png"
    path.write_bytes(_encode(".png", _visual()))
    assert np.array_equal(load_image(path), _visual())


def test_load_image_missing_file_and_folder(tmp_path):
    with pytest.raises(ImageError, match="no such file") as exc:
        load_image(tmp_path / "missing.jpg")
    assert exc.value.code == "unreadable_file"
    with pytest.raises(ImageError, match="folder"):
        load_image(tmp_path)


# --- what the header tells before decoding: bits and where the image ends ------------------

@pytest.mark.parametrize("ext, image, bits", [
    (".png", np.zeros((20, 30, 3), np.uint8), 8),
    (".png", np.zeros((20, 30, 3), np.uint16), 16),
    (".png", np.zeros((20, 30), np.uint16), 16),
    (".jpg", np.zeros((20, 30, 3), np.uint8), 8),
    (".webp", np.zeros((20, 30, 3), np.uint8), 8),
])
def test_the_header_tells_bits_and_where_the_image_ends(ext, image, bits):
    data = _encode(ext, image)
    header = read_header(data + b"trailer: a phone's motion video")
    assert header.bits == bits
    assert header.end == len(data)


@pytest.mark.parametrize("side, reduce_to, factor", [(2000, 1000, 2), (4000, 1000, 4), (4000, 400, 8),
                                                     (1999, 1000, 1), (4000, None, 1)])
def test_a_big_jpeg_is_decoded_smaller_but_never_under_the_size_asked(side, reduce_to, factor):
    visual = cv2.resize(_visual(), (side, side * 3 // 4), interpolation=cv2.INTER_NEAREST)
    data = _jpeg(visual)
    decoded = decode_image(data, reduce_to=reduce_to)
    assert decoded.shape[1] == -(-side // factor)
    assert reduce_to is None or max(decoded.shape) >= reduce_to
    expected = cv2.resize(visual, (decoded.shape[1], decoded.shape[0]), interpolation=cv2.INTER_AREA)
    assert _close(decoded, expected)
    assert decode_cost(read_header(data), reduce_to=reduce_to) < decode_cost(read_header(data)) or factor == 1


def test_a_reduced_jpeg_is_still_turned_upright():
    visual = cv2.resize(_visual(), (960, 600), interpolation=cv2.INTER_NEAREST)
    data = _with_exif_jpeg(_jpeg(_stored_as_camera(visual, 6)), _tiff_orientation(6))
    upright = decode_image(data, reduce_to=150)
    assert _close(upright, cv2.resize(visual, (240, 150), interpolation=cv2.INTER_AREA))


def test_png_and_webp_are_never_reduced():
    visual = cv2.resize(_visual(), (1600, 1000), interpolation=cv2.INTER_NEAREST)
    for ext in (".png", ".webp"):
        assert decode_image(_encode(ext, visual), reduce_to=200).shape[:2] == (1000, 1600)
