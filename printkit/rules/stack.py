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
  to the bottom); then the player may swap up to 3 loose ruby cards, picked one at a time.
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
- The game ends in a draw when ``turn_cap`` turns (default 100) pass without a winner.
- Outcome scores: 1 for the winner, 0 otherwise; a draw has no winners.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from printkit.deck import Deck
from printkit.errors import DeckError, IllegalMoveError
from printkit.rules.base import InvariantError, Outcome
from printkit.rules.stack_moves import (
    CODES, COAL, GEMS, GENERATED, GOLD, MAX_MINERALS, MINERALS, POPCOUNT, RUBY, SAPPHIRE, TERRAINS,
    TERRAIN_INDEX, CoalDiscard, Cycle, Decompose, Done, Gem, Invest, Match, Move, OutputDiscard,
    OutputDraw, Pick, SettleDiscard, Stop, SwapOne, SwapThree, SwapTwo, Synthesize, Take, TakeBack,
    Trigger, mask_of, minerals_of, parse_move,
)

__all__ = ["ENGINE", "StackEngine", "StackState", "synthesize", "decompositions", "position", "settle",
           "parse_move", "Gem", "HAND_SIZE", "FIELD_SIZE", "MAX_STACKS", "MODES"]

HAND_SIZE = 7
FIELD_SIZE = 4
MAX_STACKS = 4
MODES = ("quick", "long")
DEFAULT_TURN_CAP = 100
RUBY_SWAPS = 3
SAPPHIRE_TAKES = 2
GOLD_DRAW = 5
OUTPUT_CARDS = 5
CYCLE_CARDS = 3


# --- pure helpers for the rulebook -------------------------------------------------------------

def _mask(card: Gem | str | Iterable[str]) -> int:
    if isinstance(card, Gem):
        return card.mask
    if isinstance(card, str):
        return Gem.parse(card).mask
    return mask_of(card)


def synthesize(a: Gem | str | Iterable[str], b: Gem | str | Iterable[str]) -> tuple[str, ...]:
    """The minerals of the card synthesised from ``a`` and ``b``; IllegalMoveError past 3 minerals."""
    union = _mask(a) | _mask(b)
    if POPCOUNT[union] > MAX_MINERALS:
        raise IllegalMoveError(f"cannot synthesise {'+'.join(minerals_of(_mask(a)))} with "
                               f"{'+'.join(minerals_of(_mask(b)))}: the union {'+'.join(minerals_of(union))} "
                               f"holds more than {MAX_MINERALS} minerals")
    return minerals_of(union)


def _splits(mask: int) -> tuple[tuple[int, int], ...]:
    if POPCOUNT[mask] == 1:
        return ((mask, mask),)
    found = []
    sub = (mask - 1) & mask
    while sub:
        rest = mask ^ sub
        if sub < rest:
            found.append((sub, rest))
        sub = (sub - 1) & mask
    return tuple(sorted(found))


def decompositions(card: Gem | str | Iterable[str]) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """Every way to decompose ``card``: pairs of mineral sets (a cost-1 card gives itself twice)."""
    return tuple((minerals_of(a), minerals_of(b)) for a, b in _splits(_mask(card)))


# --- precomputed move values (read-only tables indexed by card code) ---------------------------

def _pair(a: int, b: int) -> int:
    return a * 32 + b


DONE, CYCLE, DRAW5, DISCARD5, STOP = Done(), Cycle(), OutputDraw(), OutputDiscard(), Stop()
MATCH = tuple(Match(g) if g else None for g in GEMS)
SWAP1 = tuple(SwapOne(g) if g else None for g in GEMS)
PICK = tuple(Pick(g) if g else None for g in GEMS)
TAKE = tuple(Take(g) if g else None for g in GEMS)
SETTLE = tuple(tuple(SettleDiscard(g, t) if g else None for g in GEMS) for t in (None,) + TERRAINS)
INVEST = tuple(tuple(Invest(t, g) if g else None for g in GEMS) for t in TERRAINS)
TAKEBACK = tuple(tuple(TakeBack(t, g) if g else None for g in GEMS) for t in TERRAINS)
TRIGGER = tuple(Trigger(t) for t in TERRAINS)
SYNTH = tuple(Synthesize(GEMS[a], GEMS[b]) if GEMS[a] and GEMS[b] and a <= b
              and POPCOUNT[(a | b) & 15] <= MAX_MINERALS else None
              for a in range(32) for b in range(32))
