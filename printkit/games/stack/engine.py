"""Stack Original: the reference rule engine (two players, turn-based model of GAMES.md).

A turn: the players act alternately, one action at a time; seat ``turn % 2`` acts first. A player
says "done" and then only the opponent acts; when both are done the turn is settled.

Decisions taken here where the seed and GAMES.md leave a detail open (the rulebook states them):

- Setup: the shuffled deck's top cards go to the field until it holds 4 different types (a card of a
  type already there goes to the bottom); then 7 cards each, dealt one at a time from seat 0.
- Swapping puts the cards at the bottom of the deck, then draws as many from the top (fewer only if
  generated cards were destroyed and the deck runs out). Cycle is an exact swap of 3 cards, output
  discards exactly 5 (the player needs 5 loose cards) or draws 5 (fewer if the deck is short; not
  allowed with an empty deck). Cards for cycle, discard-five and the red rye field are chosen one at
  a time (``Pick``) after the action; the stacks are paid when the action starts.
- Synthesis of two identical cards is allowed (the union is the card itself). A card created by
  synthesis or decomposition is generated; generated cards may be matched, swapped and set like any
  card, and are destroyed whenever they would go to the deck.
- Set cards count as hand cards (hand size at settlement, the sapphire count) but cannot be used
  for any other action until taken back. Investment is counted in cards.
- Red rye field: only field cards nobody has matched are replaced; each goes to the deck bottom and
  cards are turned from the top until one holds no ruby and is of a type not on the field (others go
  to the bottom; if none qualifies the field is one card short until the settlement refill); then
  the player may swap up to 3 loose ruby cards, picked one at a time.
- Eldorado: the top 5 cards are drawn at once; those without gold go to the bottom of the deck.
- Pale blue dot: the count is the sapphire cards on the field plus those in the player's hand
  (loose and set); that many top cards are revealed, the player takes up to 2 of them one at a time,
  the rest go to the bottom of the deck in the order revealed.
- Coal mine: for the rest of the turn, ``CoalDiscard`` of two loose coal cards gains a stack.
- Matched pairs return to the bottom of the deck at settlement (field card first, then seat 0's card,
  then seat 1's); investments stay on their terrains across turns.
- Settlement case 1: stacks for 3+ matches, pairs back to the deck, then each player above 7 cards
  chooses discards (seat 0 first, loose or set cards), then players below 7 draw (seat 0 first), then
  the field is refilled. A refill turns each deck card at most once, so it stops if no new type is
  left (the field may then hold fewer cards; "matched all" always means every card on the field).
- Quick variant (case 3): a fifth field card of a new type is added and the game goes on without a
  hand reset; after each turn, a player who alone has matched every field card wins, both → case 1,
  neither → the next turn starts unchanged. If no fifth type can be turned, case 1 applies.
- A win is decided only at the settlement: a player who has matched everything may keep acting
  (or say done) until both are done.
- The game ends in a draw when ``turn_cap`` turns (default 100) pass without a winner.
- Options (the spec's ``options:`` or keywords to ``new_game``): ``mode`` ``quick`` (default) or
  ``long``, and ``turn_cap``.
- Outcome scores: 1 for the winner, 0 otherwise; a draw has no winners.
"""

from __future__ import annotations

import random
from typing import Any, Iterable, Mapping, Sequence

from printkit.deck import Deck
from printkit.errors import DeckError, IllegalMoveError, InvariantError
from printkit.rules.base import Outcome, Player
from printkit.games.stack.moves import (
    CODES, GEMS, GENERATED, MAX_MINERALS, MINERALS, TERRAIN_INDEX, TERRAINS, CoalDiscard, Cycle,
    Decompose, Done, Gem, Invest, Match, Move, OutputDiscard, OutputDraw, Pick, SettleDiscard, Stop,
    SwapOne, SwapThree, SwapTwo, Synthesize, Take, TakeBack, Trigger, decompositions, mask_of,
    parse_move, synthesize,
)
from printkit.games.stack.rules import (
    CASE_ALL, CASE_DECIDING, DEFAULT_TURN_CAP, FIELD_SIZE, HAND_SIZE, MAX_STACKS, MODES, apply_move, draw, move_groups, refill,
    settle_now,
)
from printkit.games.stack.players import PLAYERS
from printkit.games.stack.state import StackState, blank_state, census

