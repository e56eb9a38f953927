"""Simulation players for Stack Original: ``random`` and ``greedy``.

``random`` first picks a kind of action uniformly (done, match, swap one, synthesise, invest …),
then one move of that kind uniformly. A flat uniform choice would almost never pick "done" among
dozens of investments and syntheses, so turns would drag on; with the kinds weighted equally every
turn ends after a handful of actions and every game ends (at the latest at the turn cap).

``greedy`` plays towards the field: it matches whatever it can, synthesises or decomposes cards
into field types it lacks, collects stacks with triple swaps, swaps away cards the field does not
need, invests to trigger a terrain, and otherwise says done.
"""

from __future__ import annotations

import random
from typing import Any

from printkit.games.stack.moves import (
    CYCLE, DONE, DRAW5, GENERATED, GOLD, STOP, CoalDiscard, Cycle, Decompose, Invest, Match, OutputDraw,
    Pick, SettleDiscard, SwapOne, SwapThree, SwapTwo, Synthesize, Take, TakeBack, Trigger,
)
from printkit.games.stack.rules import MAX_STACKS, apply_move, match_moves, move_groups
from printkit.games.stack.state import StackState


def random_player(state: StackState, rng: random.Random) -> Any:
    """A kind of action uniformly at random, then a move of that kind uniformly at random."""
    groups = move_groups(state)
    group = groups[rng.randrange(len(groups))]
    return group[rng.randrange(len(group))]


def _wanted(state: StackState, p: int) -> set[int]:
    """Field types (masks) that seat ``p`` has not matched yet."""
    return {slot[0] for slot in state.field if slot[1 + p] < 0}


def greedy_player(state: StackState, rng: random.Random) -> Any:
    """A simple heuristic; ties are broken by ``rng`` so games still vary."""
    if state.pending is None and state.phase != "over":
        # A match comes first whatever else is legal: no need to list the other moves.
        matches = match_moves(state)
        if matches:
            return matches[rng.randrange(len(matches))]
    groups = move_groups(state)
    p = state.to_move
    wanted = _wanted(state, p)
    hand = state.hands[p]

    def useless(code: int) -> bool:
        # a card is useless when the field does not need it, or it is a spare copy of a needed type
        mask = code & 15
        return mask not in wanted or hand[mask] + hand[mask | GENERATED] > 1

    def pick(cands: list) -> Any:
        return cands[rng.randrange(len(cands))] if cands else None

    if state.pending is not None:
        moves = [m for g in groups for m in g]
        kind = state.pending[0]
        if kind == "sapphire":
            return pick([m for m in moves if isinstance(m, Take) and m.card.mask in wanted]) or STOP
        if kind == "ruby":
            return pick([m for m in moves if isinstance(m, Pick) and useless(m.card.code)]) or STOP
        if kind == "settle":
            return (pick([m for m in moves if isinstance(m, SettleDiscard) and useless(m.card.code)])
                    or pick(moves))
        return pick([m for m in moves if isinstance(m, Pick) and useless(m.card.code)]) or pick(moves)

    # Outside a pending choice each group holds one kind of move and each kind has one group, in
    # a fixed order: a kind's moves are its group (the same moves, in the same order, as filtering
    # every legal move by kind).
    kinds = {type(g[0]): g for g in groups}
    empty: list = []
    choice = pick(kinds.get(Match))
    if choice:
        return choice
    held = {c & 15 for c in range(32) if hand[c]}
    missing = wanted - held
    choice = pick([m for m in kinds.get(TakeBack, empty) if m.card.mask in missing])
    if choice:
        return choice
    choice = pick([m for m in kinds.get(Synthesize, empty)
                   if (m.first.mask | m.second.mask) in missing
                   and useless(m.first.code) and useless(m.second.code)])
    if choice:
        return choice
    choice = pick([m for m in kinds.get(Decompose, empty) if useless(m.card.code)
                   and m.card.cost > 1 and any(part.mask in missing for part in m.parts)])
    if choice:
        return choice
    choice = pick([m for m in kinds.get(SwapThree, empty) + kinds.get(CoalDiscard, empty)
                   if all(useless(c.code) for c in m.cards)])
    if choice and state.stacks[p] < MAX_STACKS:
        return choice
    choice = pick([m for m in kinds.get(Trigger, empty) if m.terrain != "red_rye_field"])
    if choice:
        return choice
    choice = pick([m for m in kinds.get(SwapOne, empty) if useless(m.card.code)]
                  + [m for m in kinds.get(SwapTwo, empty) if all(useless(c.code) for c in m.cards)])
    if choice:
        return choice
    if not state.triggered[p] and state.inv_n[p][1] <= state.inv_n[1 - p][1]:
        choice = pick([m for m in kinds.get(Invest, empty) if m.terrain == "eldorado"
                       and m.card.code & GOLD and useless(m.card.code)])
        if choice:
            return choice
    return DONE


def _progress(state: StackState, p: int) -> tuple[int, int, int]:
    """How near seat ``p`` is to matching the whole field: (matched, needed types held, stacks)."""
    hand = state.hands[p]
    matched = sum(1 for slot in state.field if slot[1 + p] >= 0)
    held = sum(1 for slot in state.field if slot[1 + p] < 0 and (hand[slot[0]] or hand[slot[0] | GENERATED]))
    return matched, held, state.stacks[p]


def strong_player(state: StackState, rng: random.Random) -> Any:
    """The greedy player with one action of look-ahead, and stacks spent on fresh cards.

    Outside pending choices, every legal action that reveals no unseen card is tried on a copy of
    the state: the action that brings the player nearest to matching the whole field (matched cards
    first, then needed types held, then stacks) is played when it is nearer than now. Otherwise the
    greedy choice, except that a player who would say done without having matched the whole field
    first spends its stacks on new cards: output (draw five) with two stacks, else a cycle (swap
    three) with one. The matches of a turn count only until its settlement, so a stack kept for a
    later turn is worth less than a better chance of matching everything now.
    """
    if state.pending is not None:
        return greedy_player(state, rng)
    p = state.to_move
    now = _progress(state, p)
    matched, held, _ = now
    best, choices = now, []
    groups = move_groups(state)
    for group in groups:
        for move in group:
            if move is DONE or isinstance(move, (SwapOne, SwapTwo, SwapThree, Trigger, Invest, TakeBack)):
                continue  # swaps and terrains draw unseen cards: left to the greedy rules
            trial = state.clone()
            apply_move(trial, move)
            if trial.phase != "play":
                continue
            score = _progress(trial, p)
            if score > best:
                best, choices = score, [move]
            elif score == best and choices:
                choices.append(move)
    if choices and best[:2] > (matched, held):
        return choices[rng.randrange(len(choices))]
    choice = greedy_player(state, rng)
    if choice is DONE and matched < len(state.field):
        kinds = {type(group[0]) for group in groups}
        if OutputDraw in kinds:
            return DRAW5
        if Cycle in kinds:
            return CYCLE
    return choice


PLAYERS = {"random": random_player, "greedy": greedy_player, "strong": strong_player}
