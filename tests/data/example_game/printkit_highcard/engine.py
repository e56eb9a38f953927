"""High Card: every card has a ``rank``; the deck is dealt out evenly and each trick, every
player plays one card in turn, the highest rank taking the trick (a tie takes nothing). Whoever
takes the most tricks wins.

The engine follows printkit's engine protocol (``printkit.rules.base.Engine``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Mapping

from printkit.errors import DeckError, IllegalMoveError, InvariantError
from printkit.rules.base import Outcome


@dataclass
class State:
    """One game: the hands, the trick on the table, tricks taken by seat and the moves so far."""

    players: int
    size: int  # cards dealt in all
    hands: list[list[int]]
    trick: list[int] = field(default_factory=list)
    taken: list[int] = field(default_factory=list)
    leader: int = 0
    moves: int = 0

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.players


class HighCard:
    name = "highcard"
    min_players = 2
    max_players = 4
    length_unit = "moves"

    def check_options(self, options: Mapping[str, Any]) -> None:
        if options:
            raise DeckError(f"High Card has no options (given: {', '.join(map(repr, options))})")

    def validate_deck(self, deck) -> None:
        self.check_options(deck.options)
        for card in deck.cards:
            rank = card.get("rank")
            if isinstance(rank, bool) or not isinstance(rank, int):
                raise DeckError(f"{card.label}: High Card needs a whole-number rank, not {rank!r}")
        if len(deck.cards) < 2 * self.max_players:
            raise DeckError(f"High Card needs at least {2 * self.max_players} cards, the deck has {len(deck.cards)}")

    def new_game(self, deck, players: int, seed: int, **options: Any) -> State:
        self.check_options({**deck.options, **options})
        if not self.min_players <= players <= self.max_players:
            raise DeckError(f"High Card is for {self.min_players}-{self.max_players} players, not {players}")
        ranks = [card["rank"] for card in deck.cards]
        random.Random(seed).shuffle(ranks)
        ranks = ranks[: len(ranks) - len(ranks) % players]  # an even deal; the rest stay in the box
        hands = [sorted(ranks[seat::players]) for seat in range(players)]
        return State(players, len(ranks), hands, taken=[0] * players)

    def current_player(self, state: State) -> int:
        return state.to_move

    def legal_moves(self, state: State) -> list[int]:
        return sorted(set(state.hands[state.to_move]))

    def apply(self, state: State, move: int) -> None:
        hand = state.hands[state.to_move]
        if move not in hand:
            raise IllegalMoveError(f"seat {state.to_move} holds no {move!r}")
        hand.remove(move)
        state.trick.append(move)
        state.moves += 1
        if len(state.trick) == state.players:
            top = max(state.trick)
            if state.trick.count(top) == 1:
                winner = (state.leader + state.trick.index(top)) % state.players
                state.taken[winner] += 1
                state.leader = winner
            state.trick = []

    def is_over(self, state: State) -> bool:
        return not any(state.hands)

    def outcome(self, state: State) -> Outcome:
        best = max(state.taken)
        winners = tuple(seat for seat, n in enumerate(state.taken) if n == best)
        return Outcome(tuple(state.taken), winners, "all cards played", state.moves)

    def check_invariants(self, state: State) -> None:
        held = sum(len(hand) for hand in state.hands)
        if held + state.moves != state.size:
            raise InvariantError(f"cards: {held} held and {state.moves} played, {state.size} dealt")
        if sum(state.taken) > state.moves // state.players:
            raise InvariantError("tricks: more taken than played")

    def players(self):
        return {"random": random_player, "greedy": greedy_player}


def random_player(state: State, rng: random.Random) -> int:
    """Any card in hand."""
    moves = ENGINE.legal_moves(state)
    return moves[rng.randrange(len(moves))]


def greedy_player(state: State, rng: random.Random) -> int:
    """The highest card in hand."""
    return max(state.hands[state.to_move])


ENGINE = HighCard()
