"""The proof page: ``OUT/<deck>[/<variant>]/proof.html``, every distinct face at screen size.

A designer's look at the whole deck at once, in a browser, with no server and no network: each
distinct front and back (and full-page component) as a small PNG in ``proof/`` beside the page,
with its name, copies and group, and the build's warnings about that face (text shrunk below its
minimum or overflowing, characters no font has) marked on the card itself. At the top: the deck's
counts against the spec's ``expect`` (as ``printkit check`` compares them, without playing), the
warnings said of the spec as a whole, and links to the PDFs this build wrote for the deck.

The thumbnails are drawn by the one drawing path: each contact sheet (``proof/faces-1.png`` …,
at most :data:`SHEET_PIXELS` each) is a page of one PDF, its faces stacked top to bottom, each
with its bleed (as per-card PDFs are laid out) in the pixels it has at :data:`THUMB_DPI`
(:func:`sheet_page`); PDFium rasterises each page straight into its PNG's rows
(:func:`printkit.render.png.stacked_png`), and each tile shows its part of one (``object-fit:
none`` and an ``object-position`` per tile): a handful of pages to draw and rasterise and of
files to write and cache instead of one per face, which cost more than drawing them.

Everything from the spec (names, attribute values, warnings quoting card text) is escaped; the
page also carries a Content-Security-Policy that runs only its own inline script (by hash) and
loads pictures only from its own origin, so a card text that slipped past escaping still could
not run or fetch anything. The script counts the pictures that loaded (``#proof-status``, which
tests read) and, when the page is served over HTTP (``printkit watch --serve``), polls the page's
own URL once a second and reloads when its ``proof-id`` changed. From ``file://`` it polls nothing.
"""

from __future__ import annotations

import base64
import hashlib
import html
import posixpath
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Sequence
from urllib.parse import quote

from printkit.deck import Card, CardSize, Deck, count_cards
from printkit.expected import Expected, component_reports, counted_attributes, located_mismatches
from printkit.layout import templates
from printkit.layout.ops import Face
from printkit.plural import counted

if TYPE_CHECKING:  # build imports this module's producer lazily; no cycle at run time
    from printkit.layout.imposition import Page
    from printkit.pipeline.context import BuildContext
    from printkit.pipeline.manifest import ManifestEntry

PROOF_PAGE = "proof.html"
PROOF_FOLDER = "proof"
THUMB_DPI = 100  # card thumbnails: a poker card with bleed is 275 x 375 px
# A page of more pictures than this is too heavy for a browser to be a proof; the PDFs have the rest.
MAX_FACES = 1000
PAGE_DPI = 40  # full-page components (score sheets): an A4 page is 331 x 468 px
# A contact sheet of thumbnails holds at most this many pixels (about nine poker cards, 3 MB of
# pixels, held with its PNG's buffers while it is encoded): a few files for a deck instead of one
# per face, and the build's peak memory 15 MB above a build without the proof (50 MB with sheets
# four times as large, for no time saved that could be measured).
SHEET_PIXELS = 1_000_000
SHEET_STEM = "faces"

# Kinds of the manifest entries this module writes.
KIND_PAGE = "proof"
KIND_IMAGE = "proof-image"


@dataclass(frozen=True)
class Tile:
    """One face on the proof page."""

    side: str  # "front", "back" or "page"
    name: str
    detail: str  # the card's attributes, or what a back stands behind
    group: str
    copies: int
    image: str  # path relative to proof.html: the contact sheet holding the face
    width_px: int
    height_px: int
    top_px: int  # where the face starts in its contact sheet (the faces are stacked)
    sha256: str
    warnings: tuple[str, ...]
    anchor: str


def card_name(card: Card) -> str:
    """How a tile names its card: its ``title``, ``name`` or ``id``, else its group."""
    for key in ("title", "name", "id"):
        value = card.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
            return str(value)
    return card.group


def card_detail(card: Card) -> str:
    """For a card without a name, what tells it apart: its attributes, ``symbol=plus  number=7``."""
    if card_name(card) != card.group:
        return ""
    shown = []
    for key, value in card.attrs.items():
        text = "+".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)
        shown.append(f"{key}={text[:40]}")
    detail = "  ".join(shown)
    return detail if len(detail) <= 120 else detail[:119] + "…"


