"""Inline values come from the expanded spec, never from hand-typed numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from printkit.errors import BuildError
from printkit.rulebook.values import ValueContext, format_value, resolver
from printkit.spec import DECKS_DIR
from printkit.decks import load_all_variants


@pytest.fixture(scope="module")
def calc():
    variants = load_all_variants(DECKS_DIR / "calc.yaml")
    return resolver(ValueContext(variants[0], {v.variant: v for v in variants},
                                 example_values=lambda name: {"score": 52} if name == "seed" else {}, players=(2, 8)))


@pytest.mark.parametrize("key, value", [
    ("deck.name", "Calc"),
    ("deck.total", "133"),
    ("deck.groups.numbers", "132"),
    ("deck.groups.joker", "1"),
    ("deck.groups.numbers.copies", "4"),
    ("deck.groups.numbers.types", "33"),
    ("deck.by.symbol.plus", "44"),
    ("deck.by.number.-1", "12"),
    ("deck.by.number.7.types", "3"),
    ("deck.types", "34"),
    ("deck.variants.expert.total", "177"),
    ("deck.variants.expert.by.symbol.power", "44"),
    ("deck.variants.standard.total", "133"),
    ("engine.min_players", "2"),
    ("engine.max_players", "8"),
    ("example.seed.score", "52"),
])
def test_calc_values_from_the_spec(calc, key, value):
    assert calc(key) == value


def test_the_spec_decides_the_counts():
    """Counts follow the spec: the expert deck as the book's deck gives the expert numbers."""
    variants = load_all_variants(DECKS_DIR / "calc.yaml")
    expert = next(v for v in variants if v.variant == "expert")
    resolve = resolver(ValueContext(expert))
    assert resolve("deck.total") == str(len(expert.cards)) == "177"
    assert resolve("deck.by.symbol.power") == "44"


def test_component_counts():
    (stack,) = load_all_variants(DECKS_DIR / "stack.yaml")
    resolve = resolver(ValueContext(stack))
    assert resolve("deck.total") == "52"
    for name, cards in stack.components.items():
        assert resolve(f"deck.components.{name}") == str(len(cards))
    assert resolve("deck.components.terrains.types") == "4"


@pytest.mark.parametrize("key, fragment", [
    ("deck.totl", "known under deck: "),
    ("deck.by.symbol.divide", "known under deck.by.symbol: minus, plus, times"),
    ("deck.groups.nope", "known under deck.groups: joker, numbers"),
    ("deck.variants.hard.total", "known under deck.variants: expert, standard"),
    ("deck.components.tokens", "deck.components"),
    ("example.seed.nope", "known under example.seed: score"),
    ("colour", "known under the top level: deck, engine, example"),
])
def test_unknown_keys_say_what_is_known(calc, key, fragment):
    with pytest.raises(KeyError) as info:
        calc(key)
    assert repr(key) in info.value.args[0] and fragment in info.value.args[0]


def test_copies_must_agree():
    variants = load_all_variants(DECKS_DIR / "calc.yaml")
    with pytest.raises(BuildError, match="different numbers of copies"):
        resolver(ValueContext(variants[0]))("deck.copies")


def test_format_value():
    assert format_value(Fraction(1, 9)) == "1/9"
    assert format_value(Fraction(52)) == "52"
    assert format_value(3.0) == "3"



def test_counts_by_value_are_each_decks_own(tmp_path):
    """A deck's counts by value are found once and kept for it, never taken for another deck: an
    edited spec read again, or a deck at the address of one let go of."""
    import dataclasses
    import weakref

    from printkit.rulebook import values

    spec = tmp_path / "deck.yaml"
    decks = []
    for kinds in (["a", "a", "b"], ["a", "b", "b", "b"]):
        cards = "".join(f"      - {{kind: {k}}}\n" for k in kinds)
        spec.write_text(f"game: example\nname: Kinds\ngroups:\n  - name: cards\n    cards:\n{cards}", encoding="utf-8")
        (deck,) = load_all_variants(spec)
        resolve = resolver(ValueContext(deck))
        for _ in range(2):  # asked again: kept
            assert [resolve(f"deck.by.kind.{k}") for k in "ab"] == [str(kinds.count(k)) for k in "ab"]
        decks.append(deck)
    with pytest.raises(KeyError, match="known under deck.by.kind: a, b"):
        resolve("deck.by.kind.zzz")
    # What another deck left under this deck's address is not taken for it.
    first, second = decks
    other = dataclasses.replace(second, cards=first.cards)
    values._COUNTED.put((id(other), "kind"), (weakref.ref(second), {"a": [], "b": list(second.cards)}))
    assert resolver(ValueContext(other))("deck.by.kind.a") == "2"


def test_a_value_with_dots_is_reached_whole(tmp_path):
    """``deck.by.ATTR.REST`` reads REST as the value when the attribute has it (2.5, v1.2,
    St. Louis), else the value before a final ``.types``; in a variant too."""
    spec = tmp_path / "deck.yaml"
    spec.write_text(
        "game: example\nname: Dots\ngroups:\n  - name: g\n    cards:\n"
        "      - {power: 2.5}\n      - {power: 2.5}\n      - {power: 1}\n      - {power: 2.5, title: B}\n"
        "      - {city: St. Louis}\n      - {edition: v1.2}\n      - {edition: v1.2.types}\n"
        "variants:\n  full: {description: every card}\n  small:\n    exclude: [{title: B}]\n",
        encoding="utf-8")
    variants = load_all_variants(spec)
    resolve = resolver(ValueContext(variants[0], {v.variant: v for v in variants}))
    assert resolve("deck.by.power.2.5") == "3"
    assert resolve("deck.by.power.2.5.types") == "2"
    assert resolve("deck.by.power.1") == "1"
    assert resolve("deck.by.city.St. Louis") == "1"
    # The value whole first: an edition called "v1.2.types" is counted as itself.
    assert resolve("deck.by.edition.v1.2") == resolve("deck.by.edition.v1.2.types") == "1"
    assert resolve("deck.variants.small.by.power.2.5") == "2"
    assert resolve("deck.variants.small.by.power.2.5.types") == "1"
    for key in ("deck.by.power.2", "deck.by.power.2.5.copies", "deck.by.power"):
        with pytest.raises(KeyError, match=r"known under deck.by.power: 1, 2.5\)"):
            resolve(key)
