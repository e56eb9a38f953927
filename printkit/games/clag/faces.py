"""Clag's faces: the cards, aids and back from the game's design (``faces.yaml``), the sheet in Python.

The 52 playing cards, the player aids and the deck back are drawn by the layouts ``playing_card``,
``aid`` and ``back`` of ``faces.yaml`` beside this module, in the language every designer uses (a
spec that names a layout of its own draws with that instead). What is left in Python is what that
language cannot say yet: the score sheet (a page, not a card) and the light back that tells a
component from a deck card. :func:`pip_centres` says where the
layout puts a number card's pips, for the rulebook's anatomy figure.
"""

from __future__ import annotations

from pathlib import Path

from printkit.deck import Card
from printkit.errors import DeckError
from printkit.games.clag.icons import SUIT_COLORS
from printkit.games.clag.words import ROUNDS, Special
from printkit.layout.geometry import Box
from printkit.layout.ops import Face, Line, Op, Rect
from printkit.layout.templates import design_file, generic
from printkit.layout.color import DEFAULT_INK, mix
from printkit.layout.templates._common import back_or_component, component_kind, font_chain, text_font
from printkit.layout.text import fit_block, fit_line

# The art.colors names these faces read (the design's layouts, the aids, the sheet and the generic face).
COLOR_NAMES = ("background", "ink", "spades", "hearts", "diamonds", "clubs")
DESIGN = Path(__file__).resolve().with_name("faces.yaml")

# Pip positions for 2-10, as the layout playing_card in faces.yaml places them: (column, row);
# columns -1 left, 0 middle, 1 right; rows 0 (top) .. 1 (bottom). Pips below the middle row are
# drawn upside down, as on printed decks.
PIP_LAYOUTS: dict[int, tuple[tuple[int, float], ...]] = {
    2: ((0, 0), (0, 1)),
    3: ((0, 0), (0, 0.5), (0, 1)),
    4: ((-1, 0), (1, 0), (-1, 1), (1, 1)),
    5: ((-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)),
    6: ((-1, 0), (1, 0), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)),
    7: ((-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)),
    8: ((-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (0, 0.75), (-1, 1), (1, 1)),
    9: ((-1, 0), (1, 0), (-1, 1 / 3), (1, 1 / 3), (0, 0.5), (-1, 2 / 3), (1, 2 / 3), (-1, 1), (1, 1)),
    10: ((-1, 0), (1, 0), (0, 1 / 6), (-1, 1 / 3), (1, 1 / 3), (-1, 2 / 3), (1, 2 / 3), (0, 5 / 6), (-1, 1), (1, 1)),
}


def front(card: Card) -> Face:
    """A playing card as the design draws it, a player aid's face, else the generic face."""
    if "aid" in card.attrs:
        return design_file.draw(DESIGN, "aid", card, colors=SUIT_COLORS)
    if "suit" in card.attrs and "rank" in card.attrs:
        return design_file.draw(DESIGN, "playing_card", card, colors=SUIT_COLORS)
    return generic.front(card)


def back(card: Card) -> Face:
    """A player aid's light back and any other card's back, as the design draws them (another
    component's back: :func:`back_or_component`'s)."""
    if component_kind(card) == "aid":
        return design_file.draw(DESIGN, "aid_back", design_file.without_back_image(card), "back", colors=SUIT_COLORS)
    return back_or_component(card, "CLAG", lambda c: design_file.draw(DESIGN, "back", c, "back", colors=SUIT_COLORS))


def pip_centres(card: Card, rank: int) -> tuple[tuple[float, float, bool], ...]:
    """(x, y, upside down) of every pip of a 2-10 card, in mm."""
    w, h = card.size.width_mm, card.size.height_mm
    half_span = w * 0.18
    top, bottom = h * 0.2, h * 0.8
    return tuple(
        (w / 2 + col * half_span, top + row * (bottom - top), row > 0.5) for col, row in PIP_LAYOUTS[rank]
    )


# --- score sheet ----------------------------------------------------------------------------

SHEET_TEXT = {
    "en": {
        "title": "Clag score sheet",
        "date": "Date:",
        "scoring": "1 point per trick, +10 for a completed contract (exactly the tricks you bid). "
        "The dealer bids last; all bids together must exceed the cards in hand.",
        "round": "Round",
        "cards": "Cards",
        "rule": "Special rule",
        "player": "Player {n}",
        "bid": "Bid",
        "tricks": "Won",
        "score": "Score",
        "contracts": "Contracts made",
        "total": "Total",
        "legend": "Special rounds",
    },
    "ko": {
        "title": "클래그 점수표",
        "date": "날짜:",
        "scoring": "트릭 하나에 1점, 계약 완수(계약한 수만큼 정확히 트릭을 얻음)에 10점. "
        "딜러가 마지막에 계약을 부르며, 계약의 합은 손패 수보다 커야 한다.",
        "round": "라운드",
        "cards": "장수",
        "rule": "특별 규칙",
        "player": "플레이어 {n}",
        "bid": "계약",
        "tricks": "트릭",
        "score": "점수",
        "contracts": "계약 완수",
        "total": "총점",
        "legend": "특별 라운드",
    },
}


