"""Tabletop Simulator export: deck sheets, tokens, back images and a saved object (``deck.json``).

Each run of cards (the deck's cards, each component that is cards) becomes its own
``DeckCustom``, so tokens and player aids are never shuffled into the deck. Its distinct faces,
grouped by back, go onto sheets of at most ``max_columns`` x ``max_rows`` (10 x 7) slots and
``max_pixels`` (4096) on a side, the last slot of each sheet left for the hidden card (TTS shows
it for cards in another player's hand; printkit puts the back there). Cards are drawn at their
trim (TTS shows no bleed) at 300 DPI, the largest size that keeps at least a face and the hidden
card within those limits: a sheet holds as many faces as fit at that size, and a bigger deck
takes more sheets (a poker card is 750 x 1050 px, 14 faces a sheet).

A token (a square component smaller than the deck's cards, such as Emberfall's embers) is no
card: each copy is a ``Custom_Tile`` of the circle type with its face on top and its back below,
at its real size next to the cards (:data:`TILE_MM`).

The saved object has the structure TTS writes itself: ``ObjectStates`` holds one ``DeckCustom``
per run with ``DeckIDs``, ``CustomDeck`` (one entry per sheet: ``FaceURL``, ``BackURL``,
``NumWidth``, ``NumHeight``, ``BackIsHidden``, ``UniqueBack``, ``Type``) and one ``Card`` per
copy in ``ContainedObjects``, whose ``CardID`` is the sheet's id times 100 plus the slot
(row-major from the top left). ``Nickname`` is the card's name, ``Description`` its text (the
attribute the spec's ``export: {description: ...}`` names, else ``text``, else ``rules``) as plain
text: markup gone and icons as words (:func:`printkit.layout.richparse.plain_text`).

The images go into ``images/``, the folder to host (with ``--base-url``); ``deck.json`` stays
beside it with ``README.txt`` and printkit's own ``manifest.json``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence
from urllib.parse import quote

from printkit.deck import Card, Deck
from printkit.errors import BuildError
from printkit.export import README, ExportOptions, Run, file_slug, readme_text, warned_of
from printkit.export.folders import take_folders
from printkit.export.profiles import Profile
from printkit.layout import templates
from printkit.layout.geometry import Box, Size
from printkit.layout.imposition import Page, Placement
from printkit.pipeline.manifest import EXPORT_README
from printkit.plural import counted
from printkit.units import mm_to_px

JSON_NAME = "deck.json"
IMAGES = "images"  # the folder of every image deck.json points at
NATIVE_DPI = 300  # a card is never drawn larger than this on a sheet
# TTS sizes objects in table units, not millimetres. A card at scale 1 is as tall as a poker card
# (88.9 mm) whatever its width; a tile at scale 1 is 1.31 units across where that card is 3.5
# units tall: 88.9 * 1.31 / 3.5 = 33.3 mm. TTS documents neither; both were measured against a
# printed game (docs/print-services.md gives the source).
CARD_HEIGHT_MM = 88.9
TILE_MM = CARD_HEIGHT_MM * 1.31 / 3.5
TILE_CIRCLE = 2  # CustomTile Type: 0 box, 1 hex, 2 circle, 3 rounded
TILE_THICKNESS = 0.1  # table units (about 2.5 mm), TTS's own default for a tile


@dataclass(frozen=True)
class Grid:
    columns: int
    rows: int
    card_px: tuple[int, int]

    @property
    def slots(self) -> int:
        return self.columns * self.rows

    @property
    def pixels(self) -> tuple[int, int]:
        return self.columns * self.card_px[0], self.rows * self.card_px[1]


def card_pixels(width_mm: float, height_mm: float, prof: Profile) -> tuple[int, int]:
    """A card's size on a sheet: 300 DPI, unless two slots of it (a face and the hidden card, side
    by side or one above the other) would pass ``max_pixels``; then as large as two fit."""
    width = mm_to_px(width_mm, NATIVE_DPI)
    height = width * height_mm / width_mm
    limit = prof.max_pixels
    fits = max(min(limit / (2 * width), limit / height), min(limit / width, limit / (2 * height)))
    width_px = max(1, math.floor(width * min(1.0, fits)))
    height_px = max(1, min(math.floor(limit / (1 if width_px * 2 <= limit else 2)),
                           round(width_px * height_mm / width_mm)))
    return width_px, height_px


def sheet_capacity(width_mm: float, height_mm: float, prof: Profile) -> tuple[int, int]:
    """The most columns and rows of cards of this size on one sheet."""
    width_px, height_px = card_pixels(width_mm, height_mm, prof)
    return (min(prof.max_columns, prof.max_pixels // width_px),
            min(prof.max_rows, prof.max_pixels // height_px))


def sheet_grid(faces: int, width_mm: float, height_mm: float, prof: Profile) -> Grid:
    """The grid for ``faces`` card faces plus the hidden slot: as few rows as the widest sheet
    allows, and then as few columns as those rows need (8 slots in rows of 7 make a 4 x 2 grid)."""
    columns_max, rows_max = sheet_capacity(width_mm, height_mm, prof)
    slots = faces + 1
    if slots > columns_max * rows_max:
        raise ValueError(f"{faces} faces do not fit one sheet")
    rows = math.ceil(slots / columns_max)
    return Grid(math.ceil(slots / rows), rows, card_pixels(width_mm, height_mm, prof))


def is_token(deck: Deck, run: Run) -> bool:
    """A component of square cards smaller than the deck's: tokens, drawn as round tiles."""
    size = run.cards[0].size
    return (run.name != "cards" and abs(size.width_mm - size.height_mm) < 1e-6
            and size.height_mm < min(deck.size.width_mm, deck.size.height_mm) - 1e-6)


