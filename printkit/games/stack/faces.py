"""Stack Original's faces: cards, markers, tokens and backs from the game's design (``faces.yaml``).

``front(card)`` and ``back(card)`` dispatch on the card's attributes, as the spec produces them.
The layouts ``card``, ``marker``, ``token``, ``back`` and ``marker_back`` of ``faces.yaml`` beside
this module draw, in the language every designer uses:

- deck card ``{cost, minerals}``: cost badge and mineral column in two corners, one large icon
  per mineral with its Korean and English name down the middle;
- generated marker ``{generated: True, minerals}``: the same content in inverted colours inside a
  hatched frame with a "생성 / GENERATED" banner, so it never passes for a deck card, face or back;
- stack token ``{token: "stack"}``: a round badge with the stack glyph, the same on both sides.

What is left in Python is what that language cannot say yet: a terrain ``{terrain, mineral}``
(its scene is not a square icon, its effect's English follows however many lines the Korean
took), the reference ``{reference: "actions", lang}`` with its rows of stack costs, and the player
aid ``{aid: "turn", lang}`` whose sections share one text size; and the light back of those three.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from printkit import fonts
from printkit.deck import Card, CardSize
from printkit.errors import DeckError
from printkit.games.stack.words import TERRAIN_MINERAL
from printkit.layout.color import mix, on_color, tint
from printkit.games.stack.icons import DEFAULT_COLORS, MINERALS, stack_glyph
from printkit.layout.geometry import Box, bleed_box
from printkit.layout.templates import design_file
from printkit.layout.templates._common import COMPONENT_LABELS, component_back, font_chain
from printkit.layout.ops import Face, Image, Line, Op, Rect
from printkit.layout.text import fit_block, fit_line, wrap_lines

DESIGN = Path(__file__).resolve().with_name("faces.yaml")
# The game's colours where a spec's palette has none (the design's own colours in faces.yaml).
COLORS = {"background": "#f7f3ea", "ink": "#1d1d1f", **DEFAULT_COLORS}
BACK = "#3b2f2f"
# The art.colors names these faces read (all through _style).
COLOR_NAMES = ("background", "ink", *MINERALS)

# The reference card: (action, stack cost or None, limit / what it does).
ACTIONS_KO: tuple[tuple[str, int | None, str], ...] = (
    ("카드 1장 바꾸기", None, "턴마다 1번"),
    ("같은 카드 2장 바꾸기", None, "턴마다 1번"),
    ("같은 카드 3장 바꾸기", None, "제한 없음 · 스택 1개를 얻음"),
    ("합성", 1, "스택 1 · 카드 2장을 하나로 (광물 3개까지)"),
    ("분해", 1, "스택 1 · 카드 1장을 둘로 (비용 1 카드는 복사)"),
    ("순환", 1, "스택 1 · 카드 3장 바꾸기"),
    ("출력", 2, "스택 2 · 카드 5장 뽑기 또는 5장 버리기"),
)
REFERENCE_FOOTER_KO = "바꾸기: 덱 맨 밑에 넣고 그만큼 뽑기 · 스택은 최대 4개 · 생성 카드는 덱 대신 파괴"
ACTIONS_EN: tuple[tuple[str, int | None, str], ...] = (
    ("Swap 1 card", None, "Once a turn"),
    ("Swap 2 identical cards", None, "Once a turn"),
    ("Swap 3 identical cards", None, "Any number of times · gain 1 stack"),
    ("Synthesis", 1, "1 stack · 2 cards into 1 (3 minerals max.)"),
    ("Decomposition", 1, "1 stack · 1 card into 2 (cost 1: a copy)"),
    ("Cycle", 1, "1 stack · swap 3 cards"),
    ("Output", 2, "2 stacks · draw 5 or discard 5 cards"),
)
REFERENCE_FOOTER_EN = ("Swap: put the cards under the deck, draw as many · 4 stacks at most · "
                       "generated cards are destroyed instead")
# The reference card ``{reference: "actions", lang: "ko" | "en"}``: (title, subtitle, actions, footer).
REFERENCES: dict[str, tuple[str, str, tuple[tuple[str, int | None, str], ...], str]] = {
    "ko": ("행동과 비용", "ACTIONS & STACK COSTS", ACTIONS_KO, REFERENCE_FOOTER_KO),
    "en": ("Actions & costs", "행동과 비용", ACTIONS_EN, REFERENCE_FOOTER_EN),
}

# Player aid ``{aid: "turn", lang: "ko" | "en"}``: (title, subtitle, sections of (label, text)).
AIDS: dict[str, tuple[str, str, tuple[tuple[str, str], ...]]] = {
    "ko": ("턴과 정산", "TURN · MATCHING · TERRAINS · SETTLEMENT", (
        ("턴", "두 사람이 한 가지씩 번갈아 행동합니다. 할 일을 마치면 '끝'을 선언하고, 둘 다 끝나면 정산합니다."),
        ("매칭", "필드 카드와 같은 카드를 그 위에 놓습니다. 한 종류는 한 번만. 한 턴에 4장을 모두 매칭하면 승리!"),
        ("지형", "상대보다 많이 세팅한 지형 1곳의 효과를 턴마다 한 번 발동합니다. 세팅한 카드도 손의 카드입니다."),
        ("정산", "① 아무도 4장을 못 맞춤: 3장 이상 매칭한 사람은 스택 +1, 매칭된 카드는 덱으로, 손은 7장, 필드는 4장으로.\n"
                "② 한 명만 4장: 그 사람이 승리.\n"
                "③ 둘 다 4장: 필드에 1장을 더 놓고 그것을 매칭한 사람이 승리 (둘 다 맞추면 ①). 진득한 게임은 곧바로 ①."),
    )),
    "en": ("Turn, matching, settlement", "턴 · 매칭 · 지형 · 정산", (
        ("Turn", "Players take one action at a time, in turn. Say 'done' when finished; when both are done, settle."),
        ("Match", "Put a card identical to a field card on it, each type once. Match all 4 in one turn to win!"),
        ("Terrain", "Once a turn, trigger one terrain where you set more cards than your opponent. Set cards are still in hand."),
        ("Settle", "① Nobody matched all 4: 3+ matches gain a stack; matched cards go to the deck; hands back to 7, field to 4.\n"
                   "② One player matched all 4: they win.\n"
                   "③ Both: add a field card; whoever matches it wins (both again: ①). Long game: straight to ①."),
    )),
}


@dataclass(frozen=True)
class _Style:
    """Everything a Stack layout reads from a card: sizes in mm, colours and fonts."""

    w_mm: float
    h_mm: float
    bleed_mm: float
    safe_mm: float
    background: str
    ink: str
    minerals: dict
    back_color: str
    bold: tuple[Path, ...]  # preferred font first, then fallbacks that have Hangul / symbols
    regular: tuple[Path, ...]

    @property
    def bleed_box(self) -> tuple[float, float, float, float]:
        """The bleed box as (x, y, width, height), ready to spread into a Rect or an Image."""
        box = bleed_box(CardSize(self.w_mm, self.h_mm, self.bleed_mm, self.safe_mm))
        return box.x_mm, box.y_mm, box.w_mm, box.h_mm

    @property
    def scale(self) -> float:
        """Layout unit: 1.0 on a poker card; other sizes scale lengths by the tighter dimension."""
        return min(self.w_mm / 63.5, self.h_mm / 88.9)


def _style(card: Card) -> _Style:
    art = card.art
    # Body text in the regular cut of a bundled bold font, as on the other games' cards.
    bold, regular = font_chain(card, bold=True), font_chain(card, bold=False)
    return _Style(
        w_mm=card.size.width_mm,
        h_mm=card.size.height_mm,
        bleed_mm=card.size.bleed_mm,
        safe_mm=card.size.safe_mm,
        background=art.color("background", COLORS["background"]),
        ink=art.color("ink", COLORS["ink"]),
        minerals={m: art.color(m, DEFAULT_COLORS[m]) for m in MINERALS},
        back_color=art.back_color or BACK,
        bold=bold,
        regular=regular,
    )


class _Canvas:
    """Collects the ops and warnings of one face while a layout function runs."""

    def __init__(self, card: Card, style: _Style):
        self.card = card
        self.style = style
        self.ops: list[Op] = []
        self.warnings: list[str] = []

    def add(self, *ops: Op | Iterable[Op]) -> None:
        for op in ops:
            if isinstance(op, (list, tuple)):
                self.ops.extend(op)
            else:
                self.ops.append(op)

    def line(self, field: str, text: str, box: Box, *, max_mm: float, min_mm: float, color: str,
             bold: bool = True, align: str = "middle", valign: str = "middle") -> float:
        """One line of text fitted to ``box``; returns the size used."""
        chain = self.style.bold if bold else self.style.regular
        fitted = fit_line(text, _font_for(text, chain), box, max_size_mm=max_mm, min_size_mm=min_mm,
                          where=f"{self.card.label} {field}", color=color, align=align, valign=valign,
                          fallbacks=chain)
        self.ops.extend(fitted.ops)
        self.warnings.extend(fitted.warnings)
        return fitted.size_mm

    def block(self, field: str, text: str, box: Box, *, max_mm: float, min_mm: float, color: str,
              bold: bool = False, align: str = "start", valign: str = "top", leading: float = 1.3) -> float:
        """Wrapped text fitted to ``box``; returns the size used."""
        chain = self.style.bold if bold else self.style.regular
        fitted = fit_block(text, _font_for(text, chain), box, max_size_mm=max_mm, min_size_mm=min_mm,
                           where=f"{self.card.label} {field}", color=color, align=align, valign=valign,
                           leading=leading, fallbacks=chain)
        self.ops.extend(fitted.ops)
        self.warnings.extend(fitted.warnings)
        return fitted.size_mm

    def plate(self, box: Box) -> None:
        """A plate of the background colour under text, drawn only over the spec's background image
        (elsewhere the card already has that colour), so the image shows and the text reads."""
        if self.card.art.background_image:
            self.add(Rect(box.x_mm, box.y_mm, box.w_mm, box.h_mm, fill=self.style.background,
                          radius_mm=1.0 * self.style.scale))

    def face(self) -> Face:
        return Face(ops=tuple(self.ops), warnings=tuple(self.warnings))


def _font_for(text: str, candidates: Sequence[Path]) -> Path:
    """The first font that has every glyph of ``text``; the preferred one if none has them all
    (the fitter then sets the rest in the fallbacks and warns about characters none has)."""
    for font in candidates:
        if not fonts.missing_glyphs(text, font):
            return font
    return candidates[0]


# --- dispatch -------------------------------------------------------------------------------


def kind_of(card: Card) -> str:
    """Which Stack layout a card gets: deck, generated, terrain, token, reference or aid."""
    attrs = card.attrs
    if "token" in attrs:
        return "token"
    if "terrain" in attrs:
        return "terrain"
    if attrs.get("generated"):
        return "generated"
    if "reference" in attrs:
        return "reference"
    if "aid" in attrs:
        return "aid"
    if "minerals" in attrs:
        return "deck"
    raise DeckError(f"{card.label}: no Stack Original layout for a card with attributes {dict(attrs)!r}")


def front(card: Card) -> Face:
    """The face of any Stack Original card or component: the design's, or a terrain's, the
    reference's or an aid's."""
    kind = kind_of(card)
    if kind in _DESIGNED:
        if kind == "token":
            return _without_caption_floor(design_file.draw(DESIGN, "token", card, colors=COLORS))
        if kind == "terrain":
            return design_file.draw(DESIGN, "terrain", _terrain_checked(card), colors=COLORS)
        face = design_file.draw(DESIGN, _DESIGNED[kind], _checked(card), colors=COLORS)
        return _with_cost_warning(face, card) if kind == "deck" else face
    style = _style(card)
    canvas = _Canvas(card, style)
    if kind == "reference":
        _reference(canvas)
    else:
        _aid(canvas)
    if card.art.foreground_image:
        canvas.add(Image(*style.bleed_box, path=card.art.foreground_image, fit="cover"))
    return canvas.face()


def back(card: Card) -> Face:
    """The back: the design's deck back, a marker's hatched back or a token's face again; terrains,
    the reference and aids have a light back of their own, never mistaken for deck cards."""
    kind = kind_of(card)
    if kind == "token":
        return front(card)
    if kind in COMPONENT_LABELS:
        return component_back(card, kind, card.art.back_color or BACK, card.art.back_label or "STACK")
    name = "marker_back" if kind == "generated" else "back"
    return design_file.draw(DESIGN, name, _checked(card), "back", colors=COLORS)


# The design's layout for each kind of card it draws.
_DESIGNED = {"deck": "card", "generated": "marker", "token": "token", "terrain": "terrain"}


def _checked(card: Card) -> Card:
    """``card``, once its minerals are 1 to 3 different ones of the four (DeckError naming them if not)."""
    minerals = card.get("minerals", ())
    minerals = (minerals,) if isinstance(minerals, str) else tuple(minerals)
    if any(m not in MINERALS for m in minerals) or not 1 <= len(set(minerals)) == len(minerals) <= 3:
        raise DeckError(f"{card.label}: minerals {minerals!r} must be 1-3 of {', '.join(MINERALS)}")
    return card


def _terrain_checked(card: Card) -> Card:
    """``card`` with its terrain's mineral (given, else the terrain's own), once both are known."""
    terrain = card["terrain"]
    if terrain not in TERRAIN_MINERAL:
        raise DeckError(f"{card.label}: unknown terrain {terrain!r} (expected one of {', '.join(TERRAIN_MINERAL)})")
    mineral = card.get("mineral", TERRAIN_MINERAL[terrain])
    if mineral not in MINERALS:
        raise DeckError(f"{card.label}: unknown mineral {mineral!r} (expected one of {', '.join(MINERALS)})")
    return card if "mineral" in card.attrs else dataclasses.replace(card, attrs={**card.attrs, "mineral": mineral})


def _without_caption_floor(face: Face) -> Face:
    """A token's face without the legibility floor's warning about its English caption: under the
    Korean name, the 4.8 pt STACK on a 25 mm token is a caption by design (the floor is for rules)."""
    kept = tuple(w for w in face.warnings if not (" label_en: " in w and "legibility floor" in w))
    return face if len(kept) == len(face.warnings) else Face(face.ops, kept)


def _with_cost_warning(face: Face, card: Card) -> Face:
    """``face`` warning that the card's cost is not its number of minerals, as printed."""
    minerals = _checked(card).get("minerals", ())
    count = 1 if isinstance(minerals, str) else len(minerals)
    cost = card.get("cost", count)
    if cost == count:
        return face
    return Face(face.ops, face.warnings + (f"{card.label} cost: cost {cost!r} differs from the {count} minerals shown",))