COAL_PAIR = tuple(CoalDiscard((GEMS[a], GEMS[b])) if GEMS[a] and GEMS[b] and a <= b and a & b & COAL
                  else None for a in range(32) for b in range(32))
DECOMPOSE = tuple(tuple(Decompose(GEMS[c], (GEMS[x | GENERATED], GEMS[y | GENERATED]))
                        for x, y in _splits(c & 15)) if GEMS[c] else () for c in range(32))
SWAP2 = tuple(SwapTwo((GEMS[a], GEMS[b])) if GEMS[a] and GEMS[b] and a <= b and a & 15 == b & 15 else None
              for a in range(32) for b in range(32))


def _swap3_moves(mask: int) -> tuple[SwapThree, ...]:
    d, g = GEMS[mask], GEMS[mask | GENERATED]
    return (SwapThree((d, d, d)), SwapThree((d, d, g)), SwapThree((d, g, g)), SwapThree((g, g, g)))


SWAP3 = tuple(_swap3_moves(m) if GEMS[m] else None for m in range(16))
SWAP3_NEEDS = ((3, 0), (2, 1), (1, 2), (0, 3))  # (deck cards, generated cards) for each SWAP3 move


# --- state -------------------------------------------------------------------------------------

class StackState:
    """A Stack game in progress. Cards are codes (see stack_moves); hands are counts per code.

    ``deck`` has its top at the end. A field slot is ``[card, seat 0's match, seat 1's match]`` with
    ``-1`` for "not matched". ``invest[p][t]`` counts cards set on terrain ``t`` on earlier turns,
    ``fresh[p][t]`` those set this turn (not yet takeable). ``pending`` is a choice the player to move
    must finish: ``("cycle"|"discard5"|"ruby", seat, count)``, ``("sapphire", seat, revealed,
    taken)`` or ``("settle", seat)``.
    """

    __slots__ = ("deck", "field", "hands", "loose", "invest", "fresh", "inv_n", "stacks", "turn",
                 "to_move", "done", "used_one", "used_two", "triggered", "coal_on", "pending",
                 "phase", "deciding", "winners", "reason", "created", "destroyed", "fresh_deal",
                 "mode", "turn_cap", "totals")

    def clone(self) -> "StackState":
        other = StackState.__new__(StackState)
        other.deck = list(self.deck)
        other.field = [list(slot) for slot in self.field]
        other.hands = [list(h) for h in self.hands]
        other.loose = list(self.loose)
        other.invest = [[list(c) for c in p] for p in self.invest]
        other.fresh = [[list(c) for c in p] for p in self.fresh]
        other.inv_n = [list(p) for p in self.inv_n]
        for name in ("stacks", "done", "used_one", "used_two", "triggered", "coal_on"):
            setattr(other, name, list(getattr(self, name)))
        for name in ("turn", "to_move", "pending", "phase", "deciding", "winners", "reason", "created",
                     "destroyed", "fresh_deal", "mode", "turn_cap", "totals"):
            setattr(other, name, getattr(self, name))
        return other

    def snapshot(self) -> tuple:
        """Everything that defines the position, as nested tuples (equal snapshots = same state)."""
        def deep(value: Any) -> Any:
            return tuple(deep(v) for v in value) if isinstance(value, (list, tuple)) else value
        return tuple(deep(getattr(self, name)) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StackState) and self.snapshot() == other.snapshot()

    __hash__ = None  # mutable

    # readable views, for tests, examples and players
    def hand(self, seat: int) -> tuple[Gem, ...]:
        """Loose hand cards (not set on a terrain), sorted by code."""
        return tuple(GEMS[c] for c in CODES for _ in range(self.hands[seat][c]))

    def invested(self, seat: int, terrain: str) -> tuple[Gem, ...]:
        t = TERRAIN_INDEX[terrain]
        return tuple(GEMS[c] for c in CODES for _ in range(self.invest[seat][t][c] + self.fresh[seat][t][c]))

    def hand_size(self, seat: int) -> int:
        """Cards in hand as the rules count them: loose plus set on terrains."""
        return self.loose[seat] + sum(self.inv_n[seat])

    def field_cards(self) -> tuple[Gem, ...]:
        return tuple(GEMS[slot[0]] for slot in self.field)

    def matched(self, seat: int) -> tuple[Gem, ...]:
        """Field cards that ``seat`` has matched this turn."""
        return tuple(GEMS[slot[0]] for slot in self.field if slot[1 + seat] >= 0)

    def deck_cards(self) -> tuple[Gem, ...]:
        """The deck from top to bottom."""
        return tuple(GEMS[c] for c in reversed(self.deck))

    def __repr__(self) -> str:
        field = " ".join(str(g) for g in self.field_cards())
        return (f"<StackState turn={self.turn} to_move={self.to_move} phase={self.phase} "
                f"field=[{field}] stacks={self.stacks} deck={len(self.deck)}>")


