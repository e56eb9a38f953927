"""Images a spec points at: PNG and JPEG pictures, and SVG art drawn as vectors.

Images come with specs that people share, so each one is read under a size limit and checked
here before anything draws it; :func:`check_image` is the one place that decides what printkit
accepts. A path ending in ``.svg`` is SVG, anything else must be a PNG or JPEG.

SVG files are parsed without a DTD, entity expansion, network or XInclude, then refused unless
they are self-contained and drawable:

- at most :data:`MAX_SVG_BYTES`, :data:`MAX_SVG_ELEMENTS` elements (counting what ``<use>``
  repeats) and :data:`MAX_SVG_DEPTH` levels of nesting;
- no entity declarations (``<!ENTITY>``): what they would expand to is never read;
- no reference to anything outside the file: an ``href`` is a ``#fragment`` or, on ``<image>``, a
  ``data:`` PNG or JPEG (itself checked like a picture file); CSS has no ``@import`` and its
  ``url(...)`` points only at ``#fragments``;
- no text: reportlab would set SVG ``<text>`` in a font it does not embed, which print shops
  refuse, so the designer converts text to paths;
- a size (``viewBox``, or ``width`` and ``height``) and something to draw.

:func:`svg_art` parses an SVG's bytes into a reportlab Drawing once per process per content; the
PDF backend reads the file again when it draws it and so gets either the checked bytes (and the
parse already made) or new bytes, which are checked in full before anything of them is drawn.

Everything here may be called from several threads at once: what is kept between calls lives in
:class:`printkit.memo.Memo` stores, and a file is "unchanged" by :func:`printkit.memo.file_identity`.
"""

from __future__ import annotations

import binascii
import hashlib
import io
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

from printkit.cache import picture_verdicts
from printkit.errors import ImageError
from printkit.jpeg import whole_jpeg_size
from printkit.memo import FileIdentity, Memo, file_identity, identity_of
from printkit.render.pngfile import PNG_SIGNATURE
from printkit.render.svg import PAINTED, at_line, data_picture, local_name as _local, unsupported
from printkit.render.svg_normal import LENGTH, normalise, view_box
from printkit.safe_read import (UnsafeFileError, known_digest, opened_regular, read_identified, read_limited,
                                remember_digest)

MAX_IMAGE_PIXELS = 50_000_000
MAX_IMAGE_SIDE = 65_500  # what JPEG can hold; a picture a few pixels high and millions wide is no art
MAX_IMAGE_BYTES = 50_000_000
MAX_SVG_BYTES = 5_000_000
MAX_SVG_ELEMENTS = 20_000  # after <use> is expanded
MAX_SVG_DEPTH = 64
MIN_SVG_SIZE = 1e-6  # a picture smaller is scaled to a card by a factor no PDF number holds

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_TEXT_TAGS = {"text", "tspan", "textPath", "flowRoot", "flowPara", "flowSpan"}
_URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.IGNORECASE | re.DOTALL)


def is_svg(path: Path) -> bool:
    return Path(path).suffix.lower() == ".svg"


@dataclass(eq=False)
class Picture:
    """A checked PNG or JPEG: its size as viewers show it, its EXIF orientation, kind and the sha256
    of the bytes checked; those bytes (:attr:`data`), kept or read again from ``path``; and (once
    drawn) its decoding."""

    width: int  # turned by its orientation: what a viewer shows
    height: int
    digest: str  # sha256 of the bytes checked
    png: bool  # else a JPEG
    path: Path
    _data: bytes | None = None  # None: not kept (read again when asked for)
    _reader: object = None
    orientation: int = 1  # EXIF Orientation 1..8: how the stored pixels are turned or mirrored to be shown

    @property
    def data(self) -> bytes:
        """The bytes checked: kept, or read from the file, which must still hold them (ImageError
        otherwise)."""
        if self._data is not None:
            return self._data
        data = bytes_checked(self.path, self.digest)
        if data is None:
            raise ImageError("changed since it was checked")
        return data

    def head(self, size: int) -> bytes | None:
        """The first ``size`` bytes checked (all, if fewer): of those kept, else read from the file
        while it is the one checked (:func:`head_checked`); None when it is not."""
        if self._data is not None:
            return self._data[:size]
        return head_checked(self.path, self.digest, size)

    def reader(self):
        """What the PDF backend draws: decoded at most once per process, from ``data``.

        reportlab names an image by ``str()`` of what it is given (hashing an ImageReader's pixels
        on every draw instead), so this stand-in is named by the digest and lends reportlab the
        one ImageReader it reads the pixels (or a JPEG's own bytes) from.
        """
        if self._reader is None:
            from reportlab.lib.utils import ImageReader

            self._reader = _NamedReader(ImageReader(io.BytesIO(self.data)), f"picture-{self.digest}")
        return self._reader


