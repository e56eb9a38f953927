"""The Calc rule engine: GAMES.md's rules and decisions, played with a deck expanded from a spec.

A game is a :class:`CalcState` (mutable, owned by the caller). Cards are referred to by their index
in ``deck.cards``; the draw pile's top is the end of ``state.deck``. Moves are :class:`Play` (one card
from the mover's hand onto any seat's pay) and :class:`Draw`. ``apply`` checks a move completely
before touching the state, so an illegal move raises IllegalMoveError and changes nothing.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from functools import cmp_to_key
from fractions import Fraction
from typing import Any, Sequence

from printkit.deck import Deck
from printkit.errors import DeckError, IllegalMoveError, InvalidMoveError, InvariantError
from printkit.rules.base import Outcome
from printkit.games.calc.score import (
    JOKER,
    MAX_NUMBER,
    MIN_NUMBER,
    SYMBOLS,
    PayCard,
    apply_card,
    pay_value,
)
from printkit.games.calc.value import Big, to_float

# Whole-number pay values within this bound stay Python ints on the players' fast path; beyond it
# every step goes through the scorer's exact arithmetic (score.py) (there is no cap on scores).
FAST_LIMIT = 10**100
HAND_SIZE = 7
LOCK_NUMBER = 7
FEWEST_CARDS_BONUS = 5
MIN_PLAYERS, MAX_PLAYERS = 2, 8

# Outcome.reason values
HAND_EMPTY = "hand-empty"
DECK_EMPTY = "deck-empty"


@dataclass(frozen=True, slots=True)
class Play:
    """Play card ``card`` (an index into ``deck.cards``) from the mover's hand onto seat ``pay``'s pay."""

    card: int
    pay: int


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of the deck."""


DRAW = Draw()
Move = Play | Draw


@dataclass(eq=False)
class CalcState:
    """A Calc game in progress. ``values`` caches each pay's score (kept equal to a rescoring)."""

    cards: tuple[PayCard, ...]
    labels: tuple[str, ...]
    uids: tuple[str, ...]
    players: int
    deck: list[int]
    hands: list[list[int]]
    pays: list[list[int]]
    values: list[Fraction]
    turn: int = 0
    moves: int = 0
    draws: list[int] = field(default_factory=list)
    plays: list[int] = field(default_factory=list)
    ended: str | None = None
    seed: int | None = None
    variant: str | None = None

    def snapshot(self) -> tuple:
        """Everything that changes during play, as nested tuples (for equality tests)."""
        return (
            tuple(self.deck),
            tuple(map(tuple, self.hands)),
            tuple(map(tuple, self.pays)),
            tuple(self.values),
            self.turn,
            self.moves,
            tuple(self.draws),
            tuple(self.plays),
            self.ended,
        )

    def copy(self) -> "CalcState":
        return CalcState(
            self.cards,
            self.labels,
            self.uids,
            self.players,
            list(self.deck),
            [list(h) for h in self.hands],
            [list(p) for p in self.pays],
            list(self.values),
            self.turn,
            self.moves,
            list(self.draws),
            list(self.plays),
            self.ended,
            self.seed,
            self.variant,
        )

    def describe(self, move: Move) -> str:
        """A move in words, e.g. ``play 5x (numbers-033) on seat 0's pay`` or ``draw``."""
        if isinstance(move, Draw):
            return "draw"
        return f"play {self.cards[move.card].text} ({self.uids[move.card]}) on seat {move.pay}'s pay"


# ---------------------------------------------------------------- deck checks


def deck_problems(deck: Deck) -> list[str]:
    """Why the Calc rules cannot be played with ``deck`` (empty when they can)."""
    problems: list[str] = []
    jokers = 0
    for card in deck.cards:
        kind = card.get("kind")
        if kind == "joker":
            jokers += 1
            continue
        if kind not in (None, "number"):
            problems.append(f"card {card.label} has unknown kind {kind!r} (expected 'number' or 'joker')")
            continue
        symbol, number = card.get("symbol"), card.get("number")
        if symbol is None:
            problems.append(f"card {card.label} has no symbol (known: {', '.join(SYMBOLS)})")
        elif symbol not in SYMBOLS:
            problems.append(f"card {card.label} has unknown symbol {symbol!r} (known: {', '.join(SYMBOLS)})")
        if number is None:
            problems.append(f"card {card.label} has no number (it takes {MIN_NUMBER}..{MAX_NUMBER})")
        elif isinstance(number, bool) or not isinstance(number, int) or not MIN_NUMBER <= number <= MAX_NUMBER:
            problems.append(f"card {card.label} has number {number!r}, outside {MIN_NUMBER}..{MAX_NUMBER}")
    if jokers == 0:
        problems.append("the deck has no joker; the rules need one")
    needed = HAND_SIZE * MIN_PLAYERS + 1
    if len(deck.cards) < needed:
        problems.append(
            f"the deck has {len(deck.cards)} cards; dealing {HAND_SIZE} to {MIN_PLAYERS} players "
            f"and keeping one to draw needs at least {needed}"
        )
    return problems


