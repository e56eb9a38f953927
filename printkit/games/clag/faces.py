"""Clag faces: a complete four-colour 52-card deck, its back, player aids and the score sheet.

Number cards carry their pips in the classic positions (those in the lower half turned upside
down); aces have one large pip; jacks, queens and kings show a framed, double-ended panel with a
large letter and their suit. Corner indices sit top-left and, turned, bottom-right. Suits are
vector shapes, coloured from the spec (four colours by default) so hue and shape both tell them
apart. The score sheet (``page``) takes the round table from :mod:`printkit.games.clag`.
"""

from __future__ import annotations

from printkit.deck import Card
from printkit.errors import DeckError
from printkit.games.clag import icons
from printkit.games.clag.words import COURTS, RANKS, SUITS
from printkit.layout import shapes
from printkit.layout.geometry import Box, safe_box
from printkit.layout.ops import Face, Line, Op, Rect, Text
from printkit.layout.templates._common import (
    DEFAULT_INK,
    AidText,
    aid_face,
    aid_lang,
    back_face,
    background,
    font_chain,
    foreground,
    has_background_image,
    mix,
    plate,
    text_font,
)
from printkit.layout.text import fit_block, fit_line, font_metrics
from printkit.games.clag.words import ROUNDS, Special

DEFAULT_COLORS = {"spades": "#1d1d1f", "hearts": "#c8102e", "diamonds": "#0057b8", "clubs": "#007a33"}
# The art.colors names these faces read (through suit_color and the shared pieces in _common).
COLOR_NAMES = ("background", "ink", *DEFAULT_COLORS)

# Pip positions for 2-10: (column, row); columns -1 left, 0 middle, 1 right; rows 0 (top) .. 1
# (bottom). Pips below the middle row are drawn upside down, as on printed decks.
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
    """The face of a playing card or a player aid card."""
    if "aid" in card.attrs:
        return aid(card)
    if "suit" in card.attrs and "rank" in card.attrs:
        return playing_card(card)
    raise DeckError(f"{card.label}: not a Clag card (expected suit and rank, or aid)")


def back(card: Card) -> Face:
    """The common back: the four suits above the label and turned below it."""
    return back_face(card, _back_emblem, "CLAG")


def suit_color(card: Card, suit: str) -> str:
    return card.art.color(suit, DEFAULT_COLORS[suit])


def playing_card(card: Card) -> Face:
    suit, rank = card["suit"], card["rank"]
    if suit not in SUITS:
        raise DeckError(f"{card.label}: unknown suit {suit!r} (expected one of {', '.join(SUITS)})")
    if rank not in RANKS:
        raise DeckError(f"{card.label}: unknown rank {rank!r} (expected 2-10, J, Q, K or A)")
    w, h = card.size.width_mm, card.size.height_mm
    color = suit_color(card, suit)
    ops: list[Op] = list(background(card))
    warnings: list[str] = []
    if rank == "A":
        ops.extend(shapes.polygons(icons.suit(suit, w / 2, h / 2, min(w, h) * 0.46), color))
    elif rank in COURTS:
        court, court_warnings = _court(card, suit, rank, color)
        ops.extend(court)
        warnings.extend(court_warnings)
    else:
        ops.extend(_pips(card, suit, rank, color))
    index, index_warnings = _index(card, suit, rank, color)
    warnings.extend(index_warnings)
    ops.extend(index)
    ops.extend(shapes.turn_180(index, w / 2, h / 2))
    ops.extend(foreground(card))
    return Face(tuple(ops), tuple(warnings))


def pip_centres(card: Card, rank: int) -> tuple[tuple[float, float, bool], ...]:
    """(x, y, upside down) of every pip of a 2-10 card, in mm."""
    w, h = card.size.width_mm, card.size.height_mm
    half_span = w * 0.18
    top, bottom = h * 0.2, h * 0.8
    return tuple(
        (w / 2 + col * half_span, top + row * (bottom - top), row > 0.5) for col, row in PIP_LAYOUTS[rank]
    )


def _pips(card: Card, suit: str, rank: int, color: str) -> list[Op]:
    size = min(card.size.width_mm, card.size.height_mm) * 0.155
    ops: list[Op] = []
    for x, y, turned in pip_centres(card, rank):
        pip = shapes.polygons(icons.suit(suit, x, y, size), color)
        ops.extend(shapes.turn_180(pip, x, y) if turned else pip)
    return ops


