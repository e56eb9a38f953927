"""Inline values ``{{ key }}``: counts from the expanded deck, player limits, example results.

The keys are listed in docs/rulebook-format.md. A resolver raises KeyError whose message names
the bad key and what is known at that point, so the parser can report file and line.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping

from printkit.deck import Card, Deck
from printkit.errors import BuildError
from printkit.memo import Memo


@dataclass(frozen=True)
class ValueContext:
    """Everything a rule text may quote: the book's deck, every variant, examples by name."""

    deck: Deck
    variants: Mapping[str, Deck] = field(default_factory=dict)
    example_values: Callable[[str], Mapping[str, Any]] | None = None
    players: tuple[int, int] | None = None  # (min, max) from the rule engine


def format_value(value: Any) -> str:
    """Numbers as plain decimals, fractions as ``a/b``, everything else with ``str``."""
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _unknown(key: str, at: str, known: Iterable[str]) -> KeyError:
    names = sorted(str(k) for k in known)
    hint = f" (known under {at}: {', '.join(names)})" if names else ""
    return KeyError(f"unknown value {key!r}{hint}")


def _identity(card: Card) -> tuple:
    return (card.group, tuple(sorted((k, repr(v)) for k, v in card.attrs.items())))


def _types(cards: Iterable[Card]) -> int:
    return len({_identity(card) for card in cards})


# A text quotes many counts of one deck, and is set (or checked) in each language: the deck's
# attribute names, and its cards by the values of each attribute asked for, are found once per
# deck (Memo.of).
_COUNTED = Memo("decks counted by value", entries=64)


def _attrs(deck: Deck) -> list[str]:
    """Every attribute a card of ``deck`` has, sorted."""
    return _COUNTED.of(deck, None, lambda: sorted({a for card in deck.cards for a in card.attrs}))


def _by(deck: Deck, attr: str) -> dict[str, list[Card]]:
    """The deck's cards by their value of ``attr`` (each item of a list value counted)."""

    def count() -> dict[str, list[Card]]:
        out: dict[str, list[Card]] = {}
        for card in deck.cards:
            if attr not in card.attrs:
                continue
            value = card.attrs[attr]
            for v in value if isinstance(value, (list, tuple)) else [value]:
                out.setdefault(str(v).lower() if isinstance(v, bool) else str(v), []).append(card)
        return out

    return _COUNTED.of(deck, attr, count)


def deck_value(deck: Deck, parts: list[str], key: str, prefix: str, variants: Mapping[str, Deck]) -> Any:
    """Resolve ``parts`` (the key after ``deck.``) against one deck."""
    head, rest = (parts[0], parts[1:]) if parts else ("", [])
    simple: dict[str, Callable[[], Any]] = {
        "name": lambda: deck.name,
        "total": lambda: len(deck.cards),
        "types": lambda: _types(deck.cards),
        "copies": lambda: _copies(deck.cards, key),
    }
    known = [*simple, "groups", "by", "components"] + (["variants"] if variants else [])
    if head == "name" and len(rest) == 1:
        return deck.name_in(rest[0])  # deck.name.ko: the name in Korean, if the spec gives one
    if head in simple:
        if rest:
            raise _unknown(key, f"{prefix}.{head}", [])
        return simple[head]()
    if head == "groups":
        groups = deck.groups()
        if not rest or rest[0] not in groups:
            raise _unknown(key, f"{prefix}.groups", groups)
        members = tuple(card for card in deck.cards if card.group == rest[0])
        if len(rest) == 1:
            return groups[rest[0]]
        if rest[1:] == ["types"]:
            return _types(members)
        if rest[1:] == ["copies"]:
            return _copies(members, key)
        raise _unknown(key, f"{prefix}.groups.{rest[0]}", ["copies", "types"])
    if head == "by":
        attrs = _attrs(deck)
        if not rest or rest[0] not in attrs:
            raise _unknown(key, f"{prefix}.by", attrs)
        values = _by(deck, rest[0])
        # A value may hold dots (2.5, v1.2, St. Louis): the rest of the key is the value whole
        # when the attribute has it, else the value before a final ".types".
        value = ".".join(rest[1:])
        if len(rest) > 1 and value in values:
            return len(values[value])
        if value.endswith(".types") and value[: -len(".types")] in values:
            return _types(values[value[: -len(".types")]])
        raise _unknown(key, f"{prefix}.by.{rest[0]}", values)
    if head == "components":
        if not rest or rest[0] not in deck.components:
            raise _unknown(key, f"{prefix}.components", deck.components)
        cards = deck.components[rest[0]]
        if len(rest) == 1:
            return len(cards)
        if rest[1:] == ["types"]:
            return _types(cards)
        raise _unknown(key, f"{prefix}.components.{rest[0]}", ["types"])
    if head == "variants" and variants:
        if not rest or rest[0] not in variants:
            raise _unknown(key, f"{prefix}.variants", variants)
        return deck_value(variants[rest[0]], rest[1:], key, f"{prefix}.variants.{rest[0]}", {})
    raise _unknown(key, prefix, known)


def _copies(cards: tuple[Card, ...], key: str) -> int:
    counts = set(Counter(_identity(card) for card in cards).values())
    if len(counts) != 1:
        raise BuildError(f"{key}: cards come in different numbers of copies ({sorted(counts)})")
    return counts.pop()


def resolver(context: ValueContext) -> Callable[[str], str]:
    """A function ``key -> text`` for ``markdown.parse``."""

    def resolve(key: str) -> str:
        parts = key.split(".")
        root = parts[0]
        if root == "deck":
            return format_value(deck_value(context.deck, parts[1:], key, "deck", context.variants))
        if root == "engine":
            if context.players is None:
                raise KeyError(f"unknown value {key!r} (no rule engine for game {context.deck.game!r})")
            names = {"min_players": context.players[0], "max_players": context.players[1]}
            if len(parts) != 2 or parts[1] not in names:
                raise _unknown(key, "engine", names)
            return format_value(names[parts[1]])
        if root == "example":
            if context.example_values is None or len(parts) != 3:
                raise KeyError(f"unknown value {key!r} (write example.NAME.FIELD)")
            values = context.example_values(parts[1])
            if parts[2] not in values:
                raise _unknown(key, f"example.{parts[1]}", values)
            return format_value(values[parts[2]])
        raise _unknown(key, "the top level", ["deck", "engine", "example"])

    return resolve
