"""PNG and JPEG pictures put into a reportlab document, their data kept out of memory until written.

A picture is named by its bytes (``picture-SHA256``: the same picture in any folder gives the same
PDF) and embedded once per document however often it is drawn. Its data is read (or decoded, or
converted to the press's CMYK) only when its object is written, from the file, which must still
hold the bytes checked (:func:`printkit.images.checked_picture`):

- an 8-bit grey or RGB PNG without transparency is embedded as its own IDAT data
  (:class:`_PngStream`);
- any other PNG is decoded by reportlab, once per process per content while kept
  (:data:`_DECODED`), from its pixels as viewers show them where reportlab would draw them
  otherwise (16-bit grey, a transparent grey or RGB colour: :mod:`printkit.render.shown`);
- a JPEG is embedded as its own bytes;
- in a CMYK document every picture is converted (:mod:`printkit.render.cmyk`), kept likewise.

Several threads may write documents at once: what is kept between documents lives in
:class:`printkit.memo.Memo` stores.
"""

from __future__ import annotations

import copy
import io
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfdoc import PDFObject
from reportlab.pdfgen.canvas import Canvas

from printkit.errors import BuildError, ImageError
from printkit.memo import Memo
from printkit.render import pdfx
from printkit.render.cmyk import DEFAULT_PRESS, press_of
from printkit.render.shown import as_shown, needs_showing, png_bit_depth


class SharedSetting:
    """A process-wide setting of reportlab's (it reads them from module globals), made by the first
    of the threads rendering at once and put back by the last: ``apply()`` makes it and returns
    what puts it back."""

    def __init__(self, apply: Callable[[], Callable[[], None]]) -> None:
        self._apply = apply
        self._lock = threading.Lock()
        self._users = 0
        self._undo: Callable[[], None] | None = None

    @contextmanager
    def held(self):
        with self._lock:
            if self._users == 0:
                self._undo = self._apply()
            self._users += 1
        try:
            yield
        finally:
            with self._lock:
                self._users -= 1
                if self._users == 0 and self._undo is not None:
                    self._undo()
                    self._undo = None


def _without_a85() -> Callable[[], None]:
    saved = rl_config.useA85
    rl_config.useA85 = 0
    return lambda: setattr(rl_config, "useA85", saved)


_BINARY = SharedSetting(_without_a85)


def binary_streams():
    """Compressed streams without reportlab's ASCII85 layer (a quarter smaller, and faster).

    reportlab reads this switch from its global config when it writes a document, so it is set
    while any render runs and put back when the last one ends.
    """
    return _BINARY.held()


def refuse_transparency(canvas: Canvas, path: Path) -> None:
    """In a PDF/X-1a document, the error naming a picture whose drawing asked for transparency."""
    if getattr(press_of(canvas), "pdfx", False) and pdfx.transparent(canvas):
        raise pdfx.refuse_transparency(str(path), canvas._doc.info.title)


def register_picture(canvas: Canvas, path: Path, checked) -> str:
    """Put the PNG at ``path`` into ``canvas``'s document, named by its bytes (``picture-SHA256``,
    as a JPEG is: the same picture in any folder gives the same PDF); what to give ``drawImage``
    for it. Made here:

    - an 8-bit grey or RGB PNG without transparency is embedded as it is: its IDAT data is a
      Flate stream with the PNG predictors (``/DecodeParms``), so nothing is decoded or
      compressed again (:class:`_PngStream`);
    - any other PNG (transparency, a palette, 16 bits, interlaced) is decoded by reportlab as
      before, into the same objects (:func:`_decoded_png`); the document keeps what their
      dictionaries say, and their streams are made again when they are written unless the
      process still keeps them.

    Either way the document holds no picture's data while its pages are drawn.
    """
    digest = checked.digest
    key, name, reg = _picture_names(canvas, digest)
    if canvas._doc.idToObject.get(reg) is not None:
        return key
    try:  # ``checked`` is a checked PNG (images.Picture), its bytes read only if not known here
        info = _png_info(checked)
        smask = None
        if not info.plain:
            image, mask = _decoded_models(checked)
    except ImageError as exc:
        raise BuildError(f"image {str(path)!r} {exc}") from None
    if info.plain:
        obj = _PngStream(info, Path(path), digest)
    else:
        source = Path(path)
        obj = _LazyImage(image, lambda: _decoded_stream(source, digest, False))
        if mask is not None:
            smask = _LazyImage(mask, lambda: _decoded_stream(source, digest, True))
    _add_image(canvas, obj, name, reg)
    if smask is not None:
        _add_mask(canvas, obj, smask.name, lambda: smask)
    return key