def _index(card: Card, suit: str, rank: int | str, color: str) -> tuple[tuple[Op, ...], list[str]]:
    """Top-left corner index: the rank over a small suit shape, centred on one column."""
    unit = min(card.size.width_mm, card.size.height_mm)
    safe = safe_box(card.size)
    text = str(rank)
    font = text_font(card, text)
    col_w = unit * 0.15
    cx = safe.x_mm + 0.8 + col_w / 2
    rank_h = unit * 0.14
    # "10" is narrowed to the column; other ranks get the full height.
    fitted = fit_line(text, font, Box(cx - col_w / 2, safe.y_mm + 1.0, col_w, rank_h), max_size_mm=rank_h / 0.78,
                      min_size_mm=2.5, where=f"{card.label} index", color=color, valign="bottom")
    # Put the baseline where the cap height starts at the top of the box, whatever size was chosen.
    metrics = font_metrics(font)
    (op,) = fitted.ops
    baseline = safe.y_mm + 1.0 + rank_h * 0.82
    ops: list[Op] = [Text(op.x_mm, baseline, op.text, op.font, op.size_mm, op.color, op.anchor)]
    pip = unit * 0.1
    pip_cy = baseline + metrics.descent * op.size_mm * 0.4 + pip / 2 + 1.0
    ops.extend(shapes.polygons(icons.suit(suit, cx, pip_cy, pip), color))
    # Over a background image the index sits on a plate (first, so under the rank and pip).
    top = safe.y_mm + 0.4
    ops[:0] = plate(card, Box(cx - col_w / 2 - 0.6, top, col_w + 1.2, pip_cy + pip / 2 + 0.8 - top))
    return tuple(ops), list(fitted.warnings)


def _court(card: Card, suit: str, rank: str, color: str) -> tuple[list[Op], list[str]]:
    """A framed panel: the letter and the suit in the upper half, the same turned in the lower half."""
    w, h = card.size.width_mm, card.size.height_mm
    unit = min(w, h)
    panel = Box(w * 0.245, h * 0.13, w * 0.51, h * 0.74)
    # Over a background image the panel is only its frame, so the image shows through.
    tint = None if has_background_image(card) else mix(color, "#ffffff", 0.88)
    ops: list[Op] = [
        Rect(panel.x_mm, panel.y_mm, panel.w_mm, panel.h_mm, fill=tint, stroke=color, stroke_mm=0.8, radius_mm=2.0),
        Rect(panel.x_mm + 1.5, panel.y_mm + 1.5, panel.w_mm - 3, panel.h_mm - 3, stroke=color, stroke_mm=0.3,
             radius_mm=1.2),
        Line(panel.x_mm + 1.5, h / 2, panel.right_mm - 1.5, h / 2, color=color, width_mm=0.3),
    ]
    half: list[Op] = []
    font = text_font(card, rank)
    big = unit * 0.12
    # The letter sits right of the big pip, so wide letters (K, Q) never run into it.
    letter_left = panel.x_mm + 3.0 + big + 1.0
    letter_box = Box(letter_left, panel.y_mm + panel.h_mm * 0.2, panel.right_mm - 2.5 - letter_left, panel.h_mm * 0.27)
    letter = fit_line(rank, font, letter_box, max_size_mm=unit * 0.4, min_size_mm=4.0, where=f"{card.label} court",
                      color=color, valign="bottom")
    half.extend(letter.ops)
    # A crown of small suit shapes above the letter (one for J, two for Q, three for K) and one
    # big pip beside it.
    crown = unit * 0.07
    count = COURTS.index(rank) + 1
    for i in range(count):
        x = w / 2 + (i - (count - 1) / 2) * crown * 1.6
        half.extend(shapes.polygons(icons.suit(suit, x, panel.y_mm + 4.0 + crown / 2, crown), color))
    half.extend(shapes.polygons(icons.suit(suit, panel.x_mm + 3.0 + big / 2, h / 2 - 2.5 - big / 2, big), color))
    ops.extend(half)
    ops.extend(shapes.turn_180(half, w / 2, h / 2))
    return ops, list(letter.warnings)


