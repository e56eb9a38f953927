"""PDF backend: draws layout ops with reportlab, as vectors, with embedded subset TrueType fonts.

Only this module speaks points. :func:`draw_ops` sets up a transform so that one user-space unit is
one millimetre with y pointing down (the card frame of :mod:`printkit.layout.ops`), then draws each
op literally. :func:`render_pages` draws each distinct face once, as a form XObject, and places it
wherever it appears. Documents are made with reportlab's ``invariant`` mode, so the same pages
give the same bytes. A PNG or JPEG is embedded once per document however often it is drawn, and
its data is read (or decoded, or converted) only when its object is written; SVG art is drawn as
vectors, one form XObject per document. Fonts are TrueType, registered with reportlab once per
process and embedded as a subset in every document that uses them, the subsets' tags drawn from
the document's content (:mod:`printkit.render.subset_tags`).

:func:`render_pages` returns a document's bytes (reportlab's own ``save``); :func:`write_pages`
writes the same bytes to a file one object at a time, so a document of hundreds of pictures is
never in memory whole.

Documents may be made from several threads at once, each thread its own canvas: what the process
keeps between documents (pictures decoded or converted, SVG forms, path code) lives in
:class:`printkit.memo.Memo` stores.
"""

from __future__ import annotations

import copy
import hashlib
import io
import json
import re
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, Sequence

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.pdfdoc import PDFObject
from reportlab.pdfgen.canvas import Canvas

from printkit.errors import BuildError
from printkit.fonts import SYMBOLS, ttfont, font_name
from printkit.render.svg import SvgRefused, press_color, svg_form_store
from printkit.render.forms import end_form
from printkit.images import PNG_SIGNATURE, ImageError, is_svg, picture, png_info, read_image, svg_art
from printkit.layout.geometry import Box, fit_image
from printkit.layout.imposition import Page
from printkit.render.cmyk import DEFAULT_PRESS, Press
from printkit.render import pdfx
from printkit.render.color import SRGB_NAME, srgb_icc
from printkit.render.subset_tags import embed_fonts
from printkit.layout.ops import Ellipse, Face, Image, Line, Op, Polygon, Rect, Text
from printkit.memo import Memo
from printkit.units import mm_to_pt

PT_PER_MM = mm_to_pt(1.0)


@dataclass(frozen=True)
class PdfInfo:
    """What a PDF says about itself: its document information and language.

    ``title`` names the deck and what the file is (``Calc (expert): card 7+ front``), ``author``
    comes from the spec's ``author:`` (empty when it has none), ``subject`` says what the file is
    for, ``lang`` (a code such as ``ko``) becomes the catalog's ``/Lang``.
    """

    title: str = ""
    author: str = ""
    subject: str = ""
    lang: str | None = None


def new_canvas(target, page_width_mm: float, page_height_mm: float, title: str = "",
               initial_font: Path = SYMBOLS, info: PdfInfo | None = None, cmyk: bool | Press = False) -> Canvas:
    """A reportlab canvas with reproducible output (no dates or random IDs in the file).

    The document names sRGB as its output intent (:func:`add_output_intent`), since every colour
    printkit draws is an sRGB colour; ``info`` (or ``title`` alone) fills in its metadata. With
    ``cmyk`` every colour and picture drawn through this module is converted to the press profile
    of :mod:`printkit.render.cmyk`, and the output intent names that profile instead; a
    :class:`~printkit.render.cmyk.Press` says how (ink limit, rich black, PDF/X-1a), ``True``
    the default press.
    """
    info = info or PdfInfo(title=title)
    # A TrueType initial font: reportlab's default (Helvetica) would be referenced on every page
    # without being embedded, which print shops' preflight checks reject.
    canvas = Canvas(target, pagesize=(mm_to_pt(page_width_mm), mm_to_pt(page_height_mm)),
                    invariant=1, pageCompression=1, initialFontName=register_font(initial_font),
                    lang=info.lang)
    canvas.setCreator("printkit")
    canvas.setProducer("printkit (reportlab)")
    if info.title:
        canvas.setTitle(info.title)
    canvas.setAuthor(info.author)
    if info.subject:
        canvas.setSubject(info.subject)
    press = cmyk if isinstance(cmyk, Press) else (DEFAULT_PRESS if cmyk else None)
    canvas._printkit_cmyk = press or False
    if press is not None:
        from printkit.render import cmyk as inks

        add_output_intent(canvas, inks.press_icc(), components=4, condition=inks.CONDITION,
                          subtype="GTS_PDFX", info=inks.profile_name())
        if press.pdfx:
            pdfx.mark(canvas)
    else:
        add_output_intent(canvas)
    return canvas


def _is_cmyk(canvas: Canvas) -> bool:
    return bool(getattr(canvas, "_printkit_cmyk", False))


def _press(canvas: Canvas) -> Press | None:
    """How ``canvas`` takes ink: its press, or None for an sRGB document."""
    return getattr(canvas, "_printkit_cmyk", False) or None


def add_output_intent(canvas: Canvas, icc: bytes | None = None, components: int = 3,
                      condition: str = SRGB_NAME, subtype: str = "GTS_PDFA1", info: str | None = None) -> None:
    """Name the colour space the document's colours mean: an OutputIntent with the ICC profile.

    By default sRGB (``/GTS_PDFA1``, the subtype for an RGB output condition); a press profile is
    named with ``/GTS_PDFX``. reportlab has no call for this, so the entry goes into its catalog
    object, which writes the keys it is told of.
    """
    from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream, PDFString

    doc = canvas._doc
    profile = PDFStream(PDFDictionary({"N": components}), icc if icc is not None else srgb_icc())
    intent = PDFDictionary({
        "Type": PDFName("OutputIntent"), "S": PDFName(subtype),
        "OutputConditionIdentifier": PDFString(condition), "Info": PDFString(info or condition),
        "RegistryName": PDFString("http://www.color.org"), "DestOutputProfile": doc.Reference(profile),
    })
    catalog = doc.Catalog
    catalog.OutputIntents = PDFArray([intent])
    if "OutputIntents" not in catalog.__NoDefault__:
        catalog.__NoDefault__ = [*catalog.__NoDefault__, "OutputIntents"]


