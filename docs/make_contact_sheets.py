"""Contact sheets of the rulebooks: every page of a book as a small picture, on one PNG.

    python docs/make_contact_sheets.py --label after               # docs/contact-sheets/*-after.png
    PYTHONPATH=/path/to/older/printkit python docs/make_contact_sheets.py --label before

The books are built by the printkit that is imported (so an older checkout on PYTHONPATH draws
its own books), from that printkit's decks, in English and Korean on A4 unless told otherwise.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw

from printkit.rulebook.producer import render_rulebook
from printkit.spec import DECKS_DIR

HERE = Path(__file__).resolve().parent
THUMB_W = 200  # pixels across a page: its layout shows, its text does not need to be read
COLUMNS = 6
GAP = 12


def contact_sheet(pdf_bytes: bytes, title: str) -> Image.Image:
    """The pages side by side in rows of COLUMNS, each framed, numbered under it."""
    pdf = pdfium.PdfDocument(pdf_bytes)
    pages = []
    for page in pdf:
        image = page.render(scale=THUMB_W / page.get_width()).to_pil().convert("RGB")
        pages.append(image)
    thumb_h = max(p.height for p in pages)
    columns = min(COLUMNS, len(pages))
    rows = -(-len(pages) // columns)
    head, foot = 30, 18
    sheet = Image.new("RGB", (GAP + columns * (THUMB_W + GAP), head + rows * (thumb_h + foot + GAP)), "#d9d9d9")
    draw = ImageDraw.Draw(sheet)
    draw.text((GAP, 9), title, fill="#222222")
    for i, image in enumerate(pages):
        x = GAP + (i % columns) * (THUMB_W + GAP)
        y = head + (i // columns) * (thumb_h + foot + GAP)
        sheet.paste(image, (x, y))
        draw.rectangle((x - 1, y - 1, x + image.width, y + image.height), outline="#999999")
        draw.text((x + THUMB_W // 2 - 4, y + image.height + 3), str(i + 1), fill="#444444")
    return sheet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", required=True, help="ends each file's name: before, after …")
    parser.add_argument("--games", default="calc,stack,clag")
    parser.add_argument("--langs", default="en,ko")
    parser.add_argument("--paper", default="a4")
    parser.add_argument("--out", type=Path, default=HERE / "contact-sheets")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for game in args.games.split(","):
        for lang in args.langs.split(","):
            book = render_rulebook(DECKS_DIR / f"{game}.yaml", lang, args.paper)
            title = f"{game} rulebook, {lang}, {args.paper.upper()}: {args.label}"
            path = args.out / f"{game}-{lang}-{args.paper}-{args.label}.png"
            # a palette keeps a sheet of small pages to a few hundred kilobytes
            contact_sheet(book.data, title).quantize(colors=128, dither=Image.Dither.NONE).save(path, optimize=True)
            print(f"{path.relative_to(HERE.parent) if path.is_relative_to(HERE.parent) else path}: {book.pages} pages")


if __name__ == "__main__":
    main()