class _NamedReader:
    def __init__(self, reader, name: str):
        self._wrapped, self._name = reader, name

    def __str__(self) -> str:
        return self._name

    def __getattr__(self, name):
        return getattr(self._wrapped, name)


# Pictures checked in this process, by path: (the file's identity when read, the picture). A card
# that names a checked file again costs one stat; drawing uses the checked bytes, never the file
# as it is later (swapped meanwhile for something unchecked). Bounded by a count and a sum of their
# bytes (above the largest picture allowed), so that art of many or large files costs a build no
# more memory than a few.
_PICTURES = Memo("pictures checked", entries=64, max_bytes=64 << 20)

# Every picture checked, without its bytes, by path and file identity: one let go above is known
# while its file is unchanged (:func:`printkit.memo.file_identity`) and its bytes read again only
# where they are written, each time proven the bytes checked (:func:`bytes_checked`).
_IDENTIFIED = Memo("pictures identified", entries=20_000)

# The size of each picture that passed :func:`check_picture`, by the sha256 of its bytes: a file
# read again (let go above, or drawn in a later PDF of the build) is checked by its hash alone, as
# the same bytes pass the same checks. Decoding a JPEG at an eighth of its size, or inflating a
# PNG's rows, costs milliseconds; hashing it, a fraction of one. A few MB at most.
_VERDICTS = Memo("picture verdicts", entries=20_000)


def _identity(path: Path) -> FileIdentity:
    try:
        return file_identity(path)
    except OSError as exc:
        raise ImageError(f"cannot be read: {exc.strerror or exc}") from None


def checked_picture(path: Path) -> Picture:
    """The PNG or JPEG at ``path``, read and checked once while the file stays unchanged
    (:func:`printkit.memo.file_identity`). Safe to call from several threads."""
    path = Path(path)
    identity = _identity(path)
    known = _PICTURES.get(path)
    if known is not None and known[0] == identity:
        return known[1]
    identified = _IDENTIFIED.get((str(path), identity))
    if identified is not None:
        return identified
    data, identity = _read_picture(path)
    digest = hashlib.sha256(data).hexdigest()
    remember_digest(path, identity, digest)  # how a face drawing it is known (printkit.layout.ops)
    width, height, orientation = _shown_verdict(digest, data)
    png = data.startswith(PNG_SIGNATURE)
    picture = Picture(width, height, digest, png, path, data, orientation=orientation)
    _PICTURES.put(path, (identity, picture), len(data))
    _IDENTIFIED.put((str(path), identity), Picture(width, height, digest, png, path, orientation=orientation))
    return picture


def picture(path: Path) -> Picture:
    """The picture to draw for ``path``: the one checked (however the file changed since), else
    read and checked now."""
    known = _PICTURES.get(Path(path))
    return known[1] if known is not None else checked_picture(path)


def _shown_verdict(digest: str, data: bytes) -> tuple[int, int, int]:
    """The width and height of the picture ``data`` (sha256 ``digest``) as viewers show it (a
    quarter turn swaps them), and its EXIF orientation: its verdict, kept once per process."""
    width, height, orientation = _VERDICTS.get_or_make(digest, lambda: _verdict(digest, data))
    return (height, width, orientation) if orientation in TURNED else (width, height, orientation)


def _verdict(digest: str, data: bytes) -> tuple[int, int, int]:
    """The stored size and EXIF orientation of the picture ``data`` (sha256 ``digest``) that passed
    :func:`check_picture`: as kept by :data:`picture_verdicts`, else checked now (and kept there)."""
    store = picture_verdicts.get()
    kept = store.get(digest) if store is not None else None
    if kept is not None:
        try:
            width, height, orientation = map(int, kept.split())  # a size alone (kept before): checked again
            return width, height, orientation
        except ValueError:
            pass
    width, height = check_picture(data)
    orientation = exif_orientation(data)
    if store is not None:
        store.put(digest, f"{width} {height} {orientation}".encode())
    return width, height, orientation


