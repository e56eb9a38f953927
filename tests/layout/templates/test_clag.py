"""Clag faces: corner indices, pip counts and orientation, courts, colours, aids, back and score sheet."""

from __future__ import annotations

import dataclasses
import re

import pytest

from printkit.layout.geometry import paper_size
from printkit.layout.ops import Image, Line, Polygon, Rect
from printkit.games.clag import faces as clag
from printkit.games.clag.engine import ROUNDS
from printkit.games.clag.words import Special
from printkit.errors import DeckError
from printkit.games.clag import icons as clag_icons
from printkit.layout import shapes, templates
from printkit.decks import load_deck

from ._ops import assert_glyphs, assert_inside, assert_inside_bleed, assert_same_under_half_turn, op_bounds, texts


@pytest.fixture(scope="module")
def deck():
    return load_deck("clag")

# The cards are drawn as a shipped deck draws them: by the spec's layouts, else the game's faces.
_DECK = load_deck("clag")


def front(card):
    return templates.front(card, _DECK)


def back(card):
    return templates.back(card, _DECK)



def _card(deck, suit, rank):
    return next(c for c in deck.cards if c["suit"] == suit and c["rank"] == rank)


def test_all_52_faces_and_aids_inside_bleed_with_glyphs_and_no_warnings(deck):
    cards = list(deck.cards) + list(deck.components["player_aids"])
    assert len(deck.cards) == 52
    for card in cards:
        for face in (front(card), back(card)):
            assert_inside_bleed(face, card)
            assert_glyphs(face)
            assert face.warnings == (), card.label


@pytest.mark.parametrize("rank", [2, 7, 10, "J", "Q", "K", "A"])
def test_index_top_left_and_turned_bottom_right(deck, rank):
    card = _card(deck, "diamonds", rank)
    s = card.size
    face = front(card)
    ranks = [t for t in texts(face) if t.text == str(rank)]
    upright = [t for t in ranks if t.rotate_deg == 0 and op_bounds(t)[1] < s.height_mm / 4]
    turned = [t for t in ranks if t.rotate_deg == 180 and op_bounds(t)[3] > s.height_mm * 3 / 4]
    assert len(upright) == 1 and len(turned) == 1
    x0, y0, x1, y1 = op_bounds(upright[0])
    assert x0 >= s.safe_mm and y0 >= s.safe_mm and x1 < s.width_mm / 4
    x0, y0, x1, y1 = op_bounds(turned[0])
    assert x1 <= s.width_mm - s.safe_mm and y1 <= s.height_mm - s.safe_mm and x0 > s.width_mm * 3 / 4
    # A small suit shape under the rank, inside the index column.
    color = card.art.colors["diamonds"]
    small = [p for p in face.ops if isinstance(p, Polygon) and p.fill == color and op_bounds(p)[3] < s.height_mm / 4
             and op_bounds(p)[2] < s.width_mm / 4]
    assert small and min(op_bounds(p)[1] for p in small) > upright[0].y_mm


def _pips(face, card):
    """Pip outlines: the suit-coloured polygons away from the corner indices."""
    s = card.size
    color = card.art.colors[card["suit"]]
    out = []
    for op in face.ops:
        if isinstance(op, Polygon) and op.fill == color:
            x0, y0, x1, y1 = op_bounds(op)
            if s.width_mm * 0.2 < (x0 + x1) / 2 < s.width_mm * 0.8:
                out.append(op)
    return out


@pytest.mark.parametrize("suit", ["spades", "hearts", "diamonds", "clubs"])
@pytest.mark.parametrize("rank", range(2, 11))
def test_pip_count_equals_rank(deck, suit, rank):
    card = _card(deck, suit, rank)
    face = front(card)
    parts = len(clag_icons.suit(suit, 0, 0, 1))  # outlines per pip (a club has five)
    assert len(_pips(face, card)) == rank * parts
    assert len(clag.pip_centres(card, rank)) == rank


