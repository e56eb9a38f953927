"""Stack Original rulebook content: card-type and terrain tables, and worked examples.

Counts come from the deck; synthesis, decomposition and settlement results come from the Stack
rule engine (``printkit.rules.stack``), so the book shows what the engine does.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from printkit.deck import Card, Deck
from printkit.errors import BuildError, IllegalMoveError
from printkit.games.stack import MINERAL_NAMES, MINERALS, TERRAIN_NAMES
from printkit.rulebook.content import Example, Figure, Table, name_in, pick
from printkit.rules import stack as engine_module
from printkit.rules.stack import ENGINE, Gem, StackState
from printkit.rules.stack_moves import Decompose, Done, Match, Synthesize

def mineral_name(mineral: str, lang: str) -> str:
    return name_in(MINERAL_NAMES, mineral, lang, "mineral")


def minerals_name(minerals: Iterable[str], lang: str) -> str:
    """A mineral set as players say it, in canonical order: ``루비+황금`` / ``ruby+gold``."""
    ordered = sorted(minerals, key=_mineral_order)
    return "+".join(mineral_name(m, lang) for m in ordered)


def _mineral_order(mineral: str) -> int:
    return MINERALS.index(mineral) if mineral in MINERALS else len(MINERALS)


def terrain_name(terrain: str, lang: str) -> str:
    return name_in(TERRAIN_NAMES, terrain, lang, "terrain")


# ---------------------------------------------------------------- tables


def card_types(deck: Deck, lang: str) -> Table:
    """Every card type of the common deck with its cost and number of copies, from the spec."""
    copies = Counter(frozenset(card["minerals"]) for card in deck.cards)
    seen: list[Card] = []
    for card in deck.cards:
        if all(frozenset(c["minerals"]) != frozenset(card["minerals"]) for c in seen):
            seen.append(card)
    seen.sort(key=lambda c: (c["cost"], [_mineral_order(m) for m in c["minerals"]]))
    rows = tuple(
        (str(card["cost"]), minerals_name(card["minerals"], lang), str(copies[frozenset(card["minerals"])]))
        for card in seen
    )
    rows += ((pick(lang, "합계", "Total"), pick(lang, f"{len(seen)}종류", f"{len(seen)} types"), str(len(deck.cards))),)
    return Table(
        header=(pick(lang, "비용", "Cost"), pick(lang, "광물", "Minerals"), pick(lang, "장수", "Cards")),
        rows=rows,
    )


def terrains(deck: Deck, lang: str) -> Table:
    """The terrain cards of the kit and the mineral each one takes."""
    rows = tuple(
        (terrain_name(card["terrain"], lang), mineral_name(card["mineral"], lang))
        for card in _component(deck, "terrains")
    )
    return Table(header=(pick(lang, "지형", "Terrain"), pick(lang, "광물", "Mineral")), rows=rows)


def _component(deck: Deck, name: str) -> tuple[Card, ...]:
    try:
        return deck.components[name]
    except KeyError:
        raise BuildError(
            f"deck {deck.name!r} has no component {name!r} (has: {', '.join(deck.components) or 'none'})"
        ) from None


# ---------------------------------------------------------------- positions

# The worked examples are hand-built positions: seat 0 ("player 1") holds these cards, seat 1
# ("player 2") the second hand, and the rest of the deck follows in spec order. Only the listed
# cards matter to the examples; the deck just has to hold them.
EXAMPLE_FIELD = ("ruby+gold", "sapphire", "gold+coal", "ruby+sapphire+coal")
EXAMPLE_HANDS = (
    ("ruby+gold", "sapphire", "gold+coal", "coal", "gold", "ruby+coal", "ruby+gold+coal"),
    ("ruby+sapphire+coal", "ruby", "ruby", "sapphire+coal", "gold+sapphire", "ruby+gold+sapphire", "coal"),
)
SYNTHESIS = ("ruby+gold", "gold+coal")  # the seed's second synthesis example
REFUSED_SYNTHESIS = ("ruby+gold", "sapphire+coal")  # the seed's "nothing is created" case
DECOMPOSED = "ruby+gold+coal"
DECOMPOSITION_PARTS = ("ruby+coal", "gold")
SETTLEMENT_MOVES = (  # (seat, move) in playing order; seat 0 acts first in turn 0
    (0, Match(Gem.parse("ruby+gold"))),
    (1, Match(Gem.parse("ruby+sapphire+coal"))),
    (0, Match(Gem.parse("sapphire"))),
    (1, Done()),
    (0, Match(Gem.parse("gold+coal"))),
    (0, Done()),
)


def _gem_key(minerals: Iterable[str]) -> frozenset[str]:
    return frozenset(minerals)


def example_position(deck: Deck, stacks: tuple[int, int] = (1, 1)) -> StackState:
    """The examples' position, built from the deck's own cards (so a spec change shows up)."""
    rest = [Gem.of(*card["minerals"]) for card in deck.cards]
    for card in (*EXAMPLE_FIELD, *EXAMPLE_HANDS[0], *EXAMPLE_HANDS[1]):
        gem = Gem.parse(card)
        if gem not in rest:
            raise BuildError(f"deck {deck.name!r} has too few {card} cards for the rulebook examples")
        rest.remove(gem)
    return engine_module.position(EXAMPLE_HANDS, EXAMPLE_FIELD, rest, stacks=stacks, to_move=0)


def _find_move(state: StackState, kind: type, test) -> object:
    """The engine's own legal move of ``kind`` that passes ``test`` (so the example is legal)."""
    for move in ENGINE.legal_moves(state):
        if isinstance(move, kind) and test(move):
            return move
    raise BuildError(f"the Stack engine offers no legal {kind.__name__} for the rulebook example")