@dataclass(frozen=True)
class EmbeddedPicture:
    """A PNG or JPEG embedded in SVG art (an ``<image>``'s ``data:`` URI), checked as a picture
    file is: its bytes, their sha256, its EXIF orientation, and its size as viewers show it
    (``size``, in pixels: what svglib gives an ``<image>`` without a width or height)."""

    data: bytes
    digest: str
    orientation: int
    size: tuple[int, int]


def embedded_picture(data: bytes) -> EmbeddedPicture:
    """The picture ``data`` embedded in SVG art, checked (ImageError if refused) once per process
    per content, as a picture file's bytes are."""
    digest = hashlib.sha256(data).hexdigest()
    width, height, orientation = _shown_verdict(digest, data)
    return EmbeddedPicture(data, digest, orientation, (width, height))


TURNED = frozenset((5, 6, 7, 8))  # EXIF orientations shown a quarter turn from how they are stored
_EXIF_TEXT = (b"Raw profile type exif\0", b"XML:com.adobe.xmp\0")  # PNG text chunks Pillow reads it from


def exif_orientation(data: bytes) -> int:
    """The EXIF Orientation (1..8; 1 upright) of the checked PNG or JPEG ``data``, as Pillow's
    ``ImageOps.exif_transpose`` reads it (EXIF, else XMP's ``tiff:Orientation``); 1 when it has none
    or one outside 1..8. A JPEG's is in its header; a PNG is decoded only if it has a chunk that
    may hold one (``eXIf``, or EXIF or XMP text), since Pillow reads chunks after the pixels then."""
    from PIL import Image

    png = data.startswith(PNG_SIGNATURE)
    where = _exif_chunks(data) if png else None
    if where == "none":
        return 1
    try:
        with Image.open(io.BytesIO(data)) as img:
            if where == "after":  # Pillow reads chunks after the pixels only once it decodes them
                img.load()
            orientation = img.getexif().get(0x0112, 1)
    except Exception:  # noqa: BLE001 - EXIF Pillow cannot read is no orientation, as exif_transpose takes it
        return 1
    return orientation if orientation in range(1, 9) else 1


def _exif_chunks(data: bytes) -> str:
    """Where the checked PNG ``data`` has an ``eXIf`` chunk or an EXIF or XMP text chunk: ``none``,
    ``before`` the pixels (read when the file is opened) or ``after`` them."""
    found, pixels = "none", False
    for kind, at, length in _png_chunks(data):
        if kind == b"IDAT":
            pixels = True
        elif kind == b"eXIf" or (kind in (b"tEXt", b"zTXt", b"iTXt") and data[at:at + length].startswith(_EXIF_TEXT)):
            if pixels:
                return "after"
            found = "before"
    return found


def _png_chunks(data: bytes | memoryview):
    """Each chunk of the PNG ``data`` up to its IEND: its kind, where its body starts and its
    length (ImageError when a chunk runs past the end of the data)."""
    import struct

    pos = 8
    while True:
        if pos + 12 > len(data):
            raise ImageError("cannot be read: the PNG is truncated")
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if pos + 12 + length > len(data):
            raise ImageError("cannot be read: the PNG is truncated")
        yield kind, pos + 8, length
        if kind == b"IEND":
            return
        pos += 12 + length


def picture_warnings(path: Path) -> tuple[str, ...]:
    """What printkit cannot draw as written in the picture at ``path``: in an SVG, what it leaves
    out (``<filter> at line 12: ...``); in a 16-bit RGB PNG, its one transparent colour (``tRNS``),
    matched on each sample's top 8 bits, as Pillow decodes no more. Worked out once per SVG file
    while it is unchanged (:func:`printkit.memo.file_identity`) and once per picture drawn, however
    many cards show it; nothing for a file that cannot be read now (drawing it says so)."""
    if is_svg(path):
        try:
            identity = file_identity(path)
        except OSError:
            return ()
        return _WARNINGS.get_or_make((str(path), identity), lambda: _svg_warnings(Path(path)))
    try:
        drawn = picture(path)  # the picture checked, however its file changed since
    except ImageError:
        return ()
    return _WARNINGS.get_or_make(drawn.digest, lambda: _png_warnings(drawn))


