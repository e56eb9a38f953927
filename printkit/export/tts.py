"""Tabletop Simulator export: deck sheets, back images and a saved object (``deck.json``).

Each run (the deck's cards, each component that is cards) becomes its own ``DeckCustom``, so
tokens and player aids are never shuffled into the deck. Its distinct faces, grouped by back,
go onto sheets of at most ``max_columns`` x ``max_rows`` (10 x 7) slots, the last slot of each
sheet left for the hidden card (TTS shows it for cards in another player's hand; printkit puts
the back there); 69 faces a sheet at most, so bigger decks get several sheets. Cards are drawn
at their trim (TTS shows no bleed), scaled so that a sheet is at most ``max_pixels`` (4096)
on its long side, and never larger than at 300 DPI.

The saved object has the structure TTS writes itself: ``ObjectStates`` holds one ``DeckCustom``
per run with ``DeckIDs``, ``CustomDeck`` (one entry per sheet: ``FaceURL``, ``BackURL``,
``NumWidth``, ``NumHeight``, ``BackIsHidden``, ``UniqueBack``, ``Type``) and one ``Card`` per
copy in ``ContainedObjects``, whose ``CardID`` is the sheet's id times 100 plus the slot
(row-major from the top left). ``Nickname`` is the card's name, ``Description`` its ``text``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence
from urllib.parse import quote

from printkit.deck import Card, Deck
from printkit.export import README, ExportOptions, Run, file_slug, readme_text
from printkit.export.profiles import Profile
from printkit.layout import templates
from printkit.layout.geometry import Box, Size
from printkit.layout.imposition import Page, Placement
from printkit.units import mm_to_px

JSON_NAME = "deck.json"
NATIVE_DPI = 300  # a card is never drawn larger than this on a sheet


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


def sheet_grid(faces: int, width_mm: float, height_mm: float, prof: Profile) -> Grid:
    """The grid for ``faces`` card faces plus the hidden slot, and each card's pixel size."""
    slots = faces + 1
    if slots > prof.max_columns * prof.max_rows:
        raise ValueError(f"{faces} faces do not fit one sheet")
    columns = min(prof.max_columns, slots)
    rows = math.ceil(slots / columns)
    native = mm_to_px(width_mm, NATIVE_DPI)
    width = min(native, prof.max_pixels / columns, prof.max_pixels / rows * width_mm / height_mm)
    width_px = max(1, math.floor(width))
    height_px = max(1, min(math.floor(prof.max_pixels / rows), round(width_px * height_mm / width_mm)))
    return Grid(columns, rows, (width_px, height_px))