# --- tokens, reference, aid, backs ----------------------------------------------------------


def _header(canvas: _Canvas, title: str, subtitle: str) -> float:
    """A dark title band bled off the top; returns the y where the content starts."""
    s, k = canvas.style, canvas.style.scale
    band_h = 12.0 * k
    canvas.add(Rect(-s.bleed_mm, -s.bleed_mm, s.w_mm + 2 * s.bleed_mm, band_h + s.bleed_mm, fill=s.back_color))
    canvas.line("title", title, Box(s.safe_mm + 1 * k, s.safe_mm - 0.5 * k, s.w_mm - 2 * s.safe_mm - 2 * k, 6.5 * k),
                max_mm=5.4 * k, min_mm=3.0 * k, color=s.background)
    canvas.line("subtitle", subtitle, Box(s.safe_mm + 1 * k, s.safe_mm + 5.8 * k, s.w_mm - 2 * s.safe_mm - 2 * k, 2.8 * k),
                max_mm=2.3 * k, min_mm=1.5 * k, color=mix(s.background, s.back_color, 0.3))
    return band_h + 1.5 * k


def _stack_chips(s: _Style, count: int, right_mm: float, cy_mm: float) -> list[Op]:
    """``count`` small stack glyphs ending at ``right_mm``: the stack cost of an action."""
    k = s.scale
    size = 4.4 * k
    ops: list[Op] = []
    for i in range(count):
        cx = right_mm - size / 2 - i * (size + 0.6 * k)
        ops.extend(stack_glyph(cx, cy_mm, size, (s.minerals["sapphire"], s.minerals["gold"], s.minerals["ruby"]), edge=s.ink))
    return ops


