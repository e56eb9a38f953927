"""Stack Original: the game state (mutable, owned by the caller) and its card census."""

from __future__ import annotations

from typing import Any

from printkit.games.stack.moves import CODES, GEMS, GENERATED, TERRAIN_INDEX, TERRAINS, Gem

class StackState:
    """A Stack game in progress. Cards are codes (see moves.py); hands are counts per code.

    ``deck`` has its top at the end. A field slot is ``[card, seat 0's match, seat 1's match]`` with
    ``-1`` for "not matched". ``invest[p][t]`` counts cards set on terrain ``t`` on earlier turns,
    ``fresh[p][t]`` those set this turn (not yet takeable). ``pending`` is a choice the player to move
    must finish: ``("cycle"|"discard5"|"ruby", seat, count)``, ``("sapphire", seat, revealed,
    taken)`` or ``("settle", seat)``.
    """

    __slots__ = ("deck", "field", "hands", "loose", "invest", "fresh", "inv_n", "stacks", "turn",
                 "to_move", "done", "used_one", "used_two", "triggered", "coal_on", "pending",
                 "phase", "deciding", "winners", "reason", "created", "destroyed", "fresh_deal",
                 "mode", "turn_cap", "totals", "both_full")

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
                     "destroyed", "fresh_deal", "mode", "turn_cap", "totals", "both_full"):
            setattr(other, name, getattr(self, name))
        return other

    def snapshot(self) -> tuple:
        """Everything that defines the position, as nested tuples (equal snapshots = same state)."""
        def deep(value: Any) -> Any:
            return tuple(deep(v) for v in value) if isinstance(value, (list, tuple)) else value
        return tuple(deep(getattr(self, name)) for name in self.__slots__ if name != "both_full")

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


def blank_state(mode: str, turn_cap: int) -> StackState:
    """An empty table: no cards anywhere, one stack each, turn 0, seat 0 to move."""
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
    s.both_full = 0  # settlements at which both players had matched every field card (a record only)
    return s


def census(s: StackState) -> tuple[list[int], int]:
    """Deck cards per type in every zone, and the number of generated cards in play."""
    zones = [s.hands[0], s.hands[1], *s.invest[0], *s.invest[1], *s.fresh[0], *s.fresh[1]]
    counts = [sum(per_zone) for per_zone in zip(*zones)]
    for c in s.deck:
        counts[c] += 1
    for slot in s.field:
        for c in slot:
            if c >= 0:
                counts[c] += 1
    if s.pending and s.pending[0] == "sapphire":
        for c in s.pending[2]:
            counts[c] += 1
    return counts[:GENERATED], sum(counts[GENERATED:])