def _blank_state(mode: str, turn_cap: int) -> StackState:
    s = StackState.__new__(StackState)
    s.deck, s.field = [], []
    s.hands = [[0] * 32, [0] * 32]
    s.loose = [0, 0]
    s.invest = [[[0] * 32 for _ in TERRAINS] for _ in range(2)]
    s.fresh = [[[0] * 32 for _ in TERRAINS] for _ in range(2)]
    s.inv_n = [[0] * 4, [0] * 4]
    s.stacks = [1, 1]
    s.turn, s.to_move = 0, 0
    s.done, s.used_one, s.used_two = [False, False], [False, False], [False, False]
    s.triggered, s.coal_on = [False, False], [False, False]
    s.pending, s.phase, s.deciding = None, "play", False
    s.winners, s.reason = (), ""
    s.created = s.destroyed = 0
    s.fresh_deal = True
    s.mode, s.turn_cap = mode, turn_cap
    s.totals = ()
    return s


def _census(s: StackState) -> tuple[list[int], int]:
    """Deck cards per type in every zone, and the number of generated cards in play."""
    types = [0] * 16
    generated = 0

    def add(code: int, n: int = 1) -> None:
        nonlocal generated
        if code & GENERATED:
            generated += n
        else:
            types[code] += n

    for c in s.deck:
        add(c)
    for slot in s.field:
        for c in slot:
            if c >= 0:
                add(c)
    for p in range(2):
        for c in CODES:
            n = s.hands[p][c] + sum(s.invest[p][t][c] + s.fresh[p][t][c] for t in range(4))
            if n:
                add(c, n)
    if s.pending and s.pending[0] == "sapphire":
        for c in s.pending[2]:
            add(c)
    return types, generated


# --- low-level card movement (callers have validated) -------------------------------------------

def _to_bottom(s: StackState, code: int) -> None:
    if code & GENERATED:
        s.destroyed += 1
    else:
        s.deck.insert(0, code)


def _draw(s: StackState, p: int, n: int) -> None:
    deck, hand = s.deck, s.hands[p]
    n = min(n, len(deck))
    for _ in range(n):
        hand[deck.pop()] += 1
    s.loose[p] += n


def _drop(s: StackState, p: int, code: int) -> None:
    """A loose card leaves the hand for the deck bottom (or is destroyed)."""
    s.hands[p][code] -= 1
    s.loose[p] -= 1
    _to_bottom(s, code)


def _turn_up(s: StackState, forbidden: int = 0) -> int:
    """Turn deck cards until one is of a type not on the field and sharing no bit with
    ``forbidden``; skipped cards go to the bottom. -1 when no deck card qualifies."""
    on_field = {slot[0] for slot in s.field}
    deck = s.deck
    for _ in range(len(deck)):
        code = deck.pop()
        if code in on_field or code & forbidden:
            deck.insert(0, code)
            continue
        return code
    return -1


def _refill(s: StackState, size: int) -> None:
    while len(s.field) < size:
        code = _turn_up(s)
        if code < 0:
            return
        s.field.append([code, -1, -1])


def _gain_stack(s: StackState, p: int) -> None:
    s.stacks[p] = min(MAX_STACKS, s.stacks[p] + 1)


def _full(s: StackState, p: int) -> bool:
    return bool(s.field) and all(slot[1 + p] >= 0 for slot in s.field)


# --- turn flow ---------------------------------------------------------------------------------

def _advance(s: StackState, p: int) -> None:
    """After ``p`` finished an action: the opponent moves if not done, else ``p``, else settle."""
    o = 1 - p
    if not s.done[o]:
        s.to_move = o
    elif not s.done[p]:
        s.to_move = p
    else:
        _settle(s)


def _settle(s: StackState) -> None:
    s.phase = "settle"
    s.pending = None
    full = (_full(s, 0), _full(s, 1))
    if full[0] != full[1]:
        winner = 0 if full[0] else 1
        reason = "matched the deciding field card" if s.deciding else "matched every field card"
        _finish(s, (winner,), reason, s.turn + 1)
    elif full[0]:
        if s.deciding or s.mode == "long":
            _case_one(s)
        else:
            code = _turn_up(s)
            if code < 0:
                _case_one(s)
            else:
                s.field.append([code, -1, -1])
                s.deciding = True
                _next_turn(s)
    elif s.deciding:
        _next_turn(s)
    else:
        _case_one(s)


