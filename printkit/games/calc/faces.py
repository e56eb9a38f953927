"""Calc card faces: number cards, the joker, player aids and the back.

A number card shows its number in the top-right corner (and turned upside down in the bottom-left,
so a fanned hand reads either way up) with a small copy of its symbol beneath, and the symbol large
in the centre. Each symbol has its own colour from the spec's palette, but the shape always
carries the meaning, so the deck works in greyscale and for colour-blind players. −1 is set with
the font's minus sign (U+2212), and 6 and 9 are underlined as on pool balls.
"""

from __future__ import annotations

from printkit.deck import Card
from printkit.errors import DeckError
from printkit.fonts import text_width_mm
from printkit.games.calc import icons
from printkit.games.calc.words import SYMBOLS
from printkit.layout import shapes
from printkit.layout.geometry import Box, bleed_box, safe_box
from printkit.layout.ops import Ellipse, Face, Op, Rect, Text
from printkit.layout.templates._common import (
    DEFAULT_INK,
    AidText,
    aid_face,
    aid_lang,
    back_face,
    background,
    foreground,
    has_background_image,
    mix,
    plate,
    text_font,
)
from printkit.layout.text import font_metrics
from printkit.games.calc.score import PayCard, score_pay
from printkit.typography import smarten

# Okabe-Ito hues, used when a spec names no colour for a symbol.
DEFAULT_COLORS = {**icons.SYMBOL_COLORS, "joker": "#e69f00"}
# The art.colors names these faces read (through symbol_color and the shared pieces in _common).
COLOR_NAMES = ("background", "ink", *DEFAULT_COLORS)
# Digits that read as another digit upside down get an underline.
UNDERLINED = frozenset({6, 9})
# Space between the joker's corner index and the safe line.
JOKER_MARGIN_MM = 2.5


# How a card is named in PDF titles and on digital tables: 7+, -1x, 3^ (the notation printkit score reads).
_SYMBOL_NOTATION = {"plus": "+", "minus": "-", "times": "x", "power": "^"}


def card_name(card: Card) -> str:
    """``7+``, ``-1x``, ``joker``, ``aid turn (en)``."""
    if card.get("kind") == "joker":
        return "joker"
    if card.get("aid") is not None:
        return f"aid {card.get('aid')} ({card.get('lang', 'en')})"
    symbol = _SYMBOL_NOTATION.get(str(card.get("symbol")), "")
    return f"{card.get('number')}{symbol}"


def front(card: Card) -> Face:
    """The face of a number card, the joker or a player aid card."""
    if "aid" in card.attrs:
        return aid(card)
    if card.get("kind") == "joker":
        return joker(card)
    if "symbol" in card.attrs and "number" in card.attrs:
        return number_card(card)
    raise DeckError(f"{card.label}: not a Calc card (expected symbol and number, kind: joker, or aid)")


def back(card: Card) -> Face:
    """The common back: the four symbols around the deck's label, the same either way up."""
    return back_face(card, _back_emblem, "CALC")


def symbol_color(card: Card, name: str) -> str:
    return card.art.color(name, DEFAULT_COLORS[name])


def number_card(card: Card) -> Face:
    symbol, number = card.get("symbol"), card.get("number")
    if symbol is None:
        raise DeckError(f"{card.label}: has no symbol (it takes one of {', '.join(SYMBOLS)})")
    if symbol not in SYMBOLS:
        raise DeckError(f"{card.label}: unknown symbol {symbol!r} (expected one of {', '.join(SYMBOLS)})")
    if number is None:
        raise DeckError(f"{card.label}: has no number (it takes a whole number, -1..9 in Calc)")
    if not isinstance(number, int) or isinstance(number, bool):
        raise DeckError(f"{card.label}: number must be a whole number, got {number!r}")
    color = symbol_color(card, symbol)
    w, h = card.size.width_mm, card.size.height_mm
    ops: list[Op] = list(background(card))
    ops.extend(_panel(card, color))
    ops.extend(shapes.polygons(icons.symbol(symbol, w / 2, h / 2, min(w, h) * 0.5), color))
    index = _index(card, number, symbol, color)
    ops.extend(index)
    ops.extend(shapes.turn_180(index, w / 2, h / 2))
    ops.extend(foreground(card))
    return Face(tuple(ops))


