"""Every engine under random input, through the Engine protocol only.

From positions reached by random legal play, random candidate moves are tried: legal ones, moves
legal in other positions (another game, the other seats' hands), malformed moves (wrong types,
out-of-range numbers, unknown names) and objects that are no move at all. A move is accepted
exactly when ``legal_moves`` lists it; anything else raises IllegalMoveError (or InvalidMoveError)
and leaves ``state.snapshot()`` as it was. Fixed seeds in CI (hypothesis profile "ci"); run
``HYPOTHESIS_PROFILE=thorough`` for many more positions.
"""

from __future__ import annotations

import dataclasses
import functools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from printkit.errors import IllegalMoveError, InvalidMoveError
from printkit.games.calc import engine as calc
from printkit.games.clag import engine as clag
from printkit.games.stack import moves as sm
from printkit.games import engine_for
from printkit.decks import load_deck

GAMES = [("calc", "standard", 3), ("calc", "expert", 5), ("stack", None, 2), ("clag", None, 4), ("clag", None, 7)]
ATTEMPTS = 25  # candidate moves tried per position (legal ones move the game on)


class NotAMove:
    """An object no engine knows."""


def junk() -> list:
    """Things that are no move of any game."""
    return [None, 0, -1, 3.5, "draw", "", b"play", (0, 0), [0, 0], {"card": 0}, NotAMove(), object(),
            calc.Play, float("nan")]


def calc_malformed(state) -> list:
    n = len(state.cards)
    return [calc.Play(-1, 0), calc.Play(n, 0), calc.Play(10**12, 0), calc.Play(0, -1),
            calc.Play(0, state.players), calc.Play(0, 10**9), calc.Play(True, 0), calc.Play(0, False),
            calc.Play("0", 0), calc.Play(0, "0"), calc.Play(None, None), calc.Play(1.0, 0), calc.Play(0, 0.0),
            clag.Bid(1), sm.Done()]


def calc_other_seats(state) -> list:
    seat = state.turn
    return [calc.Play(card, pay) for other, hand in enumerate(state.hands) if other != seat
            for card in hand for pay in range(state.players)]


def clag_malformed(state) -> list:
    queen, two, king = clag.PlayingCard.parse("QH"), clag.PlayingCard.parse("2S"), clag.PlayingCard.parse("KD")
    return [clag.Bid(-1), clag.Bid(8), clag.Bid(99), clag.Bid(True), clag.Bid("3"), clag.Bid(None), clag.Bid(2.0),
            clag.Play("QH"), clag.Play(None), clag.Play(queen, names="KH"), clag.Play(two, names=two),
            clag.Play(two, names=king), clag.Play(queen, names=king), clag.ChooseTrump("stars"),
            clag.ChooseTrump(None), clag.ChooseTrump(["hearts"]), calc.DRAW, calc.Play(0, 0)]


def clag_other_seats(state) -> list:
    seat = state.to_move
    return [clag.Play(card) for other, hand in enumerate(state.hands) if other != seat for card in hand]


def stack_malformed(state) -> list:
    ruby, gold = sm.Gem.parse("ruby"), sm.Gem.parse("gold")
    return [sm.Match(None), sm.Match("ruby"), sm.Match(sm.Gem(0)), sm.Match(sm.Gem(99)), sm.SwapOne(sm.Gem(-1)),
            sm.SwapTwo((ruby,)), sm.SwapTwo((ruby, gold)), sm.SwapTwo((ruby, ruby, ruby)), sm.SwapThree((ruby, ruby)),
            sm.SwapThree((ruby, ruby, gold)), sm.SwapThree((ruby,) * 4), sm.CoalDiscard((sm.Gem.parse("coal"),)), sm.Synthesize(ruby, None), sm.Synthesize(ruby, ruby),
            sm.Decompose(ruby, (ruby,)), sm.Decompose(ruby, (gold, gold)), sm.Decompose("ruby", "ruby|ruby"),
            sm.Invest("atlantis", ruby), sm.Invest("eldorado", None), sm.Invest(None, ruby),
            sm.TakeBack("eldorado", sm.Gem(99)), sm.TakeBack(3, ruby), sm.Trigger("nowhere"), sm.Trigger(0),
            sm.CoalDiscard((ruby,)), sm.CoalDiscard((ruby, ruby)), sm.Pick(None), sm.Take("gold"),
            sm.SettleDiscard(ruby, "atlantis"), sm.SettleDiscard(None), clag.Bid(1), calc.DRAW]


def stack_other_seats(state) -> list:
    engine = engine_for("stack")
    other = state.clone()
    other.to_move = 1 - other.to_move
    try:
        return list(engine.legal_moves(other))
    except Exception:  # a position that cannot happen may have no well-defined moves; skip it
        return []


