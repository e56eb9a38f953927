"""What a balance report watches during play: cards held, drawn and played, and per-turn figures.

A :class:`Watcher` is handed every state a game passes through (``play_game(..., watch=...)``) and
reads it only, so a watched game is the same game. It keeps, per seat, the distinct cards that
seat held (dealt or drawn), drew (after the deal) and played (cards that left the mover's hand by
the mover's own move), and at the end of every turn (Calc: move; Stack: turn; Clag: round) each
seat's figures (score, hand size, stacks …). What a state shows is read by a small view per game
(:data:`VIEWS`); a game without one is played unwatched.

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


@dataclass(frozen=True)
class View:
    """How to read one game's states: its clock, each seat's hand and figures, and where positions count from."""

    clock: Callable[[Any], int]  # the turn a state is in (figures are kept at each turn's end)
    hand: Callable[[Any, int], list[str]]  # a seat's deck cards in hand, by name
    figures: Callable[[Any, int], dict[str, float]]  # a seat's per-turn figures
    origin: Callable[[Any], int]  # the seat positions are counted from (at the deal)
    # A seat's hand as the state holds it, cheap to compare: names are worked out only when it changes.
    raw: Callable[[Any, int], Any] = lambda s, seat: tuple(s.hands[seat])


def _calc_view() -> View:
    from printkit.rules.calc_value import to_float

    return View(
        clock=lambda s: s.moves,
        hand=lambda s, seat: [s.cards[i].text for i in s.hands[seat]],
        figures=lambda s, seat: {"pay value": to_float(s.values[seat]), "hand size": len(s.hands[seat])},
        origin=lambda s: s.turn,
    )


def _clag_view() -> View:
    return View(
        clock=lambda s: s.round_index,
        hand=lambda s, seat: [str(c) for c in s.hands[seat]] if s.hands else [],
        figures=lambda s, seat: {"score": s.scores[seat], "contracts made": s.contracts[seat]},
        # The first dealer is drawn at random: positions count from it (0: the first dealer).
        origin=lambda s: s.first_dealer,
    )


def _stack_view() -> View:
    return View(
        clock=lambda s: s.turn,
        hand=lambda s, seat: [str(g) for g in s.hand(seat) if not g.generated],
        figures=lambda s, seat: {"hand size": s.hand_size(seat), "stacks": s.stacks[seat],
                                 "field cards matched": len(s.matched(seat))},
        origin=lambda s: s.to_move,
    )


VIEWS: dict[str, Callable[[], View]] = {"calc": _calc_view, "clag": _clag_view, "stack": _stack_view}


def view_for(game: str) -> View | None:
    make = VIEWS.get(game)
    return make() if make else None


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

    def __call__(self, state: Any, mover: int) -> None:
        """Called after every move with the seat that made it."""
        view = self.view
        raw = view.raw
        for seat in range(self.players):
            key = raw(state, seat)
            if key == self.raw[seat]:
                continue
            self.raw[seat] = key
            now = Counter(view.hand(state, seat))
            before = self.hands[seat]
            if now != before:
                gained, lost = now - before, before - now
                self.drawn[seat].update(gained)
                self.held[seat].update(gained)
                if seat == mover:
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

    Cards that the game's rules cannot read are named by their label without the copy number.
    """
    names = []
    for card in deck.cards:
        names.append(_name(deck.game, card))
    return names


def _name(game: str, card: Any) -> str:
    try:
        if game == "calc":
            from printkit.rules.calc_score import pay_card

            return pay_card(card).text
        if game == "clag":
            from printkit.rules.clag import PlayingCard

            return str(PlayingCard.parse(f"{card.get('rank')}{str(card.get('suit'))[:1]}"))
        if game == "stack":
            from printkit.rules.stack_moves import Gem

            return str(Gem.of(*card.get("minerals")))
    except Exception:  # an unreadable card is the engine's to refuse; here it only needs a name
        pass
    return card.label.rsplit("#", 1)[0]


def without_cards(deck: Deck, removed: Sequence[str]) -> Deck:
    """``deck`` without every copy of each named distinct card; DeckError for a name not in it."""
    from dataclasses import replace

    names = card_names(deck)
    known = list(dict.fromkeys(names))
    for name in removed:
        if name not in known:
            shown = ", ".join(known[:40]) + (" …" if len(known) > 40 else "")
            raise DeckError(f"--remove {name!r}: no such card in deck {deck.name!r} (its cards: {shown})")
    keep = tuple(card for card, name in zip(deck.cards, names) if name not in set(removed))
    return replace(deck, cards=keep)
