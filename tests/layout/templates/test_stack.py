"""Stack Original faces: mineral icons, cost, generated markers, terrains, tokens, aids and backs."""

from __future__ import annotations

import dataclasses
import re

import pytest

from printkit import fonts
from printkit.deck import Art, Card, CardSize
from printkit.errors import DeckError
from printkit.layout.color import luminance
from printkit.games.stack.icons import MINERALS, OUTLINES, mineral_icon
from printkit.layout.geometry import bleed_box
from printkit.layout.ops import Ellipse, Image, Polygon, Rect
from printkit.games.stack import faces as stack
from printkit.layout import design
from printkit.layout.compile import shipped_layouts
from printkit.games import icons
from printkit.decks import load_deck

from ._ops import assert_glyphs, assert_inside_bleed, texts

HANGUL = re.compile(r"[\uac00-\ud7a3]")


@pytest.fixture(scope="module")
def deck():
    return load_deck("stack")


def _unique(cards):
    seen = {}
    for card in cards:
        seen.setdefault(tuple(sorted(card.attrs.items())), card)
    return list(seen.values())


def _all_cards(deck):
    return _unique(list(deck.cards) + [c for comp in deck.components.values() for c in comp])


def _deck_card(deck, *wanted):
    return next(c for c in deck.cards if tuple(c["minerals"]) == wanted)


def _marker(deck, *wanted):
    return next(c for c in deck.components["generated_markers"] if tuple(c["minerals"]) == wanted)


def _silhouettes(face, card, min_size_mm):
    """Mineral silhouettes on a face at least ``min_size_mm`` wide, as (mineral, width) pairs."""
    colors = {card.art.color(m, ""): m for m in MINERALS}
    found = []
    for op in face.ops:
        if isinstance(op, Polygon) and op.fill in colors:
            xs = [x for x, _ in op.points]
            width = max(xs) - min(xs)
            if width >= min_size_mm and _is_outline_of(op, colors[op.fill]):
                found.append((colors[op.fill], width))
    return found


def _is_outline_of(op, mineral):
    """Whether the polygon is the mineral's outline scaled and moved, upright or turned 180°."""
    unit = OUTLINES[mineral]
    if len(op.points) != len(unit):
        return False
    (ux0, uy0), (ux1, uy1) = unit[0], unit[1]
    (px0, py0), (px1, py1) = op.points[0], op.points[1]
    scale = ((px1 - px0) ** 2 + (py1 - py0) ** 2) ** 0.5 / ((ux1 - ux0) ** 2 + (uy1 - uy0) ** 2) ** 0.5
    for k in (scale, -scale):
        dx, dy = px0 - ux0 * k, py0 - uy0 * k
        if all(abs(dx + u * k - x) < 1e-6 and abs(dy + v * k - y) < 1e-6 for (u, v), (x, y) in zip(unit, op.points)):
            return True
    return False


def test_deck_has_every_kind_of_card(deck):
    kinds = {stack.kind_of(c) for c in _all_cards(deck)}
    assert kinds == {"deck", "generated", "terrain", "token", "reference", "aid"}
    assert len(deck.components["stack_tokens"]) == 8
    assert len(deck.components["terrains"]) == 4
    assert {tuple(c["minerals"]) for c in deck.components["generated_markers"]} == {tuple(c["minerals"]) for c in deck.cards}


def test_every_face_inside_bleed_without_warnings_and_with_glyphs(deck):
    for card in _all_cards(deck):
        for face in (stack.front(card), stack.back(card)):
            assert_inside_bleed(face, card)
            assert_glyphs(face)
            assert face.warnings == (), (card.label, face.warnings)
            # The bleed is filled: the first op covers the whole bleed box.
            first = face.ops[0]
            s = card.size
            assert isinstance(first, Rect) and first.fill
            assert (first.x_mm, first.y_mm, first.w_mm, first.h_mm) == (-s.bleed_mm, -s.bleed_mm, s.bleed_width_mm, s.bleed_height_mm)


@pytest.mark.parametrize("generated", [False, True])
def test_one_big_icon_per_mineral(deck, generated):
    cards = deck.components["generated_markers"] if generated else deck.cards
    for card in _unique(cards):
        face = stack.front(card)
        big = _silhouettes(face, card, min_size_mm=7.0)
        assert sorted(m for m, _ in big) == sorted(card["minerals"]), card.label
        # The corner index repeats each mineral small, at the top and upside down at the bottom.
        small = [m for m, w in _silhouettes(face, card, 2.0) if w < 7.0]
        assert sorted(small) == sorted(list(card["minerals"]) * 2), card.label


