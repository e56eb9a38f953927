"""Stack Original rulebook content: card-type and terrain tables, and worked examples.

Counts come from the deck; synthesis, decomposition and settlement results come from the Stack
rule engine (``printkit.games.stack.engine``), so the book shows what the engine does.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from printkit.deck import Card, Deck
from printkit.errors import BuildError, IllegalMoveError
from printkit.games.stack.words import MINERAL_NAMES, MINERALS, TERRAIN_MINERAL, TERRAIN_NAMES
from printkit.layout.geometry import Box
from printkit.layout.ops import Ellipse
from printkit.rulebook.content import CardParts, Example, Figure, Pile, Table, TableSetup, Zone, name_in, pick
from printkit.games.stack import engine as engine_module
from printkit.games.stack.engine import ENGINE, Gem, StackState
from printkit.games.stack.moves import Decompose, Done, Match, Synthesize, Trigger

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


def example_position(deck: Deck, stacks: tuple[int, int] = (1, 1),
                     invested: tuple[dict[str, tuple[str, ...]], ...] = ({}, {}), deck_top: tuple[str, ...] = (),
                     to_move: int = 0) -> StackState:
    """The examples' position, built from the deck's own cards (so a spec change shows up).

    ``invested``: cards each seat set on terrains on earlier turns; ``deck_top``: the deck's top
    cards, top first (the rest of the deck follows in spec order)."""
    rest = [Gem.of(*card["minerals"]) for card in deck.cards]
    set_cards = [c for seat in invested for cards in seat.values() for c in cards]
    for card in (*EXAMPLE_FIELD, *EXAMPLE_HANDS[0], *EXAMPLE_HANDS[1], *set_cards, *deck_top):
        gem = Gem.parse(card)
        if gem not in rest:
            raise BuildError(f"deck {deck.name!r} has too few {card} cards for the rulebook examples")
        rest.remove(gem)
    return engine_module.position(EXAMPLE_HANDS, EXAMPLE_FIELD, [Gem.parse(c) for c in deck_top] + rest,
                                  stacks=stacks, invested=invested, to_move=to_move)


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
        caption=pick(lang, f"새 필드: {_gems_name(state.field_cards(), lang)}",
                     f"New field: {_gems_name(state.field_cards(), lang)}"),
    )


def rules(deck: Deck, lang: str) -> Example:
    """The engine's limits that the text quotes (no block of its own)."""
    return Example(values={
        "turn_cap": engine_module.DEFAULT_TURN_CAP,
        "max_stacks": engine_module.MAX_STACKS,
        "hand_size": engine_module.HAND_SIZE,
        "field_size": engine_module.FIELD_SIZE,
    })


# ---------------------------------------------------------------- a terrain takes effect

TRIGGERED = "eldorado"
TRIGGER_INVESTED = ({"eldorado": ("gold", "gold+coal")}, {"eldorado": ("ruby+gold",)})  # set on earlier turns
TRIGGER_DECK_TOP = ("gold+sapphire", "ruby+sapphire", "gold", "sapphire+coal", "ruby+gold+sapphire")


def terrain_trigger(deck: Deck, lang: str) -> Example:
    """Player 1 has set more cards on Eldorado than player 2 and triggers it; the engine deals."""
    terrain = Trigger(TRIGGERED)
    mineral = TERRAIN_MINERAL[TRIGGERED]
    # Only the larger investment may trigger: the engine must offer it to seat 0 and refuse seat 1.
    other = example_position(deck, invested=TRIGGER_INVESTED, deck_top=TRIGGER_DECK_TOP, to_move=1)
    if terrain in ENGINE.legal_moves(other):
        raise BuildError(f"the Stack engine lets player 2 trigger {TRIGGERED} with the smaller investment")
    state = example_position(deck, invested=TRIGGER_INVESTED, deck_top=TRIGGER_DECK_TOP)
    if terrain not in ENGINE.legal_moves(state):
        raise BuildError(f"the Stack engine does not let player 1 trigger {TRIGGERED}")
    set_cards = tuple(state.invested(seat, TRIGGERED) for seat in (0, 1))
    top = state.deck_cards()[:5]
    before = Counter(state.hand(0))
    hand_before = state.hand_size(0)
    ENGINE.apply(state, terrain)
    kept = Counter(state.hand(0)) - before
    returned = Counter(top) - kept
    bottom = state.deck_cards()[len(state.deck) - sum(returned.values()):]
    if Counter(bottom) != returned:
        raise BuildError(f"{TRIGGERED}: the cards not kept are not at the bottom of the deck")
    rows, left = [], Counter(kept)
    for i, gem in enumerate(top, start=1):
        if left[gem]:
            left[gem] -= 1
            verdict = pick(lang, f"{mineral_name(mineral, lang)} 있음: 손으로", f"holds {mineral}: kept in hand")
        else:
            verdict = pick(lang, f"{mineral_name(mineral, lang)} 없음: 덱 맨 밑으로", f"no {mineral}: bottom of the deck")
        rows.append((str(i), minerals_name(gem.minerals, lang), verdict))
    kept_cards = [g for g in top if g in kept]
    return Example(
        values={
            "terrain": terrain_name(TRIGGERED, lang),
            "mineral": mineral_name(mineral, lang),
            "p1_set": len(set_cards[0]),
            "p2_set": len(set_cards[1]),
            "p1_cards": _gems_name(set_cards[0], lang),
            "p2_cards": _gems_name(set_cards[1], lang),
            "drawn": len(top),
            "kept": _gems_name(kept_cards, lang),
            "kept_count": sum(kept.values()),
            "returned": _gems_name([g for g in top if g in returned], lang),
            "returned_count": sum(returned.values()),
            "hand_before": hand_before,
            "hand_after": state.hand_size(0),
        },
        header=(pick(lang, "순서", "Order"), pick(lang, "뽑은 카드", "Card drawn"), pick(lang, "결과", "Result")),
        rows=tuple(rows),
        caption=pick(lang, f"{terrain_name(TRIGGERED, lang)} 발동: 덱 위에서 {len(top)}장을 한꺼번에 뽑습니다.",
                     f"{terrain_name(TRIGGERED, lang)} triggered: the top {len(top)} cards are drawn at once."),
    )


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