def render_pages(pages: Sequence[Page], title: str = "", info: PdfInfo | None = None, cmyk: bool | Press = False,
                 keep_for: "SharedPages | None" = None, reuse: "SharedPages | None" = None) -> bytes:
    """One PDF holding ``pages`` (each with its own size and page boxes), as bytes.

    A face placed more than once is drawn once, as a form XObject, and placed wherever it
    appears: four copies of a card cost the file (and the renderer) one drawing; a face placed
    once is drawn where it stands. ``info`` (or ``title``) is
    what the document says about itself; ``cmyk`` converts its colours and pictures for a press
    (:mod:`printkit.render.cmyk`).

    ``keep_for`` keeps the content of the pages a later document shows too (:class:`SharedPages`);
    that document, rendered with ``reuse``, writes them instead of drawing them again. Its bytes
    are the same either way.
    """
    info = info or PdfInfo(title=title)
    if not pages:
        raise BuildError(f"nothing to render for {info.title or 'a PDF'!r}: no pages")
    with binary_streams(), remembered_numbers():
        canvas, buffer = _drawn(pages, info, cmyk, keep_for, reuse)
        embed_fonts(canvas)  # subsets named from this document's content
        canvas.save()
        return buffer.getvalue()


def write_pages(pages: Sequence[Page], out, title: str = "", info: PdfInfo | None = None, cmyk: bool | Press = False,
                keep_for: "SharedPages | None" = None, reuse: "SharedPages | None" = None) -> int:
    """The PDF :func:`render_pages` makes of the same arguments, written to ``out`` (anything with
    ``write(bytes)``) object by object; returns how many bytes were written.

    The document's bytes are never all in memory: the pages are drawn first (each page's content
    compressed as it ends), then each object is formatted, written and let go, pictures read from
    their files only then. A failure while writing leaves ``out`` holding part of a PDF: the
    caller writes to a temporary and removes it (:meth:`printkit.outputs.Staging.stage_stream`).
    """
    info = info or PdfInfo(title=title)
    if not pages:
        raise BuildError(f"nothing to render for {info.title or 'a PDF'!r}: no pages")
    with binary_streams(), remembered_numbers():
        canvas, _ = _drawn(pages, info, cmyk, keep_for, reuse)
        embed_fonts(canvas)
        return _write_document(canvas, out)


def _write_document(canvas: Canvas, out) -> int:
    """Write ``canvas``'s finished document to ``out`` as ``canvas.save()`` would, one object at a
    time; the byte count.

    reportlab formats every object, joins them and only then writes (``PDFDocument.format``); the
    file is the same sequence: its header, the objects in number order (formatting one may
    register more, which get the next numbers), the cross-reference table of their offsets and
    the trailer.
    """
    if canvas._code:
        canvas.showPage()
    doc = canvas._doc
    if getattr(doc, "_savedToFile", False):
        raise RuntimeError("a document is written once")
    doc._savedToFile = True
    # What PDFDocument.GetPDFData settles before formatting.
    for font in doc.delayedFonts:
        font.addObjects(doc)
    doc.info.invariant = doc.invariant
    doc.info.digest(doc.signature)
    doc.Reference(doc.Catalog)
    doc.Reference(doc.info)
    doc.Outlines.prepare(doc, canvas)
    if doc.Outlines.ready < 0:
        doc.Catalog.Outlines = None
    doc.encrypt.prepare(doc)
    if doc.encrypt.info() is not None:
        raise RuntimeError("printkit writes no encrypted PDFs")
    root, about = doc.Reference(doc.Catalog), doc.Reference(doc.info)
    comments = not rl_config.invariant and rl_config.pdfComments  # as reportlab decides it
    offset = 0

    def put(data: bytes) -> None:
        nonlocal offset
        out.write(data)
        offset += len(data)

    put(pdfdoc.PDFFile(doc._pdfVersion).format(doc))  # the header line and its binary comment
    ids = []
    number = 1
    while number in doc.numberToId:
        oid = doc.numberToId[number]
        obj = doc.idToObject[oid]
        data = pdfdoc.PDFIndirectObject(oid, obj).format(doc)
        if comments:
            put(pdfdoc.pdfdocEnc("%% %s: class %s \n" % (ascii(oid), type(obj).__name__[:50])))
        doc.idToOffset[oid] = offset
        put(data)
        del data  # a picture's stream: let it go before the next is read
        ids.append(oid)
        number += 1
    if len(ids) != len(doc.numberToId):
        raise ValueError(f"objects numbered {len(doc.numberToId)}, written {len(ids)}")
    xref = pdfdoc.PDFCrossReferenceTable()
    xref.addsection(0, ids)
    start = offset
    put(xref.format(doc))
    put(pdfdoc.PDFTrailer(startxref=start, Size=len(ids) + 1, Root=root, Info=about, ID=doc.ID()).format(doc))
    return offset


Seed = tuple[tuple[str, str], ...]


def text_seed(pages: Iterable[Page]) -> Seed:
    """Each font the text of ``pages`` is set in, with its characters: both in the order drawn.

    A document's fonts are given these before anything is drawn (:func:`_seed_fonts`); in that
    order they are what drawing would have given them anyway.
    """
    texts: dict[str, list[str]] = {}
    seen: set[Face] = set()
    for page in pages:
        for placement in page.placements:
            face = placement.face
            if face not in seen:
                seen.add(face)
                for op in face.ops:
                    if type(op) is Text:
                        texts.setdefault(str(op.font), []).append(op.text)
        for op in page.ops:
            if type(op) is Text:
                texts.setdefault(str(op.font), []).append(op.text)
    return tuple((font, "".join(dict.fromkeys("".join(parts)))) for font, parts in texts.items())


def _seed_then(first: Seed, then: Seed) -> Seed:
    """``first``, then what ``then`` adds: new characters after a font's own, new fonts last."""
    chars = dict(first)
    for font, text in then:
        chars[font] = "".join(dict.fromkeys(chars.get(font, "") + text))
    return tuple(chars.items())


def _seed_fonts(canvas: Canvas, seed: Seed) -> None:
    """Give each TrueType font of ``seed`` its PDF name, then its characters their codes, in order.

    reportlab names a font and codes a character when it is first drawn: seeded, a document
    whose seed begins with another's names and codes all of that one's text alike.
    """
    doc = canvas._doc
    for path, chars in seed:
        font = pdfmetrics.getFont(register_font(path))
        if getattr(font, "_dynamicFont", False):
            font.splitString(chars, doc)
            font.getSubsetInternalName(0, doc)