def test_cost_shown_equals_number_of_minerals(deck):
    for card in _unique(list(deck.cards) + list(deck.components["generated_markers"])):
        face = stack.front(card)
        cost = len(card["minerals"])
        badges = [t for t in texts(face) if t.text.isdigit()]
        assert [t.text for t in badges] == [str(cost)] * 2, card.label
        assert sorted(t.rotate_deg for t in badges) == [0.0, 180.0]


def test_cost_disagreeing_with_minerals_warns(deck):
    card = _deck_card(deck, "ruby", "gold")
    wrong = dataclasses.replace(card, attrs={**card.attrs, "cost": 3})
    warnings = stack.front(wrong).warnings
    assert len(warnings) == 1 and wrong.label in warnings[0] and "cost" in warnings[0]


def test_korean_and_english_names_under_the_icons(deck):
    card = _deck_card(deck, "ruby", "sapphire", "coal")
    words = [t.text for t in texts(stack.front(card))]
    for ko, en in (("루비", "RUBY"), ("사파이어", "SAPPHIRE"), ("석탄", "COAL")):
        assert ko in words and en in words
    assert "황금" not in words


def test_markers_are_unmistakably_different_from_deck_cards(deck):
    for minerals_ in [("ruby",), ("gold", "coal"), ("ruby", "gold", "sapphire")]:
        card, marker = _deck_card(deck, *minerals_), _marker(deck, *minerals_)
        front, marker_front = stack.front(card), stack.front(marker)
        # Inverted paper: dark marker, light deck card (the last rect over the whole bleed is the paper).
        assert luminance(_paper(front, card)) > 0.6 > 0.2 > luminance(_paper(marker_front, marker))
        marker_words = " ".join(t.text for t in texts(marker_front))
        assert "생성" in marker_words and "GENERATED" in marker_words
        assert "생성" not in " ".join(t.text for t in texts(front))
        # A hatched frame: many stripes, none of them on the deck card.
        stripes = [op for op in marker_front.ops if isinstance(op, Polygon) and op.fill == card.art.color("background", "")]
        assert len(stripes) > 40
        # The backs differ too, so a marker is spotted face down and kept out of the deck.
        assert stack.back(marker).ops != stack.back(card).ops
        assert "생성" in " ".join(t.text for t in texts(stack.back(marker)))


def test_deck_backs_are_identical(deck):
    backs = {stack.back(c).ops for c in deck.cards}
    assert len(backs) == 1
    # Terrains, references and aids have backs of their own, naming them in both languages
    # (upright and turned) on a field of their own; tokens are the same on both sides.
    (deck_back,) = backs
    for name, words in (("terrains", ("TERRAIN", "지형")), ("reference", ("REFERENCE", "행동표")),
                        ("player_aids", ("PLAYER AID", "도움말"))):
        for card in deck.components[name]:
            face = stack.back(card)
            # Nothing of the deck back shows: only the back colour under the light field is shared.
            assert not set(face.ops[1:]) & set(deck_back) - {op for op in deck_back if isinstance(op, Polygon)}
            assert face.ops[1].fill != deck_back[0].fill and face.ops[1].w_mm == deck_back[0].w_mm
            shown = [t.text for t in texts(face)]
            assert all(shown.count(word) == 2 for word in words), shown
            assert face.warnings == ()
    token = deck.components["stack_tokens"][0]
    assert stack.back(token) == stack.front(token)


@pytest.mark.parametrize(
    "terrain, name, mineral, effect_word",
    [
        ("red_rye_field", "붉은 호밀밭", "ruby", "루비"),
        ("eldorado", "엘도라도", "gold", "황금"),
        ("pale_blue_dot", "창백한 푸른 점", "sapphire", "사파이어"),
        ("coal_mine", "탄광", "coal", "석탄"),
    ],
)
def test_terrain_cards_in_korean(deck, terrain, name, mineral, effect_word):
    card = next(c for c in deck.components["terrains"] if c["terrain"] == terrain)
    face = stack.front(card)
    lines = [t.text for t in texts(face)]
    assert name in lines
    body = " ".join(lines)
    assert effect_word in body and len(HANGUL.findall(body)) > 40
    # The terrain's own mineral appears as an icon, large in the scene.
    big = _silhouettes(face, card, min_size_mm=10.0)
    assert [m for m, _ in big] == [mineral]


