"""`printkit check` proves most texts fit by a bound instead of setting them, and still says every
warning a build says about the faces: the shipped decks' faces say the same with and without the
bound, and an overflow or a size below the legibility floor that only setting finds is reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from printkit.check import check_spec
from printkit.decks import expand_all
from printkit.layout import templates
from printkit.layout.richtext import fit_rich
from printkit.spec import load_spec

DECKS = Path(__file__).resolve().parent.parent / "decks"

SPEC = """\
game: bound
name: Bound
card: {size: poker}
layouts:
  card:
    elements:
      - {name: title, kind: text, text: "{title}", x: 4mm, y: 3mm, width: 44mm, height: 8mm, size: 5mm,
         min_size: 2.5mm, bold: true}
      - {name: rules, kind: text, text: "{text}", x: 4mm, y: 54mm, width: 55.5mm, height: 22mm, size: 3.2mm,
         min_size: %(min)s}
groups:
  - name: cards
    layout: card
    cards:
      - {title: Spark, text: "Deal 2 damage to any target."}
      - {title: Flood, text: "%(long)s"}
"""


@pytest.mark.parametrize("name", ["emberfall.yaml", "calc.yaml", "stack.yaml", "clag.yaml"])
def test_the_shipped_decks_faces_warn_the_same_with_the_bound(name):
    for deck in expand_all(load_spec(DECKS / name)):
        for card in deck.cards:
            if templates.is_page(card):
                continue
            assert templates.front(card, deck, proving=True).warnings == templates.front(card, deck).warnings
            assert templates.back(card, deck, proving=True).warnings == templates.back(card, deck).warnings


def test_check_proves_a_text_without_setting_it(tmp_path, monkeypatch):
    spec = tmp_path / "bound.yaml"
    spec.write_text(SPEC % {"min": "2mm", "long": "Draw a card."})
    set_in_full = []
    real = fit_rich

    def counted(markup, *args, **options):
        fitted = real(markup, *args, **options)
        if not fitted.proved:
            set_in_full.append(markup)
        return fitted

    monkeypatch.setattr("printkit.layout.design.fit_rich", counted)
    reports = check_spec(spec)
    assert reports[0].warnings == () and set_in_full == []


def test_check_reports_an_overflow_only_setting_finds(tmp_path):
    spec = tmp_path / "bound.yaml"
    spec.write_text(SPEC % {"min": "2mm", "long": "Draw a card and burn it. " * 30})
    warnings = check_spec(spec)[0].warnings
    assert len(warnings) == 1 and "Flood" in warnings[0] and "does not fit 55.5x22.0 mm" in warnings[0]


def test_check_reports_a_text_set_below_the_legibility_floor(tmp_path):
    # fits at 1 mm but not at the floor: the bound cannot prove it, setting finds the size
    spec = tmp_path / "bound.yaml"
    spec.write_text(SPEC % {"min": "1mm", "long": "Draw a card and burn it. " * 34})
    warnings = check_spec(spec)[0].warnings
    assert len(warnings) == 1 and "below the legibility floor" in warnings[0]


LONG_WORD = "Pneumonoultramicroscopicsilicovolcanoconiosis"


@pytest.mark.parametrize("word, said", [(LONG_WORD, None), (LONG_WORD * 2, "broken between letters")])
def test_check_says_of_a_long_word_what_a_build_says(tmp_path, word, said):
    # Wider than the box at 3.2 mm: set whole at a smaller size, which a check proves, or (twice as
    # long) wider even at the minimum: broken, which a check finds as a build does.
    spec = tmp_path / "bound.yaml"
    spec.write_text(SPEC % {"min": "2mm", "long": word})
    warnings = check_spec(spec)[0].warnings
    faces = [w for deck in expand_all(load_spec(spec)) for card in deck.cards
             for w in templates.front(card, deck).warnings]
    if said is None:
        assert warnings == () and faces == []
    else:
        assert len(warnings) == len(faces) == 1 and warnings[0].endswith(faces[0])
        assert "Flood" in faces[0] and "rules" in faces[0] and said in faces[0]
        assert f"the word '{word[:30]}" in faces[0]  # shortened, as a warning quotes text
