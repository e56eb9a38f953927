"""A text left out where it would repeat another's words (``unless_repeats``): a role's name in a
second language that falls back to the first's words is printed once, on printkit's role backs as
on a designer's layout; naming an element that cannot be repeated is an error at the key."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from printkit.decks import load_all_variants
from printkit.layout import templates
from printkit.layout.ops import Text
from printkit.render.png import render_face

from cli_in import invoke_in

DPI = 150
MM = DPI / 25.4

SPEC = """\
game: example
name: Twice
card: {size: poker, bleed: 3mm, safe: 3mm}
art: {colors: {background: "#ffffff", ink: "#000000"}, back: {color: "#203040", label: TWICE}}
lookups:
  kind: {ko: 도움, "*": AID}
layouts:
  named:
    elements:
      - {name: first, kind: text, text: "{kind[_languages[0]]}", x: 0, y: 0, width: 100%, height: 10mm, size: 3mm}
      - {name: mark, kind: rect, x: 0, y: 10mm, width: 5mm, height: 5mm, fill: ink}
      - {name: second, kind: text, text: "{kind[_languages[1]]}", when_has: "_languages[1]", unless_repeats: first,
         x: 0, y: 20mm, width: 100%, height: 10mm, size: 3mm}
groups:
  - name: cards
    cards: [{title: A}]
components:
  - name: aids
    role: aid
    cards: [{title: C}]
  - name: notes
    role: reference
    back_layout: named
    cards: [{title: N}]
"""


def deck_of(folder: Path, rules: tuple[str, ...], spec: str = SPEC):
    folder.mkdir(exist_ok=True)
    (folder / "deck.yaml").write_text(spec, encoding="utf-8")
    for lang in rules:
        (folder / f"deck.rules.{lang}.md").write_text("# Rules\n\nPlay.\n", encoding="utf-8")
    [deck] = load_all_variants(folder / "deck.yaml")
    return deck


def back_of(deck, title):
    card = next(c for c in deck.all_cards() if c.get("title") == title)
    return card, templates.back(card, deck)


def texts(face) -> list[str]:
    return [op.text for op in face.ops if isinstance(op, Text)]


@pytest.mark.parametrize("rules, shown", [
    (("de", "fr"), ["PLAYER AID", "PLAYER AID"]),  # both read English: once, upright and turned
    (("en", "de"), ["PLAYER AID", "PLAYER AID"]),
    (("ko", "de"), ["도움말", "도움말", "PLAYER AID", "PLAYER AID"]),
    (("ko",), ["도움말", "도움말"]),
])
def test_a_role_back_names_the_role_once_where_both_languages_read_the_same(tmp_path, rules, shown):
    _card, face = back_of(deck_of(tmp_path, rules), "C")
    assert texts(face)[:-1] == shown and texts(face)[-1] == "TWICE"  # the game's chip last


def ink_rows(card, face) -> list[int]:
    """The rows (whole mm from the bleed's top) of the top half where the back colour is printed
    as text on the light field: the role's names, read as a person sees them."""
    image = np.asarray(render_face(face, card.size, DPI).convert("RGB"), dtype=np.int16)
    dark = (np.abs(image - np.array((0x20, 0x30, 0x40))).sum(axis=2) < 60)
    half = image.shape[0] // 2 - int(12 * MM)  # above the chip
    return sorted({int(y / MM) for y in np.nonzero(dark[:half].any(axis=1))[0]})


def test_the_second_line_is_left_blank_on_the_printed_back(tmp_path):
    card, once = back_of(deck_of(tmp_path / "once", ("de", "fr")), "C")
    _card, both = back_of(deck_of(tmp_path / "both", ("ko", "de")), "C")
    printed, two = ink_rows(card, once), ink_rows(card, both)
    assert printed and set(printed) < set(two)
    assert max(two) - max(printed) >= 8  # the second name's line, some 12 mm lower, is blank


@pytest.mark.parametrize("rules, shown", [(("de", "fr"), ["AID"]), (("ko", "de"), ["도움", "AID"])])
def test_a_designers_layout_leaves_a_repeated_text_out(tmp_path, rules, shown):
    assert texts(back_of(deck_of(tmp_path, rules), "N")[1]) == shown


def test_a_text_not_drawn_is_not_repeated(tmp_path):
    spec = SPEC.replace('text: "{kind[_languages[0]]}",', 'text: "{kind[_languages[0]]}", when_lacks: title,')
    assert texts(back_of(deck_of(tmp_path, ("de", "fr"), spec), "N")[1]) == ["AID"]  # the second's


@pytest.mark.parametrize("new, message", [
    ("unless_repeats: frist", "unless_repeats: unknown element 'frist' (did you mean 'first'?)"),
    ("unless_repeats: mark", "unless_repeats: 'mark' is a rect element; a text repeats only a text"),
    ("unless_repeats: second", "unless_repeats: element 'second' cannot name itself"),
])
def test_misnamed_it_is_an_error_at_the_key(tmp_path, new, message):
    spec = SPEC.replace("unless_repeats: first", new)
    (tmp_path / "deck.yaml").write_text(spec, encoding="utf-8")
    result = invoke_in(tmp_path, "check", "deck.yaml", "--no-play")
    assert result.exit_code == 1, result.output
    [line] = result.stderr.strip().splitlines()
    number, text = next((i, t) for i, t in enumerate(spec.splitlines(), 1) if new in t)
    assert line.startswith(f"deck.yaml:{number}:{text.index(new) + len('unless_repeats: ') + 1}:"), line
    assert message in line, line


def test_an_element_that_is_not_a_text_is_told_first_even_when_drawn_after(tmp_path):
    # What it names is wrong before where it stands: moving the element would not help (as for an anchor).
    spec = SPEC.replace("unless_repeats: first", "unless_repeats: dot")
    spec = spec.replace("         x: 0, y: 20mm, width: 100%, height: 10mm, size: 3mm}\n",
                        "         x: 0, y: 20mm, width: 100%, height: 10mm, size: 3mm}\n"
                        "      - {name: dot, kind: ellipse, x: 0, y: 30mm, width: 5mm, height: 5mm, fill: ink}\n", 1)
    (tmp_path / "deck.yaml").write_text(spec, encoding="utf-8")
    result = invoke_in(tmp_path, "check", "deck.yaml", "--no-play")
    assert result.exit_code == 1, result.output
    [line] = result.stderr.strip().splitlines()
    assert line.endswith("unless_repeats: 'dot' is an ellipse element; a text repeats only a text"), line


def test_it_is_for_texts_only(tmp_path):
    spec = SPEC.replace("fill: ink}", "fill: ink, unless_repeats: first}")
    (tmp_path / "deck.yaml").write_text(spec, encoding="utf-8")
    result = invoke_in(tmp_path, "check", "deck.yaml", "--no-play")
    assert result.exit_code == 1 and "'unless_repeats' does not apply to a rect element (it is for: text)" \
        in result.stderr, result.output