class SharedPages:
    """Pages that two documents of a build both show, drawn once: a deck's fronts-only sheets are
    its duplex sheets without the back pages.

    The first document (``render_pages(..., keep_for=shared)``) seeds its fonts with the later
    document's text first (:func:`text_seed`), so that a page's content stream means the same in
    both, and keeps the compressed stream of each page the later one shows. The later one
    (``reuse=shared``) writes those streams as they are. Pages with pictures are drawn again
    (their images belong to each document), and so is every page if the two do not agree.
    """

    def __init__(self, later: Sequence[Page]) -> None:
        self.later = tuple(later)
        self.pages = frozenset(self.later)
        self.seed = text_seed(self.later)
        self.cmyk: bool | None = None
        self.used: Seed = ()  # the seed the first document was given
        # page -> (compressed stream, forms the page uses, each placement drawn as a form or not,
        # reportlab's has-images flag)
        self.streams: dict[Page, tuple[bytes, tuple[str, ...], tuple[bool, ...], int]] = {}

    def agrees(self, seed: Seed, cmyk: bool) -> bool:
        """Whether a document with ``seed`` and ``cmyk`` codes text as the kept pages do."""
        if cmyk != self.cmyk or len(seed) > len(self.used):
            return False
        return all(font == kept_font and kept.startswith(chars)
                   for (font, chars), (kept_font, kept) in zip(seed, self.used))


@contextmanager
def binary_streams():
    """Compressed streams without reportlab's ASCII85 layer (a quarter smaller, and faster).

    reportlab reads this switch from its global config when it writes a document, so it is set
    for the duration of one render and put back afterwards.
    """
    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = saved


# Where reportlab formats the numbers of content streams and objects (and this module).
_NUMBER_USERS = ("reportlab.pdfgen.canvas", "reportlab.pdfgen.pathobject", "reportlab.pdfgen.textobject",
                 "reportlab.pdfbase.pdfdoc", __name__)
_MAX_REMEMBERED = 200_000


@contextmanager
def remembered_numbers():
    """reportlab's number formatting (``fp_str``) remembered for the duration of one render.

    Without its optional C accelerator reportlab formats every number of every drawing command
    in Python, and on sheets of cards drawn from one layout the same coordinates, sizes and
    colours come back on every card: formatted once, looked up after. ``fp_str`` is a pure
    function of its arguments (equal numbers, such as ``1`` and ``1.0``, print alike), so the
    bytes written are the same. Like :func:`binary_streams`, the switch is made for one render
    and put back afterwards.
    """
    import sys

    if type(fp_str).__name__ == "builtin_function_or_method":  # rl_accel's, in C: faster than a lookup
        yield
        return
    modules = [sys.modules[name] for name in _NUMBER_USERS if name in sys.modules]
    saved = [module.fp_str for module in modules]
    original = saved[0]
    known: dict[tuple, str] = {}

    def remembered(*args) -> str:
        try:
            return known[args]
        except KeyError:
            text = original(*args)
            if len(known) < _MAX_REMEMBERED:
                known[args] = text
            return text
        except TypeError:  # a list among the arguments: not a key
            return original(*args)

    for module in modules:
        module.fp_str = remembered
    try:
        yield
    finally:
        for module, function in zip(modules, saved):
            module.fp_str = function


class _Written:
    """Where reportlab writes a finished document: keeps the one bytes object it writes (a
    BytesIO would hold a second copy of the whole PDF)."""

    name = "printkit.pdf"

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.parts.append(data)

    def flush(self) -> None:
        pass

    def getvalue(self) -> bytes:
        return self.parts[0] if len(self.parts) == 1 else b"".join(self.parts)


def _drawn(pages: Sequence[Page], info: PdfInfo, cmyk: bool | Press = False, keep_for: SharedPages | None = None,
           reuse: SharedPages | None = None) -> tuple[Canvas, _Written]:
    """A canvas with every page of ``pages`` drawn and finished, not yet saved, and the buffer its
    ``save()`` writes to."""
    buffer = _Written()
    first = pages[0].size
    canvas = new_canvas(buffer, first.width_mm, first.height_mm, info.title, _first_font(pages), info, cmyk)
    if keep_for is not None:
        # Kept pages have no text the later document's seed lacks: only the others add to it.
        seed = _seed_then(keep_for.seed, text_seed(p for p in pages if p not in keep_for.pages))
        keep_for.used, keep_for.cmyk, keep_for.streams = seed, cmyk, {}
    elif reuse is not None and tuple(pages) == reuse.later:
        seed = reuse.seed
    else:
        seed = text_seed(pages)
    _seed_fonts(canvas, seed)
    kept = reuse.streams if reuse is not None and reuse.agrees(seed, cmyk) else {}
    images = _ImageSizes()
    forms: dict[str, str] = {}
    # A face placed more than once (copies of a card, a deck's one back) is drawn once, as a form
    # XObject; a face placed once is drawn on its page, which makes a smaller file (no object,
    # no resources of its own, compressed with its neighbours) and holds less while it is written.
    placed = Counter(placement.face for page in pages for placement in page.placements)
    for page in pages:
        w, h = page.size.width_mm, page.size.height_mm
        canvas.setPageSize((mm_to_pt(w), mm_to_pt(h)))
        canvas.setTrimBox(_box_pt(page.trim or Box(0, 0, w, h), h))
        canvas.setBleedBox(_box_pt(page.bleed or Box(0, 0, w, h), h))
        as_forms = tuple(placed[p.face] > 1 for p in page.placements)
        stream = kept.get(page)
        if stream is not None and stream[2] == as_forms:
            for placement, as_form in zip(page.placements, as_forms):
                if as_form:
                    _form(canvas, placement.face, forms, images)  # defined in this document too
            canvas._formsinuse = list(stream[1])
            canvas._currentPageHasImages = stream[3]
            canvas.showPage()
            _set_contents(canvas._doc.Pages.pages[-1], stream[0])
            continue
        for placement, as_form in zip(page.placements, as_forms):
            face = placement.face
            name = _form(canvas, face, forms, images) if as_form else None
            canvas.saveState()
            _enter_card_frame(canvas, placement.x_mm, placement.y_mm, h, 1.0, placement.clip,
                              placement.clockwise_deg)
            if name is None:
                _draw_all(canvas, face.ops, images)
            else:
                canvas.doForm(name)
            canvas.restoreState()
        if page.ops:
            draw_ops(canvas, page.ops, 0.0, 0.0, h, _images=images)
        keep = keep_for is not None and page in keep_for.pages and _without_pictures(page)
        in_use, has_images = tuple(canvas._formsinuse), canvas._currentPageHasImages
        canvas.showPage()
        _compress_last_page(canvas)
        if keep:
            keep_for.streams[page] = (canvas._doc.Pages.pages[-1].Contents.content, in_use, as_forms, has_images)
    if getattr(_press(canvas), "pdfx", False):
        pdfx.finish(canvas, info.title)
    return canvas, buffer