def _gems_name(gems: Iterable[Gem], lang: str) -> str:
    return ", ".join(minerals_name(g.minerals, lang) for g in gems)


def _card(deck: Deck, minerals: Iterable[str], generated: bool = False) -> Card:
    """The printed card (or generated-card marker) with these minerals."""
    cards = _component(deck, "generated_markers") if generated else deck.cards
    key = _gem_key(minerals)
    for card in cards:
        if _gem_key(card["minerals"]) == key:
            return card
    kind = "generated-card marker" if generated else "card"
    raise BuildError(f"deck {deck.name!r} has no {kind} with minerals {'+'.join(sorted(key))}")


# ---------------------------------------------------------------- examples


def _synthesise(deck: Deck) -> tuple[Synthesize, Gem, StackState, tuple[int, int]]:
    """Play the synthesis example: (move, generated result, state after, (hand, stacks) before)."""
    state = example_position(deck)
    keys = {_gem_key(Gem.parse(c).minerals) for c in SYNTHESIS}
    move = _find_move(state, Synthesize, lambda m: {_gem_key(m.first.minerals), _gem_key(m.second.minerals)} == keys)
    before = (state.hand_size(0), state.stacks[0])
    old_hand = state.hand(0)
    ENGINE.apply(state, move)
    created = [g for g in state.hand(0) if g.generated and g not in old_hand]
    if len(created) != 1:
        raise BuildError(f"synthesis {move} created {len(created)} cards, expected 1")
    return move, created[0], state, before


def synthesis(deck: Deck, lang: str) -> Example:
    """Player 1 synthesises the seed's ruby+gold with gold+coal; the engine makes the result."""
    move, result, state, (hand_before, stacks_before) = _synthesise(deck)
    first, second = (minerals_name(g.minerals, lang) for g in (move.first, move.second))
    result_name = minerals_name(result.minerals, lang)
    refused_first, refused_second = (minerals_name(Gem.parse(c).minerals, lang) for c in REFUSED_SYNTHESIS)
    refused = _refused(lang)
    return Example(
        values={
            "first": first,
            "second": second,
            "result": result_name,
            "stacks_before": stacks_before,
            "stacks_after": state.stacks[0],
            "hand_before": hand_before,
            "hand_after": state.hand_size(0),
            "refused_first": refused_first,
            "refused_second": refused_second,
            "refused": refused,
        },
        header=(pick(lang, "합성하는 카드", "Cards synthesised"), pick(lang, "결과", "Result")),
        rows=(
            (f"{first}, {second}", pick(lang, f"{result_name} (생성 카드)", f"{result_name} (generated)")),
            (f"{refused_first}, {refused_second}", refused),
        ),
    )