def check_options(deck_options: Any, options: Any = ()) -> None:
    """Refuse every option: Calc has none (``deck_options`` from the spec, ``options`` as keywords)."""
    names = sorted({*dict(deck_options), *dict(options)}, key=str)
    if names:
        raise DeckError(f"unknown Calc option(s) {', '.join(map(repr, names))}: Calc takes no options")


def validate_deck(deck: Deck) -> None:
    check_options(deck.options)
    problems = deck_problems(deck)
    if problems:
        shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")
        raise DeckError(f"Calc cannot be played with this deck: {shown}")


# ---------------------------------------------------------------- game setup


def new_game(deck: Deck, players: int, seed: int, **options: Any) -> CalcState:
    """Shuffle ``deck`` with ``random.Random(seed)`` and deal 7 cards to each of ``players`` seats."""
    check_options(deck.options, options)
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise DeckError(f"Calc is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}")
    cards, labels, uids = _prepared(deck)
    if len(deck.cards) <= HAND_SIZE * players:
        raise DeckError(
            f"the deck has {len(deck.cards)} cards: too few to deal {HAND_SIZE} to each of "
            f"{players} players and keep a deck to draw from (needs at least {HAND_SIZE * players + 1})"
        )
    order = list(range(len(deck.cards)))
    random.Random(seed).shuffle(order)
    hands: list[list[int]] = [[] for _ in range(players)]
    for _ in range(HAND_SIZE):
        for seat in range(players):
            hands[seat].append(order.pop())
    return CalcState(
        cards=cards,
        labels=labels,
        uids=uids,
        players=players,
        deck=order,
        hands=hands,
        pays=[[] for _ in range(players)],
        values=[Fraction(0)] * players,
        draws=[0] * players,
        plays=[0] * players,
        seed=seed,
        variant=deck.variant,
    )


# The last deck validated and read by new_game: a simulation deals thousands of games from one deck.
_last_prepared: list = [None, None]


def _prepared(deck: Deck) -> tuple[tuple[PayCard, ...], tuple[str, ...], tuple[str, ...]]:
    """``deck`` validated, and its cards as scoring sees them, their labels and uids."""
    if _last_prepared[0] is not deck:
        validate_deck(deck)
        _last_prepared[:] = [deck, (tuple(_pay_card(card) for card in deck.cards),
                                    tuple(card.label for card in deck.cards),
                                    tuple(card.uid for card in deck.cards))]
    return _last_prepared[1]


def _pay_card(card: Any) -> PayCard:
    # validate_deck has checked every card already: skip score.pay_card's second check.
    if card.get("kind") == "joker":
        return JOKER
    return PayCard(card.get("symbol"), card.get("number"))


def from_position(
    cards: Sequence[PayCard],
    hands: Sequence[Sequence[int]],
    pays: Sequence[Sequence[int]],
    deck: Sequence[int],
    turn: int = 0,
) -> CalcState:
    """A hand-made position (for examples and tests): cards by index into ``cards``, deck top last.

    Hand sizes need not be 7: ``draws`` is set so that the hand-size invariant holds.
    """
    players = len(hands)
    values = [pay_value([cards[i] for i in pile]) for pile in pays]
    state = CalcState(
        cards=tuple(cards),
        labels=tuple(card.text for card in cards),
        uids=tuple(f"card-{i}" for i in range(len(cards))),
        players=players,
        deck=list(deck),
        hands=[list(h) for h in hands],
        pays=[list(p) for p in pays],
        values=values,
        turn=turn,
        draws=[len(h) - HAND_SIZE + len(p) for h, p in zip(hands, pays)],
        plays=[len(p) for p in pays],
    )
    if not state.deck:
        state.ended = DECK_EMPTY
    elif any(not h for h in state.hands):
        state.ended = HAND_EMPTY
    return state