_WARNINGS = Memo("picture warnings", entries=512)  # an SVG's by path and file identity, a picture's by sha256


def _png_warnings(checked: Picture) -> tuple[str, ...]:
    if not checked.png:
        return ()
    try:
        data = checked.data
    except ImageError:
        return ()
    if data[24:26] != bytes((16, 2)) or not any(kind == b"tRNS" for kind, _, _ in _png_chunks(data)):
        return ()
    return ("its transparent colour (tRNS) is matched on the top 8 of its 16 bits, so colours within 1/256 "
            "of it print transparent too; save it with an alpha channel or as 8-bit",)


def bytes_checked(path: Path, digest: str) -> bytes | None:
    """The bytes of the picture file at ``path`` if they are those of sha256 ``digest`` (None
    otherwise; ImageError when it cannot be read): hashed again only when the file is not the one
    hashed before (:func:`printkit.safe_read.known_digest`)."""
    data, identity = _read_picture(path)
    if known_digest(path, identity) == digest or hashlib.sha256(data).hexdigest() == digest:
        return data
    return None


def head_checked(path: Path, digest: str, size: int) -> bytes | None:
    """The first ``size`` bytes of the picture file at ``path`` if the file is still the one read
    as sha256 ``digest`` (its identity, taken from the open file, known with that digest); None
    otherwise, or when it cannot be read."""
    try:
        with opened_regular(path) as (descriptor, info):
            if known_digest(path, identity_of(info)) != digest:
                return None
            return os.read(descriptor, size)
    except (OSError, UnsafeFileError):
        return None


def _read_picture(path: Path) -> tuple[bytes, FileIdentity]:
    try:
        return read_identified(path, MAX_IMAGE_BYTES)
    except UnsafeFileError as exc:
        raise ImageError(str(exc)) from None
    except OSError as exc:
        raise ImageError(f"cannot be read: {exc.strerror or exc}") from None


def check_image(path: Path, error: Callable[[str], Exception], shown: str | None = None) -> None:
    """Refuse an image printkit cannot print safely: a PNG or JPEG that is not sane (corrupt,
    truncated, too many pixels), or an SVG that breaks the rules of this module.

    ``error(message)`` builds the exception to raise; ``shown`` is how the path is named in it.
    """
    name = shown or Path(path).name
    try:
        if is_svg(path):
            svg_art(read_image(path))
        else:
            checked_picture(path)
    except ImageError as exc:
        raise error(f"image {name!r} {exc}") from None


def read_image(path: Path) -> bytes:
    """The bytes of an image file, within its kind's size limit (ImageError otherwise)."""
    try:
        return read_limited(path, MAX_SVG_BYTES if is_svg(path) else MAX_IMAGE_BYTES)
    except UnsafeFileError as exc:
        raise ImageError(str(exc)) from None
    except OSError as exc:
        raise ImageError(f"cannot be read: {exc.strerror or exc}") from None