def _refused(lang: str) -> str:
    """The engine's verdict on the seed's four-mineral synthesis (it must refuse it)."""
    try:
        engine_module.synthesize(*REFUSED_SYNTHESIS)
    except IllegalMoveError:
        return pick(lang, "합성할 수 없음 (광물 4개)", "not allowed (4 minerals)")
    raise BuildError(f"the Stack engine allowed synthesising {REFUSED_SYNTHESIS[0]} with {REFUSED_SYNTHESIS[1]}")


def decomposition(deck: Deck, lang: str) -> Example:
    """Player 1 decomposes ruby+gold+coal into ruby+coal and gold; every split the engine allows."""
    state = example_position(deck)
    parts = {_gem_key(Gem.parse(c).minerals) for c in DECOMPOSITION_PARTS}
    card_key = _gem_key(Gem.parse(DECOMPOSED).minerals)
    move = _find_move(
        state, Decompose,
        lambda m: _gem_key(m.card.minerals) == card_key and {_gem_key(p.minerals) for p in m.parts} == parts,
    )
    hand_before, stacks_before = state.hand_size(0), state.stacks[0]
    ENGINE.apply(state, move)
    rows = tuple(
        (minerals_name(Gem.parse(card).minerals, lang), _split_name(split, lang))
        for card in (DECOMPOSED, "ruby")
        for split in engine_module.decompositions(card)
    )
    return Example(
        values={
            "card": minerals_name(move.card.minerals, lang),
            "parts": pick(lang, ", ", " and ").join(minerals_name(g.minerals, lang) for g in move.parts),
            "ways": len(engine_module.decompositions(DECOMPOSED)),
            "stacks_before": stacks_before,
            "stacks_after": state.stacks[0],
            "hand_before": hand_before,
            "hand_after": state.hand_size(0),
        },
        header=(pick(lang, "분해할 카드", "Card decomposed"), pick(lang, "나누는 방법", "Split")),
        rows=rows,
        cards=(_card(deck, move.card.minerals), *(_card(deck, g.minerals, generated=True) for g in move.parts)),
        card_labels=(
            minerals_name(move.card.minerals, lang),
            *(pick(lang, f"생성: {minerals_name(g.minerals, lang)}", f"generated: {minerals_name(g.minerals, lang)}")
              for g in move.parts),
        ),
    )


def _split_name(split: tuple[tuple[str, ...], tuple[str, ...]], lang: str) -> str:
    first, second = (minerals_name(part, lang) for part in split)
    if split[0] == split[1]:  # a cost-1 card stays and gains a generated copy
        return pick(lang, f"{first} | {second} (복사)", f"{first} | {second} (copy)")
    return f"{first} | {second}"


