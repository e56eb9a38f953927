"""Layouts: an element anchored to a text stands where that text is set on each card, as a person
sees it on the rendered card; a bad anchor is one error at its place in the spec."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from printkit.decks import load_all_variants
from printkit.layout import design, templates
from printkit.render.png import render_face

from cli_in import check_in, place_of

DPI = 300
MM = DPI / 25.4

SPEC = """\
game: example
name: Anchors
card: {size: mini, bleed: 3mm, safe: 3mm}
art: {colors: {background: "#ffffff", ink: "#000000"}}
layouts:
  tag:
    elements:
      - {name: title, kind: text, text: "{title}", x: 0, y: 2mm, width: 100%, height: 8mm, frame: safe, size: 5mm,
         fit: none, wrap: false, valign: caps}
      - {name: badge, kind: rect, anchor: {to: title, x: after, y: middle, gap: 1mm}, width: 3mm, height: 3mm,
         fill: "#ff0000"}
      - {name: disc, kind: ellipse, anchor: {to: title, x: center, y: below, gap: 2mm}, width: 6mm, height: 6mm,
         fill: "#0000ff"}
      - {name: note, kind: text, text: "{note}", when_has: note, x: 0, y: -4mm, width: 30mm, height: 8mm, frame: safe,
         size: 4mm, fit: none, valign: caps, align: right, rotate: 180}
      - {name: mark, kind: rect, anchor: {to: note, x: start, y: top}, width: 2mm, height: 1mm, fill: "#00ff00"}
groups:
  - name: cards
    layout: tag
    cards:
      - {title: I}
      - {title: WWWW, note: HH}
