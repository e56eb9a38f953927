"""Helpers the per-game rulebook tests share: the parsed rule texts, their shape and their strings."""

from __future__ import annotations

from printkit import fonts
from printkit.typography import smarten
from printkit.deck import Deck
from printkit.rulebook import markdown as md
from printkit.rulebook.content import CardParts, TableSetup, content_for
from printkit.rulebook.producer import prepare


def parse_text(deck: Deck, lang: str) -> md.Document:
    """The spec's rule text in ``lang`` with every value resolved, exactly as the book parses it."""
    doc, _, _ = prepare(deck.spec_path, lang)
    return doc


def shape(doc: md.Document) -> list[tuple]:
    """The structure of a document without its words."""
    out: list[tuple] = []
    for block in doc.blocks:
        if isinstance(block, md.Heading):
            out.append(("heading", block.level))
        elif isinstance(block, md.Directive):
            out.append(("directive", block.kind, block.name))
        elif isinstance(block, md.ListBlock):
            out.append(("list", block.ordered, len(block.items)))
        elif isinstance(block, md.TableBlock):
            out.append(("table", len(block.header), len(block.rows)))
        else:
            out.append((type(block).__name__,))
    return out


def all_strings(deck: Deck, lang: str, doc: md.Document) -> str:
    """Every string the book sets: the resolved text and the content it pulls in."""
    parts = [doc.title, doc.subtitle or ""]
    registry = content_for(deck.game)
    for block in doc.blocks:
        if isinstance(block, (md.Heading, md.Paragraph)):
            parts.append(block.text)
        elif isinstance(block, md.ListBlock):
            parts.extend(block.items)
        elif isinstance(block, md.Directive) and block.kind != "pagebreak":
            data = registry.registry(block.kind)[block.name](deck, lang)
            if isinstance(data, TableSetup):
                parts.extend(zone.name for row in data.rows for zone in row)
                parts.append(data.caption or "")
                continue
            if isinstance(data, CardParts):
                parts.extend(label for label, _ in data.parts)
                parts.append(data.caption or "")
                continue
            parts.extend(str(v) for v in getattr(data, "values", {}).values())
            parts.extend(getattr(data, "header", ()))
            parts.extend(cell for row in getattr(data, "rows", ()) for cell in row)
            parts.extend(getattr(data, "labels", ()) or getattr(data, "card_labels", ()))
            parts.append(data.caption or "")
    return "\n".join(parts)


def resolved_text(deck: Deck, lang: str, directives: set[tuple[str, str]]) -> str:
    """The rule text's paragraphs, after checking that it uses at least ``directives`` (kind, name),
    that every directive names registered content and that no ``{{ value }}`` is left unresolved."""
    doc = parse_text(deck, lang)
    registry = content_for(deck.game)
    used = [b for b in doc.blocks if isinstance(b, md.Directive)]
    assert {(d.kind, d.name) for d in used} >= directives
    for directive in used:
        assert directive.name in registry.registry(directive.kind), directive
    text = " ".join(b.text for b in doc.blocks if isinstance(b, md.Paragraph))
    assert "{{" not in text
    return text


def assert_drawable_by_bundled_fonts(deck: Deck, lang: str) -> str:
    """Every string of the book, as set (curly quotes, minus signs), has a glyph in the bundled regular
    and bold faces; returns the strings as set."""
    text = smarten(all_strings(deck, lang, parse_text(deck, lang)))
    for regular, bold in ((fonts.KOREAN, fonts.SYMBOLS), (fonts.KOREAN_BOLD, fonts.SYMBOLS_BOLD)):
        missing = set(fonts.missing_glyphs(text, regular)) & set(fonts.missing_glyphs(text, bold))
        assert not missing, f"no bundled font has {sorted(missing)}"
    return text


def flat(text: str) -> str:
    return " ".join(text.split())


def coloured_pixels(pdf, index: int) -> int:
    image = pdf[index].render(scale=0.5).to_pil().convert("HSV")
    # Card art is saturated colour; text, rules and table shading are grey or pale.
    return sum(1 for _, saturation, value in image.get_flattened_data() if saturation > 120 and value > 60)


def built_book(spec_path, lang: str):
    """The A4 rulebook for the spec in ``lang``: the PDF opened with pypdfium2, and each page's text."""
    import io

    import pypdfium2 as pdfium
    from pypdf import PdfReader

    from printkit.rulebook.producer import render_rulebook

    result = render_rulebook(spec_path, lang, "a4")
    texts = [flat(page.extract_text()) for page in PdfReader(io.BytesIO(result.data)).pages]
    return pdfium.PdfDocument(result.data), texts


def assert_chapters_numbered(deck: Deck, lang: str, body: str) -> None:
    """Every top-level heading of the rule text appears in ``body`` with its chapter number."""
    chapters = [b.text for b in parse_text(deck, lang).blocks if isinstance(b, md.Heading) and b.level == 1]
    assert chapters
    for number, chapter in enumerate(chapters, start=1):
        assert f"{number} {md.plain(chapter)}" in body, chapter