def _case_one(s: StackState) -> None:
    s.deciding = False
    for p in range(2):
        if sum(1 for slot in s.field if slot[1 + p] >= 0) >= 3:
            _gain_stack(s, p)
    kept = []
    for slot in s.field:
        if slot[1] < 0 and slot[2] < 0:
            kept.append(slot)
            continue
        for code in slot:
            if code >= 0:
                _to_bottom(s, code)
    s.field = kept
    _next_settle_discard(s)


def _next_settle_discard(s: StackState) -> None:
    for p in range(2):
        if s.hand_size(p) > HAND_SIZE:
            s.pending = ("settle", p)
            s.to_move = p
            return
    s.pending = None
    for p in range(2):
        _draw(s, p, HAND_SIZE - s.hand_size(p))
    _refill(s, FIELD_SIZE)
    s.fresh_deal = True
    _next_turn(s)


def _next_turn(s: StackState) -> None:
    for p in range(2):
        for t in range(4):
            old, new = s.invest[p][t], s.fresh[p][t]
            for c in CODES:
                if new[c]:
                    old[c] += new[c]
                    new[c] = 0
    s.turn += 1
    s.done = [False, False]
    s.used_one, s.used_two = [False, False], [False, False]
    s.triggered, s.coal_on = [False, False], [False, False]
    s.pending = None
    if s.turn >= s.turn_cap:
        _finish(s, (), f"turn cap of {s.turn_cap} reached: draw", s.turn)
        return
    s.phase = "play"
    s.to_move = s.turn % 2


def _finish(s: StackState, winners: tuple[int, ...], reason: str, turns: int) -> None:
    s.phase = "over"
    s.pending = None
    s.winners = winners
    s.reason = reason
    s.turn = turns


# --- legal moves -------------------------------------------------------------------------------

def _present(hand: list[int]) -> list[int]:
    return [c for c in CODES if hand[c]]


def _pending_moves(s: StackState) -> list[list[Move]]:
    pend = s.pending
    kind, p = pend[0], pend[1]
    hand = s.hands[p]
    if kind == "settle":
        moves = [SETTLE[0][c] for c in CODES if hand[c]]
        for t in range(4):
            row = SETTLE[t + 1]
            old, new = s.invest[p][t], s.fresh[p][t]
            moves += [row[c] for c in CODES if old[c] or new[c]]
        return [moves]
    if kind == "sapphire":
        return [[TAKE[c] for c in sorted(set(pend[2]))], [STOP]]
    if kind == "ruby":
        return [[PICK[c] for c in CODES if hand[c] and c & RUBY], [STOP]]
    return [[PICK[c] for c in CODES if hand[c]]]


def _move_groups(s: StackState) -> list[list[Move]]:
    """Legal moves grouped by kind of action (each group non-empty)."""
    if s.phase == "over":
        return []
    if s.pending is not None:
        return [g for g in _pending_moves(s) if g]
    p = s.to_move
    o = 1 - p
    hand = s.hands[p]
    present = [c for c in CODES if hand[c]]
    groups: list[list[Move]] = [[DONE]]
    if present:
        open_types = {slot[0] for slot in s.field if slot[1 + p] < 0}
        if open_types:
            g = [MATCH[c] for c in present if c & 15 in open_types]
            if g:
                groups.append(g)
        if not s.used_one[p]:
            groups.append([SWAP1[c] for c in present])
        pairs = [(a, b) for i, a in enumerate(present) for b in present[i:] if a != b or hand[a] >= 2]
        if not s.used_two[p]:
            g = [SWAP2[a * 32 + b] for a, b in pairs if a & 15 == b & 15]
            if g:
                groups.append(g)
        g = [mv for m in sorted({c & 15 for c in present}) if hand[m] + hand[m | GENERATED] >= 3
             for mv, (deck_n, gen_n) in zip(SWAP3[m], SWAP3_NEEDS)
             if hand[m] >= deck_n and hand[m | GENERATED] >= gen_n]
        if g:
            groups.append(g)
        if s.stacks[p] >= 1:
            g = [SYNTH[a * 32 + b] for a, b in pairs if SYNTH[a * 32 + b] is not None]
            if g:
                groups.append(g)
            groups.append([m for c in present for m in DECOMPOSE[c]])
            if s.loose[p] >= CYCLE_CARDS:
                groups.append([CYCLE])
        if s.stacks[p] >= 2:
            if s.deck:
                groups.append([DRAW5])
            if s.loose[p] >= OUTPUT_CARDS:
                groups.append([DISCARD5])
        g = [INVEST[t][c] for t in range(4) for c in present if c & (1 << t)]
        if g:
            groups.append(g)
        if s.coal_on[p]:
            g = [COAL_PAIR[a * 32 + b] for a, b in pairs if a & b & COAL]
            if g:
                groups.append(g)
    elif s.stacks[p] >= 2 and s.deck:
        groups.append([DRAW5])
    g = [TAKEBACK[t][c] for t in range(4) if s.inv_n[p][t] for c in CODES if s.invest[p][t][c]]
    if g:
        groups.append(g)
    if not s.triggered[p]:
        mine, theirs = s.inv_n[p], s.inv_n[o]
        g = [TRIGGER[t] for t in range(4) if mine[t] > theirs[t]]
        if g:
            groups.append(g)
    return groups