def own_warnings(face: Face, card: Card) -> tuple[str, ...]:
    """The face's warnings without the card's label in front (the tile already names the card)."""
    said = []
    for warning in face.warnings:
        text = card.said_of(warning)[1].lstrip(" :")
        said.append(text or warning)
    return tuple(dict.fromkeys(said))


def produce_proof(decks: Sequence[Deck], ctx: "BuildContext") -> Iterator["ManifestEntry"]:
    """Per deck: ``proof.html`` and its thumbnails in ``proof/`` (build.produce_proof decides
    whether a build writes them)."""
    from printkit.pipeline.names import deck_folder
    from printkit.cache import face_files, pages_description
    from printkit.render.pdf import render_pages
    from printkit.render.png import card_pixel_size
    from printkit.workers import THUMBNAIL_MS

    plans = [(deck, *_plan(deck, ctx)) for deck in decks]
    # Each face described once (what it draws, at what size): the same face in two decks (a
    # game's variants) is one picture, and the render cache keys its contact sheet by these.
    described = [["".join(pages_description([p[5]])) + f"\n{p[6]!r} {p[7]!r}\n" for p in planned]
                 for _, planned, _ in plans]
    shown_in: dict[str, list[int]] = {}
    for number, texts in enumerate(described):
        for text in texts:
            if number not in shown_in.setdefault(text, []):
                shown_in[text].append(number)
    laid_out = []  # per deck: its faces' pixel sizes and its contact sheets (faces' indexes)
    for (deck, planned, notes), texts in zip(plans, described):
        sizes = [card_pixel_size(p[6], p[7]) for p in planned]
        # The faces shown in the same decks share contact sheets: a sheet drawn for one variant
        # is the same sheet (the same key) for the others.
        together: dict[tuple[int, ...], list[int]] = {}
        for i, text in enumerate(texts):
            together.setdefault(tuple(shown_in[text]), []).append(i)
        laid_out.append((sizes, [[faces[j] for j in sheet] for faces in together.values()
                                 for sheet in contact_sheets([sizes[i] for i in faces])]))
    # Every distinct sheet of the build once (the same faces described alike), each deck's
    # sheets by their number there.
    distinct: dict[tuple[str, ...], int] = {}
    drawn: list[tuple[int, list[int]]] = []  # (deck, its faces) of each distinct sheet
    numbers: list[list[int]] = []
    for number, (texts, (_, sheets)) in enumerate(zip(described, laid_out)):
        numbers.append([])
        for sheet in sheets:
            numbers[-1].append(distinct.setdefault(tuple(texts[i] for i in sheet), len(distinct)))
            if numbers[-1][-1] == len(drawn):
                drawn.append((number, sheet))

    def pictures(indexes: list[int]) -> list[bytes]:
        # One PDF of the sheets to draw, a page each: fonts and pictures embedded once; each
        # sheet is one PNG. Only PDFium reads it: uncompressed, unless other processes may
        # rasterise its sheets (each is handed the whole PDF).
        made = [sheet_page([plans[d][1][i][5] for i in sheet], [(plans[d][1][i][6], plans[d][1][i][7]) for i in sheet])
                for d, sheet in (drawn[n] for n in indexes)]
        pdf = render_pages([page for page, _ in made], "proof", compressed=ctx.workers.jobs > 1)
        shares = [ctx.workers.later(THUMBNAIL_MS * len(drawn[n][1]), contact_sheet, pdf, number, size)
                  for number, (n, (_, size)) in enumerate(zip(indexes, made))]
        return [share.result() for share in shares]

    # A sheet drawn before (the same faces: ops, fonts and pictures) comes from the render cache;
    # each face described by its digest, not by the text of every op.
    keys = [ctx.cache.key("proof-sheet", lambda d=d, sheet=sheet: [described[d][i] for i in sheet],
                          lambda d=d, sheet=sheet: face_files([plans[d][1][i][5] for i in sheet]))
            for d, sheet in drawn]
    made_pngs = ctx.cache.cached_many(keys, pictures) if drawn else []
    for (deck, planned, notes), (sizes, sheets), sheet_numbers in zip(plans, laid_out, numbers):
        if not planned:
            continue
        folder = deck_folder(deck)
        pngs = [made_pngs[n] for n in sheet_numbers]
        place: dict[int, tuple[str, int, str]] = {}  # face -> its sheet, top and the sheet's sha256
        entries = []
        for number, (sheet, data) in enumerate(zip(sheets, pngs), 1):
            relative = f"{PROOF_FOLDER}/{SHEET_STEM}-{number}.png"
            entry = ctx.write(f"{folder}/{relative}", data, kind=KIND_IMAGE, deck=deck,
                              cards=sum(planned[i][4] for i in sheet if planned[i][0] != "back") or None)
            entries.append(entry)
            top = 0
            for i in sheet:
                place[i] = (relative, top, entry.sha256)
                top += sizes[i][1]
        tiles: list[tuple[str, Tile]] = []
        for i, p in enumerate(planned):
            side, name, detail, group, copies, _, size, dpi, stem, warnings, run = p
            if side == "back":
                detail = f"behind {counted(copies, 'card')}"
            relative, top, sha256 = place[i]
            tiles.append((run, Tile(side, name, detail, group, copies, relative, *sizes[i], top,
                                    sha256, warnings, stem)))
        yield from entries
        page = proof_html(deck, tiles, _counts(deck), tuple(notes), _links(deck, ctx, folder),
                          draft=_placeholders(deck, ctx.faces(deck).placeholders) if ctx.options.draft else None)
        yield ctx.write(f"{folder}/{PROOF_PAGE}", page, kind=KIND_PAGE, deck=deck,
                        cards=sum(t.copies for _, t in tiles if t.side != "back"))


