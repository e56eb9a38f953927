"""Pieces the faces share: plates under text, font choice, and the light back of a component by role.

Every function is pure: it takes a card (and numbers in millimetres) and returns drawing ops.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from printkit import fonts
from printkit.deck import Card
from printkit.fonts import text_width_mm
from printkit.layout.ops import Face, Op, Rect, Text
from printkit.layout.color import mix
from printkit.layout.geometry import Box, bleed_box, safe_box
from printkit.layout import shapes
from printkit.layout.shapes import turn_180
from printkit.layout.text import fit_line, font_metrics

DEFAULT_BACKGROUND = "#ffffff"
DEFAULT_BACK = "#1f3b5a"


def has_background_image(card: Card) -> bool:
    """Whether the card's art shows through: panels then stay unfilled and text sits on plates."""
    return card.art.background_image is not None


def plate(card: Card, box: Box, color: str | None = None, radius_mm: float = 1.2) -> tuple[Op, ...]:
    """A plate of the background colour under text, but only over a background image.

    Without an image the card's own background already is that colour, so nothing is drawn.
    """
    if not has_background_image(card):
        return ()
    fill = color or card.art.color("background", DEFAULT_BACKGROUND)
    return (Rect(box.x_mm, box.y_mm, box.w_mm, box.h_mm, fill=fill, radius_mm=radius_mm),)


def text_box(ops: Sequence[Op]) -> Box | None:
    """The smallest box holding the upright Text ops' advance widths, ascents and descents (None: no text)."""
    edges = []
    for op in ops:
        if not isinstance(op, Text):
            continue
        width = text_width_mm(op.text, op.font, op.size_mm)
        metrics = font_metrics(op.font)
        start = op.x_mm - {"start": 0.0, "middle": width / 2, "end": width}[op.anchor]
        edges.append((start, op.y_mm - metrics.ascent * op.size_mm, start + width,
                      op.y_mm + metrics.descent * op.size_mm))
    if not edges:
        return None
    x0, y0 = min(e[0] for e in edges), min(e[1] for e in edges)
    return Box(x0, y0, max(e[2] for e in edges) - x0, max(e[3] for e in edges) - y0)


def text_plate(card: Card, ops: Sequence[Op], pad_mm: float = 0.8) -> tuple[Op, ...]:
    """A :func:`plate` just around the text of ``ops`` (plus ``pad_mm``): put it before them."""
    box = text_box(ops)
    return () if box is None else plate(card, box.grow(pad_mm))


_REGULAR_OF = {fonts.KOREAN_BOLD: fonts.KOREAN, fonts.SYMBOLS_BOLD: fonts.SYMBOLS}


def font_chain(card: Card, bold: bool = True) -> tuple[Path, ...]:
    """The fonts text on ``card`` may use, preferred first: the spec's own, then the bundled ones."""
    own = card.art.font_bold if bold and card.art.font_bold else card.art.font
    if not bold and own in _REGULAR_OF:
        own = _REGULAR_OF[own]  # body text in the regular cut of a bundled bold font
    bundled = (fonts.KOREAN_BOLD, fonts.SYMBOLS_BOLD) if bold else (fonts.KOREAN, fonts.SYMBOLS)
    return tuple(dict.fromkeys(([own] if own else []) + list(bundled)))


def text_font(card: Card, text: str, bold: bool = True) -> Path:
    """A font that can draw every character of ``text``: the spec's own first, then the bundled ones.

    Korean text on a deck whose font is Latin-only falls back to the bundled Pretendard.
    When no one font has every character, the preferred one is returned: pass
    ``fallbacks=font_chain(card, bold)`` to the fitter, which then sets the rest in the fonts
    that have them and warns about characters none has.
    """
    candidates = font_chain(card, bold)
    for font in candidates:
        if not fonts.missing_glyphs(text, font):
            return font
    return candidates[0]


# The components that are not playing cards, which a game's design gives a light back of their own.
COMPONENT_KINDS = ("aid", "terrain", "reference")