def check_picture(data: bytes) -> tuple[int, int]:
    """Refuse anything but a sane PNG or JPEG: format and size from its header, then its data
    checked in full without decoding every pixel (catches truncated and corrupt data). Returns
    its width and height in pixels.

    A JPEG whose markers prove it whole and plain (:func:`printkit.jpeg.whole_jpeg_size`: every
    segment and table valid, every scan's coded data there up to the end marker) is not decoded;
    any other is decoded at an eighth of its size (libjpeg still reads every bit of its coded
    data, so truncation and broken coding are found as a full decode finds them); a PNG's chunks are
    checked (lengths, CRCs, the order IHDR ... IDAT ... IEND) and its image data inflated and
    counted, row filters included, but not unfiltered (:func:`png_info`). The pixels are decoded
    only where they are drawn, and only if they must be transformed (a PNG with transparency).
    A JPEG with further frames (MPO, as phones save photos) is its first frame, an ordinary JPEG:
    the PDF shows that one.
    """
    size = whole_jpeg_size(data)
    if size is not None:
        return _within_limits(*size)
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as img:
            if img.format not in ("PNG", "JPEG", "MPO"):
                raise ImageError(f"is {img.format}, not PNG or JPEG")
            width, height = _within_limits(*img.size)
            if img.format in ("JPEG", "MPO"):
                img.draft(img.mode, ((width + 7) // 8, (height + 7) // 8))
                img.load()
            elif png_info(data).interlace:
                img.load()  # an interlaced PNG's rows are not counted here: decoded in full
            return width, height
    except ImageError:
        raise
    except UnidentifiedImageError:
        raise ImageError("is not a PNG or JPEG image") from None
    except Image.DecompressionBombError:
        raise ImageError(f"has too many pixels (limit {MAX_IMAGE_PIXELS})") from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise ImageError(f"cannot be read: {exc}") from None


def _within_limits(width: int, height: int) -> tuple[int, int]:
    if width * height > MAX_IMAGE_PIXELS:
        raise ImageError(f"is {width}x{height} pixels; the limit is {MAX_IMAGE_PIXELS} pixels")
    if max(width, height) > MAX_IMAGE_SIDE:
        raise ImageError(f"is {width}x{height} pixels; the limit is {MAX_IMAGE_SIDE} pixels a side")
    return width, height


_PNG_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # colour type -> samples per pixel


@dataclass(frozen=True)
class PngInfo:
    """What a checked PNG holds: its header's fields and where its image data (IDAT) lies."""

    width: int
    height: int
    bit_depth: int
    color_type: int  # 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA
    interlace: int
    transparency: bool  # a tRNS chunk
    idat: tuple[tuple[int, int], ...]  # (offset, length) of each IDAT chunk's data

    @property
    def plain(self) -> bool:
        """8-bit grey or RGB, not interlaced, nothing transparent: its IDAT data is what a PDF image
        stream with the PNG predictors holds, so it can be embedded as it is."""
        return (self.color_type in (0, 2) and self.bit_depth == 8 and not self.interlace
                and not self.transparency)


def png_info(data: bytes) -> PngInfo:
    """The PNG in ``data``, checked without decoding its pixels (ImageError if refused).

    Every chunk's length and CRC, IHDR first, IDAT chunks in one run, IEND last; the image data
    must inflate to exactly the rows the header promises (non-interlaced: each row a valid filter
    type and its bytes), with nothing after the deflate stream's end.
    """
    import struct
    import zlib

    view = memoryview(data)
    if bytes(view[:8]) != PNG_SIGNATURE:
        raise ImageError("is not a PNG or JPEG image")
    header, idat, transparency, after_idat = None, [], False, False
    for kind, at, length in _png_chunks(view):
        if zlib.crc32(view[at - 4:at + length]) != struct.unpack(">I", view[at + length:at + length + 4])[0]:
            raise ImageError(f"cannot be read: the PNG's {kind.decode('latin-1')!r} chunk is corrupt (CRC)")
        if header is None and kind != b"IHDR":
            raise ImageError("cannot be read: the PNG does not start with its header (IHDR)")
        if kind == b"IHDR":
            if header is not None or length != 13:
                raise ImageError("cannot be read: the PNG's header (IHDR) is malformed")
            header = struct.unpack(">IIBBBBB", view[at:at + 13])
        elif kind == b"IDAT":
            if after_idat:
                raise ImageError("cannot be read: the PNG's image data (IDAT) is split")
            idat.append((at, length))
        elif kind == b"tRNS":
            transparency = True
        if idat and kind != b"IDAT":
            after_idat = True
    width, height, depth, color, _compression, _filter, interlace = header
    if color not in _PNG_CHANNELS or not idat or not (width and height):
        raise ImageError("cannot be read: the PNG's header (IHDR) is malformed")
    info = PngInfo(width, height, depth, color, interlace, transparency, tuple(idat))
    if not interlace:
        _check_rows(view, info)
    return info


def _check_rows(view: memoryview, info: PngInfo) -> None:
    """Inflate the image data, counting its rows and checking each row's filter type.

    Inflated a piece at a time and never past one byte more than the header promises: a few
    hundred kilobytes of deflate can unpack to gigabytes, refused here before they are held.
    """
    import zlib

    stride = 1 + (info.width * _PNG_CHANNELS[info.color_type] * info.bit_depth + 7) // 8
    expected = stride * info.height
    inflate = zlib.decompressobj()
    done = 0
    try:
        for offset, length in info.idat:
            pending = view[offset:offset + length]
            while pending:
                piece = inflate.decompress(pending, min(expected - done + 1, _INFLATE_STEP))
                pending = inflate.unconsumed_tail
                if done + len(piece) > expected:
                    raise ImageError("cannot be read: the PNG holds more image data than its size")
                first = -done % stride  # where the next row's filter byte lies in this piece
                if any(piece[at] > 4 for at in range(first, len(piece), stride)):
                    raise ImageError("cannot be read: the PNG's image data is corrupt (row filter)")
                done += len(piece)
        done += len(inflate.flush())
    except zlib.error as exc:
        raise ImageError(f"cannot be read: the PNG's image data is corrupt ({exc})") from None
    if not inflate.eof or done != expected or inflate.unused_data:
        raise ImageError("cannot be read: the PNG's image data is truncated or corrupt")


_INFLATE_STEP = 1 << 20  # bytes of image data inflated at a time when a PNG is checked


# --- SVG ---------------------------------------------------------------------------------------


class SvgArt:
    """A checked SVG; as a reportlab Drawing (``width`` x ``height`` points, drawn from (0, 0) up)
    once something draws it.

    Checking an SVG (its XML, its limits and references) is cheap; converting it to vectors is
    most of its cost, so that waits until a PDF is drawn: a rebuild whose pages come from the
    render cache never converts at all.
    """

    def __init__(self, root, digest: str, warnings: tuple[str, ...] = ()) -> None:
        self._root = root
        self.digest = digest  # sha256 of the SVG's bytes: equal art, equal digest
        self.warnings = warnings  # what printkit cannot draw as written, each with its line
        self._drawing = None
        self._tints: dict[str, SvgArt] = {}

    def tinted(self, color: str) -> "SvgArt":
        """This art with its ``currentColor`` painting ``color`` (an icon in coloured text): the
        root's ``color``, which ``currentColor`` inherits. One per colour, converted when drawn."""
        known = self._tints.get(color)
        if known is None:
            import copy

            root = copy.deepcopy(self._root)
            root.set("color", color)
            if len(self._tints) >= 64:
                self._tints.clear()
            known = self._tints[color] = SvgArt(root, hashlib.sha256(f"{self.digest} {color}".encode()).hexdigest(),
                                                self.warnings)
        return known

    @property
    def drawing(self):
        """The reportlab Drawing, converted on first use (once per process per content)."""
        if self._drawing is None:
            drawing = _to_drawing(self._root)
            if not _draws_something(drawing):
                raise ImageError("draws nothing (no shapes)")
            self._drawing = drawing
        return self._drawing

    @property
    def width(self) -> float:
        return float(self.drawing.width)

    @property
    def height(self) -> float:
        return float(self.drawing.height)


def svg_art(data: bytes) -> SvgArt:
    """The SVG in ``data``, checked and converted to vectors (ImageError if refused).

    Parsed once per process per content while kept: the same bytes give the same (shared) SvgArt.
    """
    if len(data) > MAX_SVG_BYTES:
        raise ImageError(f"is {len(data)} bytes; the limit is {MAX_SVG_BYTES}")
    digest = hashlib.sha256(data).hexdigest()
    return _SVG_ARTS.get_or_make(digest, lambda: _svg_art(digest, data), lambda art: len(data))


# SVG art parsed, by the sha256 of its bytes; sized by its file (its drawing is some times that).
_SVG_ARTS = Memo("svg art", entries=64, max_bytes=64 << 20)


def _svg_art(digest: str, data: bytes) -> SvgArt:
    root = _parse(data)
    _check_tree(root)
    if root.get("viewBox") is not None:
        # The viewBox is the art's shape: fitted to a box, it fills the box (stretch) or keeps
        # its aspect ratio (cover, contain); width and height would only scale it.
        root.attrib.pop("width", None)
        root.attrib.pop("height", None)
    if not _draws_in_xml(root):
        raise ImageError("draws nothing (no shapes)")
    _quiet_svglib()
    found = normalise(root)
    return SvgArt(root, digest, tuple(found + unsupported(root)))


def _svg_warnings(path: Path) -> tuple[str, ...]:
    try:
        return svg_art(read_image(path)).warnings
    except (ImageError, UnsafeFileError, OSError):
        return ()


# Elements whose contents paint only when something refers to them (PAINTED: those that paint).
_NOT_PAINTED = frozenset(("defs", "clipPath", "mask", "symbol", "pattern", "marker", "linearGradient",
                          "radialGradient", "metadata", "title", "desc"))


def _draws_in_xml(root) -> bool:
    """Whether the tree holds a shape outside definitions (what svglib would draw)."""
    stack = [root]
    while stack:
        node = stack.pop()
        name = _local(node.tag)
        if name in _NOT_PAINTED:
            continue
        if name in PAINTED:
            return True
        stack.extend(node)
    return False


def _parse(data: bytes):
    from lxml import etree

    # Cheap first line: entity declarations are refused before the parser sees them.
    if b"<!ENTITY" in data or "<!ENTITY".encode("utf-16-le") in data or "<!ENTITY".encode("utf-16-be") in data:
        raise ImageError("declares XML entities (<!ENTITY>), which printkit does not expand; "
                         "export the SVG without a DOCTYPE")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                             huge_tree=False, remove_comments=True, remove_pis=True, recover=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise ImageError(f"is not well-formed XML: {exc.msg}") from None
    except ValueError as exc:  # e.g. an encoding declaration lxml refuses
        raise ImageError(f"is not well-formed XML: {exc}") from None
    tree = root.getroottree()
    dtd = tree.docinfo.internalDTD
    if dtd is not None and list(dtd.iterentities()):
        raise ImageError("declares XML entities (<!ENTITY>), which printkit does not expand; "
                         "export the SVG without a DOCTYPE")
    if root.tag not in (f"{{{SVG_NS}}}svg", "svg"):
        raise ImageError(f"is XML but not SVG (its root element is <{etree.QName(root).localname}>)")
    return root


def _check_tree(root) -> None:
    """Limits, outside references, text and size: everything refused before svglib sees the tree."""
    from lxml import etree

    count, depth, ids = 0, 0, {}
    for event, element in etree.iterwalk(root, events=("start", "end")):
        if event == "end":
            depth -= 1
            continue
        depth += 1
        if not isinstance(element.tag, str):  # an entity reference left unexpanded
            raise ImageError("uses XML entities, which printkit does not expand")
        count += 1
        if count > MAX_SVG_ELEMENTS:
            raise ImageError(f"has more than {MAX_SVG_ELEMENTS} elements")
        if depth > MAX_SVG_DEPTH:
            raise ImageError(f"nests elements more than {MAX_SVG_DEPTH} levels deep")
        tag = _local(element.tag)
        line = at_line(element.sourceline)
        if tag in _TEXT_TAGS and "".join(element.itertext()).strip():
            raise ImageError(f"has text (<{tag}>{line}); printkit embeds only its own fonts, so convert "
                             "the SVG's text to paths (Inkscape: Path > Object to Path; Illustrator: "
                             "Type > Create Outlines)")
        if tag == "style":
            _check_css(element.text or "", line)
        for key, value in element.attrib.items():
            if key in (XLINK_HREF, "href"):
                _check_href(tag, value, line)
            elif "url(" in value.lower() or "@import" in value.lower():
                _check_css(value, line)
        if element.get("id") is not None:
            ids.setdefault(element.get("id"), element)
    _check_use_expansion(root, ids, count)
    _check_size(root)


def _check_href(tag: str, value: str, line: str) -> None:
    value = value.strip()
    if value.startswith("#"):
        return
    try:
        data = data_picture(value) if tag == "image" else None
    except (binascii.Error, ValueError):
        raise ImageError(f"has an <image>{line} whose data: URI is not valid base64") from None
    if data is not None:
        try:
            embedded_picture(data)
        except ImageError as exc:
            raise ImageError(f"has an embedded <image>{line} that {exc}") from None
        return
    shown = value if len(value) <= 60 else value[:57] + "..."
    raise ImageError(f"refers to {shown!r} in <{tag}>{line}; an SVG must be self-contained: only "
                     "#fragments, and pictures embedded as data:image/png or data:image/jpeg")


def _check_css(css: str, line: str) -> None:
    if "@import" in css.lower():
        raise ImageError(f"imports a stylesheet (@import){line}; an SVG must be self-contained")
    for match in _URL.finditer(css):
        target = match.group(2).strip()
        if not target.startswith("#"):
            shown = target if len(target) <= 60 else target[:57] + "..."
            raise ImageError(f"refers to {shown!r} in CSS url(){line}; an SVG must be self-contained")


def _check_use_expansion(root, ids: dict, count: int) -> None:
    """Refuse ``<use>`` chains that repeat more than :data:`MAX_SVG_ELEMENTS` elements in all."""
    sizes: dict[int, int] = {}

    def size(element, chain: int) -> int:
        key = id(element)
        if key in sizes:
            return sizes[key]
        if chain > MAX_SVG_DEPTH:
            raise ImageError(f"nests <use> more than {MAX_SVG_DEPTH} levels deep")
        sizes[key] = 0  # a circular <use> adds nothing (svglib skips it)
        total = 0
        for node in element.iter():
            if not isinstance(node.tag, str):
                continue
            total += 1
            if _local(node.tag) == "use":
                href = (node.get(XLINK_HREF) or node.get("href") or "").strip()
                target = ids.get(href[1:]) if href.startswith("#") else None
                if target is not None:
                    total += size(target, chain + 1)
            if total > MAX_SVG_ELEMENTS:
                raise ImageError(f"has more than {MAX_SVG_ELEMENTS} elements once <use> is expanded")
        sizes[key] = total
        return total

    if any(_local(node.tag) == "use" for node in root.iter()):
        size(root, 0)


def _check_size(root) -> None:
    written = root.get("viewBox")
    if written is not None:
        box = view_box(written)
        if box is None or not (box[2] >= MIN_SVG_SIZE and box[3] >= MIN_SVG_SIZE):
            raise ImageError(f"has an unusable viewBox {written!r} (expected 'x y width height', "
                             f"width and height at least {MIN_SVG_SIZE:g})")
        return
    width, height = root.get("width"), root.get("height")
    if width is None or height is None:
        raise ImageError("has no size: give its <svg> element a viewBox (or a width and a height)")
    for name, value in (("width", width), ("height", height)):
        match = LENGTH.fullmatch(value)
        if not match or match.group(2) == "%" or not (float(match.group(1)) >= MIN_SVG_SIZE) \
                or not _finite(float(match.group(1))):
            raise ImageError(f"has an unusable {name} {value!r} (expected a length of at least "
                             f"{MIN_SVG_SIZE:g}, such as 300, 30mm or 2in; or give it a viewBox)")


def _finite(value: float) -> bool:
    return value == value and abs(value) != float("inf")


@lru_cache(maxsize=1)
def _quiet_svglib() -> None:
    """svglib logs what it skips; the checks here report what matters, as errors, so its log stays
    quiet (set when svglib is first used: a deck without SVG art does not import logging)."""
    import logging

    logging.getLogger("svglib").addHandler(logging.NullHandler())


def _to_drawing(root):
    from printkit.render.svg import converter_class

    _quiet_svglib()

    from printkit.render.svg import SvgRefused

    try:
        # Pictures embedded as data: URIs are drawn as checked, turned as their EXIF says.
        return converter_class()(embedded_picture).render(root)
    except SvgRefused as exc:
        raise ImageError(str(exc)) from None
    except ImageError:
        raise
    except RecursionError:  # <use> of groups nested deep, each within the limits, nests deeper still
        raise ImageError("cannot be drawn: it nests groups and <use> too deeply") from None
    except Exception as exc:  # svglib on input it cannot handle
        raise ImageError(f"cannot be drawn: {type(exc).__name__}: {exc}") from None


def _draws_something(drawing) -> bool:
    from reportlab.graphics.shapes import Group, String

    stack = list(drawing.contents)
    found = False
    while stack:
        node = stack.pop()
        if isinstance(node, String):
            raise ImageError("has text; convert the SVG's text to paths")
        if isinstance(node, Group):
            stack.extend(node.contents)
        else:
            found = True
    return found