def _plan(deck: Deck, ctx: "BuildContext") -> tuple[list[list], list[str]]:
    """The faces ``deck``'s page shows, in order, and what the page says of the deck as a whole.

    Each face: [side, name, detail, group, copies, page, size, dpi, stem, warnings, section].
    """
    from printkit.pipeline.names import card_key, per_card_files, print_runs
    from printkit.layout.imposition import card_page, full_page

    paper = ctx.options.paper_size
    page_size = CardSize(paper.width_mm, paper.height_mm, bleed_mm=0.0, safe_mm=0.0, corner_radius_mm=0.0)
    faces = ctx.faces(deck)
    distinct: dict[str, list[Card]] = {}
    run_of: dict[str, str] = {}
    # Tiles are anchored by the card's per-card file names: one name for a card everywhere.
    stems = {card_key(f.copies[0]): f.name for f in per_card_files(deck)}
    for run, cards in print_runs(deck):
        for card in cards:
            key = card_key(card)
            distinct.setdefault(key, []).append(card)
            run_of.setdefault(key, run)
    fronts: list[list] = []
    # A back's drawing (its digest: hashing its ops afresh for every card cost more) and card
    # size -> its entry
    backs: dict[tuple, list] = {}
    for copies in distinct.values():
        card = copies[0]
        stem = stems[card_key(card)]
        run = run_of[card_key(card)]
        if templates.is_page(card):
            face = faces.page(card, paper)
            fronts.append(["page", card_name(card), card_detail(card), card.group, len(copies),
                           full_page(face, paper), page_size, PAGE_DPI, stem, own_warnings(face, card),
                           "pages"])
            ctx.progress(len(copies))
            continue
        front, back = faces.front(card), faces.back(card)
        fronts.append(["front", card_name(card), card_detail(card), card.group, len(copies),
                       card_page(front, card.size), card.size, THUMB_DPI, stem, own_warnings(front, card), run])
        entry = backs.get((back.digest, card.size))
        if entry is None:
            number_b = len(backs) + 1
            entry = backs[(back.digest, card.size)] = [
                "back", f"back {number_b}", "", card.group, 0, card_page(back, card.size), card.size,
                THUMB_DPI, f"back-{number_b}", (), "backs"]
        entry[4] += len(copies)
        entry[9] = tuple(dict.fromkeys(entry[9] + own_warnings(back, card)))
        groups = entry[3].split(", ")
        if card.group not in groups:
            entry[3] = ", ".join(groups + [card.group])
        ctx.progress(len(copies))
    # Fronts by print run (the deck's cards, then each component), then backs, then pages.
    order = list(dict.fromkeys(p[10] for p in fronts if p[10] != "pages")) + ["backs", "pages"]
    notes = list(templates.deck_warnings(deck))
    if len(fronts) > MAX_FACES:
        notes.append(f"this page shows the first {MAX_FACES:,} of the deck's {len(fronts):,} distinct faces; "
                     "the sheets PDF holds every one")
        fronts = fronts[:MAX_FACES]
    everything = fronts + list(backs.values())
    planned = sorted(everything, key=lambda p: order.index(p[10]))
    return planned, notes