__all__ = [
    "ENGINE", "StackEngine", "StackState", "check_invariants", "position", "settle", "synthesize",
    "decompositions", "parse_move", "move_groups", "Gem", "Move", "MINERALS", "TERRAINS", "HAND_SIZE",
    "FIELD_SIZE", "MAX_STACKS", "MODES", "DEFAULT_TURN_CAP",
    # the moves
    "Done", "Match", "SwapOne", "SwapTwo", "SwapThree", "Synthesize", "Decompose", "Cycle", "OutputDraw",
    "OutputDiscard", "Invest", "TakeBack", "Trigger", "CoalDiscard", "Pick", "Take", "Stop", "SettleDiscard",
]


# --- setup and hand-built positions ------------------------------------------------------------

def _deck_codes(deck: Deck) -> list[int]:
    codes = []
    for card in deck.cards:
        minerals = card.get("minerals")
        if minerals is None:
            raise DeckError(f"card {card.label} has no minerals (a list such as [ruby, gold])")
        if isinstance(minerals, str) or not isinstance(minerals, (list, tuple)):
            raise DeckError(f"card {card.label} has no list of minerals (got {minerals!r})")
        unknown = [m for m in minerals if m not in MINERALS]
        if unknown:
            raise DeckError(f"card {card.label} has unknown mineral(s) {unknown!r} "
                            f"(known: {', '.join(MINERALS)})")
        if len(set(minerals)) != len(minerals) or not 1 <= len(minerals) <= MAX_MINERALS:
            raise DeckError(f"card {card.label} must hold 1 to {MAX_MINERALS} different "
                            f"minerals, not {list(minerals)!r}")
        cost = card.get("cost")
        if cost is None:
            raise DeckError(f"card {card.label} has no cost (a card's cost is its number of minerals, {len(minerals)})")
        if cost != len(minerals):
            raise DeckError(f"card {card.label} has cost {cost!r}, but a card's cost is its "
                            f"number of minerals ({len(minerals)})")
        codes.append(mask_of(minerals))
    return codes


def _options(deck_options: dict, options: dict) -> tuple[str, int]:
    """``mode`` and ``turn_cap`` from the spec's options overridden by keyword ``options``."""
    merged = {**deck_options, **options}
    unknown = sorted(set(merged) - {"mode", "turn_cap"}, key=str)
    if unknown:
        raise DeckError(f"unknown Stack option(s) {', '.join(map(repr, unknown))} (known: 'mode', 'turn_cap')")
    mode = merged.get("mode", "quick")
    if mode not in MODES:
        raise DeckError(f"Stack option mode must be one of {', '.join(MODES)}, not {mode!r}")
    cap = merged.get("turn_cap", DEFAULT_TURN_CAP)
    if not isinstance(cap, int) or isinstance(cap, bool) or cap < 1:
        raise DeckError(f"Stack option turn_cap must be a positive whole number, not {cap!r}")
    return mode, cap


def _census_totals(s: StackState) -> None:
    types, _ = census(s)
    s.totals = tuple(types)