def settlement(deck: Deck, lang: str) -> Example:
    """A turn where player 1 matches three field cards and player 2 one: case 1 of the settlement."""
    state = example_position(deck)
    stacks_before = tuple(state.stacks)
    field_cards = state.field_cards()
    field_before = _gems_name(field_cards, lang)
    for seat, move in SETTLEMENT_MOVES:
        if ENGINE.current_player(state) != seat:
            raise BuildError(f"settlement example: expected seat {seat} to move before {move}")
        if seat == 0 and isinstance(move, Done):
            matched = (state.matched(0), state.matched(1))
            hands_after_matching = (state.hand_size(0), state.hand_size(1))
            deck_before = len(state.deck)
        ENGINE.apply(state, move)
    if state.phase != "play" or state.turn != 1:
        raise BuildError(f"settlement example did not lead to a new turn: {state!r}")
    hands_after = (state.hand_size(0), state.hand_size(1))
    drawn = tuple(after - before for after, before in zip(hands_after, hands_after_matching))
    # The deck gained the returned pairs and lost the cards drawn into hands and onto the field.
    returned = len(state.deck) - deck_before + sum(drawn) + len(state.field_cards())
    players = (pick(lang, "1번 플레이어", "Player 1"), pick(lang, "2번 플레이어", "Player 2"))
    rows = (
        (pick(lang, "매칭한 카드", "Matched"),
         *(f"{_gems_name(m, lang)} ({pick(lang, f'{len(m)}장', str(len(m)))})" for m in matched)),
        (pick(lang, "스택", "Stacks"), *(f"{b} → {a}" for b, a in zip(stacks_before, state.stacks))),
        (pick(lang, "손의 카드", "Cards in hand"),
         *(f"{b} → {a}" for b, a in zip(hands_after_matching, hands_after))),
    )
    return Example(
        values={
            "p1_matches": len(matched[0]),
            "p2_matches": len(matched[1]),
            "p1_stacks_before": stacks_before[0],
            "p1_stacks_after": state.stacks[0],
            "p2_stacks_before": stacks_before[1],
            "p2_stacks_after": state.stacks[1],
            "p1_drawn": drawn[0],
            "p2_drawn": drawn[1],
            "returned": returned,
            "hand_size": engine_module.HAND_SIZE,
            "field_before": field_before,
            "field_after": _gems_name(state.field_cards(), lang),
        },
        header=("", *players),
        rows=rows,
        cards=tuple(_card(deck, g.minerals) for g in field_cards),
        card_labels=tuple(_matched_by(g, matched, lang) for g in field_cards),
        caption=pick(lang, f"새 필드: {_gems_name(state.field_cards(), lang)}",
                     f"New field: {_gems_name(state.field_cards(), lang)}"),
    )


def _matched_by(field_card: Gem, matched: tuple[tuple[Gem, ...], ...], lang: str) -> str:
    seats = [str(seat + 1) for seat, cards in enumerate(matched) if field_card in cards]
    if not seats:
        return pick(lang, "매칭 없음", "not matched")
    return pick(lang, f"{', '.join(seats)}번 플레이어 매칭", f"Player {' and '.join(seats)} matched")


def rules(deck: Deck, lang: str) -> Example:
    """The engine's limits that the text quotes (no block of its own)."""
    return Example(values={
        "turn_cap": engine_module.DEFAULT_TURN_CAP,
        "max_stacks": engine_module.MAX_STACKS,
        "hand_size": engine_module.HAND_SIZE,
        "field_size": engine_module.FIELD_SIZE,
    })


# ---------------------------------------------------------------- figures


def synthesis_figure(deck: Deck, lang: str) -> Figure:
    """The two cards of the synthesis example and the generated card it makes, as printed."""
    move, result, _, _ = _synthesise(deck)
    cards = (_card(deck, move.first.minerals), _card(deck, move.second.minerals),
             _card(deck, result.minerals, generated=True))
    first, second, made = (minerals_name(g.minerals, lang) for g in (move.first, move.second, result))
    return Figure(
        cards=cards,
        labels=(first, second, pick(lang, f"결과: {made}", f"Result: {made}")),
        caption=pick(lang, "합성: 카드 2장이 생성 카드 1장이 됩니다.", "Synthesis: two cards become one generated card."),
    )


def terrain_figure(deck: Deck, lang: str) -> Figure:
    """The four terrain cards as printed, each named."""
    cards = _component(deck, "terrains")
    return Figure(cards=cards, labels=tuple(terrain_name(card["terrain"], lang) for card in cards))


def cover(deck: Deck, lang: str) -> Figure:
    """The title page: one card of each cost and a generated-card marker."""
    cards = (_card(deck, ("ruby",)), _card(deck, ("gold", "sapphire")), _card(deck, ("ruby", "gold", "coal")),
             _card(deck, ("sapphire", "coal"), generated=True))
    return Figure(cards, scale=0.75)


FIGURES = {
    "cover": cover,
    "synthesis": synthesis_figure,
    "terrains": terrain_figure,
}
EXAMPLES = {
    "synthesis": synthesis,
    "decomposition": decomposition,
    "settlement": settlement,
    "rules": rules,
}
TABLES = {
    "card_types": card_types,
    "terrains": terrains,
}
