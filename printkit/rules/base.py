"""What every game engine offers, so `check`, `simulate` and the rulebooks can drive any of them.

A game's engine module (``printkit.games.calc.engine`` …) exposes a module-level ``ENGINE`` object
that follows the :class:`Engine` protocol; the games registry (:mod:`printkit.games`) finds it.
A game is a mutable state object owned by the caller: ``apply`` validates a move completely
before changing anything, so an illegal move raises :class:`~printkit.errors.IllegalMoveError`
and leaves the state exactly as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Mapping, Protocol, Sequence

from printkit.deck import Deck

@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: final scores per seat, the winning seats and why it ended.

    ``turns`` is the game's length in the engine's ``length_unit`` (turns or moves, see Engine).
    """

    scores: tuple[int | Fraction, ...]
    winners: tuple[int, ...]
    reason: str
    turns: int


# A player is a function (state, rng) -> move, choosing among engine.legal_moves(state).
Player = Callable[[Any, Any], Any]


class Engine(Protocol):
    name: str
    min_players: int
    max_players: int
    # What Outcome.turns counts, in words for summaries: "turns" or "moves".
    length_unit: str

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Raise DeckError naming an unknown option or a bad value (the spec's ``options:``)."""

    def validate_deck(self, deck: Deck) -> None:
        """Raise DeckError saying why the rules cannot be played with ``deck`` (its options included)."""

    def new_game(self, deck: Deck, players: int, seed: int, **options: Any) -> Any:
        """A fresh, dealt game state; all randomness comes from ``random.Random(seed)``.

        ``options`` override the spec's ``deck.options``; an unknown name or a bad value raises
        DeckError naming the option and the allowed ones.
        """

    def current_player(self, state: Any) -> int:
        """The seat that must move now."""

    def legal_moves(self, state: Any) -> Sequence[Any]:
        """Every legal move for the current player; empty only when the game is over."""

    def apply(self, state: Any, move: Any) -> None:
        """Play ``move``; raise IllegalMoveError (state untouched) if it is not legal."""

    def is_over(self, state: Any) -> bool: ...

    def outcome(self, state: Any) -> Outcome: ...

    def check_invariants(self, state: Any) -> None:
        """Raise InvariantError naming the invariant if the state is inconsistent."""

    def players(self) -> dict[str, Player]:
        """Simulation players by name: at least ``random`` and ``greedy``."""