# --- applying moves ----------------------------------------------------------------------------

def _illegal(move: Any, why: str) -> IllegalMoveError:
    return IllegalMoveError(f"illegal move {move!r}: {why}")


def _code(move: Any, gem: Any) -> int:
    if not isinstance(gem, Gem) or gem.code not in CODES:
        raise _illegal(move, f"{gem!r} is not a Stack card")
    return gem.code


def _need_loose(s: StackState, p: int, move: Any, codes: Sequence[int]) -> None:
    """Every code (with repeats) must be in p's loose hand."""
    hand = s.hands[p]
    for c in set(codes):
        if hand[c] < codes.count(c):
            have = hand[c]
            raise _illegal(move, f"seat {p} holds {have} loose {GEMS[c]} card(s), needs {codes.count(c)}")


def _sorted(move: Any, codes: Sequence[int]) -> None:
    if list(codes) != sorted(codes):
        raise _illegal(move, "list the cards in canonical order: "
                       + " ".join(str(GEMS[c]) for c in sorted(codes)))


def _spend(s: StackState, p: int, move: Any, n: int) -> None:
    if s.stacks[p] < n:
        raise _illegal(move, f"needs {n} stack(s), seat {p} has {s.stacks[p]}")


def _terrain_index(move: Any, name: Any) -> int:
    if name not in TERRAIN_INDEX:
        raise _illegal(move, f"unknown terrain {name!r} (known: {', '.join(TERRAINS)})")
    return TERRAIN_INDEX[name]


def _apply_pending(s: StackState, move: Any) -> None:
    pend = s.pending
    kind, p = pend[0], pend[1]
    if kind == "settle":
        if not isinstance(move, SettleDiscard):
            raise _illegal(move, f"seat {p} must discard down to {HAND_SIZE} cards (SettleDiscard)")
        c = _code(move, move.card)
        if move.terrain is None:
            _need_loose(s, p, move, [c])
            _drop(s, p, c)
        else:
            t = _terrain_index(move, move.terrain)
            old, new = s.invest[p][t], s.fresh[p][t]
            if not old[c] and not new[c]:
                raise _illegal(move, f"seat {p} has no {GEMS[c]} set on {move.terrain}")
            (new if new[c] else old)[c] -= 1
            s.inv_n[p][t] -= 1
            _to_bottom(s, c)
        _next_settle_discard(s)
        return
    if kind == "sapphire":
        revealed, taken = pend[2], pend[3]
        if isinstance(move, Stop):
            _end_sapphire(s, p, revealed)
            return
        if not isinstance(move, Take):
            raise _illegal(move, "choose a revealed card to take (Take) or stop")
        c = _code(move, move.card)
        if c not in revealed:
            raise _illegal(move, f"{GEMS[c]} is not among the revealed cards "
                           + " ".join(str(GEMS[x]) for x in revealed))
        rest = list(revealed)
        rest.remove(c)
        s.hands[p][c] += 1
        s.loose[p] += 1
        if taken + 1 >= SAPPHIRE_TAKES or not rest:
            _end_sapphire(s, p, tuple(rest))
        else:
            s.pending = ("sapphire", p, tuple(rest), taken + 1)
        return
    count = pend[2]
    if kind == "ruby" and isinstance(move, Stop):
        _end_ruby(s, p, count)
        return
    if not isinstance(move, Pick):
        raise _illegal(move, f"seat {p} must pick a card for the pending {kind}"
                       + (" or stop" if kind == "ruby" else ""))
    c = _code(move, move.card)
    if kind == "ruby" and not c & RUBY:
        raise _illegal(move, "the red rye field swaps only cards holding ruby")
    _need_loose(s, p, move, [c])
    _drop(s, p, c)
    count += 1
    if kind == "ruby":
        if count >= RUBY_SWAPS or not any(s.hands[p][x] for x in CODES if x & RUBY):
            _end_ruby(s, p, count)
        else:
            s.pending = ("ruby", p, count)
    elif kind == "cycle":
        if count >= CYCLE_CARDS:
            s.pending = None
            _draw(s, p, CYCLE_CARDS)
            _advance(s, p)
        else:
            s.pending = ("cycle", p, count)
    else:  # discard5
        if count >= OUTPUT_CARDS:
            s.pending = None
            _advance(s, p)
        else:
            s.pending = ("discard5", p, count)