MALFORMED = {"calc": calc_malformed, "clag": clag_malformed, "stack": stack_malformed}
OTHER_SEATS = {"calc": calc_other_seats, "clag": clag_other_seats, "stack": stack_other_seats}


@functools.cache
def deck(game: str, variant: str | None):
    return load_deck(game, variant)


def game_length(engine, deck, players: int, seed: int) -> int:
    """Moves in the game dealt with ``seed`` when every move is chosen at random (``random.Random(seed)``)."""
    return len(play(engine, deck, players, seed, None)[1])


def play(engine, deck, players: int, seed: int, steps: int | None):
    """The position after ``steps`` random legal moves (all of them when None), and those moves."""
    state = engine.new_game(deck, players, seed)
    rng = random.Random(seed)
    moves = []
    while not engine.is_over(state) and (steps is None or len(moves) < steps):
        move = rng.choice(list(engine.legal_moves(state)))
        engine.apply(state, move)
        moves.append(move)
    return state, moves


def reach(engine, deck, players: int, seed: int, fraction: float):
    """A position ``fraction`` of the way through a random game dealt with ``seed``."""
    return play(engine, deck, players, seed, round(fraction * game_length(engine, deck, players, seed)))[0]


def same(a, b) -> bool:
    """Equal down to the types of every field: Bid(True) == Bid(1) and Play(1.0, 0) == Play(1, 0) as
    dataclasses, yet an engine rightly refuses a bool or a float where the rules count."""
    if type(a) is not type(b):
        return False
    if dataclasses.is_dataclass(a):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def try_move(engine, state, move) -> bool:
    """Apply ``move`` if legal (True); otherwise check it is refused and changes nothing (False)."""
    legal = engine.legal_moves(state)
    is_legal = any(same(move, m) for m in legal)
    if is_legal:
        engine.apply(state, move)
        engine.check_invariants(state)
        return True
    before = state.snapshot()
    with pytest.raises((IllegalMoveError, InvalidMoveError)):
        engine.apply(state, move)
    assert state.snapshot() == before, f"{move!r} was refused but changed the state"
    return False


@pytest.mark.parametrize("game, variant, players", GAMES, ids=[f"{g}-{v or 'base'}-{p}p" for g, v, p in GAMES])
@settings(max_examples=max(10, settings.default.max_examples // 3))
@given(seed=st.integers(0, 2**32 - 1), where=st.floats(0, 1), elsewhere_at=st.floats(0, 1), data=st.data())
def test_illegal_moves_are_refused_and_change_nothing(game, variant, players, seed, where, elsewhere_at, data):
    engine = engine_for(game)
    cards = deck(game, variant)
    state = reach(engine, cards, players, seed, where)
    elsewhere = reach(engine, cards, players, seed ^ 0x5EED, elsewhere_at)
    foreign = list(engine.legal_moves(elsewhere))
    for _ in range(ATTEMPTS):
        legal = list(engine.legal_moves(state))
        assert legal or engine.is_over(state)
        pools = [p for p in (legal, foreign, OTHER_SEATS[game](state), MALFORMED[game](state), junk()) if p]
        pool = pools[data.draw(st.integers(0, len(pools) - 1), label="kind")]
        move = pool[data.draw(st.integers(0, len(pool) - 1), label="index")]
        try_move(engine, state, move)
    if engine.is_over(state):
        for move in [*foreign[:5], *MALFORMED[game](state)[:5], None]:
            try_move(engine, state, move)  # nothing is legal after the end


@pytest.mark.parametrize("game, variant, players", GAMES[:1] + GAMES[2:4], ids=["calc", "stack", "clag"])
def test_a_finished_game_refuses_every_move(game, variant, players):
    engine = engine_for(game)
    state = engine.new_game(deck(game, variant), players, 7)
    rng = random.Random(7)
    seen = []
    while not engine.is_over(state):
        legal = list(engine.legal_moves(state))
        seen.extend(rng.sample(legal, min(2, len(legal))))
        engine.apply(state, rng.choice(legal))
    assert list(engine.legal_moves(state)) == []
    for move in seen[-50:] + MALFORMED[game](state) + junk():
        try_move(engine, state, move)


def test_stack_swaps_need_their_exact_number_of_cards():
    """Found by this fuzz: a one-card swap2 used to pass as a swap of one card."""
    engine = engine_for("stack")
    state = engine.new_game(deck("stack", None), 2, 0)
    card = state.hand(state.to_move)[0]
    for move in (sm.SwapTwo((card,)), sm.SwapThree((card,) * 4), sm.SwapTwo((card,) * 3)):
        try_move(engine, state, move)
