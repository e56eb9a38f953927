"""Calc faces: corners, colours, 6/9 marks, the minus sign of −1, joker, aids and back."""

from __future__ import annotations

import dataclasses

import pytest

from printkit import fonts
from printkit.layout.color import mix
from printkit.layout.ops import Image, Polygon, Rect
from printkit.games.calc import faces as calc
from printkit.layout.text import font_metrics
from printkit.layout import templates
from printkit.decks import load_deck

from ._ops import assert_glyphs, assert_inside, assert_inside_bleed, assert_same_under_half_turn, op_bounds, texts


@pytest.fixture(scope="module")
def deck():
    return load_deck("calc", "expert")

# The cards are drawn as a shipped deck draws them: by the spec's layouts, else the game's faces.
_DECK = load_deck("calc", "expert")


def front(card):
    return templates.front(card, _DECK)


def back(card):
    return templates.back(card, _DECK)



def _card(deck, symbol, number):
    return next(c for c in deck.cards if c.get("symbol") == symbol and c.get("number") == number)


def _unique_faces(deck):
    seen = {}
    for card in list(deck.cards) + [c for comp in deck.components.values() for c in comp]:
        key = tuple(sorted(card.attrs.items()))
        seen.setdefault(key, card)
    return list(seen.values())


def test_every_face_inside_bleed_without_warnings_and_with_glyphs(deck):
    cards = _unique_faces(deck)
    assert len(cards) >= 45  # 44 number cards, the joker, aids
    for card in cards:
        for face in (front(card), back(card)):
            assert_inside_bleed(face, card)
            assert_glyphs(face)
            assert face.warnings == (), card.label


def test_background_fills_bleed(deck):
    card = _card(deck, "plus", 3)
    first = front(card).ops[0]
    s = card.size
    assert isinstance(first, Rect)
    assert (first.x_mm, first.y_mm) == (-s.bleed_mm, -s.bleed_mm)
    assert first.w_mm == pytest.approx(s.bleed_width_mm) and first.h_mm == pytest.approx(s.bleed_height_mm)
    assert first.fill == card.art.colors["background"]


@pytest.mark.parametrize("number", [-1, 0, 3, 6, 9])
def test_index_top_right_and_turned_bottom_left(deck, number):
    card = _card(deck, "times", number)
    s = card.size
    shown = f"\u2212{-number}" if number < 0 else str(number)  # a real minus sign, U+2212
    digits = [t for t in texts(front(card)) if t.text == shown]
    upright = [t for t in digits if t.rotate_deg == 0]
    turned = [t for t in digits if t.rotate_deg == 180]
    assert len(upright) == 1 and len(turned) == 1
    # Digits and the minus sign reach the cap height, not the font's ascent (room for accents):
    # their ink is what must stay inside the safe zone.
    up, down = upright[0], turned[0]
    ink_top = up.y_mm - font_metrics(up.font).cap_height * up.size_mm
    x0, y0, x1, y1 = op_bounds(up)
    assert x0 > s.width_mm / 2 and y1 < s.height_mm / 4
    assert x1 <= s.width_mm - s.safe_mm and ink_top >= s.safe_mm
    x0, y0, x1, y1 = op_bounds(down)
    ink_bottom = down.y_mm + font_metrics(down.font).cap_height * down.size_mm
    assert x1 < s.width_mm / 2 and y0 > s.height_mm * 3 / 4
    assert x0 >= s.safe_mm and ink_bottom <= s.height_mm - s.safe_mm


def _ink_rects(face, card):
    ink = card.art.colors["ink"]
    return [op for op in face.ops if isinstance(op, Rect) and op.fill == ink]