def _without_pictures(page: Page) -> bool:
    """Whether nothing drawn on ``page`` itself is a picture (forms hold their own)."""
    return not any(type(op) is Image for op in page.ops) and not any(
        type(op) is Image for p in page.placements for op in p.face.ops)


def _compress_last_page(canvas: Canvas) -> None:
    """Compress the page just finished now rather than when the document is saved.

    reportlab keeps every page's drawing commands as text until it writes the document; a sheet
    of cards is some 10 KB of commands and 2-3 KB compressed, so a 10,000-card deck holds a
    third as much. The bytes written are the same: the same filter, applied earlier.
    """
    page = canvas._doc.Pages.pages[-1]
    if page.stream and page.compression and not page.Contents:
        _set_contents(page, pdfdoc.PDFZCompress.encode(page.stream))


def _set_contents(page, compressed: bytes) -> None:
    """Make ``compressed`` (zlib) the content stream of the finished ``page``."""
    stream = pdfdoc.PDFStream(content=compressed)
    stream.dictionary["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName(pdfdoc.PDFZCompress.pdfname)])
    stream.__Comment__ = "page stream"
    page.Contents, page.stream = stream, None


def _first_font(pages: Sequence[Page]) -> Path:
    for page in pages:
        for ops in [p.face.ops for p in page.placements] + [page.ops]:
            for op in ops:
                if isinstance(op, Text):
                    return Path(op.font)
    return SYMBOLS


# Form space is the card frame itself (mm, y down); this box holds any face with room to spare.
_FORM_BBOX_MM = (-1000.0, -1000.0, 2000.0, 2000.0)


def _form(canvas: Canvas, face: Face, forms: dict[str, str], images: "_ImageSizes") -> str:
    """The name of the form XObject drawing ``face`` (equal drawings share one), drawn on first use.

    Named by the drawing itself, so that a page placing it reads the same in every document.
    """
    name = forms.get(face.digest)
    if name is None:
        name = forms[face.digest] = f"face{face.digest[:16]}"
        canvas.beginForm(name, *_FORM_BBOX_MM)
        _draw_all(canvas, face.ops, images)
        end_form(canvas)
    return name


def _box_pt(box: Box, page_height_mm: float) -> list[float]:
    """A page-frame box (y down, mm) as a PDF box array [x1 y1 x2 y2] in points (y up)."""
    return [round(mm_to_pt(v), 4) for v in
            (box.x_mm, page_height_mm - box.bottom_mm, box.right_mm, page_height_mm - box.y_mm)]


def draw_ops(canvas: Canvas, ops: Iterable[Op], x_mm: float, y_mm: float, page_height_mm: float,
             scale: float = 1.0, clip_mm: Box | None = None, _images: "_ImageSizes | None" = None) -> None:
    """Draw ``ops`` (card frame, mm) with the frame's origin at ``(x_mm, y_mm)`` from the page's top-left.

    ``scale`` enlarges or shrinks the drawing about that origin (a figure in a rulebook);
    ``clip_mm`` (card frame) limits painting to a box, e.g. a card's trim on a sheet.
    The canvas state is restored afterwards.
    """
    canvas.saveState()
    _enter_card_frame(canvas, x_mm, y_mm, page_height_mm, scale, clip_mm)
    _draw_all(canvas, ops, _images if _images is not None else _document_images(canvas))
    canvas.restoreState()


def _document_images(canvas: Canvas) -> "_ImageSizes":
    """The pictures drawn so far in ``canvas``'s document: each SVG becomes one form per document,
    however many separate drawings (a rulebook's figures) use it."""
    images = getattr(canvas, "_printkit_images", None)
    if images is None:
        images = _ImageSizes()
        canvas._printkit_images = images
    return images


def _enter_card_frame(canvas: Canvas, x_mm: float, y_mm: float, page_height_mm: float, scale: float,
                      clip_mm: Box | None, clockwise_deg: float = 0) -> None:
    """Make one user unit a millimetre, y downwards, origin at the card's trim corner; turn; clip."""
    canvas.translate(mm_to_pt(x_mm), mm_to_pt(page_height_mm - y_mm))
    canvas.scale(PT_PER_MM * scale, -PT_PER_MM * scale)
    if clockwise_deg:
        canvas.rotate(clockwise_deg)  # in this y-down frame a positive angle turns clockwise
    if clip_mm is not None:
        path = canvas.beginPath()
        path.rect(clip_mm.x_mm, clip_mm.y_mm, clip_mm.w_mm, clip_mm.h_mm)
        canvas.clipPath(path, stroke=0, fill=0)


def _draw_all(canvas: Canvas, ops: Iterable[Op], images: "_ImageSizes") -> None:
    pen = _Pen(canvas)
    for op in ops:
        _DRAW[type(op)](pen, op, images)


class _Pen:
    """Sets colours and line width only when they change (a face repeats the same few)."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas
        self.press = _press(canvas)
        self.cmyk = self.press is not None
        self.fill: str | tuple[str, bool] | None = None
        self.stroke: str | None = None
        self.width: float | None = None

    def set_fill(self, color: str, large: bool = False) -> None:
        """The fill colour, in the document's colour space (sRGB, or the press's CMYK; ``large``:
        for a large solid area, which may take a rich black)."""
        if self.cmyk:
            self.canvas.setFillColorCMYK(*_cmyk(color, self.press, large))
        else:
            self.canvas.setFillColorRGB(*_rgb(color))

    def colors(self, fill: str | None, stroke: str | None, stroke_mm: float,
               extent_mm: float = 0.0) -> tuple[int, int]:
        """Set the fill and stroke of a shape whose box is ``extent_mm`` on its shorter side (a press
        gives a large one's black fill its rich black); strokes are thin: K alone for a grey."""
        if fill is not None:
            large = self.cmyk and self.press.rich_black is not None and extent_mm >= self.press.rich_black_from_mm
            # In sRGB the colour alone says what is set (the bytes stay as they were).
            key = (fill, large) if self.cmyk else fill
            if key != self.fill:
                self.set_fill(fill, large)
                self.fill = key
        if stroke is not None:
            if stroke != self.stroke:
                if self.cmyk:
                    self.canvas.setStrokeColorCMYK(*_cmyk(stroke, self.press))
                else:
                    self.canvas.setStrokeColorRGB(*_rgb(stroke))
                self.stroke = stroke
            if stroke_mm != self.width:
                self.canvas.setLineWidth(stroke_mm)
                self.width = stroke_mm
        return int(fill is not None), int(stroke is not None)


@lru_cache(maxsize=256)
def _rgb(color: str) -> tuple[float, float, float]:
    """``#rrggbb`` as reportlab's 0..1 floats."""
    try:
        value = int(color[1:], 16)
        if len(color) != 7 or color[0] != "#":
            raise ValueError
    except ValueError:
        raise BuildError(f"not a colour: {color!r} (expected #rrggbb)") from None
    return ((value >> 16) / 255, ((value >> 8) & 255) / 255, (value & 255) / 255)


def _cmyk(color: str, press: Press | None = None, large: bool = False) -> tuple[float, float, float, float]:
    """``#rrggbb`` as ``press``'s ink values 0..1 (checked as :func:`_rgb` checks it): a grey on
    K alone unless ``large`` (:func:`printkit.render.cmyk.ink_of`)."""
    from printkit.render.cmyk import ink_of

    r, g, b = _rgb(color)
    return ink_of(round(r * 255), round(g * 255), round(b * 255), press or DEFAULT_PRESS, large)


def _rect(pen: _Pen, op: Rect, _images) -> None:
    canvas = pen.canvas
    # Templates squeezed onto tiny cards can compute empty or inverted boxes: nothing to draw
    # (reportlab would draw them mirrored), and corners round at most half the shorter side.
    if not (op.w_mm > 0 and op.h_mm > 0):
        return
    fill, stroke = pen.colors(op.fill, op.stroke, op.stroke_mm, min(op.w_mm, op.h_mm))
    if not (fill or stroke):
        return
    radius_mm = min(op.radius_mm, op.w_mm / 2, op.h_mm / 2)
    if radius_mm > 0:
        _path(canvas, canvas.roundRect, (op.x_mm, op.y_mm, op.w_mm, op.h_mm, radius_mm), stroke, fill)
    else:
        _path(canvas, canvas.rect, (op.x_mm, op.y_mm, op.w_mm, op.h_mm), stroke, fill)


# The path code reportlab writes for a shape, by its call. A layout draws its frames, bands and
# badges at the same place on every card: written out once, then repeated.
_PATHS = Memo("path code", entries=4096)


def _path(canvas: Canvas, draw, numbers: tuple[float, ...], *paint: int) -> None:
    """``draw(*numbers, *paint)`` (a canvas method whose code depends on nothing but its arguments
    and the fill rule), or the code it wrote for the same call before."""
    if 0 in numbers:  # 0.0 and -0.0 are one key but may print differently: drawn every time
        draw(*numbers, *paint)
        return
    key = (draw.__name__, canvas._fillMode, numbers, paint)
    code = _PATHS.get(key)
    if code is not None:
        canvas._code.extend(code)
        return
    start = len(canvas._code)
    draw(*numbers, *paint)
    _PATHS.put(key, tuple(canvas._code[start:]))


def _polygon(pen: _Pen, op: Polygon, _images) -> None:
    canvas = pen.canvas
    fill, stroke = pen.colors(op.fill, op.stroke, op.stroke_mm, _extent(op.points) if pen.cmyk else 0.0)
    if not (fill or stroke) or len(op.points) < 2:
        return
    # Shapes arrive as many flattened points: written here directly (0.01 mm is finer than any
    # printer dot), which is several times faster and smaller than one reportlab call per point.
    (x0, y0), rest = op.points[0], op.points[1:]
    code = [f"{_num(x0)} {_num(y0)} m"]
    code.extend(f"{_num(x)} {_num(y)} l" for x, y in rest)
    code.append(_PAINT[fill, stroke])
    canvas.addLiteral(" ".join(code))


def _extent(points) -> float:
    """The shorter side of the box around ``points`` (0 for none)."""
    if not points:
        return 0.0
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(max(xs) - min(xs), max(ys) - min(ys))


# Close the path, then fill (even-odd, as reportlab does), stroke, or both.
_PAINT = {(1, 0): "h f*", (0, 1): "h S", (1, 1): "h B*"}


def _num(value: float) -> str:
    """A coordinate for the content stream, to 0.01 of a unit, without trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _ellipse(pen: _Pen, op: Ellipse, _images) -> None:
    canvas = pen.canvas
    if not (op.rx_mm > 0 and op.ry_mm > 0):
        return
    fill, stroke = pen.colors(op.fill, op.stroke, op.stroke_mm, 2 * min(op.rx_mm, op.ry_mm))
    if fill or stroke:
        _path(canvas, canvas.ellipse, (op.cx_mm - op.rx_mm, op.cy_mm - op.ry_mm, op.cx_mm + op.rx_mm,
                                       op.cy_mm + op.ry_mm), stroke, fill)


def _line(pen: _Pen, op: Line, _images) -> None:
    pen.colors(None, op.color, op.width_mm)
    _path(pen.canvas, pen.canvas.line, (op.x1_mm, op.y1_mm, op.x2_mm, op.y2_mm))


def _text(pen: _Pen, op: Text, _images) -> None:
    canvas = pen.canvas
    name = register_font(op.font)
    if not (op.rotate_deg or op.slant_deg) and op.anchor == "start":
        code = _upright_text(canvas, name, op)
        if code is not None:
            canvas._code.extend(code)
            return
    canvas.saveState()  # the fill colour set here ends with restoreState, so the pen is unchanged
    canvas.translate(op.x_mm, op.y_mm)
    canvas.scale(1, -1)  # text upright again inside the y-down frame
    if op.rotate_deg:
        canvas.rotate(op.rotate_deg)
    if op.slant_deg:
        canvas.skew(0, op.slant_deg)  # x moves right by tan(slant) per unit above the baseline
    pen.set_fill(op.color)
    canvas.setFont(name, op.size_mm)
    if op.anchor == "middle":
        canvas.drawCentredString(0, 0, op.text)
    elif op.anchor == "end":
        canvas.drawRightString(0, 0, op.text)
    else:
        canvas.drawString(0, 0, op.text)
    canvas.restoreState()


def _upright_text(canvas: Canvas, name: str, op: Text) -> tuple[str, ...] | None:
    """The content-stream lines the canvas calls of :func:`_text` write for an upright, left-anchored
    text in a TrueType font, written directly; None where that shortcut does not apply.

    Cards set thousands of lines of text, and reportlab's way there (a saved state, two transforms
    merged by re-parsing the first, a text object, a width measured and thrown away) costs several
    times the writing. These are the very bytes it writes: the merged ``cm`` is formatted from the
    numbers as the first transform printed them, the font's subsets are looked up through the
    document as ``drawString`` does (so subsets and resource names come out the same), and
    ``tests/render/test_pdf.py`` compares the two ways. The canvas's own state is left as its
    ``restoreState`` would leave it.
    """
    font = pdfmetrics.getFont(name)
    if not getattr(font, "_dynamicFont", False) or getattr(canvas, "_enforceColorSpace", None) or not canvas.bottomup:
        return None
    doc = canvas._doc
    size = op.size_mm
    escape = canvas._escape
    text = op.text
    first = _first_subset(canvas, font)
    if first[0].issuperset(text):  # every character already has a code in the first subset
        shown = [f"{first[2]} {fp_str(size)} Tf {fp_str(size * 1.2)} TL",
                 f"({escape(text.translate(first[1]).encode('latin-1'))}) Tj"]
    else:
        canvas._printkit_first_subsets.pop(name, None)  # codes may be given now: look again next time
        shown = []
        current = -1
        for subset, chunk in font.splitString(text, doc):
            if subset != current:
                shown.append(f"{font.getSubsetInternalName(subset, doc)} {fp_str(size)} Tf {fp_str(size * 1.2)} TL")
                current = subset
            shown.append(f"({escape(chunk)}) Tj")
    # translate(x, y) prints "1 0 0 1 x y cm"; scale(1, -1) reads those numbers back and merges.
    _, _, _, _, e0, f0 = map(float, fp_str(1, 0, 0, 1, op.x_mm, op.y_mm).split())
    a0, b0, c0, d0 = 1.0, 0.0, 0.0, 1.0
    a, b, c, d, e, f = 1, 0, 0, -1, 0, 0
    matrix = fp_str(a0 * a + c0 * b, b0 * a + d0 * b, a0 * c + c0 * d, b0 * c + d0 * d, a0 * e + c0 * f + e0,
                    b0 * e + d0 * f + f0)
    color = f"{fp_str(_cmyk(op.color, _press(canvas)))} k" if _is_cmyk(canvas) else f"{fp_str(_rgb(op.color))} rg"
    return ("q", f"{matrix} cm", color,
            f"BT {'1 0 0 1 %s Tm' % fp_str(0, 0)} {' '.join(shown)} T* ET", "Q")


def _first_subset(canvas: Canvas, font) -> tuple[frozenset[str], dict[int, int], str]:
    """The characters ``font`` codes in its first subset in this document, their codes (a table
    for ``str.translate``) and the subset's name.

    What ``splitString`` gives a text whose characters are all there, read without its loop over
    characters in Python: once a document's fonts are seeded (:func:`_seed_fonts`), every text of
    a card is.
    """
    found = getattr(canvas, "_printkit_first_subsets", None)
    if found is None:
        found = canvas._printkit_first_subsets = {}
    entry = found.get(font.fontName)
    if entry is None:
        doc = canvas._doc
        state = font.state.get(doc)
        codes = {cp: n for cp, n in state.assignments.items() if n < 256 and cp != 0xA0} if state else {}
        # No subset yet (nothing coded): an empty set sends every text the long way, which makes one.
        name = font.getSubsetInternalName(0, doc) if state else ""
        entry = found[font.fontName] = (frozenset(map(chr, codes)), codes, name)
    return entry


def _image(pen: _Pen, op: Image, images: "_ImageSizes") -> None:
    canvas = pen.canvas
    px_w, px_h = images.size(op.path)
    turns = op.quarter_turns % 4
    if turns % 2:
        px_w, px_h = px_h, px_w  # the turned picture's proportions are fitted
    if not (op.w_mm > 0 and op.h_mm > 0):
        return  # an empty box (a template squeezed onto a tiny card) shows nothing
    box = Box(op.x_mm, op.y_mm, op.w_mm, op.h_mm)
    drawn = fit_image(px_w, px_h, box, op.fit)
    canvas.saveState()
    if op.fit == "cover":
        path = canvas.beginPath()
        path.rect(box.x_mm, box.y_mm, box.w_mm, box.h_mm)
        canvas.clipPath(path, stroke=0, fill=0)
    # Images are placed upright: flip the y-down frame back locally around the image's box.
    canvas.translate(drawn.x_mm, drawn.bottom_mm)
    canvas.scale(1, -1)
    w_mm, h_mm = drawn.w_mm, drawn.h_mm
    if turns:
        # Turn counter-clockwise about the drawn box's corner, then move the picture back into it.
        canvas.translate(*((0, 0), (w_mm, 0), (w_mm, h_mm), (0, h_mm))[turns])
        canvas.rotate(90 * turns)
        if turns % 2:
            w_mm, h_mm = h_mm, w_mm
    images.draw(canvas, op.path, w_mm, h_mm, op.color)
    canvas.restoreState()


class _ImageSizes:
    """The images of one document: their sizes, read once per path, and how each is drawn.

    A PNG or JPEG is drawn by file name (reportlab embeds it once per document). An SVG is drawn
    as vectors: its checked drawing (:func:`printkit.images.svg_art`) becomes one form XObject per
    document, placed wherever the art appears.
    """

    def __init__(self) -> None:
        self._sizes: dict[Path, tuple[float, float]] = {}
        self._svgs: dict[Path, object] = {}  # path -> SvgArt
        self._svg_forms: set[str] = set()

    def size(self, path: Path) -> tuple[float, float]:
        """Pixels of a picture, points of an SVG: only the ratio matters for fitting."""
        if path not in self._sizes:
            if is_svg(path):
                width, height, _, _ = self._svg_commands(path, None)
                self._sizes[path] = (width, height)
            else:
                try:
                    checked = picture(path)
                except ImageError as exc:
                    raise BuildError(f"image {str(path)!r} {exc}") from None
                self._sizes[path] = (checked.width, checked.height)
        return self._sizes[path]

    def draw(self, canvas: Canvas, path: Path, w: float, h: float, color: str | None = None) -> None:
        """The image upright in the box from (0, 0) to (w, h) of the current (y-up) frame; an
        SVG's ``currentColor`` painting ``color`` when one is given."""
        if not is_svg(path):
            try:
                checked = picture(path)  # the bytes checked when the spec was read
            except ImageError as exc:
                raise BuildError(f"image {str(path)!r} {exc}") from None
            if _is_cmyk(canvas):
                canvas.drawImage(_register_cmyk_picture(canvas, path, checked.digest, checked.data),
                                 0, 0, w, h, mask="auto")
                _refuse_transparency(canvas, path)
            elif checked.data.startswith(PNG_SIGNATURE):
                # Embedded as it is, or decoded once.
                canvas.drawImage(_register_picture(canvas, path, checked.data, checked.digest), 0, 0, w, h,
                                 mask="auto")
            else:  # a JPEG: embedded as its own bytes, read from the file when the PDF is written
                canvas.drawImage(_register_jpeg(canvas, path, checked), 0, 0, w, h, mask="auto")
            return
        art = self._svg(path)
        if color is not None:
            art = art.tinted(color)
        name = f"svg-{art.digest[:20]}"
        width, height, _, version = self._svg_commands(path, _press(canvas))  # refused here, before the form
        if getattr(_press(canvas), "pdfx", False) and tuple(version) > pdfx.PDF_VERSION:
            raise pdfx.refuse_transparency(str(path), canvas._doc.info.title)
        if name not in self._svg_forms:
            _svg_form(canvas, name, art)
            self._svg_forms.add(name)
        canvas.saveState()
        canvas.scale(w / width, h / height)
        canvas.doForm(name)
        canvas.restoreState()

    def _svg_commands(self, path: Path, press: "Press | None"):
        try:
            return _svg_commands(self._svg(path), press)
        except ImageError as exc:
            raise BuildError(f"image {str(path)!r} {exc}") from None

    def _svg(self, path: Path):
        # Read again and checked in full unless these very bytes were checked already (the parse
        # is cached by content): a file swapped since the spec was checked is never drawn unchecked.
        if path not in self._svgs:
            try:
                self._svgs[path] = svg_art(read_image(path))
            except ImageError as exc:
                raise BuildError(f"image {str(path)!r} {exc}") from None
        return self._svgs[path]