def _end_ruby(s: StackState, p: int, count: int) -> None:
    s.pending = None
    _draw(s, p, count)
    _advance(s, p)


def _end_sapphire(s: StackState, p: int, rest: tuple[int, ...]) -> None:
    for c in rest:
        s.deck.insert(0, c)
    s.pending = None
    _advance(s, p)


def _trigger(s: StackState, p: int, t: int) -> None:
    s.triggered[p] = True
    hand = s.hands[p]
    if t == 0:  # red rye field
        for i, slot in enumerate(s.field):
            if slot[0] & RUBY and slot[1] < 0 and slot[2] < 0:
                s.deck.insert(0, slot[0])
                s.field[i] = [-1, -1, -1]  # a hole while the replacement is turned up
                s.field[i] = [_turn_up(s, RUBY), -1, -1]
        s.field = [slot for slot in s.field if slot[0] >= 0]
        if any(hand[c] for c in CODES if c & RUBY):
            s.pending = ("ruby", p, 0)
            return
    elif t == 1:  # eldorado
        n = min(GOLD_DRAW, len(s.deck))
        drawn = [s.deck.pop() for _ in range(n)]
        for c in drawn:
            if c & GOLD:
                hand[c] += 1
                s.loose[p] += 1
            else:
                s.deck.insert(0, c)
    elif t == 2:  # pale blue dot
        n = sum(1 for slot in s.field if slot[0] & SAPPHIRE)
        n += sum(hand[c] + sum(s.invest[p][x][c] + s.fresh[p][x][c] for x in range(4))
                 for c in CODES if c & SAPPHIRE)
        n = min(n, len(s.deck))
        if n:
            s.pending = ("sapphire", p, tuple(s.deck.pop() for _ in range(n)), 0)
            return
    else:  # coal mine
        s.coal_on[p] = True
    _advance(s, p)