@pytest.mark.parametrize("rank", range(2, 11))
def test_lower_half_pips_are_turned(deck, rank):
    card = _card(deck, "hearts", rank)
    s = card.size
    for x, y, turned in clag.pip_centres(card, rank):
        assert turned == (y > s.height_mm / 2 + 1e-9)
    # A heart's tip points down when upright: the lowest point sits on the pip's axis.
    for pip in _pips(front(card), card):
        x0, y0, x1, y1 = op_bounds(pip)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        tip = max(pip.points, key=lambda p: p[1]) if cy <= s.height_mm / 2 + 1e-6 else min(pip.points, key=lambda p: p[1])
        assert tip[0] == pytest.approx(cx, abs=1e-6)


def test_pip_layouts_are_symmetric_under_half_turn(deck):
    card = _card(deck, "spades", 2)
    s = card.size
    for rank in (2, 3, 4, 5, 6, 8, 9, 10):  # the 7's extra pip sits in the upper half only
        centres = {(round(x, 6), round(y, 6)) for x, y, _ in clag.pip_centres(card, rank)}
        turned = {(round(s.width_mm - x, 6), round(s.height_mm - y, 6)) for x, y in centres}
        assert centres == turned, rank


def test_ace_has_one_big_pip(deck):
    card = _card(deck, "spades", "A")
    pips = _pips(front(card), card)
    x0, y0, x1, y1 = shapes.bounds(tuple(p.points for p in pips))
    assert y1 - y0 > card.size.width_mm * 0.4
    assert len(pips) == len(clag_icons.spade(0, 0, 1))


@pytest.mark.parametrize("rank", ["J", "Q", "K"])
def test_court_has_framed_panel_and_big_letter_both_ways(deck, rank):
    card = _card(deck, "clubs", rank)
    face = front(card)
    color = card.art.colors["clubs"]
    assert any(isinstance(op, Rect) and op.stroke == color and op.w_mm > card.size.width_mm * 0.4 for op in face.ops)
    letters = [t for t in texts(face) if t.text == rank]
    big = [t for t in letters if t.size_mm > 10]
    assert sorted(t.rotate_deg for t in big) == [0.0, 180.0]


@pytest.mark.parametrize("suit", ["spades", "hearts", "diamonds", "clubs"])
def test_four_colour_suits(deck, suit):
    color = deck.art.colors[suit]
    others = {deck.art.colors[s] for s in ("spades", "hearts", "diamonds", "clubs") if s != suit}
    for rank in (3, "Q", "A"):
        face = front(_card(deck, suit, rank))
        used = {op.fill for op in face.ops if isinstance(op, Polygon)} | {t.color for t in texts(face)}
        assert color in used and not used & others


def test_back_is_shared_and_labelled(deck):
    backs = {back(c) for c in deck.cards[:5]}
    assert len(backs) == 1
    (face,) = backs
    assert face.ops[0].fill == deck.art.back_color
    assert any(t.text == "CLAG" for t in texts(face))


def test_aids_include_round_table_from_engine(deck):
    aids = {(c["aid"], c["lang"]): c for c in deck.components["player_aids"]}
    assert set(aids) == {(k, l) for k in ("turn", "scoring", "rounds") for l in ("en", "ko")}
    # The design writes the round table; it must be the rule engine's: every special round by its
    # number and title, in both languages, and no other.
    for lang in ("en", "ko"):
        body = " ".join(t.text for t in texts(front(aids[("rounds", lang)])))
        specials = [r for r in ROUNDS if r.special is not Special.NORMAL]
        for r in specials:
            assert f"{r.number}: {r.title_en if lang == 'en' else r.title_ko}" in body
        assert len(re.findall(r"(?<![\d–-])\d+: ", body)) == len(specials)
        hands = [r.hand_size for r in ROUNDS]
        assert hands == list(range(1, 8)) + [7] * 9 + list(range(6, 0, -1))  # what the first line says


# --- score sheet -------------------------------------------------------------------------------

@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_score_sheet_fits_page_without_warnings(deck, paper, lang):
    w, h = paper_size(paper).width_mm, paper_size(paper).height_mm
    card = deck.components["score_sheet"][0]
    card = dataclasses.replace(card, attrs={**card.attrs, "lang": lang})
    face = clag.page(card, w, h)
    assert face.warnings == ()
    assert_glyphs(face)
    # Everything printed stays clear of the edge a home printer cannot reach; the layout's white
    # page behind it is no ink.
    page = [op for op in face.ops if isinstance(op, Rect) and op.fill == "#ffffff" and op.w_mm == w]
    assert len(page) == 1
    assert_inside([op for op in face.ops if op not in page], 5.0, 5.0, w - 5.0, h - 5.0)