def joker(card: Card) -> Face:
    """The joker: a star in each index corner and all four symbols, each in its colour, in the centre."""
    w, h = card.size.width_mm, card.size.height_mm
    unit = min(w, h)
    accent = symbol_color(card, "joker")
    ink = card.art.color("ink", DEFAULT_INK)
    ops: list[Op] = list(background(card))
    ops.extend(_panel(card, accent))
    # The four symbols on a 2x2 grid around the centre.
    step = unit * 0.35
    cell = unit * 0.21
    for i, name in enumerate(SYMBOLS):
        cx = w / 2 + (step / 2 if i % 2 else -step / 2)
        cy = h / 2 + (step / 2 if i // 2 else -step / 2)
        ops.append(Rect(cx - cell * 0.75, cy - cell * 0.75, cell * 1.5, cell * 1.5,
                        fill=mix(symbol_color(card, name), "#ffffff", 0.82), radius_mm=2.0))
        ops.extend(shapes.polygons(icons.symbol(name, cx, cy, cell), symbol_color(card, name)))
    # A star on a disc where the four cells meet.
    disc_r = unit * 0.11
    ops.append(Ellipse(w / 2, h / 2, disc_r, disc_r, fill=card.art.color("background", "#ffffff"), stroke=accent,
                       stroke_mm=0.8))
    ops.extend(shapes.polygons(shapes.star(w / 2, h / 2 - disc_r * 0.05, disc_r * 1.35), accent))
    # Corner index: a star and the word, turned for the opposite corner.
    safe = safe_box(card.size)
    size = unit * 0.16
    word = "JOKER"
    font = text_font(card, word)
    word_size = unit * 0.07
    # Star and word share a column wide enough for the wider of the two, kept clear of the frame.
    column_w = max(size, text_width_mm(word, font, word_size))
    cx = safe.right_mm - JOKER_MARGIN_MM - column_w / 2
    top = safe.y_mm + JOKER_MARGIN_MM
    word_baseline = top + size + word_size * 1.2
    index: list[Op] = list(plate(card, Box(cx - column_w / 2 - 1.0, top - 1.0, column_w + 2.0,
                                           word_baseline + word_size * 0.3 + 1.0 - (top - 1.0))))
    index.extend(shapes.polygons(shapes.star(cx, top + size / 2, size), accent))
    index.append(Text(cx, word_baseline, word, font, word_size, ink, anchor="middle"))
    ops.extend(index)
    ops.extend(shapes.turn_180(index, w / 2, h / 2))
    ops.extend(foreground(card))
    return Face(tuple(ops))


def _panel(card: Card, color: str) -> tuple[Op, ...]:
    """The card's colour, tinted, over the whole bleed box: no frame near the cut for a miscut to
    show. Over a background image there is no panel, so the image shows behind the art."""
    if has_background_image(card):
        return ()
    box = bleed_box(card.size)
    bg = card.art.color("background", "#ffffff")
    return (Rect(box.x_mm, box.y_mm, box.w_mm, box.h_mm, fill=mix(color, bg, 0.88)),)


def _index(card: Card, number: int, symbol: str, color: str) -> tuple[Op, ...]:
    """The top-right corner index: the number, right-aligned, and the small symbol below it."""
    w, h = card.size.width_mm, card.size.height_mm
    unit = min(w, h)
    safe = safe_box(card.size)
    ink = card.art.color("ink", DEFAULT_INK)
    digits = str(abs(number))
    shown = smarten(str(number))  # -1 is set with the font's minus sign, U+2212
    font = text_font(card, shown)
    size = unit * 0.24
    metrics = font_metrics(font)
    right = safe.right_mm - 2.5
    top = safe.y_mm + 2.2
    baseline = top + size * metrics.cap_height
    ops: list[Op] = [Text(right, baseline, shown, font, size, ink, anchor="end")]
    digit_w = text_width_mm(digits, font, size)
    left = right - text_width_mm(shown, font, size)
    if number in UNDERLINED:
        line_h = size * 0.07
        ops.append(Rect(right - digit_w, baseline + size * 0.08, digit_w, line_h, fill=ink))
    # The small symbol sits white on a disc of its colour, so it never reads as an underline.
    badge_r = unit * 0.085
    badge_cy = badge_top = baseline + size * 0.2 + badge_r + 0.8
    badge_cx = (left + right) / 2
    # Over a background image the index gets a plate (put first, so it lies under the digits).
    pad = 1.0
    plate_left = min(left, badge_cx - badge_r) - pad
    ops[:0] = plate(card, Box(plate_left, top - pad, right + pad - plate_left, badge_top + badge_r + pad - (top - pad)))
    ops.append(Ellipse(badge_cx, badge_cy, badge_r, badge_r, fill=color))
    ops.extend(shapes.polygons(icons.symbol(symbol, badge_cx, badge_cy, badge_r * 1.15), "#ffffff"))
    return tuple(ops)


def _back_emblem(cx: float, cy: float, size_mm: float, color: str) -> list[Op]:
    """A row of + - x above the label and the same row turned below it: alike either way up."""
    s = size_mm * 0.2
    y = cy - size_mm * 0.55
    row: list[Op] = []
    for i, name in enumerate(("plus", "minus", "times")):
        row.extend(shapes.polygons(icons.symbol(name, cx + (i - 1) * s * 1.7, y, s), color))
    return row + list(shapes.turn_180(row, cx, cy))


# --- player aids ----------------------------------------------------------------------------

AID_TEXT = {
    ("turn", "en"): AidText(
        "Your turn",
        "Do one of these:\n"
        "• Play 1 card on any pay, yours or another's: it must match the top card's number or symbol. "
        "An empty pay takes any card.\n"
        "• Or draw 1 card, while the deck lasts.\n"
        "A 7 on top: only the pay's owner may play there.\n"
        "A joker goes on any pay; a joker on top makes the pay count as empty.\n"
        "The game ends when a hand is empty or the deck runs out.",
    ),
    ("turn", "ko"): AidText(
        "내 차례",
        "둘 중 하나를 한다:\n"
        "• 카드 1장을 아무 페이(내 것이든 남의 것이든)에 낸다. 맨 위 카드와 숫자나 기호가 같아야 한다. "
        "빈 페이에는 아무 카드나 낼 수 있다.\n"
        "• 또는 덱에서 1장을 가져온다(덱이 남아 있는 동안).\n"
        "맨 위가 7인 페이에는 주인만 낼 수 있다.\n"
        "조커는 어느 페이에나 낼 수 있고, 조커가 맨 위인 페이는 빈 페이로 친다.\n"
        "누군가의 손패가 떨어지거나 덱이 바닥나면 끝난다.",
    ),
    ("scoring", "en"): AidText(
        "Scoring",
        "Start at 0. The bottom card adds its number; each card above applies its symbol to its "
        "number, strictly from bottom to top (no precedence).\n"
        "Only cards above the topmost joker count.\n"
        "Fewest cards in hand: +5. Highest score wins.",
    ),
    ("scoring", "ko"): AidText(
        "점수 계산",
        "0에서 시작한다. 맨 아래 카드는 숫자를 더하고, 그 위의 카드는 아래에서 위로 차례대로 "
        "기호를 숫자에 적용한다(우선순위 없음).\n"
        "맨 위 조커보다 위의 카드만 센다.\n"
        "손패가 가장 적은 사람 +5. 점수가 가장 높은 사람이 이긴다.",
    ),
}

# The seed's worked example, bottom to top: 9-, 5x, 2-, 1+, 8+ scores 52.
EXAMPLE_PAY = (("minus", 9), ("times", 5), ("minus", 2), ("plus", 1), ("plus", 8))


def aid(card: Card) -> Face:
    kind, lang = card["aid"], aid_lang(card)
    try:
        text = AID_TEXT[(kind, lang)]
    except KeyError:
        kinds = sorted({k for k, _ in AID_TEXT})
        raise DeckError(f"{card.label}: unknown Calc aid {kind!r} (expected one of {', '.join(kinds)})") from None
    accent = symbol_color(card, "joker")
    if kind != "scoring":
        return aid_face(card, text, accent)
    # The scoring aid also shows the worked example as a row of small cards with running totals.
    row_h = min(card.size.width_mm, card.size.height_mm) * 0.3
    return aid_face(card, text, accent, footer=lambda box: _example_row(card, box), footer_h_mm=row_h)


def _example_row(card: Card, box: Box) -> list[Op]:
    """Mini cards of the example pay, bottom card first, each with the running total under it."""
    ink = card.art.color("ink", DEFAULT_INK)
    box = box.grow(-0.6, 0)  # the mini cards' outlines stay clear of the 4 mm next to the cut
    n = len(EXAMPLE_PAY)
    gap = 1.2
    cw = (box.w_mm - gap * (n - 1)) / n
    ch = box.h_mm * 0.62
    font = text_font(card, "0123456789")
    # The running totals are the scorer's, so the aid can never teach a rule the engine does not play.
    totals = [step.after for step in score_pay([PayCard(symbol, number) for symbol, number in EXAMPLE_PAY])]
    ops: list[Op] = []
    for i, ((symbol, number), total) in enumerate(zip(EXAMPLE_PAY, totals)):
        x = box.x_mm + i * (cw + gap)
        color = symbol_color(card, symbol)
        ops.append(Rect(x, box.y_mm, cw, ch, fill=mix(color, "#ffffff", 0.85), stroke=color, stroke_mm=0.4,
                        radius_mm=1.0))
        ops.append(Text(x + cw / 2, box.y_mm + ch * 0.45, smarten(str(number)), font, ch * 0.38, ink, anchor="middle"))
        ops.extend(shapes.polygons(icons.symbol(symbol, x + cw / 2, box.y_mm + ch * 0.72, ch * 0.26), color))
        ops.append(Text(x + cw / 2, box.y_mm + box.h_mm - 0.5, smarten(str(total)), font, box.h_mm * 0.24, ink,
                        anchor="middle"))
    return ops
