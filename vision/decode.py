"""Bytes in, BGR pixels out: the only place `vision` touches file formats.

Every photo is checked from its header before any pixel is decoded, so a file
that claims 40000x40000 pixels is refused without allocating them, and a JPEG
cut short in transfer is refused instead of coming back with a grey bottom.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

DEFAULT_MAX_PIXELS = 50_000_000


class ImageError(ValueError):
    """A photo that cannot be read; the message says why in words a player understands.

    `code` names the kind of problem for callers that word it themselves (the web
    page in German): "empty", "not_an_image", "unsupported", "truncated",
    "damaged", "too_large" or "unreadable_file".
    """

    def __init__(self, message: str, code: str = "damaged") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class ImageHeader:
    """What a file says before decoding: format, size, EXIF orientation (1-8), bits per
    sample (8 or 16) and `end`, the offset just past the image's own bytes (anything after
    it, such as a phone's trailer, is not the image)."""

    format: str
    width: int
    height: int
    orientation: int = 1
    bits: int = 8
    end: int = 0

    @property
    def pixels(self) -> int:
        return self.width * self.height


#: Peak bytes per pixel that `decode_image` takes (the codec's buffers, the 8-bit BGR result
#: and an upright copy), measured with `benchmarks/hostile.py`'s decode probe. 16-bit files are
#: decoded straight to 8 bits, so they cost what 8-bit ones do.
DECODE_BYTES_PER_PIXEL = 10


def decode_cost(header: ImageHeader, *, reduce_to: int | None = None) -> int:
    """Peak memory (bytes) that `decode_image(..., reduce_to=reduce_to)` takes for a file with this header."""
    factor = reduction(header, reduce_to)
    return -(-header.width // factor) * -(-header.height // factor) * DECODE_BYTES_PER_PIXEL


# Formats we recognise but do not read, with the hint a player needs.
_UNSUPPORTED = (
    (lambda d: d[4:12] in (b"ftypheic", b"ftypheix", b"ftypmif1", b"ftyphevc"),
     "HEIC photos are not supported; set the camera to JPEG ('most compatible') or convert the photo"),
    (lambda d: d[4:12] in (b"ftypavif", b"ftypavis"), "AVIF images are not supported; use JPEG, PNG or WebP"),
    (lambda d: d[:6] in (b"GIF87a", b"GIF89a"), "GIF images are not supported; use JPEG, PNG or WebP"),
    (lambda d: d[:2] == b"BM", "BMP images are not supported; use JPEG, PNG or WebP"),
    (lambda d: d[:4] in (b"II*\x00", b"MM\x00*"), "TIFF images are not supported; use JPEG, PNG or WebP"),
    (lambda d: d[:4] == b"%PDF", "this is a PDF document, not a photo"),
)


def read_header(data: bytes, *, max_pixels: int | None = None) -> ImageHeader:
    """Identify a JPEG, PNG or WebP file and read its size and orientation without decoding.

    Raises `ImageError` for empty input, unknown or unsupported formats, files
    that are cut short or damaged, and (when `max_pixels` is given) photos larger
    than that; the size is checked as soon as it is known.
    """
    if not data:
        raise ImageError("the file is empty", "empty")
    limit = max_pixels if max_pixels is not None else float("inf")
    if data[:3] == b"\xff\xd8\xff":
        return _jpeg_header(data, limit)
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return _png_header(data, limit)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp_header(data, limit)
    for matches, reason in _UNSUPPORTED:
        if matches(data):
            raise ImageError(reason, "unsupported")
    raise ImageError("this is not an image (expected a JPEG, PNG or WebP photo)", "not_an_image")


#: JPEG decoders shrink by these factors while decoding, at a fraction of the memory.
_REDUCED = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}


def reduction(header: ImageHeader, reduce_to: int | None) -> int:
    """The factor (1, 2, 4 or 8) a JPEG is shrunk by while decoding so its long side stays `reduce_to` or more."""
    if reduce_to is None or header.format != "JPEG":
        return 1
    factor = 1
    while factor < 8 and max(header.width, header.height) // (factor * 2) >= reduce_to:
        factor *= 2
    return factor