# ---------------------------------------------------------------- rules


def why_illegal(state: CalcState, move: Any) -> str | None:
    """Why ``move`` may not be played now, in words; None when it is legal."""
    if state.ended is not None:
        return f"the game is over ({state.ended})"
    if isinstance(move, Draw):
        return None if state.deck else "the deck is empty"
    if not isinstance(move, Play):
        return f"not a Calc move (expected Play or Draw), got {type(move).__name__}"
    return why_not_playable(state, move.card, move.pay)


def why_not_playable(state: CalcState, card: int, pay: int, seat: int | None = None) -> str | None:
    """Why ``seat`` (default: the player to move) may not play ``card`` onto ``pay``; None if allowed."""
    seat = state.turn if seat is None else seat
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < len(state.cards):
        return f"there is no card {card!r} in this deck"
    if isinstance(pay, bool) or not isinstance(pay, int) or not 0 <= pay < state.players:
        return f"there is no pay {pay!r} (seats are 0..{state.players - 1})"
    if card not in state.hands[seat]:
        return f"card {state.cards[card].text} ({state.uids[card]}) is not in seat {seat}'s hand"
    played = state.cards[card]
    if played.is_joker:
        return None  # a joker goes on any pay, 7-lock included
    pile = state.pays[pay]
    if not pile:
        return None
    top = state.cards[pile[-1]]
    if top.is_joker:
        return None  # a joker on top counts as an empty pay
    if top.number == LOCK_NUMBER and pay != seat:
        return f"seat {pay}'s pay has a 7 on top: only seat {pay} may play on it"
    if played.number == top.number or played.symbol == top.symbol:
        return None
    return f"{played.text} matches neither the number nor the symbol of the top card {top.text}"


def can_play(state: CalcState, card: int, pay: int, seat: int | None = None) -> bool:
    return why_not_playable(state, card, pay, seat) is None


def legal_moves(state: CalcState) -> list[Move]:
    """Every legal move of the player to move: plays (hand order, pay by pay), then the draw."""
    if state.ended is not None:
        return []
    seat = state.turn
    cards = state.cards
    hand = state.hands[seat]
    moves: list[Move] = []
    for pay, pile in enumerate(state.pays):
        if not pile or cards[pile[-1]].symbol is None:
            moves.extend([Play(c, pay) for c in hand])
            continue
        top = cards[pile[-1]]
        number, symbol = top.number, top.symbol
        if number == LOCK_NUMBER and pay != seat:
            moves.extend([Play(c, pay) for c in hand if cards[c].symbol is None])
        else:
            for c in hand:
                card = cards[c]
                if card.symbol is None or card.number == number or card.symbol == symbol:
                    moves.append(Play(c, pay))
    if state.deck:
        moves.append(DRAW)
    return moves


def apply(state: CalcState, move: Any) -> None:
    """Play ``move`` for the player to move; IllegalMoveError (state untouched) if not legal."""
    reason = why_illegal(state, move)
    if reason is not None:
        raise IllegalMoveError(f"illegal move {move!r} for seat {state.turn}: {reason}")
    seat = state.turn
    if isinstance(move, Draw):
        state.hands[seat].append(state.deck.pop())
        state.draws[seat] += 1
    else:
        state.hands[seat].remove(move.card)
        pile = state.pays[move.pay]
        state.values[move.pay] = _value_after(state, move.card, move.pay)
        pile.append(move.card)
        state.plays[seat] += 1
    state.moves += 1
    if not state.deck:
        state.ended = DECK_EMPTY
    elif not state.hands[seat]:
        state.ended = HAND_EMPTY
    else:
        state.turn = (seat + 1) % state.players


def _value_after(state: CalcState, card: int, pay: int) -> Fraction:
    """The score of ``pay`` once ``card`` is put on it."""
    played = state.cards[card]
    if played.is_joker:
        return Fraction(0)
    pile = state.pays[pay]
    if not pile or state.cards[pile[-1]].is_joker:
        return Fraction(played.number)
    return apply_card(state.values[pay], played)[0]


