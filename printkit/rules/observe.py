"""What a balance report watches during play: cards held, drawn and played, and per-turn figures.

A :class:`Watcher` is handed every state a game passes through (``play_game(..., watch=...)``) and
reads it only, so a watched game is the same game. It keeps, per seat, the distinct cards that
seat held (dealt or drawn), drew (after the deal) and played (cards that left the mover's hand by
the mover's own move), and at the end of every turn (Calc: move; Stack: turn; Clag: round) each
seat's figures (score, hand size, stacks …). What a state shows is read by a small view per game
(``VIEW`` in ``printkit/games/<game>/view.py``); a game without one is played unwatched.

Distinct cards are named as printkit writes them elsewhere: Calc ``5x`` (the ``score`` command's
notation), Clag ``QH``, Stack ``ruby+gold`` (generated cards, made in play, are no deck cards and
are left out). :func:`card_names` names a deck's cards the same way, for ``--remove``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from printkit.deck import Deck
from printkit.errors import DeckError
from printkit.games import module_of


@dataclass(frozen=True)
class View:
    """How to read one game's states: its clock, each seat's hand and figures, and where positions count from.

    A game offers one as ``VIEW`` in its ``view`` part (``printkit/games/<game>/view.py``).
    """

    clock: Callable[[Any], int]  # the turn a state is in (figures are kept at each turn's end)
    hand: Callable[[Any, int], list[str]]  # a seat's deck cards in hand, by name
    figures: Callable[[Any, int], dict[str, float]]  # a seat's per-turn figures
    origin: Callable[[Any], int]  # the seat positions are counted from (at the deal)
    card_name: Callable[[Any], str]  # a deck Card by its distinct name, as the game's moves write it
    # A seat's hand as the state holds it, cheap to compare: names are worked out only when it changes.
    raw: Callable[[Any, int], Any] = lambda s, seat: tuple(s.hands[seat])
    # The deck cards a move plays, by name, when the move says (else: what left the mover's hand).
    played: Callable[[Any, Any], list[str]] | None = None
    position_from: str = "the first player"  # what origin is, in words
    clock_word: str = "turn"  # what clock counts, in words


def view_for(game: str) -> View | None:
    """The game's View (its registered ``view`` part), or None when it has none: it is then played
    unwatched."""
    module = module_of(game, "view")
    return getattr(module, "VIEW", None) if module is not None else None


class Watcher:
    """Watches one game (see the module docstring); :meth:`result` is picklable, for reports."""

    def __init__(self, view: View, state: Any, players: int) -> None:
        self.view, self.players = view, players
        hands = [Counter(view.hand(state, seat)) for seat in range(players)]
        self.hands = hands
        self.raw = [view.raw(state, seat) for seat in range(players)]
        self.held = [set(h) for h in hands]
        self.drawn: list[Counter] = [Counter() for _ in range(players)]
        self.played: list[Counter] = [Counter() for _ in range(players)]
        self.clock = view.clock(state)
        self.turns: list[tuple[tuple[float, ...], ...]] = []  # per turn end: per figure, per seat
        self.names = tuple(view.figures(state, 0))
        self.origin = view.origin(state)

    def __call__(self, state: Any, mover: int, move: Any = None) -> None:
        """Called after every move with the seat that made it and the move."""
        view = self.view
        raw = view.raw
        named = view.played(state, move) if view.played is not None and move is not None else None
        if named:
            # The move names what it played: taken out first, so a hand dealt again at once (Clag's
            # next round) cannot hide the played card among the new ones.
            played = Counter(named)
            self.played[mover].update(played)
            self.hands[mover] = self.hands[mover] - played
        for seat in range(self.players):
            key = raw(state, seat)
            if key == self.raw[seat] and not (named and seat == mover):
                continue
            self.raw[seat] = key
            now = Counter(view.hand(state, seat))
            before = self.hands[seat]
            if now != before:
                gained, lost = now - before, before - now
                self.drawn[seat].update(gained)
                self.held[seat].update(gained)
                if seat == mover and named is None:
                    self.played[seat].update(lost)
                self.hands[seat] = now
        clock = view.clock(state)
        if clock != self.clock:
            self.clock = clock
            self.turns.append(self._figures(state))

    def _figures(self, state: Any) -> tuple[tuple[float, ...], ...]:
        per_seat = [self.view.figures(state, seat) for seat in range(self.players)]
        return tuple(tuple(float(f[name]) for f in per_seat) for name in self.names)

    def result(self, final: Any) -> dict[str, Any]:
        turns = list(self.turns)
        end = self._figures(final)
        if not turns or turns[-1] != end:
            turns.append(end)  # the last, unfinished turn ends with the game
        return {
            "held": [sorted(h) for h in self.held],
            "drawn": [dict(d) for d in self.drawn],
            "played": [dict(p) for p in self.played],
            "figures": self.names,
            "turns": turns,
        }


def card_names(deck: Deck) -> list[str]:
    """Each card of ``deck`` by its distinct name (``5x``, ``QH``, ``ruby+gold``), in deck order.

    Cards the game cannot name (or a game without a view) are named by their label without the copy
    number.
    """
    view = view_for(deck.game)
    names = []
    for card in deck.cards:
        try:
            names.append(view.card_name(card))
        except Exception:  # an unreadable card is the engine's to refuse; here it only needs a name
            names.append(card.label.rsplit("#", 1)[0])
    return names


def _loose(name: str) -> str:
    """A card name as a user may type it: any case, ``+``-joined parts in any order (``Gold+Ruby``)."""
    return "+".join(sorted(name.strip().lower().split("+")))


def without_cards(deck: Deck, removed: Sequence[str]) -> Deck:
    """``deck`` without every copy of each named distinct card; DeckError for a name not in it.

    A name matches exactly, else ignoring case and the order of ``+``-joined parts (``qh``,
    ``gold+ruby``) when that picks one card.
    """
    from dataclasses import replace

    names = card_names(deck)
    known = list(dict.fromkeys(names))
    loose: dict[str, list[str]] = {}
    for name in known:
        loose.setdefault(_loose(name), []).append(name)
    chosen = set()
    for name in removed:
        if name in known:
            chosen.add(name)
        elif len(loose.get(_loose(name), [])) == 1:
            chosen.add(loose[_loose(name)][0])
        else:
            shown = ", ".join(known[:60]) + (" …" if len(known) > 60 else "")
            raise DeckError(f"no such card {name!r} in deck {deck.name!r} (its cards: {shown})")
    keep = tuple(card for card, name in zip(deck.cards, names) if name not in chosen)
    return replace(deck, cards=keep)