# Clag is played by 4 to 7 players: the score sheet has a column group for each of up to 7.
SHEET_PLAYERS = (4, 7)


def _sheet_number(card: Card, key: str, default: int, low: int, high: int) -> int:
    """The score sheet's whole-number setting ``key``, refused outside ``low..high`` (cells stay legible)."""
    value = card.get(key, default)
    if type(value) is not int or not low <= value <= high:
        raise DeckError(f"{card.label}: score sheet {key} must be a whole number from {low} to {high}, "
                        f"not {value!r}")
    return value


def page(card: Card, width_mm: float, height_mm: float) -> Face:
    """The score sheet on a page: a row per round, bid, tricks and running score per player."""
    if card.get("sheet") != "score":
        raise DeckError(f"{card.label}: Clag has no page {card.get('sheet')!r} (expected 'score')")
    lang = card.get("lang", "en")
    if lang not in SHEET_TEXT:
        raise DeckError(f"{card.label}: unknown sheet language {lang!r} (expected 'en' or 'ko')")
    words = SHEET_TEXT[lang]
    min_players = _sheet_number(card, "min_players", SHEET_PLAYERS[0], *SHEET_PLAYERS)
    players = _sheet_number(card, "max_players", SHEET_PLAYERS[1], min_players, SHEET_PLAYERS[1])
    rounds = ROUNDS[: _sheet_number(card, "rounds", len(ROUNDS), 1, len(ROUNDS))]
    ink = card.art.color("ink", DEFAULT_INK)
    accent = card.art.back_color or "#7a1f2b"
    shade = mix(accent, "#ffffff", 0.86)
    grey = "#d9d9d9"
    where = card.label

    def font_for(text: str, bold: bool = True):
        return text_font(card, text, bold)

    ops: list[Op] = []
    warnings: list[str] = []

    def put(text: str, box: Box, size: float, bold: bool = True, align="middle", color=ink, min_size=1.6):
        fitted = fit_line(text, font_for(text, bold), box, max_size_mm=size, min_size_mm=min(min_size, size),
                          where=f"{where} {text!r}", color=color, align=align, fallbacks=font_chain(card, bold))
        ops.extend(fitted.ops)
        warnings.extend(fitted.warnings)

    margin = 10.0
    x0, x1 = margin, width_mm - margin
    y = margin
    # Title line with a date field.
    put(words["title"], Box(x0, y, (x1 - x0) * 0.6, 9.0), 7.5, align="start", color=accent)
    put(words["date"] + " ____________", Box(x0 + (x1 - x0) * 0.6, y + 3.0, (x1 - x0) * 0.4, 6.0), 4.0, align="end",
        bold=False)
    y += 10.5
    scoring = fit_block(words["scoring"], font_for(words["scoring"], False), Box(x0, y, x1 - x0, 8.0),
                        max_size_mm=3.4, min_size_mm=2.0, where=f"{where} scoring", color=ink,
                        fallbacks=font_chain(card, False))
    ops.extend(scoring.ops)
    warnings.extend(scoring.warnings)
    y += 10.5

    # Columns: round, cards, rule, then bid / tricks / score for each player.
    legend_h = 40.0
    fixed_w = [9.0, 9.0, 33.0]
    player_w = (x1 - x0 - sum(fixed_w)) / players
    sub_w = [player_w * 0.27, player_w * 0.27, player_w * 0.46]
    header_h = (7.0, 5.0)
    body_rows = len(rounds) + 2  # the rounds, contracts made, total
    row_h = min(9.0, (height_mm - margin - legend_h - y - sum(header_h)) / body_rows)
    table_top = y
    table_bottom = y + sum(header_h) + body_rows * row_h

    # One size for the column labels and one for the rule names, so the rows look alike.
    sub_labels = (words["bid"], words["tricks"], words["score"])
    sub_size = min(
        _fitting_size(label, font_for(label), Box(0, 0, sw - 0.6, header_h[1] - 1.2), 2.6)
        for label, sw in zip(sub_labels, sub_w)
    )
    rule_titles = [r.title_ko if lang == "ko" else r.title_en for r in rounds if r.special is not Special.NORMAL]
    rule_size = min(
        [_fitting_size(t, font_for(t), Box(0, 0, fixed_w[2] - 2, row_h * 0.6), 3.0) for t in rule_titles] or [3.0]
    )

    # Header row 1: fixed headings spanning both header rows, then a name box per player.
    x = x0
    for label, cw in zip((words["round"], words["cards"], words["rule"]), fixed_w):
        put(label, Box(x + 0.6, y + 0.5, cw - 1.2, sum(header_h) - 1.0), 3.0)
        x += cw
    for p in range(players):
        px = x + p * player_w
        ops.append(Rect(px, y, player_w, header_h[0], fill=shade))
        put(words["player"].format(n=p + 1), Box(px + 0.8, y + 0.4, player_w - 1.6, 2.2), 1.9, align="start",
            bold=False, color=mix(ink, "#ffffff", 0.45), min_size=1.2)
        sx = px
        for label, sw in zip(sub_labels, sub_w):
            put(label, Box(sx + 0.3, y + header_h[0] + 0.6, sw - 0.6, header_h[1] - 1.2), sub_size, min_size=1.2)
            sx += sw
    y += sum(header_h)

    # Round rows; special rounds are shaded and named.
    for r in rounds:
        special = r.special is not Special.NORMAL
        if special:
            ops.append(Rect(x0, y, x1 - x0, row_h, fill=shade))
        put(str(r.number), Box(x0 + 0.5, y + row_h * 0.2, fixed_w[0] - 1, row_h * 0.6), 3.8)
        put(str(r.hand_size), Box(x0 + fixed_w[0] + 0.5, y + row_h * 0.2, fixed_w[1] - 1, row_h * 0.6), 3.4,
            bold=False)
        if special:
            title = r.title_ko if lang == "ko" else r.title_en
            put(title, Box(x0 + fixed_w[0] + fixed_w[1] + 1.0, y + row_h * 0.2, fixed_w[2] - 2, row_h * 0.6),
                rule_size, align="start", color=accent, min_size=1.8)
        if not r.has_bids:
            # No bids to write in rounds 9 and 15: the bid cells are filled in.
            mark = "0" if r.special is Special.ZERO_CONTRACTS else "–"
            for p in range(players):
                bx = x0 + sum(fixed_w) + p * player_w
                ops.append(Rect(bx, y, sub_w[0], row_h, fill=grey))
                put(mark, Box(bx, y + row_h * 0.2, sub_w[0], row_h * 0.6), 3.0, color=mix(ink, "#ffffff", 0.3))
        y += row_h
    # Summary rows: completed contracts (for the tie-break) and the total.
    for label in (words["contracts"], words["total"]):
        ops.append(Rect(x0, y, x1 - x0, row_h, fill=mix(accent, "#ffffff", 0.94)))
        put(label, Box(x0 + 1.0, y + row_h * 0.2, sum(fixed_w) - 2.0, row_h * 0.6), 3.4, align="start")
        y += row_h

    ops.extend(_grid(x0, x1, table_top, table_bottom, header_h, row_h, body_rows, fixed_w, players, player_w,
                     sub_w, ink))

    # Legend: each special round's rule in a sentence, from the rule engine's table.
    y = table_bottom + 3.0
    put(words["legend"], Box(x0, y, (x1 - x0) / 2, 5.0), 3.6, align="start", color=accent)
    y += 6.0
    specials = [r for r in rounds if r.special is not Special.NORMAL]
    col_w = (x1 - x0 - 4.0) / 2
    per_col = (len(specials) + 1) // 2
    item_h = (height_mm - margin - y) / max(per_col, 1)
    for i, r in enumerate(specials):
        cx = x0 + (i // per_col) * (col_w + 4.0)
        cy = y + (i % per_col) * item_h
        text = f"{r.number}. {r.text_ko if lang == 'ko' else r.text_en}"
        fitted = fit_block(text, font_for(text, False), Box(cx, cy, col_w, item_h - 0.6), max_size_mm=2.8,
                           min_size_mm=1.6, where=f"{where} legend round {r.number}", color=ink, leading=1.15,
                           fallbacks=font_chain(card, False))
        ops.extend(fitted.ops)
        warnings.extend(fitted.warnings)
    return Face(tuple(ops), tuple(warnings))


def _fitting_size(text: str, font, box: Box, max_size_mm: float) -> float:
    """The size ``fit_line`` would choose for ``text`` in ``box`` (never below a legible 1.2 mm)."""
    return fit_line(text, font, box, max_size_mm=max_size_mm, min_size_mm=1.2, where="").size_mm


def _grid(x0, x1, top, bottom, header_h, row_h, rows, fixed_w, players, player_w, sub_w, ink) -> list[Op]:
    """Ruling of the score table: heavy lines between players, light ones inside."""
    ops: list[Op] = []
    heavy, light = 0.45, 0.15
    body_top = top + sum(header_h)
    ops.append(Rect(x0, top, x1 - x0, bottom - top, stroke=ink, stroke_mm=heavy))
    ops.append(Line(x0, body_top, x1, body_top, ink, heavy))
    for i in range(1, rows):
        y = body_top + i * row_h
        ops.append(Line(x0, y, x1, y, ink, heavy if i == rows - 2 else light))
    x = x0
    # Inside the fixed columns the summary rows' labels run across, so those lines stop above them.
    rounds_bottom = body_top + (rows - 2) * row_h
    for i, cw in enumerate(fixed_w):
        x += cw
        last = i == len(fixed_w) - 1
        ops.append(Line(x, top, x, bottom if last else rounds_bottom, ink, heavy if last else light))
    for p in range(players):
        px = x + p * player_w
        if p:
            ops.append(Line(px, top, px, bottom, ink, heavy))
        ops.append(Line(px, top + header_h[0], px + player_w, top + header_h[0], ink, light))
        sx = px
        for sw in sub_w[:-1]:
            sx += sw
            ops.append(Line(sx, top + header_h[0], sx, bottom, ink, light))
    return ops