def _reference(canvas: _Canvas) -> None:
    card, s, k = canvas.card, canvas.style, canvas.style.scale
    lang = card.get("lang", "ko")
    if card["reference"] != "actions" or lang not in REFERENCES:
        raise DeckError(f"{card.label}: no Stack reference card {card['reference']!r} in language {lang!r} "
                        f"(have: actions in {', '.join(REFERENCES)})")
    title, subtitle, actions, footer = REFERENCES[lang]
    canvas.add(Rect(*s.bleed_box, fill=s.background))
    if card.art.background_image:
        canvas.add(Image(*s.bleed_box, path=card.art.background_image))
    y = _header(canvas, title, subtitle)
    x = s.safe_mm + 0.5 * k
    w = s.w_mm - 2 * x
    footer_h = 9.0 * k
    canvas.plate(Box(x - 0.5 * k, y - 0.5 * k, w + 1.0 * k, s.h_mm - s.safe_mm - y + 0.5 * k))
    row_h = (s.h_mm - s.safe_mm - footer_h - y) / len(actions)
    for i, (name, stacks, note) in enumerate(actions):
        top = y + i * row_h
        if i % 2 == 0:
            canvas.add(Rect(x - 0.5 * k, top, w + 1.0 * k, row_h, fill=tint(s.background, 0.7), radius_mm=1.0 * k))
        chip_w = (stacks or 0) * 5.0 * k
        canvas.line(f"action[{i}]", name, Box(x + 1 * k, top + 0.5 * k, w - chip_w - 2 * k, row_h * 0.5),
                    max_mm=3.4 * k, min_mm=2.2 * k, color=s.ink, align="start")
        if stacks:
            canvas.add(_stack_chips(s, stacks, x + w - 0.5 * k, top + row_h * 0.3))
        canvas.line(f"action[{i}] note", note, Box(x + 1 * k, top + row_h * 0.52, w - 2 * k, row_h * 0.42),
                    max_mm=2.6 * k, min_mm=1.7 * k, color=mix(s.ink, s.background, 0.3), bold=False, align="start")
    foot = Box(x, s.h_mm - s.safe_mm - footer_h + 0.8 * k, w, footer_h - 0.8 * k)
    canvas.add(Line(x, foot.y_mm - 0.4 * k, x + w, foot.y_mm - 0.4 * k, color=mix(s.ink, s.background, 0.6), width_mm=0.25 * k))
    canvas.block("footer", footer, foot, max_mm=2.4 * k, min_mm=1.6 * k, color=s.ink, align="middle", leading=1.3)