def contact_sheets(sizes: Sequence[tuple[int, int]]) -> list[list[int]]:
    """The faces (indexes into ``sizes``, their pixel sizes) of each contact sheet, in order: as
    many as stack into at most :data:`SHEET_PIXELS` (one face at least)."""
    sheets: list[list[int]] = []
    width = height = 0
    for index, (w, h) in enumerate(sizes):
        if sheets and max(width, w) * (height + h) <= SHEET_PIXELS:
            sheets[-1].append(index)
            width, height = max(width, w), height + h
        else:
            sheets.append([index])
            width, height = w, h
    return sheets


def sheet_page(pages: Sequence["Page"], shown: Sequence[tuple[CardSize, float]]) -> tuple["Page", CardSize]:
    """A contact sheet's page, and its size to rasterise at :data:`THUMB_DPI`: each face of
    ``pages`` (a face on a page of its own, as ``card_page`` or ``full_page`` lays it out) at its
    (size, dpi) of ``shown``, stacked top to bottom at the left edge, each clipped to the whole
    pixels it has there (:func:`printkit.render.png.card_pixel_size`), white where a narrower
    face leaves room."""
    from printkit.layout.geometry import Box, Size
    from printkit.layout.imposition import Page, Placement
    from printkit.render.png import card_pixel_size

    px_mm = 25.4 / THUMB_DPI
    placements, top, width = [], 0, 0
    for page, (size, dpi) in zip(pages, shown):
        (placed,) = page.placements
        w, h = card_pixel_size(size, dpi)
        scale = dpi / THUMB_DPI
        # The face's pixels, in its card frame (a millimetre of the face is ``scale`` of the page's),
        # a thousandth of a pixel inside them: PDFium rounds a clip outwards, and an edge on a
        # whole pixel give or take a rounding error would take in its neighbour's row.
        inset = 0.001 * px_mm / scale
        clip = Box(-placed.x_mm + inset, -placed.y_mm + inset, w * px_mm / scale - 2 * inset,
                   h * px_mm / scale - 2 * inset)
        if placed.clip is not None:
            clip = clip.intersection(placed.clip)
        placements.append(Placement(placed.face, placed.x_mm * scale, top * px_mm + placed.y_mm * scale, clip,
                                    scale=scale))
        top, width = top + h, max(width, w)
    sheet = CardSize(width * px_mm, top * px_mm, bleed_mm=0.0, safe_mm=0.0, corner_radius_mm=0.0)
    return Page(Size(sheet.width_mm, sheet.height_mm), tuple(placements)), sheet


def contact_sheet(pdf: bytes, number: int, size: CardSize) -> bytes:
    """The PNG of page ``number`` of the proof PDF ``pdf``, a contact sheet of ``size`` (:func:`sheet_page`)."""
    from printkit.render.png import stacked_png

    return stacked_png(pdf, [(size, THUMB_DPI)], number, THUMB_DPI)


# --- what the header shows ---------------------------------------------------------------------


@dataclass(frozen=True)
class Counts:
    total: int
    expected: int | None
    ok: bool
    rows: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]  # ("groups", (("numbers", 132), ...)), ...
    components: tuple[tuple[str, int, int | None], ...]
    mismatches: tuple[str, ...]


def _counts(deck: Deck) -> Counts:
    """The deck's counts against what its spec expects (``deck.expected``), compared as ``printkit
    check`` compares them (:mod:`printkit.expected`), without playing. A deck made in code expects
    nothing: its counts alone."""
    expected = deck.expected if deck.expected is not None else Expected()
    counts = count_cards(deck.cards, counted_attributes(deck, expected))
    found = tuple(text for text, _, _ in located_mismatches(deck, expected, counts))
    components = component_reports(deck, expected)
    shown = {attr: counts[attr] for attr in deck.count_by} if deck.count_by else counts
    rows = (("groups", tuple(deck.groups().items())),) + tuple(
        (attr, _in_order(values)) for attr, values in shown.items())
    return Counts(len(deck), expected.counts.total if expected.counts else None,
                  not found and all(c.ok for c in components), rows,
                  tuple((c.name, c.total, c.expected) for c in components), found)