ANATOMY_CARD = ("ruby", "gold", "coal")


def anatomy(deck: Deck, lang: str) -> CardParts:
    """A cost-3 card with its parts named: cost, the small and large minerals and their names."""
    from printkit.games.stack.icons import ENGLISH_NAMES, KOREAN_NAMES
    from printkit.rulebook.figures import located, text_box

    card = _card(deck, ANATOMY_CARD)
    first = card["minerals"][0]
    w = card.size.width_mm

    def places(face) -> tuple[Box, ...]:
        cost = text_box(face, str(card["cost"]))
        korean, english = text_box(face, KOREAN_NAMES[first]), text_box(face, ENGLISH_NAMES[first])
        # The cost sits on a disc, the small minerals under it; the large ones fill the middle,
        # each on a disc right above its names.
        badge = min((op for op in face.ops if isinstance(op, Ellipse) and op.cx_mm < w / 3), key=lambda op: op.cy_mm)
        r = badge.rx_mm
        small = Box(badge.cx_mm - r * 0.6, badge.cy_mm + r * 1.3, r * 1.2, r * 1.2)  # the first of them
        big = min((op for op in face.ops if isinstance(op, Ellipse) and abs(op.cx_mm - w / 2) < 0.5
                   and op.cy_mm < korean.y_mm), key=lambda op: korean.y_mm - op.cy_mm)
        icon = Box(big.cx_mm - big.rx_mm, big.cy_mm - big.ry_mm, 2 * big.rx_mm, 2 * big.ry_mm)
        return cost, small, icon, korean, english

    return CardParts(card, located(places, (
        pick(lang, "비용 = 광물 수", "cost = number of minerals"),
        pick(lang, "광물 (작게)", "its minerals, small"),
        pick(lang, "광물", "a mineral"),
        pick(lang, "광물 이름 (한국어)", "mineral name (Korean)"),
        pick(lang, "광물 이름 (영어)", "mineral name (English)"),
    )), caption=pick(lang, f"{minerals_name(card['minerals'], lang)} 카드: 광물이 {card['cost']}개라서 비용이 "
                          f"{card['cost']}입니다.",
                    f"A {minerals_name(card['minerals'], lang)} card: it holds {card['cost']} minerals, so its "
                    f"cost is {card['cost']}."))


def setup(deck: Deck, lang: str) -> TableSetup:
    """Two players face to face; between them the deck, the field, the terrains and the supply."""
    hand, field = engine_module.HAND_SIZE, engine_module.FIELD_SIZE
    back = deck.cards[0]
    tokens, markers, terrain_cards = (_component(deck, n) for n in ("stack_tokens", "generated_markers", "terrains"))
    field_cards = tuple(_card(deck, Gem.parse(c).minerals) for c in EXAMPLE_FIELD[:field])
    left = len(deck.cards) - field - 2 * hand
    supply = len(tokens) - 2

    def seat(n: int) -> Zone:
        return Zone(pick(lang, f"{n}번 플레이어: 손패 {hand}장, 스택 1개", f"Player {n}: {hand} cards, 1 stack"),
                    (Pile(back, back=True, count=hand, fan=True), Pile(tokens[0])))

    return TableSetup(
        rows=(
            (seat(2),),
            (Zone(pick(lang, "덱", "Deck"), (Pile(back, back=True, count=left),)),
             Zone(pick(lang, f"필드: 서로 다른 {field}장", f"Field: {field} different cards"),
                  tuple(Pile(c) for c in field_cards))),
            (Zone(pick(lang, "지형", "Terrains"), tuple(Pile(c) for c in terrain_cards)),
             Zone(pick(lang, "스택과 생성 카드 표시", "Stacks and markers"),
                  (Pile(tokens[0], count=supply), Pile(markers[0], back=True, count=len(markers))))),
            (seat(1),),
        ),
        caption=pick(lang, f"두 사람이 마주 앉습니다. 사이에 덱과 필드, 지형 카드 {len(terrain_cards)}장을 두고, "
                           "남은 스택과 생성 카드 표시는 손이 닿는 곳에 둡니다.",
                     f"The two players sit face to face. Between them lie the deck, the field and the "
                     f"{len(terrain_cards)} terrain cards; the other stacks and the markers are kept within reach."),
    )


def cover(deck: Deck, lang: str) -> Figure:
    """The title page: a deck card and a generated-card marker, large enough to read."""
    return Figure((_card(deck, ("ruby", "gold", "coal")), _card(deck, ("sapphire", "coal"), generated=True)), scale=0.75)


FIGURES = {
    "cover": cover,
    "anatomy": anatomy,
    "setup": setup,
    "synthesis": synthesis_figure,
    "terrains": terrain_figure,
}
EXAMPLES = {
    "synthesis": synthesis,
    "decomposition": decomposition,
    "settlement": settlement,
    "terrain_trigger": terrain_trigger,
    "rules": rules,
}
TABLES = {
    "card_types": card_types,
    "terrains": terrains,
}
