"""PDF documents from pages of layout ops, with reportlab: reproducible, streamed, fonts subset.

:func:`render_pages` draws each distinct face once, as a form XObject, and places it wherever it
appears (the drawing itself is :mod:`printkit.render.canvas`'s). Documents are made with
reportlab's ``invariant`` mode, so the same pages give the same bytes. Pictures are embedded once
per document and their data read only when their objects are written
(:mod:`printkit.render.pictures`). Fonts are TrueType, embedded as a subset in every document
that uses them, the subsets' tags drawn from the document's content
(:mod:`printkit.render.subset_tags`).

:func:`render_pages` returns a document's bytes (reportlab's own ``save``); :func:`write_pages`
writes the same bytes to a file one object at a time, so a document of hundreds of pictures is
never in memory whole.

Documents may be made from several threads at once, each thread its own canvas: what the process
keeps between documents (pictures decoded or converted, SVG forms, path code) lives in
:class:`printkit.memo.Memo` stores.
"""

from __future__ import annotations

from collections import Counter
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from printkit.errors import BuildError
from printkit.fonts import SYMBOLS
from printkit.layout.imposition import Page
from printkit.layout.ops import Face, Image, Text
from printkit.render import pdfx
from printkit.render.canvas import DocumentImages, draw_all, draw_ops, enter_card_frame, register_font
from printkit.render.cmyk import DEFAULT_PRESS, Press, press_of
from printkit.render.color import SRGB_NAME, srgb_icc
from printkit.render.forms import end_form
from printkit.render.page_boxes import set_page_boxes
from printkit.render.pictures import SharedSetting, binary_streams
from printkit.render.subset_tags import embed_fonts
from printkit.units import mm_to_pt


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
               initial_font: Path = SYMBOLS, info: PdfInfo | None = None, cmyk: bool | Press = False,
               compressed: bool = True) -> Canvas:
    """A reportlab canvas with reproducible output (no dates or random IDs in the file).

    The document names sRGB as its output intent (:func:`add_output_intent`), since every colour
    printkit draws is an sRGB colour; ``info`` (or ``title`` alone) fills in its metadata. With
    ``cmyk`` every colour and picture drawn through this module is converted to the press profile
    of :mod:`printkit.render.cmyk`, and the output intent names that profile instead; a
    :class:`~printkit.render.cmyk.Press` says how (ink limit, rich black, PDF/X-1a), ``True``
    the default press. ``compressed`` False leaves its streams (pages, forms, fonts) unfiltered.
    """
    info = info or PdfInfo(title=title)
    # A TrueType initial font: reportlab's default (Helvetica) would be referenced on every page
    # without being embedded, which print shops' preflight checks reject.
    canvas = Canvas(target, pagesize=(mm_to_pt(page_width_mm), mm_to_pt(page_height_mm)),
                    invariant=1, pageCompression=int(compressed), initialFontName=register_font(initial_font),
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
                 keep_for: "SharedPages | None" = None, reuse: "SharedPages | None" = None,
                 compressed: bool = True) -> bytes:
    """One PDF holding ``pages`` (each with its own size and page boxes), as bytes.

    A face placed more than once is drawn once, as a form XObject, and placed wherever it
    appears: four copies of a card cost the file (and the renderer) one drawing; a face placed
    once is drawn where it stands. ``info`` (or ``title``) is
    what the document says about itself; ``cmyk`` converts its colours and pictures for a press
    (:mod:`printkit.render.cmyk`).

    ``keep_for`` keeps the content of the pages a later document shows too (:class:`SharedPages`);
    that document, rendered with ``reuse``, writes them instead of drawing them again. Its bytes
    are the same either way. ``compressed`` False: its streams unfiltered, for a document that is
    only rasterised (compressing, then inflating, would be work for nothing).
    """
    info = info or PdfInfo(title=title)
    if not pages:
        raise BuildError(f"nothing to render for {info.title or 'a PDF'!r}: no pages")
    with binary_streams(), remembered_numbers():
        canvas, buffer = _drawn(pages, info, cmyk, keep_for, reuse, compressed)
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
    chars: dict[str, dict[str, None]] = {}  # font -> its characters, in the order drawn
    seen: set[Face] = set()
    for page in pages:
        # Gathered a page at a time: a deck's whole text is never joined into one string.
        texts: dict[str, list[str]] = {}
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
        for font, parts in texts.items():
            chars.setdefault(font, {}).update(dict.fromkeys("".join(parts)))
    return tuple((font, "".join(drawn)) for font, drawn in chars.items())


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


# Where reportlab formats the numbers of content streams and objects (and this module).
_NUMBER_USERS = ("reportlab.pdfgen.canvas", "reportlab.pdfgen.pathobject", "reportlab.pdfgen.textobject",
                 "reportlab.pdfbase.pdfdoc", "printkit.render.canvas")
_MAX_REMEMBERED = 200_000


def remembered_numbers():
    """reportlab's number formatting (``fp_str``) remembered for the duration of one render.

    Without its optional C accelerator reportlab formats every number of every drawing command
    in Python, and on sheets of cards drawn from one layout the same coordinates, sizes and
    colours come back on every card: formatted once, looked up after. ``fp_str`` is a pure
    function of its arguments (equal numbers, such as ``1`` and ``1.0``, print alike), so the
    bytes written are the same. Like :func:`binary_streams`, the switch is made while any render
    runs and put back when the last one ends.
    """
    if type(fp_str).__name__ == "builtin_function_or_method":  # rl_accel's, in C: faster than a lookup
        return nullcontext()
    return _REMEMBERED.held()


def _remembering() -> Callable[[], None]:
    import sys

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

    def put_back() -> None:
        for module, function in zip(modules, saved):
            module.fp_str = function

    return put_back


_REMEMBERED = SharedSetting(_remembering)


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
           reuse: SharedPages | None = None, compressed: bool = True) -> tuple[Canvas, _Written]:
    """A canvas with every page of ``pages`` drawn and finished, not yet saved, and the buffer its
    ``save()`` writes to."""
    buffer = _Written()
    first = pages[0].size
    canvas = new_canvas(buffer, first.width_mm, first.height_mm, info.title, _first_font(pages), info, cmyk,
                        compressed)
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
    images = DocumentImages()
    forms: dict[str, str] = {}
    # A face placed more than once (copies of a card, a deck's one back) is drawn once, as a form
    # XObject; a face placed once is drawn on its page, which makes a smaller file (no object,
    # no resources of its own, compressed with its neighbours) and holds less while it is written.
    placed = Counter(placement.face for page in pages for placement in page.placements)
    for page in pages:
        w, h = page.size.width_mm, page.size.height_mm
        canvas.setPageSize((mm_to_pt(w), mm_to_pt(h)))
        set_page_boxes(canvas, w, h, page.trim, page.bleed)
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
            enter_card_frame(canvas, placement.x_mm, placement.y_mm, h, placement.scale, placement.clip,
                              placement.clockwise_deg)
            if name is None:
                draw_all(canvas, face.ops, images)
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
    if getattr(press_of(canvas), "pdfx", False):
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


def _form(canvas: Canvas, face: Face, forms: dict[str, str], images: "DocumentImages") -> str:
    """The name of the form XObject drawing ``face`` (equal drawings share one), drawn on first use.

    Named by the drawing itself, so that a page placing it reads the same in every document.
    """
    name = forms.get(face.digest)
    if name is None:
        name = forms[face.digest] = f"face{face.digest[:16]}"
        canvas.beginForm(name, *_FORM_BBOX_MM)
        draw_all(canvas, face.ops, images)
        end_form(canvas)
    return name