PT_MM = 25.4 / 72
# The design's terrain layout, with its tables of the terrains' words.
TERRAIN = shipped_layouts(stack.DESIGN)["terrain"]


def test_terrain_text_keeps_an_eighth_of_an_inch_inside_the_top_edge(deck):
    # DriveThruCards' safe zone is 1/8 in (3.175 mm): the band at the top of a terrain shows no
    # letter that close to the trim, seen on the rendered card.
    import numpy as np
    import pypdfium2 as pdfium

    from printkit.layout.imposition import card_page
    from printkit.render.pdf import render_pages

    px_mm = 600 / 25.4
    for card in deck.components["terrains"]:
        size = card.size
        image = pdfium.PdfDocument(render_pages([card_page(stack.front(card), size)]))[0].render(scale=600 / 72)
        pixels = np.asarray(image.to_pil().convert("RGB")).astype(int)
        top, left, right = (int(v * px_mm) for v in (size.bleed_mm, size.bleed_mm + 0.5, size.bleed_mm + size.width_mm - 0.5))
        strip = pixels[top + 2:int((size.bleed_mm + 3.175) * px_mm), left:right]
        band = strip[0, 0]
        assert (np.abs(strip - band).max(axis=2) <= 3).all(), card.label


def test_reference_cards_one_per_language(deck):
    refs = {c["lang"]: c for c in deck.components["reference"]}
    assert len(deck.components["reference"]) == 2 and set(refs) == {"ko", "en"}
    ko = " ".join(t.text for t in texts(stack.front(refs["ko"])))
    for action in ("합성", "분해", "순환", "출력", "같은 카드 3장 바꾸기", "최대 4개"):
        assert action in ko
    en_face = stack.front(refs["en"])
    assert en_face.warnings == ()
    en = " ".join(t.text for t in texts(en_face))
    for action in ("Synthesis", "Decomposition", "Cycle", "Output", "Swap 3 identical cards", "4 stacks at most"):
        assert action in en
    # The English card is English: Hangul only in its small subtitle.
    assert [t.text for t in texts(en_face) if HANGUL.search(t.text)] == ["행동과 비용"]
    # Action names and notes read as well as on the Korean card.
    assert min(t.size_mm for t in texts(en_face)) >= 2.2


def test_terrain_english_is_readable_and_on_the_trigger_line(deck):
    for card in deck.components["terrains"]:
        face = stack.front(card)
        english = [t for t in texts(face) if re.search("[A-Za-z]{3}", t.text) and not HANGUL.search(t.text)]
        assert english, card.label
        for t in english:
            assert t.size_mm >= 6.5 * PT_MM, (card.label, t.text, t.size_mm / PT_MM)
        body = " ".join(t.text for t in english)
        assert TERRAIN.lookups["effect_en"][card["terrain"]].split()[0] in body
        assert "opponent" in body and "Set here" in body  # the trigger and what may be set, in English
        # The trigger sits in the footer band under its Korean line.
        trigger = next(e for e in TERRAIN.elements if e.name == "trigger").text.constant
        trigger_ko = next(t for t in texts(face) if t.text == trigger)
        assert any(t.y_mm > trigger_ko.y_mm and "opponent" in t.text for t in english)


def test_aids_in_both_languages(deck):
    aids = {c["lang"]: c for c in deck.components["player_aids"]}
    assert set(aids) == {"ko", "en"}
    ko = " ".join(t.text for t in texts(stack.front(aids["ko"])))
    en = " ".join(t.text for t in texts(stack.front(aids["en"])))
    assert "정산" in ko and "①" in ko and "③" in ko
    assert "Settle" in en and "win" in en
    # The English aid has the Korean one's sections: turn, matching, terrains, settlement.
    for word in ("Turn", "Match", "Terrain", "Settle"):
        assert word in en
    sections = [e.name.split("_")[0] for e in shipped_layouts(stack.DESIGN)["aid"].elements if "_section_" in (e.name or "")]
    assert sections.count("en") == sections.count("ko") == 4