def _in_order(values: dict[str, int]) -> tuple[tuple[str, int], ...]:
    """Numbers from low to high (``-1 0 1 … 9``); other values as the deck first has them."""
    try:
        return tuple(sorted(values.items(), key=lambda item: float(item[0])))
    except ValueError:
        return tuple(values.items())


def _links(deck: Deck, ctx: "BuildContext", folder: str) -> list[tuple[str, str]]:
    """(href relative to the proof page, text) for the PDFs this build wrote for the deck."""
    deck_top = folder.split("/")[0]
    links, per_card = [], {}
    for entry in ctx.written:
        if not entry.path.endswith(".pdf"):
            continue
        parent = posixpath.dirname(entry.path)
        if entry.kind in ("card-pdf", "card-back-pdf", "page-pdf"):
            if parent.startswith(folder + "/") or parent == folder:
                per_card[parent] = per_card.get(parent, 0) + 1
            continue
        if parent in (folder, deck_top, ""):
            links.append((posixpath.relpath(entry.path, folder), posixpath.basename(entry.path)))
    for parent, count in per_card.items():
        links.append((posixpath.relpath(parent, folder) + "/", f"{posixpath.basename(parent)}/ ({count} per-card PDFs)"))
    return links


# --- the page ----------------------------------------------------------------------------------

_CSS = """
:root{--ink:#222;--muted:#666;--warn:#c2410c;--bad:#b91c1c;--ok:#15803d;--paper:#f4f4f2}
*{box-sizing:border-box}
body{margin:0;font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);background:var(--paper)}
header{padding:16px 24px;background:#fff;border-bottom:1px solid #ddd}
h1{margin:0 0 6px;font-size:22px}
h2{margin:24px 24px 8px;font-size:16px}
.sum{font-size:16px;margin:4px 0}
.ok{color:var(--ok)}.bad{color:var(--bad)}.warn-t{color:var(--warn)}
table.counts{border-collapse:collapse;margin:6px 0}
table.counts th{text-align:left;padding:2px 12px 2px 0;color:var(--muted);font-weight:600;vertical-align:top}
table.counts td{padding:2px 0}
.val{display:inline-block;margin:0 10px 0 0;white-space:nowrap}
ul.msgs{margin:4px 0;padding-left:20px}
nav a{margin-right:14px}
.grid{display:flex;flex-wrap:wrap;gap:16px;padding:0 24px 8px;align-items:flex-start}
figure{margin:0;padding:8px;background:#fff;border:1px solid #ddd;border-radius:6px;width:min-content;min-width:140px}
figure.has-warn{border:3px solid var(--warn);padding:6px}
figure.broken{border:3px dashed var(--bad)}
.pic{position:relative;display:inline-block;line-height:0}
.pic img{display:block;border-radius:4px;background:#e8e8e8;box-shadow:0 0 0 1px #c8c8c8;object-fit:none;
 object-position:0 0}
.badge{position:absolute;top:4px;right:4px;line-height:1;background:var(--warn);color:#fff;font-weight:700;
 font-size:13px;padding:4px 7px;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.4)}
.pic .mark{position:absolute;inset:0;border:3px solid var(--warn);border-radius:4px;pointer-events:none}
figcaption{margin-top:6px;font-size:12px;line-height:1.35;overflow-wrap:anywhere}
figcaption b{font-size:13px}
.meta{color:var(--muted)}
.w{color:var(--warn);margin-top:4px}
footer{padding:12px 24px;color:var(--muted);font-size:12px}
"""

