"""Stack Original: how moves change the state — turn flow, settlement, legal moves and ``apply``.

The decisions these functions implement are listed in :mod:`printkit.games.stack.engine`. Every function
that applies a move validates it completely before changing anything.
"""

from __future__ import annotations

from typing import Any, Sequence

from printkit.errors import IllegalMoveError
from printkit.games.stack.moves import (
    CODES, COAL, COAL_PAIR, CYCLE, DECOMPOSE, DISCARD5, DONE, DRAW5, GEMS, GENERATED, GOLD, INVEST,
    MATCH, MAX_MINERALS, MINERALS, PICK, POPCOUNT, RUBY, SAPPHIRE, SETTLE, STOP, SWAP1, SWAP2, SWAP3,
    SWAP3_NEEDS, SYNTH, TAKE, TAKEBACK, TERRAIN_BIT, TERRAIN_CODES, TERRAIN_INDEX, TERRAINS, TRIGGER,
    CoalDiscard, Cycle, Decompose, Done, Gem, Invest, Match, Move, OutputDiscard, OutputDraw, Pick,
    SettleDiscard, Stop, SwapOne, SwapThree, SwapTwo, Synthesize, Take, TakeBack, Trigger,
)
from printkit.games.stack.state import StackState

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


# --- low-level card movement (callers have validated) -------------------------------------------

def _to_bottom(s: StackState, code: int) -> None:
    if code & GENERATED:
        s.destroyed += 1
    else:
        s.deck.insert(0, code)


def draw(s: StackState, p: int, n: int) -> None:
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


def refill(s: StackState, size: int) -> None:
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
        settle_now(s)


# How a settlement that one player won is said to have ended (a game's ``reason``).
CASE_ALL = "matched every field card"
CASE_DECIDING = "matched the deciding field card"


def settle_now(s: StackState) -> None:
    s.phase = "settle"
    s.pending = None
    full = (_full(s, 0), _full(s, 1))
    if full[0] != full[1]:
        winner = 0 if full[0] else 1
        reason = CASE_DECIDING if s.deciding else CASE_ALL
        _finish(s, (winner,), reason, s.turn + 1)
    elif full[0]:
        s.both_full += 1
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
        draw(s, p, HAND_SIZE - s.hand_size(p))
    refill(s, FIELD_SIZE)
    s.fresh_deal = True
    _next_turn(s)


def _next_turn(s: StackState) -> None:
    for p in range(2):
        for t in range(4):
            old, new = s.invest[p][t], s.fresh[p][t]
            if not any(new):
                continue
            for c in TERRAIN_CODES[t]:
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


def match_moves(s: StackState, present: Sequence[int] | None = None) -> list[Move]:
    """The matches open to the player to move outside a pending choice (``present``: the codes in
    its loose hand, ascending, when the caller has them)."""
    p = s.to_move
    if present is None:
        hand = s.hands[p]
        present = [c for c in CODES if hand[c]]
    open_types = {slot[0] for slot in s.field if slot[1 + p] < 0}
    return [MATCH[c] for c in present if c & 15 in open_types] if open_types else []


def move_groups(s: StackState) -> list[list[Move]]:
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
        g = match_moves(s, present)
        if g:
            groups.append(g)
        if not s.used_one[p]:
            groups.append([SWAP1[c] for c in present])
        # unordered pairs of loose cards (codes ascending), for the two-card actions
        pairs = [(a, b) for i, a in enumerate(present) for b in present[i:] if a != b or hand[a] >= 2] \
            if not s.used_two[p] or s.stacks[p] or s.coal_on[p] else []
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
        g = [INVEST[t][c] for t in range(4) for c in present if c & TERRAIN_BIT[t]]
        if g:
            groups.append(g)
        if s.coal_on[p]:
            g = [COAL_PAIR[a * 32 + b] for a, b in pairs if a & b & COAL]
            if g:
                groups.append(g)
    elif s.stacks[p] >= 2 and s.deck:
        groups.append([DRAW5])
    g = []
    for t, old in enumerate(s.invest[p]):
        if s.inv_n[p][t]:
            row = TAKEBACK[t]
            g += [row[c] for c in TERRAIN_CODES[t] if old[c]]
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
    if not isinstance(gem, Gem) or type(gem.code) is not int or gem.code not in CODES:
        raise _illegal(move, f"{gem!r} is not a Stack card")
    return gem.code


def _codes(move: Any, cards: Any, n: int) -> list[int]:
    """The codes of a move's ``cards``, which must be a tuple of exactly ``n`` Stack cards."""
    if not isinstance(cards, tuple) or len(cards) != n:
        raise _illegal(move, f"{type(move).__name__} names a tuple of {n} cards, not {cards!r}")
    return [_code(move, g) for g in cards]


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
    if not isinstance(name, str) or name not in TERRAIN_INDEX:
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
            draw(s, p, CYCLE_CARDS)
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
    draw(s, p, count)
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


def apply_move(s: StackState, move: Any) -> None:
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
        codes = [_code(move, move.card)] if kind is SwapOne else _codes(move, move.cards, 2 if kind is SwapTwo else 3)
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
        draw(s, p, len(codes))
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
        draw(s, p, OUTPUT_CARDS)
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
        codes = _codes(move, move.cards, 2)
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