def test_text_too_long_warns_naming_card_and_field(deck, monkeypatch):
    card = next(c for c in deck.components["terrains"] if c["terrain"] == "eldorado")
    monkeypatch.setitem(TERRAIN.lookups["effect_ko"], "eldorado", "황금을 찾아 떠나는 긴 여정의 이야기 " * 20)
    face = stack.front(card)
    assert any(card.label in w and "effect" in w for w in face.warnings)
    # Nothing is dropped: every word still printed (at the minimum size).
    assert sum(t.text.count("여정의") for t in texts(face)) == 20


def test_latin_only_font_falls_back_for_hangul(deck):
    card = _deck_card(deck, "gold")
    latin = dataclasses.replace(card.art, font=fonts.SYMBOLS_BOLD)
    face = stack.front(dataclasses.replace(card, art=latin))
    assert_glyphs(face)
    assert face.warnings == ()
    fonts_used = {t.text: t.font for t in texts(face)}
    assert fonts_used["GOLD"] == fonts.SYMBOLS_BOLD and fonts_used["황금"] != fonts.SYMBOLS_BOLD


def test_images_from_the_spec_become_image_ops(deck, tmp_path):
    picture = tmp_path / "paper.png"
    picture.write_bytes(b"")  # layout only passes the path on; backends read it
    card = _deck_card(deck, "coal")
    art = dataclasses.replace(card.art, background_image=picture, back_image=picture, foreground_image=picture)
    custom = dataclasses.replace(card, art=art)
    front = stack.front(custom)
    assert [op.path for op in front.ops if isinstance(op, Image)] == [picture, picture]
    assert isinstance(front.ops[-1], Image)  # the foreground lies over everything
    back = stack.back(custom)
    assert [op.path for op in back.ops if isinstance(op, Image)] == [picture]


@pytest.mark.parametrize("size", [CardSize(57.15, 88.9, 3.175), CardSize(70.0, 120.0, 3.0), CardSize(70.0, 70.0, 3.0)])
def test_other_card_sizes_stay_inside_bleed(deck, size):
    for card in _all_cards(deck):
        if card.get("token"):
            continue
        resized = dataclasses.replace(card, size=size)
        for face in (stack.front(resized), stack.back(resized)):
            assert_inside_bleed(face, resized)
            assert_glyphs(face)


def test_a_tokens_english_caption_is_small_by_design_and_says_so(deck):
    # STACK under the Korean name is 4.8 pt, below the card's 6 pt floor: the design gives that caption
    # a floor of its own (legibility_floor: 4.5pt), so the token has no warning, and without it would.
    token = deck.components["stack_tokens"][0]
    [caption] = [t for t in texts(stack.front(token)) if t.text == "STACK"]
    assert caption.size_mm * 72 / 25.4 == pytest.approx(4.8, abs=0.1)
    assert stack.front(token).warnings == ()
    layout = shipped_layouts(stack.DESIGN)["token"]
    held = tuple(dataclasses.replace(e, legibility_floor_mm=None) if e.name == "label_en" else e
                 for e in layout.elements)
    unmarked = design.draw(dataclasses.replace(layout, elements=held), token,
                           design.Resources(icons=icons()))
    [warning] = unmarked.warnings
    assert "label_en: text set at 1.68 mm (4.8 pt), below the legibility floor of 2.12 mm (6 pt)" in warning


def test_unknown_cards_are_refused(deck):
    art = Art(colors={})
    size = CardSize(63.5, 88.9)
    with pytest.raises(DeckError, match="no Stack Original layout"):
        stack.front(Card("x", "odd", {"colour": "red"}, art, size))
    with pytest.raises(DeckError, match="'diamond'"):
        stack.front(Card("x", "odd", {"cost": 1, "minerals": ("diamond",)}, art, size))
    with pytest.raises(DeckError, match="'swamp'"):
        stack.front(Card("x", "odd", {"terrain": "swamp", "mineral": "coal"}, art, size))


def _rasterise(outline, n=48):
    """Cells of an n x n grid over the unit square whose centres lie inside the outline."""

    def inside(x, y):
        hit = False
        for (x1, y1), (x2, y2) in zip(outline, outline[1:] + outline[:1]):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                hit = not hit
        return hit

    return {(i, j) for i in range(n) for j in range(n) if inside((i + 0.5) / n - 0.5, (j + 0.5) / n - 0.5)}