def test_the_score_sheets_rounds_are_the_rule_engines():
    # The design writes the table's rows; they must be the engine's: hand sizes, the special rounds'
    # titles in both languages, and the rounds without bids marked.
    from printkit.layout.compile import shipped_layouts

    elements = {e.name: e for e in shipped_layouts(clag.DESIGN)["score_sheet"].elements}
    for lang in ("en", "ko"):
        rows = elements[f"table_{lang}"].table.rows
        assert len(rows) == len(ROUNDS)
        for row, r in zip(rows, ROUNDS):
            special = r.special is not Special.NORMAL
            title = (r.title_en if lang == "en" else r.title_ko,) if special else ()
            assert tuple(cell.constant for cell in row.cells) == (str(r.number), str(r.hand_size)) + title
            assert (row.fill is not None) is special
            assert row.mark == (None if r.has_bids else "0" if r.special is Special.ZERO_CONTRACTS else "–")
            if special:
                rule = elements[f"rule_{r.number}_{lang}"].text.constant
                assert rule == f"{r.number}. {r.text_en if lang == 'en' else r.text_ko}"


def test_score_sheet_rows_columns_and_special_rounds(deck):
    card = deck.components["score_sheet"][0]
    face = clag.page(card, 210.0, 297.0)
    words = [t.text for t in texts(face)]
    for n in range(1, 23):
        assert str(n) in words
    assert words.count("Bid") == 7 and words.count("Score") == 7
    assert [w for w in words if w.startswith("Player ")] == [f"Player {n}" for n in range(1, 8)]
    for r in ROUNDS[7:15]:
        assert r.title_en in words  # marked in its row
        assert any(w.startswith(f"{r.number}. ") for w in words) or any(r.text_en[:20] in w for w in words)
    for r in ROUNDS[:7] + ROUNDS[15:]:
        assert r.title_en not in words
    # Rounds 9 and 15 have no bids: their bid cells are filled in.
    assert words.count("0") >= 7 and words.count("–") == 7
    # Special rows are shaded across the table.
    shade_rows = [op for op in face.ops if isinstance(op, Rect) and op.fill and op.w_mm > 150]
    assert len(shade_rows) >= 8
    assert any(isinstance(op, Line) for op in face.ops)


def test_score_sheet_player_count_follows_spec(deck):
    card = deck.components["score_sheet"][0]
    card = dataclasses.replace(card, attrs={**card.attrs, "max_players": 5})
    words = [t.text for t in texts(clag.page(card, 210.0, 297.0))]
    assert words.count("Bid") == 5


def test_unknown_page_raises(deck):
    card = dataclasses.replace(deck.components["score_sheet"][0], attrs={"sheet": "tally"})
    with pytest.raises(DeckError, match="'tally'"):
        clag.page(card, 210.0, 297.0)


def test_back_motif_is_symmetric_under_half_turn(deck):
    # The row of suits below the label is the row above turned: the set of shapes maps onto itself.
    card = deck.cards[0]
    assert_same_under_half_turn(back(card), card)


def test_aid_backs_differ_from_deck_backs(deck, tmp_path):
    card = deck.cards[0]
    deck_texts = [t.text for t in texts(back(card))]
    for aid in deck.components["player_aids"]:
        face = back(aid)
        assert face.warnings == ()
        assert [t.text for t in texts(face)].count("PLAYER AID") == 2  # upright and turned
        assert [t.text for t in texts(face)].count("도움말") == 2
        assert "PLAYER AID" not in deck_texts
        # The aid's back is its own design: a deck's back image is not drawn under it.
        image = tmp_path / "back.png"
        art = dataclasses.replace(aid.art, back_image=image)
        pictured = back(dataclasses.replace(aid, art=art))
        assert not [op for op in pictured.ops if isinstance(op, Image)]
        assert [t.text for t in texts(pictured)].count("PLAYER AID") == 2
