"""Clag: a trick-taking game for 4-7 players over 22 rounds with a standard 52-card deck.

The engine follows GAMES.md exactly. A game is a :class:`ClagState` (mutable, owned by the caller);
moves are the small frozen values :class:`Bid`, :class:`Play` and :class:`ChooseTrump`.
:data:`ROUNDS` is the round table (hand sizes and special rules, in English and Korean) that the
rulebook and the score sheet read. The pure helpers :func:`dealer_bid_range`, :func:`trick_winner`
and :func:`parse_trick` let a rulebook work out hand-built examples without playing a game.

The rules live in three modules beside this one: :mod:`.cards` (cards, moves, notation, tricks),
:mod:`.rules` (the state and every rule) and :mod:`.players` (the simulation players); this module
is the engine object over them and offers their public names in one place.

Seats are numbered clockwise; "left" is the next seat. Card notation is ``QH``, ``10S``, ``2C=KH``
(a wild two naming the king of hearts, round 12 only).
"""

from __future__ import annotations

from operator import attrgetter
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from printkit.deck import Deck
from printkit.errors import DeckError, IllegalMoveError
from printkit.games.clag.cards import (
    CARDS, MAX_PLAYERS, MIN_PLAYERS, NAMEABLE_BY_SUIT, TWO, Bid, ChooseTrump, Move, Play, PlayingCard,
    dealer_bid_range, parse_move, parse_trick, round_rule, trick_winner,
)
from printkit.games.clag.players import greedy_player, random_player, strong_player
from printkit.games.clag.rules import (
    CONTRACT_BONUS, PHASE_OVER, ClagState, RoundRecord, _card_of, _new_state, _start_round, apply, check_invariants, facts,
    legal_moves, outcome, record, round_points, shuffled, start_round, why_illegal, winners,
)
from printkit.games.clag.words import ROUNDS, SUIT_LETTERS, SUITS, RoundRule, Special
from printkit.rules.base import Outcome, Player

__all__ = [
    "CARDS", "CONTRACT_BONUS", "ENGINE", "MAX_PLAYERS", "MIN_PLAYERS", "NAMEABLE_BY_SUIT", "ROUNDS", "SUITS", "SUIT_LETTERS", "TWO",
    "Bid", "ChooseTrump", "ClagEngine", "ClagState", "Move", "Play", "PlayingCard", "RoundRecord", "RoundRule",
    "Special", "apply", "check_invariants", "dealer_bid_range", "facts", "game_options", "greedy_player",
    "legal_moves", "outcome", "parse_move", "parse_trick", "random_player", "record", "replay", "round_points",
    "round_rule", "shuffled", "start_round", "strong_player", "trick_winner", "validate_cards", "why_illegal",
    "winners",
]


def replay(deck: Deck, game: Mapping[str, Any]) -> ClagState:
    """Play a recorded game's moves from its seed; raises IllegalMoveError at the first bad move."""
    state = ENGINE.new_game(deck, game["players"], game["seed"], hook=game.get("hook", False))
    for number, text in enumerate(game["moves"], start=1):
        try:
            apply(state, parse_move(text))
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"move {number} ({text!r}): {exc}") from None
    return state


# --------------------------------------------------------------------------------------------
# The engine object


def validate_cards(deck: Deck) -> tuple[PlayingCard, ...]:
    """The deck's cards, or DeckError if Clag cannot be played with them."""
    cards = [_card_of(c.attrs, c.label) for c in deck.cards]
    seen: dict[PlayingCard, str] = {}
    for card, source in zip(cards, deck.cards):
        if card in seen:
            raise DeckError(f"duplicate card {card} ({seen[card]} and {source.label})")
        seen[card] = source.label
    need = MAX_PLAYERS * max(rule.hand_size for rule in ROUNDS) + 1
    if len(cards) < need:
        raise DeckError(
            f"the deck has {len(cards)} cards; Clag needs at least {need} "
            f"({MAX_PLAYERS} players x {max(rule.hand_size for rule in ROUNDS)} cards + 1 trump card)"
        )
    return tuple(sorted(cards, key=lambda c: c.index))


def game_options(deck_options: Mapping[str, Any], options: Mapping[str, Any] = MappingProxyType({})) -> bool:
    """The ``hook`` option from the spec's ``options`` overridden by keyword ``options``; DeckError
    for an unknown name or a value that is not true or false."""
    merged = {**deck_options, **options}
    unknown = sorted(set(merged) - {"hook"}, key=str)
    if unknown:
        raise DeckError(f"unknown Clag option(s) {', '.join(map(repr, unknown))} (known: 'hook')")
    hook = merged.get("hook", False)
    if not isinstance(hook, bool):
        raise DeckError(f"Clag option hook must be true or false, not {hook!r}")
    return hook


class ClagEngine:
    """The Clag rules behind the protocol in :mod:`printkit.rules.base`."""

    name = "clag"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    length_unit = "moves"  # Outcome.turns counts every bid, trump choice and card played
    options = ("hook",)

    def check_options(self, options: Mapping[str, Any]) -> None:
        game_options(options)

    def validate_deck(self, deck: Deck) -> None:
        game_options(deck.options)
        self._cards(deck)

    # The last deck validated: a simulation deals thousands of games from one deck.
    _last_deck: list = [None, None]

    def _cards(self, deck: Deck) -> tuple[PlayingCard, ...]:
        """:func:`validate_cards` of ``deck``, remembered for the last deck."""
        if self._last_deck[0] is not deck:
            self._last_deck[:] = [deck, validate_cards(deck)]
        return self._last_deck[1]

    def new_game(self, deck: Deck, players: int, seed: int, **options: Any) -> ClagState:
        """Options (the spec's ``options:``, overridden by keywords): ``hook=True`` replaces the
        dealer rule by Oh Hell's (the total of bids is not H)."""
        hook = game_options(deck.options, options)
        state = _new_state(self._cards(deck), players, seed, hook)
        _start_round(state, shuffled(state.deck, state.rng))
        return state

    # The seat to move (-1 once the game is over), read without a Python call per move.
    current_player = staticmethod(attrgetter("to_move"))

    # The module's functions themselves: no wrapper call per move.
    legal_moves = staticmethod(legal_moves)
    apply = staticmethod(apply)

    def is_over(self, state: ClagState) -> bool:
        return state.phase == PHASE_OVER

    def outcome(self, state: ClagState) -> Outcome:
        return outcome(state)

    def check_invariants(self, state: ClagState) -> None:
        check_invariants(state)

    # facts() reads the final state only: play_game need not deal the start again nor note seats.
    facts_from_final = True

    def facts(self, start: ClagState | None, final: ClagState, moves: Sequence[Move], seats: Sequence[int]) -> dict[str, Any]:
        return facts(start, final, moves, seats)

    def players(self) -> dict[str, Player]:
        return {"random": random_player, "greedy": greedy_player, "strong": strong_player}


ENGINE = ClagEngine()