# The words on the back of a designer's component by its ``role``, per language (English stands
# in for a language without its own). A token has no such back: its front is printed again.
ROLE_LABELS = {
    "aid": {"en": "PLAYER AID", "ko": "도움말"},
    "reference": {"en": "REFERENCE", "ko": "참조"},
    "marker": {"en": "MARKER", "ko": "마커"},
}


def role_back(card: Card, languages: Sequence[str], base: str, game_label: str) -> Face:
    """The back of a card with a ``role``: a component's light back naming the role in ``languages``
    (English first, as on printkit's own components; English alone when none is given)."""
    words = ROLE_LABELS[card.role]
    ordered = sorted(languages, key=lambda lang: lang != "en")
    labels = tuple(dict.fromkeys(words.get(lang, words["en"]) for lang in ordered)) or (words["en"],)
    return _component_back(card, base, game_label, labels)


def _component_back(card: Card, base: str, game_label: str, labels: Sequence[str]) -> Face:
    """The back of a component that is not a deck card: a light field where deck backs are dark.

    The field and its pattern run into the bleed (nothing near the cut for a miscut to show); the
    ``labels`` name the component large inside the safe zone, upright in the top half and turned
    in the bottom half, and the game's name sits small in the middle on a chip of the deck's back
    colour. Face down among deck cards it reads as "not a deck card" at a glance, either way up,
    and it covers none of the deck back's art (it does not draw the deck back). The games' designs
    draw the same back as layouts (``aid_back``); this one is sized by the card and names the role
    in the rulebook's languages, which a layout cannot yet say.
    """
    s = card.size
    w, h = s.width_mm, s.height_mm
    unit = min(w, h)
    safe = safe_box(s)
    box = bleed_box(s)
    field = mix(base, "#ffffff", 0.84)
    ops: list[Op] = [Rect(box.x_mm, box.y_mm, box.w_mm, box.h_mm, fill=field)]
    ops.extend(shapes.lattice(box.x_mm, box.y_mm, box.right_mm, box.bottom_mm, w / 2, h / 2, unit * 0.14,
                              mix(field, base, 0.07), size=0.55))
    warnings: list[str] = []
    top = safe.y_mm + (h / 2 - safe.y_mm) * 0.12
    en_h, ko_h = unit * 0.17, unit * 0.15  # the first name larger, the others a little smaller
    half: list[Op] = []
    y = top
    for i, text in enumerate(labels):
        height = en_h if i == 0 else ko_h
        plate_box = Box(safe.x_mm + 1.0, y, safe.w_mm - 2.0, height)
        fitted = fit_line(text, text_font(card, text), plate_box, max_size_mm=height * 0.82, min_size_mm=2.0,
                          where=f"{card.label} back kind", color=base, fallbacks=font_chain(card))
        half.extend(fitted.ops)
        warnings.extend(fitted.warnings)
        y = y + height + unit * 0.02
    ops.extend(half)
    ops.extend(turn_180(half, w / 2, h / 2))
    chip_h = unit * 0.13
    # On a small square (a marker) the names reach the middle: the game's chip would cover them.
    if game_label and y - unit * 0.02 <= h / 2 - chip_h / 2:
        chip = Box(w / 2 - unit * 0.3, h / 2 - chip_h / 2, unit * 0.6, chip_h)
        ops.append(Rect(chip.x_mm, chip.y_mm, chip.w_mm, chip.h_mm, fill=base, radius_mm=chip_h / 2))
        fitted = fit_line(game_label, text_font(card, game_label), chip.grow(-chip_h * 0.4, -chip_h * 0.2),
                          max_size_mm=chip_h * 0.6, min_size_mm=1.5, where=f"{card.label} back game",
                          color=field, fallbacks=font_chain(card))
        ops.extend(fitted.ops)
        warnings.extend(fitted.warnings)
    return Face(tuple(ops), tuple(warnings))


def component_kind(card: Card) -> str | None:
    """Which non-deck component a card is (one of ``COMPONENT_KINDS``, the first its attributes name),
    or None for deck cards."""
    return next((kind for kind in COMPONENT_KINDS if kind in card.attrs), None)