def test_mineral_silhouettes_differ_by_shape_alone():
    cells = {m: _rasterise(list(OUTLINES[m])) for m in MINERALS}
    for i, a in enumerate(MINERALS):
        for b in MINERALS[i + 1 :]:
            overlap = len(cells[a] & cells[b]) / len(cells[a] | cells[b])
            assert overlap < 0.75, (a, b, overlap)


def test_icon_first_op_is_the_silhouette_and_unknown_minerals_fail():
    ops = mineral_icon("sapphire", 10, 20, 12, "#0057b8")
    assert isinstance(ops[0], Polygon) and ops[0].fill == "#0057b8" and len(ops) > 1
    assert len(mineral_icon("sapphire", 10, 20, 4, "#0057b8")) == 1  # no facets when tiny
    with pytest.raises(ValueError, match="'diamond'"):
        mineral_icon("diamond", 0, 0, 10, "#000000")


def _paper(face, card):
    """The fill of the last rect covering the card's whole bleed: the paper the face shows."""
    bleed = bleed_box(card.size)
    covering = [op for op in face.ops if isinstance(op, Rect) and op.fill and op.x_mm <= bleed.x_mm + 1e-6
                and op.w_mm >= bleed.w_mm - 1e-6 and op.h_mm >= bleed.h_mm - 1e-6]
    return covering[-1].fill


def test_big_gems_of_a_card_do_not_overlap(deck):
    # The design's rows of large gems (on their discs) for one, two and three minerals.
    for minerals_ in [("ruby",), ("gold", "coal"), ("ruby", "gold", "sapphire")]:
        card = _deck_card(deck, *minerals_)
        discs = sorted((op for op in stack.front(card).ops if isinstance(op, Ellipse) and op.rx_mm > 6),
                       key=lambda op: op.cy_mm)
        assert len(discs) == len(minerals_)
        for a, b in zip(discs, discs[1:]):
            assert b.cy_mm - a.cy_mm > a.ry_mm + b.ry_mm


def test_bad_mineral_sets_are_refused():
    art, size = Art(colors={}), CardSize(63.5, 88.9)
    for bad in [(), ("ruby", "ruby"), ("ruby", "gold", "sapphire", "coal")]:
        with pytest.raises(DeckError, match="must be 1-3"):
            stack.front(Card("x", "odd", {"minerals": bad}, art, size))


def test_background_image_shows_behind_the_icons(deck, tmp_path):
    from ._ops import image_share, with_background_image

    card = _deck_card(deck, "ruby", "gold")
    assert image_share(stack.front(card), card, 0.25, 0.1, 0.75, 0.9) == 0
    face = stack.front(with_background_image(card, tmp_path))
    assert image_share(face, card, 0.25, 0.1, 0.75, 0.9) > 0.15
    assert face.warnings == ()


def test_back_label_falls_back_per_character_and_names_undrawable_ones(deck):
    card = deck.cards[0]
    art = dataclasses.replace(card.art, back_label="스택 ♦ 🧩")
    face = stack.back(dataclasses.replace(card, art=art))
    drawn = "".join(t.text for t in texts(face))
    assert "스택" in drawn and "♦" in drawn
    for t in texts(face):
        assert set(fonts.missing_glyphs(t.text, t.font)) <= {"🧩"}, (t.text, t.font.name)
    (warning,) = face.warnings
    assert card.label in warning and "back_label" in warning and "🧩" in warning and "♦" not in warning.split(" in ")[0]


def test_no_two_lines_of_a_mineral_card_overlap(deck):
    # Every deck card and generated marker: no text line's box runs into another's (a three-mineral
    # marker's last English name once sat on its "never shuffle in" footer).
    from ._ops import op_bounds

    cards = [c for c in _all_cards(deck) if "minerals" in c.attrs]
    assert any(c.get("generated") and len(c["minerals"]) == 3 for c in cards)
    for card in cards:
        lines = [op_bounds(t) for t in texts(stack.front(card)) if t.rotate_deg == 0]
        for i, a in enumerate(lines):
            for b in lines[i + 1:]:
                e = 1e-6  # lines that touch are apart
                apart = a[2] <= b[0] + e or b[2] <= a[0] + e or a[3] <= b[1] + e or b[3] <= a[1] + e
                assert apart, (card.label, a, b)