def _fast_value_after(state: CalcState, values: list, card: int, pay: int) -> int | Fraction:
    """``_value_after`` for players: whole numbers within the limits stay ints (equal values)."""
    played = state.cards[card]
    symbol = played.symbol
    if symbol is None:
        return 0
    pile = state.pays[pay]
    if not pile or state.cards[pile[-1]].symbol is None:
        return played.number  # -1..9: within every limit
    value = values[pay]
    if type(value) is int and symbol != "power":
        number = played.number
        result = value + number if symbol == "plus" else value - number if symbol == "minus" else value * number
        if -FAST_LIMIT <= result <= FAST_LIMIT:
            return result
    return _value_after(state, card, pay)


def is_over(state: CalcState) -> bool:
    return state.ended is not None


def final_scores(state: CalcState) -> tuple[int | Fraction | Big, ...]:
    """Each seat's pay score, plus 5 for every seat tied for the fewest cards in hand.

    Exact however large: of two equal astronomic pays, the one with the bonus wins.
    """
    fewest = min(len(hand) for hand in state.hands)
    scores = []
    for seat in range(state.players):
        bonus = FEWEST_CARDS_BONUS if len(state.hands[seat]) == fewest else 0
        score = state.values[seat] + bonus
        scores.append(_plain(score))
    return tuple(scores)


def _plain(value: Any) -> Any:
    """A whole Fraction as an int (cheaper to compare); other values unchanged."""
    return value.numerator if isinstance(value, Fraction) and value.denominator == 1 else value


def _order(a: Any, b: Any) -> int:
    """-1, 0 or 1 for the bots: float estimates when an astronomic value is involved (fast), else
    exact; the rules never use it."""
    if isinstance(a, Big) or isinstance(b, Big):
        x, y = to_float(a), to_float(b)
        return (x > y) - (x < y)
    return (a > b) - (a < b)


def _difference(a: Any, b: Any) -> Any:
    """a - b for the bots: exact for Fractions, a float estimate when a value is astronomic.

    Only the bots' preferences use it; the rules compare values exactly (value.compare).
    """
    if not isinstance(a, Big) and not isinstance(b, Big):
        return a - b
    # An astronomic value: the bots weigh it by float estimates (exact differences of long
    # polynomials for every candidate move would cost seconds a turn).
    difference = to_float(a) - to_float(b)
    return 0.0 if math.isnan(difference) else difference  # both beyond floats alike: a tie to the bots


def outcome(state: CalcState) -> Outcome:
    if state.ended is None:
        raise IllegalMoveError("the Calc game is not over yet: no outcome")
    scores = final_scores(state)
    best = max(scores)
    winners = tuple(seat for seat, score in enumerate(scores) if score == best)
    return Outcome(scores=scores, winners=winners, reason=state.ended, turns=state.moves)


def check_invariants(state: CalcState) -> None:
    """Raise InvariantError naming the first broken invariant."""
    total = len(state.cards)
    held = [*state.deck, *(c for h in state.hands for c in h), *(c for p in state.pays for c in p)]
    if len(held) != total or sorted(held) != list(range(total)):
        raise InvariantError(
            f"card conservation: deck {len(state.deck)} + hands {sum(map(len, state.hands))} + pays "
            f"{sum(map(len, state.pays))} = {len(held)} distinct={len(set(held))}, expected {total}"
        )
    for seat in range(state.players):
        expected = HAND_SIZE + state.draws[seat] - state.plays[seat]
        if len(state.hands[seat]) != expected:
            raise InvariantError(
                f"hand size: seat {seat} holds {len(state.hands[seat])} cards, expected {expected} "
                f"(7 dealt + {state.draws[seat]} drawn - {state.plays[seat]} played)"
            )
    if not 0 <= state.turn < state.players:
        raise InvariantError(f"turn: seat {state.turn} does not exist")
    if state.ended is None:
        if not state.deck or not all(state.hands):
            raise InvariantError("end condition: the deck or a hand is empty but the game goes on")
    elif state.ended == DECK_EMPTY and state.deck:
        raise InvariantError("end condition: ended on an empty deck but the deck holds cards")
    elif state.ended == HAND_EMPTY and all(state.hands):
        raise InvariantError("end condition: ended on an empty hand but every hand holds cards")
    for seat, pile in enumerate(state.pays):
        for below, above in zip(pile, pile[1:]):
            low, high = state.cards[below], state.cards[above]
            if not (low.is_joker or high.is_joker or low.number == high.number or low.symbol == high.symbol):
                raise InvariantError(f"pay order: seat {seat}'s pay has {high.text} on {low.text}, which do not match")
        rescored = pay_value([state.cards[i] for i in pile])
        if rescored != state.values[seat]:
            raise InvariantError(f"pay score: seat {seat}'s cached score {state.values[seat]} != rescored {rescored}")