def position(hands: Sequence[Iterable[Gem | str]], field: Iterable[Gem | str], deck: Iterable[Gem | str] = (),
             *, stacks: Sequence[int] = (1, 1), invested: Sequence[dict[str, Iterable[Gem | str]]] = ({}, {}),
             turn: int = 0, to_move: int | None = None, mode: str = "quick",
             turn_cap: int = DEFAULT_TURN_CAP) -> StackState:
    """A hand-built position at the start of a turn (for worked examples and tests).

    ``deck`` is listed from the top. ``invested`` maps terrain names to cards set on earlier turns.
    Cards are Gems or text such as ``"ruby+gold"`` (``"ruby*"`` for a generated card). The card
    conservation invariant is counted against the cards given here.
    """
    mode, turn_cap = _options({}, {"mode": mode, "turn_cap": turn_cap})
    s = blank_state(mode, turn_cap)

    def code(card: Gem | str) -> int:
        return (card if isinstance(card, Gem) else Gem.parse(card)).code

    for p in range(2):
        for card in hands[p]:
            s.hands[p][code(card)] += 1
            s.loose[p] += 1
        for name, cards in invested[p].items():
            if name not in TERRAIN_INDEX:
                raise IllegalMoveError(f"unknown terrain {name!r} (known: {', '.join(TERRAINS)})")
            t = TERRAIN_INDEX[name]
            for card in cards:
                c = code(card)
                if not c & (1 << t):
                    raise IllegalMoveError(f"{GEMS[c]} cannot be set on {name}: it holds no {MINERALS[t]}")
                s.invest[p][t][c] += 1
                s.inv_n[p][t] += 1
    for card in field:
        c = code(card)
        if c & GENERATED or any(slot[0] == c for slot in s.field):
            raise IllegalMoveError(f"field card {GEMS[c]} is generated or already on the field")
        s.field.append([c, -1, -1])
    s.deck = [code(card) for card in reversed(list(deck))]
    if any(c & GENERATED for c in s.deck):
        raise IllegalMoveError("generated cards never lie in the deck")
    s.stacks = [min(MAX_STACKS, n) for n in stacks]
    s.turn = turn
    s.to_move = turn % 2 if to_move is None else to_move
    s.fresh_deal = False
    _census_totals(s)
    s.created = sum(s.hands[p][c] + sum(s.invest[p][t][c] for t in range(4))
                    for p in range(2) for c in CODES if c & GENERATED)
    return s


def settle(state: StackState) -> StackState:
    """End the current turn now (both players done) and run the settlement; returns ``state``.

    If a hand must be discarded down to 7, the state waits for SettleDiscard moves.
    """
    if state.phase != "play" or state.pending is not None:
        raise IllegalMoveError("a turn can be settled only during play with no choice pending")
    state.done = [True, True]
    settle_now(state)
    return state


# --- the engine --------------------------------------------------------------------------------

class StackEngine:
    """Stack Original for exactly two players; see the module docstring for the decisions."""

    name = "stack"
    min_players = 2
    max_players = 2
    length_unit = "turns"  # Outcome.turns counts turns, in each of which both players act

    def check_options(self, options: Mapping[str, Any]) -> None:
        _options(dict(options), {})

    def validate_deck(self, deck: Deck) -> None:
        self._codes(deck)

    def _codes(self, deck: Deck) -> list[int]:
        """``deck`` validated and its cards as codes (a new list); the last deck's are kept, since a
        simulation deals thousands of games from one deck."""
        _options(dict(deck.options), {})
        if self._last_deck[0] is not deck:
            self._last_deck[:] = [deck, self._checked_codes(deck)]
        return list(self._last_deck[1])

    _last_deck: list = [None, None]

    @staticmethod
    def _checked_codes(deck: Deck) -> list[int]:
        codes = _deck_codes(deck)
        types = len(set(codes))
        if types < FIELD_SIZE:
            raise DeckError(f"the field needs {FIELD_SIZE} different card types, the deck has "
                            f"only {types}")
        need = FIELD_SIZE + 2 * HAND_SIZE
        if len(codes) < need:
            raise DeckError(f"{len(codes)} cards are too few to deal: the field and two hands "
                            f"of {HAND_SIZE} need {need}")
        return codes

    def new_game(self, deck: Deck, players: int = 2, seed: int = 0, **options: Any) -> StackState:
        cards = self._codes(deck)
        if players != 2:
            raise DeckError(f"Stack Original is played by exactly 2 players, not {players!r}")
        mode, cap = _options(dict(deck.options), options)
        rng = random.Random(seed)
        s = blank_state(mode, cap)
        rng.shuffle(cards)
        s.deck = cards
        _census_totals(s)
        refill(s, FIELD_SIZE)
        for _ in range(HAND_SIZE):
            for p in range(2):
                draw(s, p, 1)
        return s

    def current_player(self, state: StackState) -> int:
        return state.to_move

    def legal_moves(self, state: StackState) -> list[Move]:
        return [m for group in move_groups(state) for m in group]

    def move_groups(self, state: StackState) -> list[list[Move]]:
        """Legal moves grouped by kind of action (used by the random player)."""
        return move_groups(state)

    def apply(self, state: StackState, move: Any) -> None:
        # every handler validates completely before it changes anything
        apply_move(state, move)

    def is_over(self, state: StackState) -> bool:
        return state.phase == "over"

    def outcome(self, state: StackState) -> Outcome:
        if state.phase != "over":
            raise IllegalMoveError("the game is not over yet")
        scores = tuple(1 if p in state.winners else 0 for p in range(2))
        return Outcome(scores=scores, winners=state.winners, reason=state.reason, turns=state.turn)

    def check_invariants(self, state: StackState) -> None:
        check_invariants(state)

    def players(self) -> dict[str, Player]:
        return dict(PLAYERS)

    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def facts(self, start: StackState, final: StackState, moves: Sequence[Any], seats: Sequence[int]) -> dict[str, Any]:
        return facts(start, final, moves, seats)