def _refuse_transparency(canvas: Canvas, path: Path) -> None:
    """In a PDF/X-1a document, the error naming a picture whose drawing asked for transparency."""
    if getattr(_press(canvas), "pdfx", False) and pdfx.transparent(canvas):
        raise pdfx.refuse_transparency(str(path), canvas._doc.info.title)


def _register_picture(canvas: Canvas, path: Path, data: bytes, digest: str) -> str:
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
    key, name, reg = _picture_names(canvas, digest)
    if canvas._doc.idToObject.get(reg) is not None:
        return key
    try:  # ``data`` is a checked PNG and ``digest`` its sha256 (images.Picture): neither done again
        info = _png_info(digest, data)
    except ImageError as exc:
        raise BuildError(f"image {str(path)!r} {exc}") from None
    smask = None
    if info.plain:
        obj = _PngStream(info, Path(path), digest)
    else:
        image, mask = _decoded_models(digest, data)
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


def _register_jpeg(canvas: Canvas, path: Path, checked):
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
    model = pdfdoc.PDFImageXObject("", None)
    if not model.loadImageFromJPEG(io.BytesIO(checked.data)):
        return checked.reader()  # a JPEG reportlab cannot read the header of: its own way, as before
    source, digest = Path(path), checked.digest
    _add_image(canvas, _LazyImage(model, lambda: _checked_bytes(source, digest)), name, reg)
    return key


