"""Calc rulebook content: cards from the spec, scores and verdicts from the rule engine."""

from __future__ import annotations

from fractions import Fraction

import pytest

from printkit.errors import BuildError
from printkit.rulebook.content import CardParts, Example, Figure, Table, TableSetup, content_for
from printkit.games.calc import rulebook as calc
from printkit.games.calc import engine
from printkit.games.calc.score import PayCard, pay_value
from printkit.spec import DECKS_DIR
from printkit.decks import load_deck


@pytest.fixture(scope="module")
def deck():
    return load_deck(DECKS_DIR / "calc.yaml")


def test_registry_lists_every_content_function():
    content = content_for("calc")
    assert set(content.figures) == {"cover", "symbols", "anatomy", "setup"}
    assert set(content.examples) == {"seed", "matching", "lock_joker", "power", "final"}
    assert set(content.tables) == {"composition"}
    assert content_for("no-such-game").figures == {}


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_content_function_returns_data(deck, lang):
    content = content_for("calc")
    for kind, registry, cls in (("figure", content.figures, (Figure, CardParts, TableSetup)),
                                ("example", content.examples, Example),
                                ("table", content.tables, Table)):
        for name, make in registry.items():
            result = make(deck, lang)
            assert isinstance(result, cls), (kind, name)
            for row in getattr(result, "rows", ()) if kind != "figure" else ():
                assert len(row) == len(result.header), (kind, name, row)


def test_seed_example_is_the_engine_score_of_the_spec_cards(deck):
    example = calc.seed(deck, "en")
    assert [calc.card_text(c, "en") for c in example.cards] == ["9−", "5×", "2−", "1+", "8+"]
    assert all(card in deck.cards for card in example.cards)
    assert example.values["score"] == "52" == str(pay_value(example.cards))
    assert [row[-1] for row in example.rows] == ["9", "45", "43", "44", "52"]
    assert example.card_labels == ("9", "45", "43", "44", "52")


def test_lock_and_joker_example(deck):
    example = calc.lock_joker(deck, "ko")
    assert example.values["locked"] == "63" and example.values["after_joker"] == "0" and example.values["final"] == "−4"
    verdicts = [row[3] for row in example.rows]
    assert verdicts == ["불가", "가능", "가능", "가능", "가능"]
    # The pile ends as 3+ 3× 7× joker 4− 8−: the three cards under the joker are void.
    assert [calc.card_text(c, "en") for c in example.cards] == ["3+", "3×", "7×", "joker", "4−", "8−"]
    assert example.card_labels[:3] == ("무효",) * 3


def test_an_engine_that_disagrees_fails_the_build(deck, monkeypatch):
    monkeypatch.setattr(engine, "why_not_playable", lambda state, card, pay, seat=None: None)
    with pytest.raises(BuildError, match="rule engine allows 2x on a pay locked by a 7"):
        calc.lock_joker(deck, "en")


def test_matching_example_verdicts(deck):
    example = calc.matching(deck, "en")
    assert example.values == {"top": "4+", "allowed": 3, "tried": 4}
    assert [row[1] for row in example.rows] == ["allowed", "allowed", "not allowed", "allowed"]


def test_power_example_uses_the_expert_deck(deck):
    example = calc.power(deck, "en")
    assert example.values["score"] == "1/9" and example.values["zero_inverse"] == "0"
    assert all(card["symbol"] == "power" for card in example.cards)
    assert pay_value(example.cards) == Fraction(1, 9)


def test_final_example_bonus_decides(deck):
    example = calc.final(deck, "en")
    assert example.values["winner"] == "Ben" and example.values["winner_score"] == "29"
    assert example.values["bonus"] == engine.FEWEST_CARDS_BONUS
    ben = next(row for row in example.rows if row[0] == "Ben")
    assert ben[2:] == ("24", "0", "+5", "29")


def test_composition_counts_come_from_the_spec(deck):
    table = calc.composition(deck, "en")
    assert table.header == ("Card", "Numbers", "Standard", "Expert")
    rows = {row[0]: row[2:] for row in table.rows}
    assert rows["power ^"] == ("—", "44") and rows["plus +"] == ("44", "44")
    assert rows["**Total**"] == ("**133**", "**177**")


def test_missing_cards_are_reported(deck):
    with pytest.raises(BuildError, match="no \\(further\\) card \\('plus', 42\\)"):
        calc.find_cards(deck, [("plus", 42)])
    # Five copies of one card do not exist (four per pair).
    with pytest.raises(BuildError):
        calc.find_cards(deck, [("plus", 1)] * 5)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_content_string_exists_in_its_font(deck, lang):
    from printkit import fonts
    from printkit.rulebook import book
    from printkit.rulebook import markdown as md

    content = content_for("calc")
    strings = []
    for registry in (content.figures, content.examples, content.tables):
        for make in registry.values():
            result = make(deck, lang)
            strings += [result.caption or ""] + list(getattr(result, "labels", ())) + list(getattr(result, "card_labels", ()))
            if isinstance(result, TableSetup):
                strings += [zone.name for row in result.rows for zone in row]
                continue
            if isinstance(result, CardParts):
                strings += [label for label, _ in result.parts]
                continue
            strings += list(getattr(result, "header", ())) + [cell for row in getattr(result, "rows", ()) for cell in row]
            strings += [str(v) for v in getattr(result, "values", {}).values()]
    for text in strings:
        for span in md.parse_inline(text):
            for font, run in book.font_runs(span.text, book.BOLD if span.bold else book.REGULAR):
                assert fonts.missing_glyphs(run, font) == "", (text, font.name)


@pytest.mark.parametrize("lang, claim, gone", [
    ("en", "Scores have no limit and are never rounded", "stop at ±10^100"),
    ("ko", "점수에는 한계가 없고 반올림하지도 않습니다", "±10^100에서 멈춥니다"),
])
def test_the_faq_says_scores_are_exact_without_a_limit_as_the_engine_keeps_them(lang, claim, gone):
    # The engine keeps 9^729 exactly and its double apart ...
    tower = pay_value([PayCard("plus", 9)] + [PayCard("power", 9)] * 3)
    assert tower == 9**729 and pay_value([PayCard("plus", 9)] + [PayCard("power", 9)] * 3 + [PayCard("times", 2)]) == 2 * tower
    # ... so the FAQ says so, and no longer speaks of a cap.
    text = (DECKS_DIR / f"calc.rules.{lang}.md").read_text(encoding="utf-8")
    assert claim in text and gone not in text