# ---------------------------------------------------------------- players


def random_player(state: CalcState, rng: random.Random) -> Move:
    """A uniformly random legal move."""
    moves = legal_moves(state)
    return moves[rng.randrange(len(moves))]


def greedy_player(state: CalcState, rng: random.Random) -> Move:
    """Raise my own score if I can, else lower the best opponent's score, else draw.

    Ties are broken by ``rng``. The fewest-cards bonus is not considered.
    """
    seat = state.turn
    # Whole scores as ints: the same comparisons as with Fractions, without their cost.
    values = [_plain(v) for v in state.values]
    leaders = _leaders(values, seat)
    # Only plays onto my pay or a leader's can be chosen: score those alone, in legal-move order.
    cards = state.cards
    hand = state.hands[seat]
    scored = []
    for pay, pile in enumerate(state.pays):
        if pay != seat and pay not in leaders:
            continue
        top = cards[pile[-1]] if pile else JOKER
        number, symbol = top.number, top.symbol
        value = values[pay]
        whole = type(value) is int
        locked = number == LOCK_NUMBER and pay != seat
        for c in hand:
            card = cards[c]
            played = card.symbol
            if played is None:
                after = 0  # a joker: legal on any pay
            elif symbol is None:
                after = card.number  # an empty pay or a joker on top: the card is the new bottom
            elif locked or (card.number != number and played != symbol):
                continue  # not a legal play here (see legal_moves)
            elif whole and played != "power":
                # _fast_value_after's whole-number case, inlined: this loop is most of a game's time
                n = card.number
                after = value + n if played == "plus" else value - n if played == "minus" else value * n
                if not -FAST_LIMIT <= after <= FAST_LIMIT:
                    after = _value_after(state, c, pay)
            else:
                after = _value_after(state, c, pay)
            scored.append((Play(c, pay), after))
    return _greedy_choice(state, rng, values, leaders, scored)


def _leaders(values: Sequence[Any], seat: int) -> set[int]:
    """The opponents with the highest pay value."""
    others = [s for s in range(len(values)) if s != seat]
    leader_value = max(values[s] for s in others)
    return {s for s in others if values[s] == leader_value}


def _greedy_choice(state: CalcState, rng: random.Random, values: Sequence[Any], leaders: set[int],
                   scored: Sequence[tuple[Play, Any]]) -> Move:
    """The greedy player's move from ``scored``: (play, pay value after it) in legal-move order,
    at least every play onto the mover's pay and the leaders' pays."""
    seat = state.turn
    best_gain, gains = 0, []
    best_harm, harms = 0, []
    for move, after in scored:
        if move.pay == seat:
            gain = _difference(after, values[seat])
            if _order(gain, best_gain) > 0:
                best_gain, gains = gain, [move]
            elif _order(gain, best_gain) == 0 and _order(gain, 0) > 0:
                gains.append(move)
        elif move.pay in leaders:
            harm = _difference(values[move.pay], after)
            if _order(harm, best_harm) > 0:
                best_harm, harms = harm, [move]
            elif _order(harm, best_harm) == 0 and _order(harm, 0) > 0:
                harms.append(move)
    if gains:
        return gains[rng.randrange(len(gains))]
    if harms:
        return harms[rng.randrange(len(harms))]
    if state.deck:
        return DRAW
    moves = legal_moves(state)
    return moves[rng.randrange(len(moves))]