def _apply(s: StackState, move: Any) -> None:
    if s.phase == "over":
        raise _illegal(move, "the game is over")
    if s.pending is not None:
        _apply_pending(s, move)
        return
    p, o = s.to_move, 1 - s.to_move
    hand = s.hands[p]
    kind = type(move)
    if kind is Done:
        s.done[p] = True
    elif kind is Match:
        c = _code(move, move.card)
        _need_loose(s, p, move, [c])
        slot = next((sl for sl in s.field if sl[0] == c & 15), None)
        if slot is None:
            raise _illegal(move, f"no {GEMS[c & 15]} card on the field")
        if slot[1 + p] >= 0:
            raise _illegal(move, f"seat {p} already matched the {GEMS[c & 15]} field card")
        hand[c] -= 1
        s.loose[p] -= 1
        slot[1 + p] = c
    elif kind is SwapOne or kind is SwapTwo or kind is SwapThree:
        codes = [_code(move, move.card)] if kind is SwapOne else [_code(move, g) for g in move.cards]
        if kind is not SwapOne and len({c & 15 for c in codes}) != 1:
            raise _illegal(move, "the cards must be identical (same minerals)")
        if kind is SwapOne and s.used_one[p]:
            raise _illegal(move, f"seat {p} already swapped one card this turn")
        if kind is SwapTwo and s.used_two[p]:
            raise _illegal(move, f"seat {p} already swapped two identical cards this turn")
        _sorted(move, codes)
        _need_loose(s, p, move, codes)
        for c in codes:
            _drop(s, p, c)
        _draw(s, p, len(codes))
        if kind is SwapOne:
            s.used_one[p] = True
        elif kind is SwapTwo:
            s.used_two[p] = True
        else:
            _gain_stack(s, p)
    elif kind is Synthesize:
        a, b = _code(move, move.first), _code(move, move.second)
        _sorted(move, [a, b])
        union = (a | b) & 15
        if POPCOUNT[union] > MAX_MINERALS:
            raise _illegal(move, f"{GEMS[a & 15]} and {GEMS[b & 15]} hold {POPCOUNT[union]} minerals together; "
                           f"at most {MAX_MINERALS} can be synthesised, nothing would be created")
        _spend(s, p, move, 1)
        _need_loose(s, p, move, [a, b])
        _drop(s, p, a)
        _drop(s, p, b)
        hand[union | GENERATED] += 1
        s.loose[p] += 1
        s.created += 1
        s.stacks[p] -= 1
    elif kind is Decompose:
        c = _code(move, move.card)
        if move not in DECOMPOSE[c]:
            ways = ", ".join(f"{m.parts[0]}|{m.parts[1]}" for m in DECOMPOSE[c])
            raise _illegal(move, f"{GEMS[c]} decomposes only into {ways}")
        _spend(s, p, move, 1)
        _need_loose(s, p, move, [c])
        if POPCOUNT[c & 15] == 1:
            hand[c | GENERATED] += 1
            s.loose[p] += 1
            s.created += 1
        else:
            _drop(s, p, c)
            for part in move.parts:
                hand[part.code] += 1
            s.loose[p] += 2
            s.created += 2
        s.stacks[p] -= 1
    elif kind is Cycle or kind is OutputDiscard:
        need, cost = (CYCLE_CARDS, 1) if kind is Cycle else (OUTPUT_CARDS, 2)
        _spend(s, p, move, cost)
        if s.loose[p] < need:
            raise _illegal(move, f"needs {need} loose cards, seat {p} has {s.loose[p]}")
        s.stacks[p] -= cost
        s.pending = ("cycle" if kind is Cycle else "discard5", p, 0)
        s.fresh_deal = False
        return
    elif kind is OutputDraw:
        _spend(s, p, move, 2)
        if not s.deck:
            raise _illegal(move, "the deck is empty")
        s.stacks[p] -= 2
        _draw(s, p, OUTPUT_CARDS)
    elif kind is Invest:
        t = _terrain_index(move, move.terrain)
        c = _code(move, move.card)
        if not c & (1 << t):
            raise _illegal(move, f"{GEMS[c]} holds no {MINERALS[t]}, the mineral of {move.terrain}")
        _need_loose(s, p, move, [c])
        hand[c] -= 1
        s.loose[p] -= 1
        s.fresh[p][t][c] += 1
        s.inv_n[p][t] += 1
    elif kind is TakeBack:
        t = _terrain_index(move, move.terrain)
        c = _code(move, move.card)
        if not s.invest[p][t][c]:
            why = "it was set this turn" if s.fresh[p][t][c] else "none is set there"
            raise _illegal(move, f"seat {p} cannot take a {GEMS[c]} back from {move.terrain}: {why}")
        s.invest[p][t][c] -= 1
        s.inv_n[p][t] -= 1
        hand[c] += 1
        s.loose[p] += 1
    elif kind is Trigger:
        t = _terrain_index(move, move.terrain)
        if s.triggered[p]:
            raise _illegal(move, f"seat {p} already triggered a terrain this turn")
        if s.inv_n[p][t] <= s.inv_n[o][t]:
            raise _illegal(move, f"seat {p} invested {s.inv_n[p][t]} card(s) on {move.terrain}, "
                           f"not more than the opponent's {s.inv_n[o][t]}")
        s.fresh_deal = False
        _trigger(s, p, t)
        return
    elif kind is CoalDiscard:
        codes = [_code(move, g) for g in move.cards]
        if not s.coal_on[p]:
            raise _illegal(move, f"seat {p} has not triggered the coal mine this turn")
        if not all(c & COAL for c in codes):
            raise _illegal(move, "both cards must hold coal")
        _sorted(move, codes)
        _need_loose(s, p, move, codes)
        for c in codes:
            _drop(s, p, c)
        _gain_stack(s, p)
    else:
        raise _illegal(move, "not a move available now (no choice is pending)"
                       if isinstance(move, (Pick, Take, Stop, SettleDiscard)) else "not a Stack move")
    s.fresh_deal = False
    _advance(s, p)


# --- setup and hand-built positions ------------------------------------------------------------