# Stacks each action costs (facts for reports count the stacks a game used).
STACK_COSTS = {Synthesize: 1, Decompose: 1, Cycle: 1, OutputDraw: 2, OutputDiscard: 2}


def facts(start: StackState, final: StackState, moves: Sequence[Any], seats: Sequence[int]) -> dict[str, Any]:
    """What a balance report counts in a finished game (pure: reads the states and moves only).

    ``case``: the settlement that ended the game (``all`` = one player matched every field card,
    case 2; ``deciding`` = the quick variant's deciding card, case 3; ``cap`` = the turn cap's draw);
    ``both_full``: settlements at which both players had matched everything; ``stacks_used`` per
    seat; ``first_turn_win``: won at the first settlement; ``deal_complete`` per seat: the dealt hand
    alone holds every field card's type.
    """
    used = [0, 0]
    for move, seat in zip(moves, seats):
        used[seat] += STACK_COSTS.get(type(move), 0)
    field = [slot[0] for slot in start.field]
    case = "all" if final.reason == CASE_ALL else "deciding" if final.reason == CASE_DECIDING else "cap"
    return {
        "case": case,
        "both_full": final.both_full,
        "stacks_used": tuple(used),
        "first_turn_win": bool(final.winners) and final.turn == 1,
        "deal_complete": tuple(all(start.hands[p][code] for code in field) for p in range(2)),
    }


def check_invariants(s: StackState) -> None:
    """Raise InvariantError naming the first broken invariant."""
    types, generated = census(s)
    if tuple(types) != s.totals:
        diff = {str(GEMS[c]): types[c] - s.totals[c] for c in range(16) if types[c] != s.totals[c]}
        raise InvariantError(f"card conservation: deck cards per type changed by {diff}")
    if generated != s.created - s.destroyed:
        raise InvariantError(f"generated cards: {generated} in play, but {s.created} created "
                             f"and {s.destroyed} destroyed")
    for p in range(2):
        if not 0 <= s.stacks[p] <= MAX_STACKS:
            raise InvariantError(f"stacks: seat {p} holds {s.stacks[p]}")
        if min(s.hands[p]) < 0 or s.loose[p] != sum(s.hands[p]):
            raise InvariantError(f"hand count: seat {p}")
        for t in range(4):
            old, new = s.invest[p][t], s.fresh[p][t]
            if s.inv_n[p][t] != sum(old) + sum(new):
                raise InvariantError(f"investment count: seat {p} on {TERRAINS[t]}")
            if any(old[c] or new[c] for c in CODES if not c & (1 << t)):
                raise InvariantError(f"investment: seat {p} set a card without {MINERALS[t]} on {TERRAINS[t]}")
        if s.fresh_deal and s.phase == "play" and s.hand_size(p) != HAND_SIZE:
            raise InvariantError(f"hand size after settlement: seat {p} holds {s.hand_size(p)}, not {HAND_SIZE}")
    kinds = [slot[0] for slot in s.field]
    if len(set(kinds)) != len(kinds):
        raise InvariantError(f"field types distinct: {[str(GEMS[c]) for c in kinds]}")
    if len(kinds) > FIELD_SIZE + (1 if s.deciding else 0):
        raise InvariantError(f"field size: {len(kinds)} cards")
    for slot in s.field:
        if slot[0] & GENERATED or any(m >= 0 and m & 15 != slot[0] for m in slot[1:]):
            raise InvariantError(f"field slot {slot}: generated field card or a match of another type")
    if s.phase != "over" and not move_groups(s):
        raise InvariantError("no legal move although the game is not over")


ENGINE = StackEngine()