# Counts the pictures that loaded into #proof-status (tests read it with --dump-dom); served over
# HTTP, reloads when the page's proof-id changes (printkit watch --serve rebuilt it).
_SCRIPT = """
(function(){
var imgs=Array.prototype.slice.call(document.images),s=document.getElementById('proof-status');
function count(){var ok=0,bad=0,wait=0;imgs.forEach(function(i){
 if(!i.complete){wait++;}else if(i.naturalWidth>0){ok++;}else{bad++;i.closest('figure').classList.add('broken');}});
 s.setAttribute('data-images',imgs.length);s.setAttribute('data-loaded',ok);s.setAttribute('data-broken',bad);
 s.setAttribute('data-pending',wait);
 s.textContent=ok+' of '+imgs.length+' pictures loaded'+(bad?', '+bad+' missing':'');}
imgs.forEach(function(i){i.addEventListener('load',count);i.addEventListener('error',count);});
count();
if(/^https?:$/.test(location.protocol)){
 var id=document.querySelector('meta[name="proof-id"]').content;
 setInterval(function(){fetch(location.pathname,{cache:'no-store'}).then(function(r){return r.ok?r.text():'';})
  .then(function(t){var m=/<meta name="proof-id" content="([0-9a-f]+)">/.exec(t);
   if(m&&m[1]!==id){location.reload();}}).catch(function(){});},1000);
}
})();
"""


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def _csp(css: str) -> str:
    return ("default-src 'none'; img-src 'self'; connect-src 'self'; "
            f"style-src {_csp_hash(css)}; script-src {_csp_hash(_SCRIPT)}; base-uri 'none'; form-action 'none'")


def _css(tiles: Sequence[tuple[str, Tile]]) -> str:
    """The page's style: :data:`_CSS` and where each tile's face starts in its contact sheet."""
    tops = sorted({t.top_px for _, t in tiles} - {0})
    return _CSS + "".join(f".pic img.at-{top}{{object-position:0 -{top}px}}\n" for top in tops)

_ID_SLOT = "@@PROOF-ID@@"


def e(text: object) -> str:
    """Text from the spec, safe in HTML text and in quoted attributes."""
    return html.escape(str(text), quote=True)


def _placeholders(deck: Deck, drawn: set[Path]) -> tuple[str, ...]:
    """The pictures ``deck``'s faces drew as placeholders (``drawn``), as the spec names them."""
    from printkit.draft import shown_in

    return tuple(sorted(shown_in(p, Path(deck.spec_path).parent) for p in drawn))


def proof_html(deck: Deck, tiles: Sequence[tuple[str, Tile]], counts: Counts, deck_warnings: Sequence[str],
               links: Sequence[tuple[str, str]], draft: Sequence[str] | None = None) -> bytes:
    """The page's bytes (the same inputs give the same bytes). ``draft``: the page of a draft
    build, which says so at its top with the pictures drawn as placeholders."""
    title = ("DRAFT " if draft is not None else "") + deck.name + (f" ({deck.variant})" if deck.variant else "")
    warned = [t for _, t in tiles if t.warnings]
    css = _css(tiles)
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{e(_csp(css))}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta name="proof-id" content="{_ID_SLOT}">',
        f"<title>{e(title)}: proof</title>",
        f"<style>{css}</style></head><body>",
        "<header>",
        f"<h1>{e(title)} <span class=\"meta\">proof</span></h1>",
    ]
    if draft is not None:
        said = (f"{counted(len(draft), 'picture')} drawn as placeholders: {', '.join(draft)}"
                if draft else "every picture is there")
        out.append(f'<p class="warn-t"><b>DRAFT: not for print.</b> {e(said)}. Build without --draft '
                   f'for the files to print.</p>')
    out += _header_counts(counts)
    fronts = sum(1 for _, t in tiles if t.side != "back")
    backs = sum(1 for _, t in tiles if t.side == "back")
    issues = sum(len(t.warnings) for t in warned)
    state = (f'<span class="warn-t">{counted(issues, "warning")} on {counted(len(warned), "face")}</span>'
             if warned else '<span class="ok">no warnings on any face</span>')
    out.append(f'<p class="sum">{counted(fronts, "distinct front")}, {counted(backs, "back")}; {state}</p>')
    if warned:
        out.append('<ul class="msgs">' + "".join(
            f'<li><a href="#{e(t.anchor)}">{e(t.name)} ({e(t.side)})</a>: {e(t.warnings[0])}'
            + (f" (+{len(t.warnings) - 1} more)" if len(t.warnings) > 1 else "") + "</li>"
            for t in warned) + "</ul>")
    if deck_warnings:
        out.append('<p class="warn-t">Said of the spec:</p><ul class="msgs">'
                   + "".join(f"<li>{e(w)}</li>" for w in deck_warnings) + "</ul>")
    if links:
        out.append("<nav>" + "".join(f'<a href="{e(_href(href))}">{e(text)}</a>' for href, text in links) + "</nav>")
    out.append("</header>")
    section = None
    for run, tile in tiles:
        if run != section:
            if section is not None:
                out.append("</div>")
            heading = {"cards": "Fronts", "backs": "Backs", "pages": "Pages"}.get(run, f"Fronts: {run}")
            out.append(f"<h2>{e(heading)}</h2><div class=\"grid\">")
            section = run
        out.append(_tile(tile))
    if section is not None:
        out.append("</div>")
    out.append('<footer><output id="proof-status">pictures not counted (scripts off)</output></footer>')
    out.append(f"<script>{_SCRIPT}</script></body></html>")
    text = "\n".join(out) + "\n"
    proof_id = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return text.replace(_ID_SLOT, proof_id, 1).encode("utf-8")