def decode_image(data: bytes, *, max_pixels: int = DEFAULT_MAX_PIXELS, reduce_to: int | None = None) -> np.ndarray:
    """Decode a JPEG, PNG or WebP photo to a BGR uint8 array of shape (H, W, 3).

    EXIF orientation is applied, so the array is upright as the phone showed it.
    Grey becomes 3 channels, alpha is dropped, 16-bit is decoded straight to 8-bit.
    With `reduce_to`, a JPEG whose long side is at least twice that is decoded at half,
    a quarter or an eighth of its size (never under `reduce_to`): the codec does it while
    decoding, at a fraction of the time and memory. Raises `ImageError` for empty, unknown,
    truncated or damaged files and for photos over `max_pixels` (checked from the header,
    before decoding).
    """
    data = bytes(data)
    header = read_header(data, max_pixels=max_pixels)
    factor = reduction(header, reduce_to)
    # Without IMREAD_ANYDEPTH the codec hands 16-bit samples over as 8 bits, row by row:
    # no whole-image 16- or 32-bit array is ever made.
    flags = (_REDUCED[factor] if factor > 1 else cv2.IMREAD_COLOR) | cv2.IMREAD_IGNORE_ORIENTATION
    image = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    if image is None:
        raise ImageError(f"the {header.format} file is damaged and cannot be decoded")
    if image.shape[:2] != (-(-header.height // factor), -(-header.width // factor)):
        raise ImageError(f"the {header.format} file is damaged (its size does not match its header)")
    image = _to_bgr8(image)
    return _apply_orientation(image, header.orientation)


def load_image(path: str | Path, *, max_pixels: int = DEFAULT_MAX_PIXELS) -> np.ndarray:
    """Read and decode a photo file; file-system problems become `ImageError` too."""
    path = Path(path)
    try:
        if path.is_dir():
            raise ImageError("this is a folder, not a photo", "unreadable_file")
        data = path.read_bytes()
    except FileNotFoundError:
        raise ImageError("no such file", "unreadable_file") from None
    except PermissionError:
        raise ImageError("permission denied", "unreadable_file") from None
    except OSError as exc:
        raise ImageError(f"cannot read the file ({exc.strerror or exc})", "unreadable_file") from None
    return decode_image(data, max_pixels=max_pixels)


def _to_bgr8(image: np.ndarray) -> np.ndarray:
    if image.dtype != np.uint8:
        raise ImageError(f"unsupported pixel type {image.dtype}", "unsupported")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = np.ascontiguousarray(image[:, :, :3])
    return image


# What to do to the stored pixels to show them upright, per EXIF orientation.
_ORIENT: dict[int, Callable[[np.ndarray], np.ndarray]] = {
    1: lambda im: im,
    2: lambda im: cv2.flip(im, 1),
    3: lambda im: cv2.rotate(im, cv2.ROTATE_180),
    4: lambda im: cv2.flip(im, 0),
    5: lambda im: cv2.transpose(im),
    6: lambda im: cv2.rotate(im, cv2.ROTATE_90_CLOCKWISE),
    7: lambda im: cv2.flip(cv2.transpose(im), -1),
    8: lambda im: cv2.rotate(im, cv2.ROTATE_90_COUNTERCLOCKWISE),
}


def _check_size(width: int, height: int, limit: float) -> None:
    if width * height > limit:
        raise ImageError(
            f"the photo is too large ({width}x{height} pixels; at most {limit / 1e6:g} megapixels)",
            "too_large",
        )


def _apply_orientation(image: np.ndarray, orientation: int) -> np.ndarray:
    return _ORIENT.get(orientation, _ORIENT[1])(image)


# --- JPEG -----------------------------------------------------------------

# Start-of-frame markers that carry the frame size (C4 DHT, C8 JPG, CC DAC are not frames).
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
_NO_LENGTH = {0x01, *range(0xD0, 0xD8)}  # TEM and RSTn stand alone


def _jpeg_header(data: bytes, limit: float) -> ImageHeader:
    truncated = ImageError("the JPEG file is incomplete (cut off before its end)", "truncated")
    damaged = ImageError("the JPEG file is damaged")
    size: tuple[int, int] | None = None
    bits = 8
    orientation = 1
    pos, n = 2, len(data)
    while True:
        # Markers may be preceded by any number of 0xFF fill bytes.
        if pos >= n:
            raise truncated
        if data[pos] != 0xFF:
            raise damaged
        while pos < n and data[pos] == 0xFF:
            pos += 1
        if pos >= n:
            raise truncated
        marker = data[pos]
        pos += 1
        if marker == 0xD9:  # EOI before any scan: no picture at all
            raise damaged
        if marker in _NO_LENGTH:
            continue
        if pos + 2 > n:
            raise truncated
        (length,) = struct.unpack_from(">H", data, pos)
        if length < 2:
            raise damaged
        segment = data[pos + 2 : pos + length]
        if pos + length > n:
            raise truncated
        if marker in _SOF:
            if len(segment) < 5:
                raise damaged
            height, width = struct.unpack_from(">HH", segment, 1)
            if width == 0 or height == 0:
                # Height 0 means "given later in a DNL marker", which OpenCV does not read.
                raise ImageError("the JPEG file uses an unsupported layout (no frame size)", "unsupported")
            _check_size(width, height, limit)
            size, bits = (width, height), segment[0]
        elif marker == 0xE1 and segment[:6] == b"Exif\x00\x00" and orientation == 1:
            orientation = _exif_orientation(segment[6:])
        pos += length
        if marker == 0xDA:  # start of scan: entropy-coded data follows
            if size is None:
                raise damaged
            end = _find_jpeg_end(data, pos)
            return ImageHeader("JPEG", size[0], size[1], orientation, bits=bits, end=end)


def _find_jpeg_end(data: bytes, pos: int) -> int:
    """Walk the scans after the first SOS and return the offset just past EOI.

    Inside entropy-coded data 0xFF is followed by 0x00 (a stuffed byte) or a
    restart marker; any other marker ends the scan. Progressive JPEGs carry more
    tables and scans before EOI, so those segments are skipped by their length.
    Data after EOI (phone trailers, motion-photo videos) is allowed.
    """
    n = len(data)
    truncated = ImageError("the JPEG file is incomplete (cut off before its end)", "truncated")
    while True:
        pos = data.find(b"\xff", pos)
        if pos < 0 or pos + 1 >= n:
            raise truncated
        marker = data[pos + 1]
        if marker in (0x00, 0x01, 0xFF) or 0xD0 <= marker <= 0xD7:
            pos += 1 if marker == 0xFF else 2
            continue
        if marker == 0xD9:
            return pos + 2
        if pos + 4 > n:
            raise truncated
        (length,) = struct.unpack_from(">H", data, pos + 2)
        if length < 2:
            raise ImageError("the JPEG file is damaged")
        pos += 2 + length


def _exif_orientation(tiff: bytes) -> int:
    """The Orientation tag (0x0112) of IFD0 in a TIFF-structured EXIF block; 1 if absent or unreadable.

    A damaged EXIF block is no reason to refuse the photo, so every read is bounds-checked.
    """
    if tiff[:4] == b"II*\x00":
        order = "<"
    elif tiff[:4] == b"MM\x00*":
        order = ">"
    else:
        return 1
    try:
        (ifd,) = struct.unpack_from(order + "I", tiff, 4)
        (count,) = struct.unpack_from(order + "H", tiff, ifd)
        for i in range(count):
            tag, kind, _, value = struct.unpack_from(order + "HHIH", tiff, ifd + 2 + 12 * i)
            if tag == 0x0112:
                return value if kind == 3 and 1 <= value <= 8 else 1
    except struct.error:
        return 1
    return 1


# --- PNG ------------------------------------------------------------------

def _png_header(data: bytes, limit: float) -> ImageHeader:
    truncated = ImageError("the PNG file is incomplete (cut off before its end)", "truncated")
    if len(data) < 33 or data[12:16] != b"IHDR":
        raise truncated if len(data) < 33 else ImageError("the PNG file is damaged")
    width, height, depth, colour = struct.unpack_from(">IIBB", data, 16)
    if width == 0 or height == 0:
        raise ImageError("the PNG file is damaged (it claims zero size)")
    bits = 8 if colour == 3 else max(depth, 8)  # palette images decode to 8 bits whatever their index depth
    _check_size(width, height, limit)
    # Walk the chunks: an eXIf chunk may hold the orientation, and IEND proves the file is whole.
    orientation, pos, n = 1, 8, len(data)
    while pos + 8 <= n:
        length, kind = struct.unpack_from(">I4s", data, pos)
        end = pos + 12 + length
        if end > n:
            raise truncated
        if kind == b"eXIf" and orientation == 1:
            orientation = _exif_orientation(data[pos + 8 : pos + 8 + length])
        if kind == b"IEND":
            return ImageHeader("PNG", width, height, orientation, bits=bits, end=end)
        pos = end
    raise truncated


# --- WebP -----------------------------------------------------------------

def _webp_header(data: bytes, limit: float) -> ImageHeader:
    truncated = ImageError("the WebP file is incomplete (cut off before its end)", "truncated")
    damaged = ImageError("the WebP file is damaged")
    (riff_size,) = struct.unpack_from("<I", data, 4)
    if len(data) < riff_size + 8 or len(data) < 30:
        raise truncated
    kind = data[12:16]
    body = data[20:]
    if kind == b"VP8 ":
        # Frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height.
        if body[3:6] != b"\x9d\x01\x2a":
            raise damaged
        width, height = struct.unpack_from("<HH", body, 6)
        size = (width & 0x3FFF, height & 0x3FFF)
    elif kind == b"VP8L":
        if body[0] != 0x2F:
            raise damaged
        (bits,) = struct.unpack_from("<I", body, 1)
        size = ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
    elif kind == b"VP8X":
        w = int.from_bytes(body[4:7], "little") + 1
        h = int.from_bytes(body[7:10], "little") + 1
        size = (w, h)
    else:
        raise damaged
    if size[0] == 0 or size[1] == 0:
        raise damaged
    _check_size(size[0], size[1], limit)
    orientation = _webp_orientation(data, riff_size + 8) if kind == b"VP8X" else 1
    end = min(riff_size + 8 + (riff_size & 1), len(data))
    return ImageHeader("WebP", size[0], size[1], orientation, end=end)


def _webp_orientation(data: bytes, end: int) -> int:
    pos = 12
    while pos + 8 <= end:
        kind, length = struct.unpack_from("<4sI", data, pos)
        if kind == b"EXIF":
            block = data[pos + 8 : pos + 8 + length]
            # Some writers keep the JPEG-style "Exif\0\0" prefix inside the chunk.
            return _exif_orientation(block[6:] if block[:6] == b"Exif\x00\x00" else block)
        pos += 8 + length + (length & 1)
    return 1