def _checked_bytes(path: Path, digest: str) -> bytes:
    """The bytes of the picture at ``path``, which must still be those checked (sha256 ``digest``)."""
    try:
        data = read_image(path)
    except ImageError as exc:
        raise BuildError(f"image {str(path)!r} {exc}") from None
    if hashlib.sha256(data).hexdigest() != digest:
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


def _register_cmyk_picture(canvas: Canvas, path, digest: str, data: bytes) -> str:
    """Put the picture ``data`` (sha256 ``digest``) into ``canvas``'s document converted to the
    press's CMYK (raw pixels, Flate-compressed, with a soft mask for its transparency), named by
    its bytes as :func:`_register_picture` names it; what to give ``drawImage`` for it. The
    document keeps what the objects' dictionaries say (:func:`_cmyk_models`); the
    picture is converted when they are written, unless the process still keeps it converted
    (:func:`_cmyk_objects`): from the file at ``path``, which must still hold ``data``, or (a
    picture inside an SVG, ``path`` no file) from ``data`` itself."""
    key, name, reg = _picture_names(canvas, digest)
    if canvas._doc.idToObject.get(reg) is not None:
        return key
    image, mask = _cmyk_models(digest, data, path)
    limit = (_press(canvas) or DEFAULT_PRESS).ink_limit
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


