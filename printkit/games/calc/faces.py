"""Calc's faces: the cards and back from the game's design (``faces.yaml``), the aids in Python.

The number cards, the joker and the deck back are drawn by the layouts ``number``, ``joker`` and
``back`` of ``faces.yaml`` beside this module, in the language every designer uses (a spec that
names a layout of its own draws with that instead). What is left in Python is what that language
cannot say yet: a player aid's words and its worked example, whose running totals come from the
scorer, and the light back that tells a component from a deck card.
"""

from __future__ import annotations

from pathlib import Path

from printkit.deck import Card
from printkit.errors import DeckError
from printkit.games.calc import icons
from printkit.layout import shapes
from printkit.layout.geometry import Box
from printkit.layout.ops import Face, Op, Rect, Text
from printkit.layout.templates import design_file, generic
from printkit.layout.templates._common import (
    DEFAULT_INK,
    AidText,
    aid_face,
    aid_lang,
    back_or_component,
    mix,
    text_font,
)
from printkit.games.calc.score import PayCard, score_pay
from printkit.typography import smarten

# Okabe-Ito hues, used when a spec names no colour for a symbol.
DEFAULT_COLORS = {**icons.SYMBOL_COLORS, "joker": "#e69f00"}
# The art.colors names these faces read (the design's layouts, the aids and the generic face).
COLOR_NAMES = ("background", "ink", "plus", "minus", "times", "power", "joker")
DESIGN = Path(__file__).resolve().with_name("faces.yaml")


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
    """A number card or the joker as the design draws it, a player aid's face, else the generic face."""
    if "aid" in card.attrs:
        return aid(card)
    if card.get("kind") == "joker":
        return design_file.draw(DESIGN, "joker", card, colors=DEFAULT_COLORS)
    if "symbol" in card.attrs and "number" in card.attrs:
        return design_file.draw(DESIGN, "number", card, colors=DEFAULT_COLORS)
    return generic.front(card)


def back(card: Card) -> Face:
    """A component's light back (an aid's); any other card's back as the design draws it."""
    return back_or_component(card, "CALC", lambda c: design_file.draw(DESIGN, "back", c, "back", colors=DEFAULT_COLORS))


def symbol_color(card: Card, name: str) -> str:
    return card.art.color(name, DEFAULT_COLORS[name])


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