@pytest.mark.parametrize("number", [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
def test_six_and_nine_underlined_minus_one_set_with_a_minus_sign(deck, number):
    card = _card(deck, "plus", number)
    face = front(card)
    marks = _ink_rects(face, card)
    # One underline per corner for 6 and 9; none otherwise (−1's minus is a glyph of the font).
    assert len(marks) == (2 if number in (6, 9) else 0)
    digit = next(t for t in texts(face) if t.rotate_deg == 0)
    dx0, dy0, dx1, dy1 = op_bounds(digit)
    top_mark = min(marks, key=lambda r: r.y_mm) if marks else None
    if number in (6, 9):
        assert top_mark.y_mm > digit.y_mm  # below the baseline
        assert top_mark.x_mm == pytest.approx(dx0) and top_mark.x_mm + top_mark.w_mm == pytest.approx(dx1)
    if number == -1:
        assert digit.text == "\u22121" and "\u2212" not in fonts.missing_glyphs(digit.text, digit.font)


@pytest.mark.parametrize("symbol", ["plus", "minus", "times", "power"])
def test_symbol_colour_and_big_central_shape(deck, symbol):
    card = _card(deck, symbol, 5)
    face = front(card)
    color = card.art.colors[symbol]
    polys = [op for op in face.ops if isinstance(op, Polygon) and op.fill == color]
    biggest = max(polys, key=lambda p: op_bounds(p)[2] - op_bounds(p)[0])
    x0, y0, x1, y1 = op_bounds(biggest)
    s = card.size
    assert (x0 + x1) / 2 == pytest.approx(s.width_mm / 2)
    assert (y0 + y1) / 2 == pytest.approx(s.height_mm / 2)
    assert x1 - x0 > s.width_mm * 0.4
    # The card is tinted in the symbol's colour to the bleed edge, with no frame for a miscut to show.
    tint = [op for op in face.ops if isinstance(op, Rect) and op.w_mm > s.width_mm][-1]  # over the background
    assert tint.x_mm == -s.bleed_mm and tint.stroke is None and tint.fill == mix(color, card.art.colors["background"], 0.88)
    # No other symbol's colour appears on the card.
    others = {card.art.colors[n] for n in ("plus", "minus", "times", "power") if n != symbol}
    fills = {getattr(op, "fill", None) for op in face.ops} | {getattr(op, "stroke", None) for op in face.ops}
    assert not fills & others


def test_joker_shows_all_four_symbols(deck):
    card = next(c for c in deck.cards if c.get("kind") == "joker")
    face = front(card)
    fills = {op.fill for op in face.ops if isinstance(op, Polygon)}
    for name in ("plus", "minus", "times", "power", "joker"):
        assert card.art.colors[name] in fills
    assert [t.rotate_deg for t in texts(face) if t.text == "JOKER"] == [0.0, 180.0]


def test_aids_cover_both_languages_and_fit(deck):
    aids = deck.components["player_aids"]
    assert {(c["aid"], c["lang"]) for c in aids} == {(k, l) for k in ("turn", "scoring") for l in ("en", "ko")}
    for card in aids:
        face = front(card)
        assert face.warnings == ()
        body = " ".join(t.text for t in texts(face))
        if card["lang"] == "ko":
            assert any("\uac00" <= ch <= "\ud7a3" for ch in body)
    scoring = next(c for c in aids if c["aid"] == "scoring" and c["lang"] == "en")
    totals = [t.text for t in texts(front(scoring))][-5:]
    assert totals[-1] == "52"


def test_the_scoring_aids_worked_example_is_the_scorers():
    # The design writes the example's cards and running totals; they must be what the scorer
    # plays, so the aid never teaches a rule the engine does not.
    from printkit.games.calc.score import PayCard, score_pay
    from printkit.layout.compile import shipped_layouts

    elements = {e.name: e for e in shipped_layouts(calc.DESIGN)["aid"].elements if e.name}
    count = sum(1 for name in elements if name.endswith("_card"))
    pay = [PayCard(elements[f"example_{i}_symbol"].icon.constant, int(elements[f"example_{i}_number"].text.constant))
           for i in range(1, count + 1)]
    totals = [elements[f"example_{i}_total"].text.constant for i in range(1, count + 1)]
    assert count == 5 and totals == [str(step.after) for step in score_pay(pay)]
    assert [(e.when or {}).get("aid") for n, e in elements.items() if n.startswith("example_")] == ["scoring"] * 4 * count


def test_back_colour_label_and_image(deck, tmp_path):
    card = deck.cards[0]
    face = back(card)
    assert face.ops[0].fill == card.art.back_color
    assert any(t.text == "CALC" for t in texts(face))
    image = tmp_path / "back.png"
    image.write_bytes(b"")
    art = dataclasses.replace(card.art, back_image=image)
    face = back(dataclasses.replace(card, art=art))
    assert any(isinstance(op, Image) and op.path == image for op in face.ops)
    assert_inside_bleed(face, card)


def test_back_motif_is_symmetric_under_half_turn(deck):
    card = deck.cards[0]
    assert_same_under_half_turn(back(card), card)


def test_back_label_sets_symbols_in_a_fallback_and_names_undrawable_characters(deck):
    card = deck.cards[0]
    art = dataclasses.replace(card.art, back_label="내 계산 ♦ −")
    face = back(dataclasses.replace(card, art=art))
    assert face.warnings == ()
    assert "".join(t.text for t in texts(face)).replace(" ", "") == "내계산♦−"  # nothing dropped
    assert_glyphs(face)
    art = dataclasses.replace(card.art, back_label="내 계산 ♦ − 🧩")
    face = back(dataclasses.replace(card, art=art))
    (warning,) = face.warnings
    assert card.label in warning and "label" in warning and "🧩" in warning


def test_joker_index_clear_of_the_frame(deck):
    card = next(c for c in deck.cards if c.get("kind") == "joker")
    s = card.size
    face = front(card)
    # The joker layout keeps its corners 2.5 mm inside the safe line (its lengths written to 0.00001 mm).
    inner = s.safe_mm + 2.5 - 1e-4
    words = [t for t in texts(face) if t.text == "JOKER"]
    stars = [op for op in face.ops if isinstance(op, Polygon) and op.fill == card.art.colors["joker"]]
    # Both index words and the two corner stars (not the big central one) stay inside the frame by the margin.
    corner_stars = sorted(stars, key=lambda p: op_bounds(p)[2] - op_bounds(p)[0])[:2]
    assert len(words) == 2
    assert_inside(words + corner_stars, inner, inner, s.width_mm - inner, s.height_mm - inner)


def test_aid_text_sits_on_a_plate_over_a_background_image(deck, tmp_path):
    from ._ops import image_share, with_background_image

    card = next(c for c in deck.components["player_aids"] if c["aid"] == "turn")
    face = front(with_background_image(card, tmp_path))
    assert image_share(face, card, 0.0, 0.0, 1.0, 1.0) > 0.02  # the image shows round the plate
    assert image_share(face, card, 0.3, 0.4, 0.7, 0.6) == 0  # not behind the text


def test_aid_backs_differ_from_deck_backs(deck):
    from ._ops import image_share

    card = deck.cards[0]
    deck_back = back(card)
    for aid in deck.components["player_aids"]:
        face = back(aid)
        assert face.warnings == ()
        assert_inside_bleed(face, aid)
        shown = [t.text for t in texts(face)]
        assert shown.count("PLAYER AID") == 2 and shown.count("도움말") == 2  # upright and turned
        # A light field where a deck card's back is its dark back colour, edge to edge.
        back_rgb = tuple(int(card.art.back_color[i:i + 2], 16) for i in (1, 3, 5))
        assert image_share(deck_back, card, 0.0, 0.0, 1.0, 0.03, color=back_rgb) > 0.6  # between its pattern
        assert image_share(face, aid, 0.0, 0.0, 1.0, 1.0, color=back_rgb) < 0.15  # only the words and the name chip