def _png_info(digest: str, data: bytes):
    """The checked structure of a PNG, once per process per content."""
    return _PNG_INFOS.get_or_make(digest, lambda: png_info(data))


def _decoded_models(digest: str, data: bytes) -> tuple:
    """What the image object of a PNG reportlab must decode says, and its soft mask's (None without
    one), each with its name; decoded for it once per process per content."""
    models = _DECODED_MODELS.get(digest)
    if models is None:
        obj = _decoded_png(digest, data)
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
            obj.loadImageFromSRC(ImageReader(io.BytesIO(data)))
        _DECODED.put(digest, obj, len(obj.streamContent) + len(getattr(getattr(obj, "_smask", None),
                                                                         "streamContent", b"")))
    return obj


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


def _svg_form(canvas: Canvas, name: str, art) -> None:
    """Define the form XObject ``name`` drawing ``art`` in its own box, (0, 0) to its size, y up."""
    width, height, commands, version = _svg_commands(art, _press(canvas))
    canvas.beginForm(name, 0, 0, width, height)
    if commands is None:
        _draw_svg(canvas, art)
    else:
        canvas._code.extend(commands)
        # What drawing it would have asked of the document (PDF 1.4 for its transparency settings).
        canvas._doc._pdfVersion = max(canvas._doc._pdfVersion, version)
    end_form(canvas)