def _picture_names(canvas: Canvas, digest: str) -> tuple[str, str, str]:
    """How a picture of sha256 ``digest`` is known in ``canvas``'s document: the key to give
    ``drawImage`` (``picture-SHA256``, as :class:`printkit.images.Picture` lends it), the name
    ``drawImage(key, ..., mask="auto")`` gives it, and its XObject's."""
    from reportlab.pdfgen.canvas import _digester

    key = f"picture-{digest}"
    name = _digester(f"{key}auto".encode("utf-8"))
    return key, name, canvas._doc.getXObjectName(name)


def _add_image(canvas: Canvas, obj, name: str, reg: str) -> None:
    """Put the image object ``obj`` into ``canvas``'s document as ``drawImage`` does, under
    ``name`` (its XObject ``reg``), so that drawing ``name`` places it."""
    obj.name = name
    canvas._setXObjects(obj)
    canvas._doc.Reference(obj, reg)
    canvas._doc.addForm(name, obj)


def _add_mask(canvas: Canvas, obj, mask_name: str, make_mask: Callable[[], object]) -> None:
    """Give the image object ``obj`` its soft mask as ``drawImage`` does: the document's object
    named ``mask_name`` if it has one already, else ``make_mask()`` put in under that name."""
    doc = canvas._doc
    mask_reg = doc.getXObjectName(mask_name)
    if doc.idToObject.get(mask_reg) is None:
        smask = make_mask()
        canvas._setXObjects(smask)
        obj.smask = doc.Reference(smask, mask_reg)
    else:
        obj.smask = pdfdoc.PDFObjectReference(mask_reg)


def register_jpeg(canvas: Canvas, path: Path, checked):
    """Put the checked JPEG ``checked`` (read from ``path``) into ``canvas``'s document; what to
    give ``drawImage`` for it.

    reportlab would copy the file's bytes into its image object, held until the document is
    written: here the object keeps what its dictionary says and reads the bytes from ``path`` when
    it is written. It is named as reportlab names a checked picture it is lent
    (``picture-SHA256``), so the pages read the same either way.
    """
    key, name, reg = _picture_names(canvas, checked.digest)
    if canvas._doc.idToObject.get(reg) is not None:
        return key
    try:
        model = _JPEG_MODELS.get_or_make(checked.digest, lambda: _jpeg_model_of(checked))
    except ImageError as exc:
        raise BuildError(f"image {str(path)!r} {exc}") from None
    if model is False:
        return checked.reader()  # a JPEG reportlab cannot read the header of: its own way, as before
    source, digest = Path(path), checked.digest
    _add_image(canvas, _LazyImage(model, lambda: _checked_bytes(source, digest)), name, reg)
    return key


_JPEG_MODELS = Memo("JPEG entries", entries=20_000)  # sha256 -> what its image object says (False: unread)


_HEAD_BYTES = 64 << 10  # enough for the segments before a JPEG's frame header, a phone's EXIF included


def _jpeg_model_of(checked):
    """:func:`_jpeg_model` of the checked JPEG ``checked``, from its first bytes when they hold
    what reportlab reads (it reads no further than the frame header; a read past what it is given
    fails it, so what it says from them is what it says from all the bytes), else from all."""
    head = checked.head(_HEAD_BYTES)
    model = _jpeg_model(head) if head is not None else False
    return model if model is not False else _jpeg_model(checked.data)


def _jpeg_model(data: bytes):
    """What the image object of the JPEG ``data`` says, as reportlab reads its header (without its
    stream); False when reportlab cannot read it."""
    model = pdfdoc.PDFImageXObject("", None)
    return _model(model) if model.loadImageFromJPEG(io.BytesIO(data)) else False


def _checked_bytes(path: Path, digest: str) -> bytes:
    """The bytes of the picture at ``path``, which must still be those checked (sha256 ``digest``):
    hashed again only if the file is not the one checked (:func:`printkit.images.bytes_checked`)."""
    from printkit.images import bytes_checked  # loaded by the documents that draw a picture

    try:
        data = bytes_checked(path, digest)
    except ImageError as exc:
        raise BuildError(f"image {str(path)!r} {exc}") from None
    if data is None:
        raise BuildError(f"image {str(path)!r} changed while the build drew it")
    return data


class _LazyImage(pdfdoc.PDFImageXObject):
    """An image XObject saying what ``model`` says, whose stream ``content()`` gives only when the
    document is written (and is let go right after): a document holds no picture's data while
    its pages are drawn."""

    def __init__(self, model, content) -> None:
        super().__init__("", None)
        self.__dict__.update((k, v) for k, v in vars(model).items() if k not in ("streamContent", "_smask"))
        self.streamContent = None
        self._content = content

    def format(self, document) -> bytes:
        self.streamContent = self._content()
        try:
            return super().format(document)
        finally:
            self.streamContent = None