"""


def cards(folder: Path, spec: str = SPEC):
    (folder / "deck.yaml").write_text(spec, encoding="utf-8")
    [deck] = load_all_variants(folder / "deck.yaml")
    return deck, deck.cards


def pixels(card, deck) -> np.ndarray:
    return np.asarray(render_face(templates.front(card, deck), card.size, DPI).convert("RGB"), dtype=np.int16)


def extent(image: np.ndarray, color: tuple[int, int, int], rows: slice = slice(None)) -> tuple[float, ...] | None:
    """Left, top, right, bottom (mm, from the bleed's corner) of the pixels near ``color``."""
    near = (np.abs(image[rows] - np.array(color)).sum(axis=2) < 90)
    ys, xs = np.nonzero(near)
    if not len(xs):
        return None
    top = (rows.start or 0) + ys.min()
    return xs.min() / MM, top / MM, (xs.max() + 1) / MM, ((rows.start or 0) + ys.max() + 1) / MM


def test_a_badge_follows_the_end_of_its_title_and_a_disc_its_middle(tmp_path):
    deck, (short, long) = cards(tmp_path)
    seen = []
    for card in (short, long):
        image = pixels(card, deck)
        top_band = slice(0, round(20 * MM))  # the title's line, clear of the turned note at the bottom
        left, top, right, bottom = extent(image, (0, 0, 0), top_band)
        red = extent(image, (255, 0, 0))
        blue = extent(image, (0, 0, 255))
        # After the title's end, 1 mm apart (the letter's own side bearing adds a little) ...
        assert 1.0 <= red[0] - right <= 1.6, (card.attrs, red, right)
        # ... and centred on its capitals (I and W are all capital: their ink is the capitals' box).
        assert abs((red[1] + red[3]) / 2 - (top + bottom) / 2) < 0.1
        # The disc centred under the title, 2 mm below its baseline.
        assert abs((blue[0] + blue[2]) / 2 - (left + right) / 2) < 0.3
        assert abs(blue[1] - bottom - 2.0) < 0.1
        seen.append(red[0])
    assert seen[1] - seen[0] > 10  # the longer title took its badge with it


def test_an_anchor_follows_a_turned_text_and_is_not_drawn_without_its_text(tmp_path):
    deck, (short, long) = cards(tmp_path)
    assert extent(pixels(short, deck), (0, 255, 0)) is None  # no note on this card: no mark either
    image = pixels(long, deck)
    low_band = slice(round(40 * MM), None)
    left, top, right, bottom = extent(image, (0, 0, 0), low_band)
    green = extent(image, (0, 255, 0))
    # The note is turned half a turn, and so is its extent: its left is where the turned text ends
    # (the last letter's side bearing before the ink), its top the turned baseline. Had the extent
    # not turned, the mark would stand some 20 mm to the right and 3 mm lower.
    assert 0 <= left - green[0] < 0.45
    assert abs(green[1] - top) < 0.1


def test_a_check_places_an_anchored_element_as_a_build_does(tmp_path):
    deck, (_, long) = cards(tmp_path)
    layout = deck.layouts["tag"]
    places = lambda proving: [(p.element.name, p.box)  # noqa: E731
                              for p in design.laid_out(layout, long, deck.resources, proving=proving)]
    built_places = places(False)
    assert places(True) == built_places
    # the disc stands by the title as set, not where its own box is written
    disc = next(p for p in built_places if p[0] == "disc")
    assert disc[1] != next(e for e in layout.elements if e.name == "disc").box(long.size)


def test_an_anchored_text_is_not_warned_of_for_where_its_box_is_written(tmp_path):
    # Written at x: 0 of the trim, out of the safe zone; it stands after the title on every card.
    spec = SPEC.replace("  - name: cards", """  - name: more
    layout: cost
    cards: [{title: Ash, cost: 3}]
  - name: cards""").replace("groups:", """  cost:
    extends: tag
    elements:
      - {name: cost, kind: text, text: "{cost}", anchor: {to: title, x: after, y: top, gap: 6mm}, width: 8mm,
         height: 6mm, size: 4mm, valign: caps}
groups:""")
    result = check_in(tmp_path, spec)
    assert result.exit_code == 0 and "warning" not in result.output, result.output
    deck, cards_ = cards(tmp_path, spec)
    image = pixels(cards_[0], deck)
    left, top, right, bottom = extent(image, (0, 0, 0), slice(0, round(12 * MM)))
    assert right > 15  # "Ash", a gap and the 3: the cost stands after the title, not at the card's edge


EXTENDED = SPEC.replace("groups:", """  bare:
    extends: tag
    remove: [title]
groups:""").replace("cards:\n      - {title: I}", "cards:\n      - {title: I, layout: bare}")


@pytest.mark.parametrize("spec, needle, word, message", [
    (SPEC.replace("to: title, x: after", "to: titel, x: after"), "to: titel", "titel",
     "layout 'tag', element 'badge': anchor: unknown element 'titel' (did you mean 'title'?); known: badge, "),
    (SPEC.replace("to: title, x: after", "to: badge, x: after"), "to: badge", "badge, x:",
     "element 'badge' cannot be anchored to itself"),
    (SPEC.replace("to: title, x: center", "to: badge, x: center"), "to: badge, x: center", "badge, x:",
     "anchor: 'badge' is a rect element; an anchor places a box by where a text element is set"),
    (SPEC.replace("to: title, x: after", "to: note, x: after"), "to: note, x: after", "note, x:",
     "'note' is drawn after this element, so it is not set yet"),
    (EXTENDED, "to: title, x: after", "title, x: after",
     "layout 'bare', element 'badge': anchor: unknown element 'title'; known: badge, disc, mark, note"),
])
def test_an_anchor_to_no_text_before_it_is_an_error_at_its_name(tmp_path, spec, needle, word, message):
    result = check_in(tmp_path, spec)
    assert result.exit_code == 1, result.output
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(place_of(spec, needle, word)), line
    assert message in line, line


@pytest.mark.parametrize("change, needle, message", [
    (("{to: title, x: after, y: middle, gap: 1mm}", "{to: title}"), "{to: title}",
     "an anchor says how the box stands by the text: give it x"),
    (("x: center, y: below, gap: 2mm", "x: center, gap: 2mm"), "x: center, gap: 2mm",
     "gap is the room an anchor's after, before, above or below leaves"),
    (("x: after, y: middle, gap: 1mm}, width: 3mm", "x: after, y: middle, gap: 1mm}, x: 5mm, width: 3mm"),
     "x: 5mm", "x is where anchor.x (after) puts the box; leave x out"),
    (("x: after, y: middle", "x: behind, y: middle"), "x: behind",
     "'behind' is not one of: start, center, centre, end, after, before"),
])
def test_an_anchor_that_cannot_place_is_an_error_at_the_element(tmp_path, change, needle, message):
    spec = SPEC.replace(*change)
    result = check_in(tmp_path, spec)
    assert result.exit_code == 1, result.output
    [line] = result.stderr.strip().splitlines()
    number = next(i for i, text in enumerate(spec.splitlines(), 1) if needle in text)
    assert line.startswith(f"deck.yaml:{number}:"), line
    assert message in line, line


def test_an_anatomy_figure_points_at_an_anchored_element_where_it_stands(tmp_path):
    from printkit.rulebook.designed import anatomy_figure

    deck, (_, long) = cards(tmp_path)
    parts = dict(anatomy_figure(deck, "WWWW: title, badge, mark").parts)
    image = pixels(long, deck)
    red, green = extent(image, (255, 0, 0)), extent(image, (0, 255, 0))
    bleed = 3.0  # the picture's corner is the bleed's; a part's box is in the trim
    for box, seen in ((parts["badge"], red), (parts["mark"], green)):
        assert abs(box.x_mm + bleed - seen[0]) < 0.1 and abs(box.y_mm + bleed - seen[1]) < 0.1, (box, seen)


def test_calcs_index_disc_stands_under_any_number_even_one_the_design_never_listed(tmp_path):
    spec = tmp_path / "mine.yaml"
    spec.write_text("game: calc\nname: Mine\ncard: {size: poker, bleed: 0.125in, safe: 3mm}\n"
                    "groups:\n  - name: numbers\n    attrs: {kind: number}\n"
                    "    generate: {symbol: [plus], number: [12, 8]}\n", encoding="utf-8")
    [deck] = load_all_variants(spec)
    centres = []
    for card in deck.cards:
        image = pixels(card, deck)
        corner = slice(0, round(31 * MM))  # the top index down to the disc's middle, above the large symbol
        left, _, right, _ = extent(image, (0x1d, 0x1d, 0x1f), corner)
        disc = extent(image, (0x00, 0x72, 0xb2), corner)
        assert disc is not None, card.attrs
        assert abs((disc[0] + disc[2]) / 2 - (left + right) / 2) < 0.3, card.attrs
        centres.append((disc[0] + disc[2]) / 2)
    assert centres[0] < centres[1] - 2  # under the wider 12, the disc stands further left than under 8


PAST_THE_CUT = """\
game: example
name: Anchored past the cut
card: {size: mini, bleed: 3mm, safe: 3mm}
art: {colors: {background: "#ffffff", ink: "#000000"}}
layouts:
  tag:
    elements:
      - {name: title, kind: text, text: "{title}", x: 0, y: 2mm, width: 100%, height: 8mm, frame: safe, size: 5mm,
         fit: none, wrap: false, valign: caps}
      - {name: cost, kind: text, text: "9", anchor: {to: title, x: after, gap: 1mm}, y: 0, frame: safe, width: 6mm,
         height: 8mm, size: 5mm, valign: caps}
      - {name: bar, kind: rect, anchor: {to: title, x: after, gap: 1mm}, y: 20mm, width: 1mm, height: 14mm,
         fill: "#ff0000", rotate: ROTATE}
groups:
  - name: cards
    layout: tag
    cards: [{title: WW}, {title: WWWWWWW}, {title: WWWWWWWW}]
"""


def said_on_cards(tmp_path, spec):
    """Each card's title and what drawing its face says (as a build draws it)."""
    deck, drawn = cards(tmp_path, spec)
    return {card.attrs["title"]: design.draw(deck.layouts["tag"], card, deck.resources).warnings for card in drawn}


@pytest.mark.parametrize("rotate", [0, 90])
def test_an_element_its_text_takes_past_the_cut_is_warned_of_on_that_card(tmp_path, rotate):
    spec = PAST_THE_CUT.replace("ROTATE", str(rotate))
    said = said_on_cards(tmp_path, spec)
    assert said["WW"] == ()  # the cost and the bar stay well inside a short title's card
    # Seven Ws: the cost's box leaves the safe zone (not the card), as a fixed text box is warned of.
    [safe] = said["WWWWWWW"]
    assert safe.startswith("cards[title=WWWWWWW]#1 cost: placed by 'title' as it is set on this card, the text "
                           "box leaves the safe zone by "), safe
    # Eight: the cost runs off the card; a bar turned a quarter turn about its box's centre lies
    # across 14 mm and runs off too, where upright (1 mm wide) it stays on.
    cost, *bar = said["WWWWWWWW"]
    assert cost.startswith("cards[title=WWWWWWWW]#1 cost: placed by 'title' as it is set on this card, it runs "), cost
    assert cost.endswith(" mm past the cut on the right; give this card a shorter 'title', or the element a smaller "
                         "gap or box, or clear_of an element at that edge so it is left out where it does not fit")
    assert 1.5 < float(cost.split(" it runs ")[1].split(" mm ")[0]) < 3  # its 6 mm box starts ~4 mm short of the cut
    assert len(bar) == (rotate == 90) and all(" bar: placed by 'title'" in w and "past the cut on the right" in w
                                              for w in bar), bar
    # A check lays the faces out as a build does, and says the same, card by card.
    result = check_in(tmp_path, spec)
    assert result.exit_code == 0, result.output
    checked = [line.strip()[len("warning: "):] for line in result.output.splitlines() if "warning:" in line]
    assert checked == [w for title in ("WWWWWWW", "WWWWWWWW") for w in said[title]], result.output
