"""What an uploaded photo is, from its bytes, before a pixel is decoded.

`inspect(data)` reads the container (JPEG, PNG, WebP) far enough to know the pixel
layout (size, bits per sample, channels) and where the image's own bytes end. The
layout prices the decode in bytes (`decode_cost`), so a tiny 16-bit PNG of 49
megapixels is refused before it costs gigabytes; the end lets the server keep the
photo and nothing after it (a JPEG "padded" with 19 MB after its end marker is
stored as the JPEG it is).

`vision.decode.read_header` validates the same files for decoding; this module only
adds what the server needs to budget and store them (see docs/WEBAPP.md for what
`vision.decode` could carry instead).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from dicecam.vision.decode import ImageError

# Measured peak bytes per pixel of `vision.decode.decode_image` (benchmarks/hostile.py
# reproduces them): the 3-channel 8-bit result, the codec's buffers, an upright copy;
# 16-bit files also pass through 32-bit rounding arithmetic there.
BYTES_PER_PIXEL_8BIT = 10
BYTES_PER_PIXEL_16BIT = 34


@dataclass(frozen=True)
class ImageFacts:
    """A photo's layout from its header, and the length of the image's own bytes."""

    format: str          # "JPEG", "PNG", "WebP"
    width: int
    height: int
    bits: int            # bits per sample (8 or 16)
    end: int             # the image's bytes are data[:end]; anything after is not the image

    @property
    def pixels(self) -> int:
        return self.width * self.height


def decode_cost(facts: ImageFacts) -> int:
    """Peak memory (bytes) that decoding this photo takes."""
    per_pixel = BYTES_PER_PIXEL_16BIT if facts.bits > 8 else BYTES_PER_PIXEL_8BIT
    return facts.pixels * per_pixel


def inspect(data: bytes) -> ImageFacts:
    """The facts of a JPEG, PNG or WebP file; `ImageError` if it is none of them or is cut short."""
    if data[:3] == b"\xff\xd8\xff":
        return _jpeg(data)
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return _png(data)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp(data)
    raise ImageError("this is not an image (expected a JPEG, PNG or WebP photo)", "not_an_image")


def _truncated(fmt: str) -> ImageError:
    return ImageError(f"the {fmt} file is incomplete (cut off before its end)", "truncated")


# Start-of-frame markers that carry the frame size (C4 DHT, C8 JPG, CC DAC are not frames).
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
_NO_LENGTH = {0x01, *range(0xD0, 0xD8)}  # TEM and RSTn stand alone


def _jpeg(data: bytes) -> ImageFacts:
    """Walk the segments to the first frame's size and precision, then the scans to EOI."""
    n, pos = len(data), 2
    size: tuple[int, int, int] | None = None
    while True:
        while pos < n and data[pos] == 0xFF:
            pos += 1
        if pos >= n:
            raise _truncated("JPEG")
        marker = data[pos]
        pos += 1
        if marker == 0xD9:
            if size is None:
                raise ImageError("the JPEG file is damaged")
            return ImageFacts("JPEG", size[0], size[1], size[2], pos)
        if marker in _NO_LENGTH:
            continue
        if pos + 2 > n:
            raise _truncated("JPEG")
        (length,) = struct.unpack_from(">H", data, pos)
        if length < 2 or pos + length > n:
            raise _truncated("JPEG") if pos + length > n else ImageError("the JPEG file is damaged")
        if marker in _SOF and size is None and length >= 7:
            bits, height, width = struct.unpack_from(">BHH", data, pos + 2)
            size = (width, height, bits)
        pos += length
        if marker == 0xDA:  # entropy-coded data: skip to the next marker that is not RSTn/stuffing
            while True:
                pos = data.find(b"\xff", pos)
                if pos < 0 or pos + 1 >= n:
                    raise _truncated("JPEG")
                follow = data[pos + 1]
                if follow == 0x00 or 0xD0 <= follow <= 0xD7:
                    pos += 2
                    continue
                if follow == 0xFF:
                    pos += 1
                    continue
                break
        if pos >= n or data[pos] != 0xFF:
            raise ImageError("the JPEG file is damaged")


_PNG_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def _png(data: bytes) -> ImageFacts:
    if len(data) < 33 or data[12:16] != b"IHDR":
        raise _truncated("PNG") if len(data) < 33 else ImageError("the PNG file is damaged")
    width, height, bits, colour = struct.unpack_from(">IIBB", data, 16)
    if colour not in _PNG_CHANNELS:
        raise ImageError("the PNG file is damaged")
    pos, n = 8, len(data)
    while pos + 8 <= n:
        length, kind = struct.unpack_from(">I4s", data, pos)
        end = pos + 12 + length
        if end > n:
            break
        if kind == b"IEND":
            # Palette images decode to 8 bits whatever their index depth.
            return ImageFacts("PNG", width, height, 8 if colour == 3 else max(bits, 8), end)
        pos = end
    raise _truncated("PNG")


def _webp(data: bytes) -> ImageFacts:
    (riff_size,) = struct.unpack_from("<I", data, 4)
    end = riff_size + 8 + (riff_size & 1)
    if len(data) < min(end, riff_size + 8) or len(data) < 30:
        raise _truncated("WebP")
    kind, body = data[12:16], data[20:]
    if kind == b"VP8 ":
        width, height = struct.unpack_from("<HH", body, 6)
        size = (width & 0x3FFF, height & 0x3FFF)
    elif kind == b"VP8L":
        (bits,) = struct.unpack_from("<I", body, 1)
        size = ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
    elif kind == b"VP8X":
        size = (int.from_bytes(body[4:7], "little") + 1, int.from_bytes(body[7:10], "little") + 1)
    else:
        raise ImageError("the WebP file is damaged")
    return ImageFacts("WebP", size[0], size[1], 8, min(end, len(data)))