def strong_player(state: CalcState, rng: random.Random) -> Move:
    """The greedy player with one move of look-ahead at the end of the game.

    Every legal move is scored as if the game ended after it (pay values plus the fewest-cards
    bonus): a move that ends the game with a win (the last draw, or the last card of the hand) is
    taken at once; the greedy move is played unless it would end the game in a loss, in which case
    the move with the best margin over the strongest opponent that does not end the game is played.
    """
    moves = legal_moves(state)
    seat = state.turn
    values = [_plain(v) for v in state.values]
    sizes = [len(hand) for hand in state.hands]
    last_card = len(state.deck) == 1
    winning: list[Move] = []
    safe: dict[Move, Any] = {}
    losing: set[Move] = set()
    scored = []  # every play with its pay value after it: the greedy choice reuses them
    for move in moves:
        after = list(values)
        counts = list(sizes)
        if isinstance(move, Play):
            after[move.pay] = value = _fast_value_after(state, values, move.card, move.pay)
            scored.append((move, value))
            counts[seat] -= 1
            ends = counts[seat] == 0
        else:
            counts[seat] += 1
            ends = last_card
        fewest = min(counts)
        totals = [v + (FEWEST_CARDS_BONUS if counts[s] == fewest else 0) for s, v in enumerate(after)]
        margin = _difference(totals[seat], max(t for s, t in enumerate(totals) if s != seat))
        if ends and _order(margin, 0) > 0:
            winning.append(move)
        elif ends and _order(margin, 0) < 0:
            losing.add(move)
        else:
            safe[move] = margin
    if winning:
        return winning[rng.randrange(len(winning))]
    choice = _greedy_choice(state, rng, values, _leaders(values, seat), scored)
    if choice not in losing or not safe:
        return choice
    best = max(safe.values(), key=cmp_to_key(_order))
    options = [move for move, margin in safe.items() if _order(margin, best) == 0]
    return options[rng.randrange(len(options))]


# ---------------------------------------------------------------- facts for reports


def facts(start: CalcState, final: CalcState, moves: Sequence[Move], seats: Sequence[int]) -> dict[str, Any]:
    """What a balance report counts in a finished game (pure: reads the states only).

    ``pay``: each seat's pay value without the bonus; ``bonus``: the seats given the fewest-cards
    bonus; ``pay_winners``: who would have won on pay values alone; ``decided_by_bonus``: the bonus
    changed the winners; ``first_round``: the game ended before every seat had a second turn.
    """
    scores = final_scores(final)
    best = max(scores)
    winners_ = tuple(seat for seat, score in enumerate(scores) if score == best)
    pays = tuple(final.values)
    best_pay = max(pays)
    pay_winners = tuple(seat for seat, value in enumerate(pays) if value == best_pay)
    fewest = min(len(hand) for hand in final.hands)
    return {
        "pay": tuple(to_float(v) for v in pays),
        "bonus": tuple(seat for seat, hand in enumerate(final.hands) if len(hand) == fewest),
        "pay_winners": pay_winners,
        "decided_by_bonus": pay_winners != winners_,
        "first_round": final.moves <= final.players,
        "plays": sum(final.plays),
        "draws": sum(final.draws),
    }


# ---------------------------------------------------------------- records


def encode_move(state: CalcState, move: Move) -> dict[str, Any]:
    """A move as JSON-ready data naming the card by uid: ``{"draw": true}`` or ``{"play": uid, "pay": n}``."""
    if isinstance(move, Draw):
        return {"draw": True}
    return {"play": state.uids[move.card], "card": state.cards[move.card].text, "pay": move.pay}


def decode_move(state: CalcState, data: Any) -> Move:
    """The move ``encode_move`` wrote; InvalidMoveError for data it cannot have written."""
    if data == {"draw": True}:
        return DRAW
    if not isinstance(data, dict) or "play" not in data or "pay" not in data:
        raise InvalidMoveError(f"cannot read Calc move {data!r}: expected {{'draw': true}} or {{'play': uid, 'pay': seat}}")
    try:
        card = state.uids.index(data["play"])
    except ValueError:
        raise InvalidMoveError(f"cannot read Calc move {data!r}: no card with uid {data['play']!r}") from None
    return Play(card, data["pay"])


class CalcEngine:
    """The Engine protocol (printkit.rules.base) for Calc."""

    name = "calc"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    length_unit = "turns"  # Outcome.turns counts moves, and every Calc turn is one move (a play or a draw)

    validate_deck = staticmethod(validate_deck)
    check_options = staticmethod(check_options)
    new_game = staticmethod(new_game)
    legal_moves = staticmethod(legal_moves)
    apply = staticmethod(apply)
    is_over = staticmethod(is_over)
    outcome = staticmethod(outcome)
    check_invariants = staticmethod(check_invariants)
    encode_move = staticmethod(encode_move)
    decode_move = staticmethod(decode_move)
    facts = staticmethod(facts)

    @staticmethod
    def current_player(state: CalcState) -> int:
        return state.turn

    @staticmethod
    def players() -> dict[str, Any]:
        return {"random": random_player, "greedy": greedy_player, "strong": strong_player}


ENGINE = CalcEngine()