def _model(obj):
    """An image object's entries without its stream (a few numbers and names)."""
    model = copy.copy(obj)
    model.streamContent = None
    model.__dict__.pop("_smask", None)
    return model


def register_cmyk_picture(canvas: Canvas, path, digest: str, data: bytes) -> str:
    """Put the picture ``data`` (sha256 ``digest``) into ``canvas``'s document converted to the
    press's CMYK (raw pixels, Flate-compressed, with a soft mask for its transparency), named by
    its bytes as :func:`register_picture` names it; what to give ``drawImage`` for it. The
    document keeps what the objects' dictionaries say (:func:`_cmyk_models`); the
    picture is converted when they are written, unless the process still keeps it converted
    (:func:`_cmyk_objects`): from the file at ``path``, which must still hold ``data``, or (a
    picture inside an SVG, ``path`` no file) from ``data`` itself."""
    key, name, reg = _picture_names(canvas, digest)
    if canvas._doc.idToObject.get(reg) is not None:
        return key
    image, mask = _cmyk_models(digest, data, path)
    limit = (press_of(canvas) or DEFAULT_PRESS).ink_limit
    if isinstance(path, Path):
        source = lambda: _checked_bytes(path, digest)  # noqa: E731
    else:
        source = lambda: data  # noqa: E731
    obj = _LazyImage(image, lambda: _cmyk_objects(digest, source, path, limit)[0].streamContent)
    _add_image(canvas, obj, name, reg)
    if mask is not None:
        _add_mask(canvas, obj, f"{name}-mask",
                  lambda: _LazyImage(mask, lambda: _cmyk_objects(digest, source, path, limit)[1].streamContent))
        canvas._printkit_masked = True  # transparency: refused in PDF/X-1a (printkit.render.pdfx)
    return key


# Pictures converted to CMYK, by sha256: their image and mask objects within a budget of their
# compressed streams' bytes, and what their dictionaries say (a few numbers each).
_CMYK_PICTURES = Memo("pictures in CMYK", entries=4096, max_bytes=128 << 20)
_CMYK_MODELS = Memo("CMYK picture entries", entries=20_000)
# The last picture made again while a document was written (too large to keep), by kind: its mask
# is written right after it.
_LAST = Memo("last picture made again", entries=2)


def _cmyk_models(digest: str, data: bytes, path) -> tuple:
    """What the CMYK image object of the picture ``data`` says, and its mask's (None when it is
    opaque): read from the picture without converting it, once per process per content."""
    models = _CMYK_MODELS.get(digest)
    if models is None:
        from printkit.render.cmyk import cmyk_shape

        try:
            width, height, alpha = cmyk_shape(data)
        except (OSError, ValueError) as exc:
            raise BuildError(f"image {str(path)!r} cannot be converted to CMYK: {exc}") from None
        models = (_cmyk_xobject((width, height), "DeviceCMYK"),
                  _cmyk_xobject((width, height), "DeviceGray") if alpha else None)
        _CMYK_MODELS.put(digest, models)
    return models


def _cmyk_xobject(size: tuple[int, int], space: str, pixels=None):
    """An image object for converted pixels (8 bits, Flate-compressed); without ``pixels``, its
    entries alone."""
    import zlib

    obj = pdfdoc.PDFImageXObject("", None)
    obj.width, obj.height = size
    obj.bitsPerComponent = 8
    obj.colorSpace = space
    obj.streamContent = zlib.compress(pixels.tobytes()) if pixels is not None else None
    obj._filters = ("FlateDecode",)
    return obj


def _cmyk_objects(digest: str, data, path, limit: float = DEFAULT_PRESS.ink_limit) -> tuple:
    """The CMYK image object and mask object (None when opaque) of the picture ``data()`` gives,
    no pixel over ``limit`` total ink."""
    digest = f"{digest} {limit:g}"  # one picture converted for two presses is two pictures
    found = _CMYK_PICTURES.get(digest)
    if found is None:
        found = _LAST.get(("cmyk", digest))  # the mask written right after its image: converted once for both
    if found is None:
        from printkit.render.cmyk import cmyk_picture, limit_picture

        try:
            image, alpha = cmyk_picture(data())
            image = limit_picture(image, limit)
        except (OSError, ValueError) as exc:
            raise BuildError(f"image {str(path)!r} cannot be converted to CMYK: {exc}") from None
        found = (_cmyk_xobject(image.size, "DeviceCMYK", image),
                 _cmyk_xobject(alpha.size, "DeviceGray", alpha) if alpha is not None else None)
        del image, alpha
        if not _CMYK_PICTURES.put(digest, found, _stream_bytes(found)):
            _LAST.put(("cmyk", digest), found)
    return found