def _href(relative: str) -> str:
    return quote(relative, safe="/")


def _header_counts(counts: Counts) -> list[str]:
    expected = "" if counts.expected is None else f", expected {counts.expected}"
    verdict = '<span class="ok">counts as expected</span>' if counts.ok else '<span class="bad">counts differ</span>'
    out = [f'<p class="sum">{counted(counts.total, "card")}{e(expected)}: {verdict}</p>', '<table class="counts">']
    for label, values in counts.rows:
        cells = "".join(f'<span class="val">{e(v)} <b>{n}</b></span>' for v, n in values) or "(no card has it)"
        out.append(f"<tr><th>{e(label)}</th><td>{cells}</td></tr>")
    for name, total, expected_total in counts.components:
        exp = "" if expected_total is None else f" (expected {expected_total})"
        cls = "" if expected_total is None or expected_total == total else ' class="bad"'
        out.append(f"<tr><th>component</th><td{cls}>{e(name)} <b>{total}</b>{e(exp)}</td></tr>")
    out.append("</table>")
    if counts.mismatches:
        out.append('<ul class="msgs bad">' + "".join(f"<li>{e(m)}</li>" for m in counts.mismatches) + "</ul>")
    return out


def _tile(tile: Tile) -> str:
    cls = ' class="has-warn"' if tile.warnings else ""
    mark = ""
    if tile.warnings:
        said = counted(len(tile.warnings), "warning")
        mark = (f'<span class="mark"></span><span class="badge" title="{said}">'
                f"&#9888; {len(tile.warnings)}</span>")
    src = f"{_href(tile.image)}?v={tile.sha256[:12]}"
    alt = f"{tile.side} of {tile.name}"
    copies = f"&times;{tile.copies}" if tile.side != "back" else ""
    meta = [e(tile.group)] + ([copies] if copies else [])
    lines = [f"<b>{e(tile.name)}</b> <span class=\"meta\">{' · '.join(meta)}</span>"]
    if tile.detail:
        lines.append(f'<div class="meta">{e(tile.detail)}</div>')
    lines += [f'<div class="w">&#9888; {e(w)}</div>' for w in tile.warnings]
    return (f'<figure id="{e(tile.anchor)}"{cls} data-side="{e(tile.side)}" data-warnings="{len(tile.warnings)}">'
            f'<span class="pic"><img src="{e(src)}" width="{tile.width_px}" height="{tile.height_px}" '
            f'class="at-{tile.top_px}" alt="{e(alt)}" loading="eager">{mark}</span>'
            f"<figcaption>{''.join(lines)}</figcaption></figure>")


def proof_path(out_dir: Path, deck: Deck) -> Path:
    """Where the proof page of ``deck`` lands."""
    from printkit.pipeline.names import deck_folder

    return Path(out_dir, *deck_folder(deck).split("/"), PROOF_PAGE)


__all__ = ["produce_proof", "proof_html", "proof_path", "PROOF_PAGE", "THUMB_DPI", "KIND_PAGE", "KIND_IMAGE"]