def produce_tts(deck: Deck, prof: Profile, runs: Sequence[Run], pages: Sequence[Card],
                options: ExportOptions, ctx) -> Iterator:
    from PIL import Image as PILImage

    from printkit.build import card_key, deck_title
    from printkit.render.png import png_bytes

    faces = ctx.faces(deck)
    out_dir = ctx.options.out_dir
    per_sheet = prof.max_columns * prof.max_rows - 1
    files: list[tuple[str, str]] = []
    objects = []
    next_id = 1
    back_images: dict[tuple, str] = {}  # back ops and size -> path
    for position, run in enumerate(runs):
        distinct: dict[str, list[Card]] = {}
        for card in run.cards:
            distinct.setdefault(card_key(card), []).append(card)
        by_back: dict[tuple, list[list[Card]]] = {}
        for copies in distinct.values():
            by_back.setdefault((faces.back(copies[0]).ops, copies[0].size), []).append(copies)
        custom: dict[str, dict] = {}
        contained: list[dict] = []
        sheet_number = 0
        for back_key, groups in by_back.items():
            first = groups[0][0]
            w_mm, h_mm = first.size.width_mm, first.size.height_mm
            for start in range(0, len(groups), per_sheet):
                chunk = groups[start:start + per_sheet]
                grid = sheet_grid(len(chunk), w_mm, h_mm, prof)
                back_png = _face_image(deck, first, faces.back(first), "back", grid.card_px)
                if back_key not in back_images:
                    path = f"{file_slug(run.name)}-back-{len(back_images) + 1}.png"
                    back_images[back_key] = path
                    yield ctx.write(path, png_bytes(back_png), kind="tts-back", deck=deck)
                    files.append((path, f"a card back ({run.title})"))
                sheet = PILImage.new("RGB", grid.pixels, (255, 255, 255))
                for slot, copies in enumerate(chunk):
                    image = _face_image(deck, copies[0], faces.front(copies[0]), "front", grid.card_px)
                    sheet.paste(image, _slot_xy(slot, grid))
                    ctx.progress(len(copies))
                sheet.paste(back_png, _slot_xy(grid.slots - 1, grid))  # the hidden card shows the back
                sheet_number += 1
                sheet_path = f"{file_slug(run.name)}-sheet-{sheet_number}.png"
                yield ctx.write(sheet_path, png_bytes(sheet), kind="tts-sheet", deck=deck,
                                cards=sum(len(c) for c in chunk))
                files.append((sheet_path, f"{len(chunk)} faces of {run.title} on a {grid.columns} x {grid.rows} "
                                          f"grid, {grid.card_px[0]} x {grid.card_px[1]} px a card"))
                deck_id = next_id
                next_id += 1
                entry = {
                    "FaceURL": _url(out_dir, sheet_path, options.base_url),
                    "BackURL": _url(out_dir, back_images[back_key], options.base_url),
                    "NumWidth": grid.columns, "NumHeight": grid.rows,
                    "BackIsHidden": False,  # hidden cards show the last slot, where the back is
                    "UniqueBack": False, "Type": 0,
                }
                custom[str(deck_id)] = entry
                for slot, copies in enumerate(chunk):
                    for card in copies:
                        contained.append(_card_object(deck, card, deck_id * 100 + slot, deck_id, entry))
        objects.append({
            "Name": "DeckCustom", "Transform": _transform(position * 3.0),
            "Nickname": f"{deck_title(deck)}: {run.title}", "Description": "",
            "DeckIDs": [c["CardID"] for c in contained], "CustomDeck": custom,
            "ContainedObjects": contained,
        })
    save = {"SaveName": deck_title(deck), "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "",
            "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects}
    data = (json.dumps(save, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    yield ctx.write(JSON_NAME, data, kind="tts-json", deck=deck)
    files.insert(0, (JSON_NAME, f"the saved object: {len(objects)} deck{'s' if len(objects) > 1 else ''} ("
                     + ", ".join(f"{o['Nickname'].split(': ', 1)[1]} {len(o['ContainedObjects'])} cards"
                                 for o in objects) + ")"))
    left_out = []
    if pages:
        left_out.append(f"{len(pages)} full-page sheet{'s' if len(pages) > 1 else ''} (score sheets and the like): "
                        "not cards; use the PDF from `printkit build` (a Custom PDF object in TTS).")
    where = (f"Images are referenced at {options.base_url.rstrip('/')}/..." if options.base_url
             else "Images are referenced by file:/// paths to this folder: moving the folder breaks them.")
    notes = [where, "Every copy of a card is its own Card in the deck, named as the card, with its rules text "
             "as description.", "Colour: sRGB; each PNG carries an sRGB ICC profile."]
    yield ctx.write(README, readme_text(deck, prof, notes, files, left_out), kind="export-readme", deck=deck)


def _slot_xy(slot: int, grid: Grid) -> tuple[int, int]:
    return (slot % grid.columns) * grid.card_px[0], (slot // grid.columns) * grid.card_px[1]


def _face_image(deck: Deck, card: Card, face, side: str, pixels: tuple[int, int]):
    """The face at its trim, ``pixels`` in size: a trim-sized PDF page rasterised by PDFium."""
    from printkit.build import pdf_info
    from printkit.render.pdf import render_pages
    from printkit.render.png import rasterise

    w, h = card.size.width_mm, card.size.height_mm
    page = Page(Size(w, h), (Placement(face, 0.0, 0.0, Box(0.0, 0.0, w, h)),))
    name = templates.card_name(card, deck)
    pdf = render_pages([page], info=pdf_info(deck, f"card {name} {side}", "A card at its trim, for a digital table"))
    return rasterise(pdf, card.size, pixels=pixels)


def _card_object(deck: Deck, card: Card, card_id: int, deck_id: int, entry: dict) -> dict:
    text = card.get("text")
    return {
        "Name": "Card", "Transform": _transform(0.0), "Nickname": templates.card_name(card, deck),
        "Description": str(text) if text is not None else "", "CardID": card_id,
        "CustomDeck": {str(deck_id): entry},
    }


def _transform(x: float) -> dict:
    # Face down (rotZ 180), as a deck lies on the table.
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def _url(out_dir: Path, relative: str, base_url: str | None) -> str:
    if base_url:
        return f"{base_url.rstrip('/')}/{quote(relative)}"
    return (Path(out_dir).resolve() / relative).as_uri()