def _aid(canvas: _Canvas) -> None:
    card, s, k = canvas.card, canvas.style, canvas.style.scale
    lang = card.get("lang", "ko")
    if card["aid"] != "turn" or lang not in AIDS:
        raise DeckError(f"{card.label}: no Stack player aid {card['aid']!r} in language {lang!r} "
                        f"(have: turn in {', '.join(AIDS)})")
    title, subtitle, sections = AIDS[lang]
    canvas.add(Rect(*s.bleed_box, fill=s.background))
    if card.art.background_image:
        canvas.add(Image(*s.bleed_box, path=card.art.background_image))
    y = _header(canvas, title, subtitle)
    x = s.safe_mm + 0.5 * k
    w = s.w_mm - 2 * x
    bottom = s.h_mm - s.safe_mm
    label_w = 9.0 * k if lang == "ko" else 11.0 * k
    text_w = w - label_w - 1.5 * k
    pad = 1.6 * k
    leading = 1.28
    font = _font_for("".join(text for _, text in sections), s.regular)
    # One text size for every section: the largest at which all of them fit the card together.
    size = 1.7 * k
    for step in range(26):
        candidate = 3.0 * k - step * 0.05 * k
        need = sum(len(wrap_lines(text, font, candidate, text_w)) * candidate * leading + pad for _, text in sections)
        if need <= bottom - y:
            size = candidate
            break
    heights = [len(wrap_lines(text, font, size, text_w)) * size * leading + pad for _, text in sections]
    spare = max(0.0, (bottom - y) - sum(heights)) / len(sections)
    for i, ((label, text), h) in enumerate(zip(sections, heights)):
        h += spare
        color = (s.minerals["ruby"], s.minerals["gold"], s.minerals["sapphire"], s.minerals["coal"])[i % 4]
        canvas.add(Rect(x, y + 0.6 * k, label_w, h - 1.2 * k, fill=color, radius_mm=1.0 * k))
        on = on_color(color, s.ink)
        canvas.line(f"aid[{label}] label", label, Box(x + 0.5 * k, y + 0.6 * k, label_w - 1.0 * k, min(h - 1.2 * k, 5 * k)),
                    max_mm=3.2 * k, min_mm=1.6 * k, color=on)
        canvas.plate(Box(x + label_w + 0.8 * k, y + 0.4 * k, text_w + 1.2 * k, h - 0.8 * k))
        canvas.block(f"aid[{label}]", text, Box(x + label_w + 1.5 * k, y + 0.8 * k, text_w, h - 1.2 * k),
                     max_mm=size, min_mm=min(size, 1.7 * k), color=s.ink, leading=leading, bold=False)
        y += h