def _stream_bytes(objects) -> int:
    return sum(len(obj.streamContent) for obj in objects if obj is not None)


_PNG_INFOS = Memo("PNG structures", entries=20_000)  # sha256 of a PNG's bytes -> its PngInfo
# sha256 -> reportlab's image object, within a budget of its compressed streams' bytes
_DECODED = Memo("PNGs decoded", entries=4096, max_bytes=256 << 20)
_DECODED_MODELS = Memo("decoded PNG entries", entries=20_000)  # sha256 -> its objects' dictionaries


def _png_info(checked):
    """The checked structure of the PNG ``checked`` (an images.Picture), once per process per content."""
    from printkit.images import png_info

    return _PNG_INFOS.get_or_make(checked.digest, lambda: png_info(checked.data))


def _decoded_models(checked) -> tuple:
    """What the image object of a PNG reportlab must decode says, and its soft mask's (None without
    one), each with its name; decoded for it once per process per content."""
    digest = checked.digest
    models = _DECODED_MODELS.get(digest)
    if models is None:
        obj = _decoded_png(digest, checked.data)
        smask = getattr(obj, "_smask", None)
        models = (_model(obj), _model(smask) if smask is not None else None)
        _DECODED_MODELS.put(digest, models)
    return models


def _decoded_stream(path: Path, digest: str, mask: bool) -> bytes:
    """The stream of a decoded PNG's image object (or of its soft mask) as the document is written:
    kept by the process, or decoded again from the file, which must still hold the bytes checked."""
    obj = _DECODED.get(digest)
    if obj is None:
        obj = _LAST.get(("png", digest))  # the mask written right after its image: decoded once for both
    if obj is None:
        obj = _decoded_png(digest, _checked_bytes(path, digest))
        if digest not in _DECODED:
            _LAST.put(("png", digest), obj)
    return obj._smask.streamContent if mask else obj.streamContent


def _decoded_png(digest: str, data: bytes):
    """reportlab's image object for a PNG it must decode (with its soft mask), kept for the next
    document within :data:`_DECODED`'s budget."""
    obj = _DECODED.get(digest)
    if obj is None:
        from reportlab.lib.utils import ImageReader

        with binary_streams():
            obj = pdfdoc.PDFImageXObject("", None, mask="auto")
            obj.loadImageFromSRC(ImageReader(shown_source(data)))
        _DECODED.put(digest, obj, len(obj.streamContent) + len(getattr(getattr(obj, "_smask", None),
                                                                         "streamContent", b"")))
    return obj


def shown_source(data: bytes):
    """What reportlab decodes the picture ``data`` from: its bytes, or (a PNG of 16-bit grey, or
    with a transparent grey or RGB colour, which reportlab would draw otherwise) its pixels as
    viewers show them (:func:`printkit.render.shown.as_shown`)."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as opened:
        if not needs_showing(opened):
            return io.BytesIO(data)
        opened.load()
        return as_shown(opened, png_bit_depth(data))


class _PngStream(PDFObject):
    """A PNG's own IDAT data as a PDF image XObject, read from the file when the PDF is written
    (so the document holds no copy of it while pages are drawn); the bytes must still be those
    checked when it was drawn."""

    def __init__(self, info, path: Path, digest: str) -> None:
        self.info, self.path, self.digest = info, path, digest
        self.width, self.height = info.width, info.height

    def format(self, document) -> bytes:
        from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream

        data = _checked_bytes(self.path, self.digest)
        view = memoryview(data)
        content = b"".join(view[offset:offset + length] for offset, length in self.info.idat)
        del data, view
        colors = 3 if self.info.color_type == 2 else 1
        dictionary = PDFDictionary({
            "Type": PDFName("XObject"), "Subtype": PDFName("Image"), "Width": self.width,
            "Height": self.height, "BitsPerComponent": 8,
            "ColorSpace": PDFName("DeviceRGB" if colors == 3 else "DeviceGray"),
            "Filter": PDFArray([PDFName("FlateDecode")]),
            # One entry per filter, as the Filter array: PDFium ignores a lone dictionary there.
            "DecodeParms": PDFArray([PDFDictionary({"Predictor": 15, "Colors": colors, "BitsPerComponent": 8,
                                                    "Columns": self.width})]),
        })
        return PDFStream(dictionary, content).format(document)