def produce_tts(deck: Deck, prof: Profile, runs: Sequence[Run], pages: Sequence[Card],
                options: ExportOptions, ctx) -> Iterator:
    from printkit.pipeline.names import deck_title

    take_folders(ctx, [IMAGES])
    faces = ctx.faces(deck)
    files: list[tuple[str, str]] = []
    objects: list[dict] = []
    writer = _Writer(deck, prof, faces, ctx, options, files)
    for position, run in enumerate(runs):
        if is_token(deck, run):
            yield from writer.tiles(run, position, objects)
        else:
            yield from writer.cards(run, position, objects)
    save = {"SaveName": deck_title(deck), "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "",
            "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects}
    data = (json.dumps(save, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    yield ctx.write(JSON_NAME, data, kind="tts-json", deck=deck)
    files.insert(0, (JSON_NAME, "the saved object: " + "; ".join(writer.summary)))
    left_out = []
    if pages:
        left_out.append(f"{counted(len(pages), 'full-page sheet')} (score sheets and the like): "
                        "not cards; use the PDF from `printkit build` (a Custom PDF object in TTS).")
    where = (f"Images are referenced at {options.base_url.rstrip('/')}/{IMAGES}/...: upload the {IMAGES}/ "
             "folder there." if options.base_url
             else "Images are referenced by file:/// paths to this folder: moving the folder breaks them.")
    notes = [where, "Every copy of a card is its own Card in the deck, named as the card, with its rules text "
             "as plain text for description (markup removed, icons as words).",
             "Tokens (square components smaller than the cards) are round tiles at their real size, one tile "
             "per copy.", "Colour: sRGB; each PNG carries an sRGB ICC profile."]
    yield ctx.write(README, readme_text(deck, prof, notes, files, left_out, warned_of(deck, ctx)),
                    kind=EXPORT_README, deck=deck)


class _Writer:
    """Writes each run's images and describes its objects in the save; sheet ids and back images
    are shared by all runs."""

    def __init__(self, deck: Deck, prof: Profile, faces, ctx, options: ExportOptions, files: list) -> None:
        self.deck, self.prof, self.faces, self.ctx, self.options, self.files = deck, prof, faces, ctx, options, files
        self.next_id = 1
        self.backs: dict[tuple, str] = {}  # back ops, size and pixels -> path
        self.summary: list[str] = []

    def url(self, relative: str) -> str:
        return _url(self.ctx.options.out_dir, relative, self.options.base_url)

    def cards(self, run: Run, position: int, objects: list) -> Iterator:
        from PIL import Image as PILImage

        from printkit.pipeline.names import deck_title
        from printkit.pipeline.names import card_key
        from printkit.render.png import png_bytes

        deck, faces, ctx = self.deck, self.faces, self.ctx
        distinct: dict[str, list[Card]] = {}
        for card in run.cards:
            distinct.setdefault(card_key(card), []).append(card)
        by_back: dict[tuple, list[list[Card]]] = {}
        for copies in distinct.values():
            by_back.setdefault((faces.back(copies[0]).ops, copies[0].size), []).append(copies)
        custom: dict[str, dict] = {}
        contained: list[dict] = []
        sheet_number = 0
        first = run.cards[0]
        scale = first.size.height_mm / CARD_HEIGHT_MM
        for back_key, groups in by_back.items():
            card = groups[0][0]
            w_mm, h_mm = card.size.width_mm, card.size.height_mm
            columns, rows = sheet_capacity(w_mm, h_mm, self.prof)
            per_sheet = columns * rows - 1
            for start in range(0, len(groups), per_sheet):
                chunk = groups[start:start + per_sheet]
                grid = sheet_grid(len(chunk), w_mm, h_mm, self.prof)
                back_png = _face_image(deck, card, faces.back(card), "back", grid.card_px)
                back_path = yield from self.back(run, back_key + (grid.card_px,), back_png)
                sheet = PILImage.new("RGB", grid.pixels, (255, 255, 255))
                for slot, copies in enumerate(chunk):
                    image = _face_image(deck, copies[0], faces.front(copies[0]), "front", grid.card_px)
                    sheet.paste(image, _slot_xy(slot, grid))
                    ctx.progress(len(copies))
                sheet.paste(back_png, _slot_xy(grid.slots - 1, grid))  # the hidden card shows the back
                sheet_number += 1
                sheet_path = f"{IMAGES}/{file_slug(run.name)}-sheet-{sheet_number}.png"
                yield ctx.write(sheet_path, png_bytes(sheet), kind="tts-sheet", deck=deck,
                                cards=sum(len(c) for c in chunk))
                self.files.append((sheet_path, f"{counted(len(chunk), 'face')} of {run.title} on a {grid.columns} x "
                                               f"{grid.rows} grid, {grid.card_px[0]} x {grid.card_px[1]} px a card"))
                deck_id = self.next_id
                self.next_id += 1
                entry = {
                    "FaceURL": self.url(sheet_path), "BackURL": self.url(back_path),
                    "NumWidth": grid.columns, "NumHeight": grid.rows,
                    "BackIsHidden": False,  # hidden cards show the last slot, where the back is
                    "UniqueBack": False, "Type": 0,
                }
                custom[str(deck_id)] = entry
                for slot, copies in enumerate(chunk):
                    for copy in copies:
                        contained.append(_card_object(deck, copy, deck_id * 100 + slot, deck_id, entry, scale))
        objects.append({
            "Name": "DeckCustom", "Transform": _transform(position * 3.0, scale, face_down=True),
            "Nickname": f"{deck_title(deck)}: {run.title}", "Description": "",
            "DeckIDs": [c["CardID"] for c in contained], "CustomDeck": custom,
            "ContainedObjects": contained,
        })
        self.summary.append(f"a deck of {run.title}, {counted(len(contained), 'card')}")

    def back(self, run: Run, key: tuple, image) -> Iterator:
        """The path of this back image, written the first time it is needed."""
        from printkit.render.png import png_bytes

        if key not in self.backs:
            path = f"{IMAGES}/{file_slug(run.name)}-back-{len(self.backs) + 1}.png"
            self.backs[key] = path
            yield self.ctx.write(path, png_bytes(image), kind="tts-back", deck=self.deck)
            self.files.append((path, f"a card back ({run.title})"))
        return self.backs[key]

    def tiles(self, run: Run, position: int, objects: list) -> Iterator:
        from printkit.pipeline.names import card_key
        from printkit.render.png import png_bytes

        deck, faces, ctx = self.deck, self.faces, self.ctx
        distinct: dict[str, list[Card]] = {}
        for card in run.cards:
            distinct.setdefault(card_key(card), []).append(card)
        for number, copies in enumerate(distinct.values(), start=1):
            card = copies[0]
            side = card.size.width_mm
            pixels = (round(mm_to_px(side, NATIVE_DPI)),) * 2
            front, back = faces.front(card), faces.back(card)
            face_path = f"{IMAGES}/{file_slug(run.name)}-{number}.png"
            yield ctx.write(face_path, png_bytes(_face_image(deck, card, front, "front", pixels)),
                            kind="tts-tile", deck=deck, cards=len(copies))
            tiles = counted(len(copies), f"{run.title} tile")
            self.files.append((face_path, f"the face of {tiles}, {pixels[0]} px across"))
            back_path = face_path
            if back.ops != front.ops:
                back_path = f"{IMAGES}/{file_slug(run.name)}-{number}-back.png"
                yield ctx.write(back_path, png_bytes(_face_image(deck, card, back, "back", pixels)),
                                kind="tts-tile", deck=deck)
                self.files.append((back_path, f"the underside of {counted(len(copies), run.title + ' tile')}"))
            ctx.progress(len(copies))
            scale = side / TILE_MM
            for height, copy in enumerate(copies):
                transform = _transform(position * 3.0 + (number - 1) * 1.5, scale, face_down=False)
                transform["posY"] = 1.0 + height * 0.2  # stacked: they settle into a pile
                objects.append({
                    "Name": "Custom_Tile", "Transform": transform,
                    "Nickname": templates.card_name(copy, deck), "Description": card_text(deck, copy),
                    "CustomImage": {
                        "ImageURL": self.url(face_path), "ImageSecondaryURL": self.url(back_path),
                        "ImageScalar": 1.0, "WidthScale": 0.0,
                        "CustomTile": {"Type": TILE_CIRCLE, "Thickness": TILE_THICKNESS, "Stackable": True,
                                       "Stretch": True},
                    },
                })
        self.summary.append(f"{counted(len(run.cards), 'round tile')} ({run.title})")


def card_text(deck: Deck, card: Card) -> str:
    """The card's description: the spec's description attribute (else ``text``, else ``rules``) as
    plain text, markup removed and icons written as words."""
    from printkit.layout.richparse import plain_text

    names = (deck.description_attr,) if deck.description_attr else ("text", "rules")
    for name in names:
        value = card.get(name)
        if value is not None and str(value).strip():
            return plain_text(str(value))
    return ""


def _slot_xy(slot: int, grid: Grid) -> tuple[int, int]:
    return (slot % grid.columns) * grid.card_px[0], (slot // grid.columns) * grid.card_px[1]


def _face_image(deck: Deck, card: Card, face, side: str, pixels: tuple[int, int]):
    """The face at its trim, ``pixels`` in size: a trim-sized PDF page rasterised by PDFium."""
    from printkit.pipeline.names import pdf_info
    from printkit.render.pdf import render_pages
    from printkit.render.png import rasterise

    w, h = card.size.width_mm, card.size.height_mm
    page = Page(Size(w, h), (Placement(face, 0.0, 0.0, Box(0.0, 0.0, w, h)),))
    name = templates.card_name(card, deck)
    pdf = render_pages([page], info=pdf_info(deck, f"card {name} {side}", "A card at its trim, for a digital table"))
    return rasterise(pdf, card.size, pixels=pixels)


def _card_object(deck: Deck, card: Card, card_id: int, deck_id: int, entry: dict, scale: float) -> dict:
    return {
        "Name": "Card", "Transform": _transform(0.0, scale, face_down=True),
        "Nickname": templates.card_name(card, deck),
        "Description": card_text(deck, card), "CardID": card_id,
        "CustomDeck": {str(deck_id): entry},
    }


def _transform(x: float, scale: float, face_down: bool) -> dict:
    # A deck lies face down (rotZ 180), as on the table; a tile face up.
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
            "scaleX": round(scale, 4), "scaleY": 1.0, "scaleZ": round(scale, 4)}


def check_base_url(base_url: str) -> None:
    """Refuse a ``--base-url`` that is not the http(s) address of a folder (BuildError naming the
    option and what to write): deck.json's image URLs are it followed by ``images/...``, so a
    query or fragment would swallow that path, and TTS loads no relative path, other scheme or
    address with spaces in it; it shows blank cards instead."""
    from urllib.parse import urlsplit

    problem = None
    if any(char.isspace() or not char.isprintable() or char == "\\" for char in base_url):
        problem = "holds a space, a backslash or a control character (write a space in a path as %20)"
    else:
        try:
            parts = urlsplit(base_url)
            parts.port  # noqa: B018 -- read to refuse a port that is no number
        except ValueError:
            parts = None
        if parts is None:
            problem = "is not a web address"
        elif parts.scheme.lower() not in ("http", "https"):
            problem = ("is not an http:// or https:// address (without --base-url, deck.json points at the "
                       "images by file:/// paths)")
        elif not parts.hostname:
            problem = "names no host"
        elif "?" in base_url or "#" in base_url:
            problem = ("has a query (?) or a fragment (#); the image paths are added after it, so it must end at "
                       "the folder")
    if problem:
        raise BuildError(f"--base-url {base_url!r} {problem}: write the http:// or https:// address of the folder "
                         f"you will upload {IMAGES}/ to, such as --base-url https://example.org/mydeck/")


def _url(out_dir: Path, relative: str, base_url: str | None) -> str:
    if base_url:
        return f"{base_url.rstrip('/')}/{quote(relative)}"
    return (Path(out_dir).resolve() / relative).as_uri()