def _back_emblem(cx: float, cy: float, size_mm: float, color: str) -> list[Op]:
    """The four suits above the label and the same row turned below: alike either way up."""
    s = size_mm * 0.2
    y = cy - size_mm * 0.55
    row: list[Op] = []
    for i, suit in enumerate(SUITS):
        row.extend(shapes.polygons(icons.suit(suit, cx + (i - 1.5) * s * 1.35, y, s), color))
    return row + list(shapes.turn_180(row, cx, cy))


# --- player aids ----------------------------------------------------------------------------

AID_TEXT = {
    ("turn", "en"): AidText(
        "A round",
        "Deal one card at a time from the dealer's left, then turn up the next card: its suit is trump.\n"
        "Bid from the dealer's left; the dealer bids last, and all bids together must exceed the cards "
        "in hand.\n"
        "The player left of the dealer leads. Follow suit if you can; otherwise play any card.\n"
        "The highest trump wins the trick, else the highest card of the suit led. The winner leads next.\n"
        "Aces are high: A K Q J 10 … 2.",
    ),
    ("turn", "ko"): AidText(
        "라운드 진행",
        "딜러 왼쪽부터 한 장씩 나눠 주고, 다음 카드를 뒤집는다. 그 무늬가 트럼프다.\n"
        "딜러 왼쪽부터 계약을 부르고 딜러가 마지막에 부른다. 계약의 합은 손패 수보다 커야 한다.\n"
        "딜러 왼쪽 사람이 먼저 낸다. 같은 무늬가 있으면 그 무늬를 내고, 없으면 아무 카드나 낸다.\n"
        "가장 높은 트럼프가, 트럼프가 없으면 먼저 낸 무늬의 가장 높은 카드가 트릭을 가져간다. "
        "이긴 사람이 다음에 먼저 낸다.\n"
        "순위: A K Q J 10 … 2.",
    ),
    ("scoring", "en"): AidText(
        "Scoring",
        "1 point for each trick you win.\n"
        "+10 for winning exactly the number of tricks you bid (a completed contract).\n"
        "Round 9: every contract is 0, so +10 for taking no trick.\n"
        "Round 15: no bids; only the player who alone takes the most tricks scores, 10 points.\n"
        "After round 22 the highest total wins; a tie goes to the player with more completed contracts.",
    ),
    ("scoring", "ko"): AidText(
        "점수",
        "이긴 트릭 하나에 1점.\n"
        "계약한 수만큼 정확히 트릭을 얻으면(계약 완수) 10점 더.\n"
        "9라운드: 모든 계약이 0이므로 트릭을 하나도 얻지 않으면 10점 더.\n"
        "15라운드: 계약 없음. 트릭을 혼자 가장 많이 얻은 사람만 10점.\n"
        "22라운드 뒤 총점이 가장 높은 사람이 이기고, 동점이면 계약 완수가 많은 사람이 이긴다.",
    ),
}


def _rounds_text(lang: str) -> AidText:
    """The round table from the rule engine: hand sizes and the special rounds 8-15."""
    specials = [r for r in ROUNDS if r.special is not Special.NORMAL]
    if lang == "ko":
        head = "1-7라운드: 1-7장, 8-16라운드: 7장, 17-22라운드: 6-1장."
        lines = [f"{r.number}: {r.title_ko}" for r in specials]
        return AidText("라운드", head + "\n" + "\n".join(lines))
    head = "Cards per player: rounds 1-7: 1 to 7; rounds 8-16: 7; rounds 17-22: 6 down to 1."
    lines = [f"{r.number}: {r.title_en}" for r in specials]
    return AidText("Rounds", head + "\n" + "\n".join(lines))


AID_KINDS = ("turn", "scoring", "rounds")


def aid(card: Card) -> Face:
    kind, lang = card["aid"], aid_lang(card)
    if kind not in AID_KINDS:
        raise DeckError(f"{card.label}: unknown Clag aid {kind!r} (expected one of {', '.join(AID_KINDS)})")
    text = _rounds_text(lang) if kind == "rounds" else AID_TEXT[(kind, lang)]
    accent = card.art.back_color or "#7a1f2b"
    return aid_face(card, text, accent)


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