def _deck_codes(deck: Deck) -> list[int]:
    codes = []
    for card in deck.cards:
        minerals = card.get("minerals")
        if isinstance(minerals, str) or not isinstance(minerals, (list, tuple)):
            raise DeckError(f"{deck.name}: card {card.label} has no list of minerals (got {minerals!r})")
        unknown = [m for m in minerals if m not in MINERALS]
        if unknown:
            raise DeckError(f"{deck.name}: card {card.label} has unknown mineral(s) {unknown!r} "
                            f"(known: {', '.join(MINERALS)})")
        if len(set(minerals)) != len(minerals) or not 1 <= len(minerals) <= MAX_MINERALS:
            raise DeckError(f"{deck.name}: card {card.label} must hold 1 to {MAX_MINERALS} different "
                            f"minerals, not {list(minerals)!r}")
        cost = card.get("cost")
        if cost != len(minerals):
            raise DeckError(f"{deck.name}: card {card.label} has cost {cost!r}, but a card's cost is its "
                            f"number of minerals ({len(minerals)})")
        codes.append(mask_of(minerals))
    return codes


def _options(deck_options: dict, options: dict) -> tuple[str, int]:
    merged = {**deck_options, **options}
    unknown = sorted(set(merged) - {"mode", "turn_cap"})
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
    types, _ = _census(s)
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
    s = _blank_state(mode, turn_cap)

    def code(card: Gem | str) -> int:
        return (card if isinstance(card, Gem) else Gem.parse(card)).code

    for p in range(2):
        for card in hands[p]:
            s.hands[p][code(card)] += 1
            s.loose[p] += 1
        for name, cards in invested[p].items():
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
    _settle(state)
    return state


# --- the engine --------------------------------------------------------------------------------

class StackEngine:
    """Stack Original for exactly two players; see the module docstring for the decisions."""

    name = "stack"
    min_players = 2
    max_players = 2

    def validate_deck(self, deck: Deck) -> None:
        codes = _deck_codes(deck)
        types = len(set(codes))
        if types < FIELD_SIZE:
            raise DeckError(f"{deck.name}: the field needs {FIELD_SIZE} different card types, the deck has "
                            f"only {types}")
        need = FIELD_SIZE + 2 * HAND_SIZE
        if len(codes) < need:
            raise DeckError(f"{deck.name}: {len(codes)} cards are too few to deal: the field and two hands "
                            f"of {HAND_SIZE} need {need}")

    def new_game(self, deck: Deck, players: int = 2, seed: int = 0, **options: Any) -> StackState:
        self.validate_deck(deck)
        if players != 2:
            raise DeckError(f"Stack Original is played by exactly 2 players, not {players!r}")
        mode, cap = _options(dict(deck.options), options)
        rng = random.Random(seed)
        s = _blank_state(mode, cap)
        cards = _deck_codes(deck)
        rng.shuffle(cards)
        s.deck = cards
        _census_totals(s)
        _refill(s, FIELD_SIZE)
        for _ in range(HAND_SIZE):
            for p in range(2):
                _draw(s, p, 1)
        return s

    def current_player(self, state: StackState) -> int:
        return state.to_move

    def legal_moves(self, state: StackState) -> list[Move]:
        return [m for group in _move_groups(state) for m in group]

    def move_groups(self, state: StackState) -> list[list[Move]]:
        """Legal moves grouped by kind of action (used by the random player)."""
        return _move_groups(state)

    def apply(self, state: StackState, move: Any) -> None:
        # every handler validates completely before it changes anything
        _apply(state, move)

    def is_over(self, state: StackState) -> bool:
        return state.phase == "over"

    def outcome(self, state: StackState) -> Outcome:
        if state.phase != "over":
            raise IllegalMoveError("the game is not over yet")
        scores = tuple(1 if p in state.winners else 0 for p in range(2))
        return Outcome(scores=scores, winners=state.winners, reason=state.reason, turns=state.turn)

    def check_invariants(self, state: StackState) -> None:
        check_invariants(state)

    def players(self) -> dict:
        from printkit.rules.stack_players import PLAYERS
        return dict(PLAYERS)

    def parse_move(self, text: str) -> Move:
        return parse_move(text)


def check_invariants(s: StackState) -> None:
    """Raise InvariantError naming the first broken invariant."""
    types, generated = _census(s)
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
            cards = [c for c in CODES if s.invest[p][t][c] or s.fresh[p][t][c]]
            if s.inv_n[p][t] != sum(s.invest[p][t]) + sum(s.fresh[p][t]):
                raise InvariantError(f"investment count: seat {p} on {TERRAINS[t]}")
            if any(not c & (1 << t) for c in cards):
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
    if s.phase != "over" and not _move_groups(s):
        raise InvariantError("no legal move although the game is not over")

ENGINE = StackEngine()