def check_svg_drawing(art) -> None:
    """Refuse (ImageError) SVG art this backend cannot draw, by drawing it as a document would:
    the drawing is kept, so a build after the check draws nothing twice."""
    _svg_commands(art, None)


def _draw_checked(canvas: Canvas, art) -> None:
    """:func:`_draw_svg`, where a number no PDF can hold (reportlab refuses 1e308) or nesting
    deeper than Python's stack is the art's ImageError, not a failure of the build."""
    try:
        _draw_svg(canvas, art)
    except ImageError:
        raise
    except SvgRefused as exc:  # a gradient past a limit, found as it is drawn
        raise ImageError(str(exc)) from None
    except (ValueError, OverflowError) as exc:
        number = re.search(r"too large (\S+)", str(exc))
        raise ImageError(f"cannot be drawn: a number in it{f' ({number.group(1)})' if number else ''} "
                         "is too large for a PDF") from None
    except RecursionError:
        raise ImageError("cannot be drawn: it nests groups and <use> too deeply") from None


def _draw_svg(canvas: Canvas, art) -> None:
    from reportlab.graphics import renderPDF

    _vector_renderer()().draw(renderPDF.renderScaledDrawing(art.drawing), canvas, 0, 0, showBoundary=False)


# An SVG's form, as (width, height, drawing commands), per content and colour space: converting
# an SVG to vectors and drawing them is most of what a page of SVG art costs, and the commands of
# a form that names nothing (no picture, no transparency: no "/Name" in its stream) read the same
# in every document. Kept for the process here, and between builds in the store a build lends.
_SVG_COMMANDS = Memo("SVG form commands", entries=256)


def _svg_commands(art, press: Press | None) -> tuple[float, float, tuple[str, ...] | None, tuple[int, int]]:
    """``art``'s size in points, its form's commands (None: it names document resources and is
    drawn afresh in each document) and the least PDF version drawing it asks for (for a PDF/X
    press, above 1.3 when it uses transparency), in sRGB (``press`` None) or for ``press``."""
    key = (art.digest, press)
    known = _SVG_COMMANDS.get(key)
    if known is not None:
        return known
    store = svg_form_store.get()
    stored_name = f"{art.digest} {'rgb' if press is None else 'cmyk ' + press.key()}"
    data = store.get(stored_name) if store is not None else None
    if data is not None:
        try:
            raw = json.loads(data)
            major, minor = map(int, raw["version"])
            known = (float(raw["width"]), float(raw["height"]),
                     None if raw["commands"] is None else tuple(map(str, raw["commands"])), (major, minor))
        except (ValueError, KeyError, TypeError):
            known = None
    if known is None:
        scratch = Canvas(io.BytesIO(), invariant=1)
        if press is not None:
            scratch._printkit_cmyk = press
            if press.pdfx:
                scratch._doc._pdfVersion = pdfx.PDF_VERSION
        scratch.beginForm("scratch", 0, 0, art.width, art.height)
        start = len(scratch._code)
        _draw_checked(scratch, art)
        commands = tuple(scratch._code[start:])
        if press is not None and press.pdfx:  # the version says whether the art is transparent
            scratch._doc._pdfVersion = (1, 4) if pdfx.transparent(scratch) else pdfx.PDF_VERSION
        known = (art.width, art.height, None if any("/" in line for line in commands) else commands,
                 tuple(scratch._doc._pdfVersion))
        if store is not None:
            store.put(stored_name, json.dumps({"width": known[0], "height": known[1], "commands": known[2],
                                               "version": known[3]}).encode())
    _SVG_COMMANDS.put(key, known)  # bounded: a long `printkit watch` meets many versions of its art
    return known


@lru_cache(maxsize=1)
def _vector_renderer():
    from reportlab.graphics import renderPDF

    class VectorRenderer(renderPDF._PDFRenderer):
        """reportlab's Drawing renderer without its font state: a checked SVG has no text, and the
        font renderPDF would select first (Helvetica, never embedded) must not reach the PDF."""

        def applyStateChanges(self, delta, newState):
            delta = {k: v for k, v in delta.items() if k not in ("fontName", "fontSize")}
            super().applyStateChanges(delta, newState)

        def setStrokeColor(self, c):
            self._canvas.setStrokeColor(press_color(c, _press(self._canvas)) if _is_cmyk(self._canvas) else c)

        def setFillColor(self, c):
            self._canvas.setFillColor(press_color(c, _press(self._canvas)) if _is_cmyk(self._canvas) else c)

        def drawImage(self, image):
            # A picture embedded in the SVG (a data: URI, decoded and checked): an image XObject,
            # as reportlab cannot put inline images in a form. svglib gives nothing else here.
            if hasattr(image.path, "mode"):
                from reportlab.lib.utils import ImageReader

                if _is_cmyk(self._canvas):
                    key = _register_cmyk_pil(self._canvas, image.path)
                    self._canvas.drawImage(key, image.x, image.y, image.width, image.height, mask="auto")
                    return
                self._canvas.drawImage(ImageReader(image.path), image.x, image.y, image.width, image.height,
                                       mask="auto")

    return VectorRenderer


def _register_cmyk_pil(canvas: Canvas, image) -> str:
    """A picture inside an SVG (a decoded PIL image) put into the document as the press's CMYK,
    transparency kept; returns the key to draw it by."""
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    data = buffer.getvalue()
    digest = hashlib.sha256(data).hexdigest()
    return _register_cmyk_picture(canvas, f"svg-picture-{digest}", digest, data)


def register_font(path: Path) -> str:
    """Register a TrueType font with reportlab (once per process) and return its PDF name.

    reportlab embeds a subset of each registered TrueType font per document that uses it.
    """
    key = str(path)  # a Path's text is kept, its hash is not: cheaper to look up by text
    name = _FONT_NAMES.get(key)
    if name is None:
        name = font_name(Path(path))
        _FONT_NAMES.put(key, name)
    if name not in pdfmetrics._fonts:  # (its public list of names is made afresh on every call)
        pdfmetrics.registerFont(ttfont(Path(path)))
    return name


_FONT_NAMES = Memo("font names", entries=1024)  # font file -> its PDF name (fonts.font_name, by path)


_DRAW = {Rect: _rect, Polygon: _polygon, Ellipse: _ellipse, Line: _line, Text: _text, Image: _image}
