"""The shared play machinery: seeded games, invariant checking, simulation and the playability check."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from printkit.errors import DeckError
from printkit.games.calc import engine as calc
from printkit.rules import play
from printkit.errors import InvariantError
from printkit.games import engine_for, engine_names
from printkit.rules.play import check_playable, default_players, play_game, replay, simulate
from printkit.decks import load_deck


@pytest.fixture(scope="module")
def standard():
    return load_deck("calc", "standard")


class LosesACard(calc.CalcEngine):
    """A deliberately broken engine: the fifth move throws a hand card away."""

    @staticmethod
    def apply(state, move):
        calc.apply(state, move)
        if state.moves == 5 and state.hands[state.turn]:
            state.hands[state.turn].pop()


class PlaysIllegally(calc.CalcEngine):
    """A deliberately broken player: always tries to play card 0 on pay 0."""

    @staticmethod
    def players():
        return {"random": lambda state, rng: calc.Play(0, 0), "greedy": lambda state, rng: calc.Play(0, 0)}


class NeverEnds(calc.CalcEngine):
    @staticmethod
    def is_over(state):
        return False

    @staticmethod
    def legal_moves(state):
        return [calc.DRAW]

    @staticmethod
    def apply(state, move):
        state.moves += 1


def test_play_game_records_moves_and_outcome(standard):
    record = play_game(calc.ENGINE, standard, 4, 3, "random")
    assert record.game == "calc" and record.variant == "standard" and record.players == 4
    assert record.bots == ("random",) * 4
    assert len(record.moves) == record.outcome.turns
    assert replay(calc.ENGINE, standard, record) == record.outcome


def test_play_game_is_deterministic(standard):
    a = play_game(calc.ENGINE, standard, 3, 11, "greedy")
    b = play_game(calc.ENGINE, standard, 3, 11, "greedy")
    assert a == b
    assert play_game(calc.ENGINE, standard, 3, 12, "greedy") != a


def test_play_game_with_one_bot_per_seat(standard):
    record = play_game(calc.ENGINE, standard, 2, 1, ["greedy", "random"])
    assert record.bots == ("greedy", "random")
    with pytest.raises(DeckError, match="unknown player 'perfect'"):
        play_game(calc.ENGINE, standard, 2, 1, "perfect")
    with pytest.raises(DeckError, match="3 bots given for 2 players"):
        play_game(calc.ENGINE, standard, 2, 1, ["random"] * 3)


def test_play_game_catches_a_broken_invariant(standard):
    with pytest.raises(InvariantError, match="card conservation|hand size"):
        play_game(LosesACard(), standard, 2, 0)


def test_play_game_catches_an_illegal_choice(standard):
    with pytest.raises(InvariantError, match="legal moves"):
        play_game(PlaysIllegally(), standard, 2, 0)


def test_play_game_stops_a_game_that_never_ends(standard):
    with pytest.raises(InvariantError, match="termination"):
        play_game(NeverEnds(), standard, 2, 0, check=False, max_moves=50)


def test_simulate_summary(standard):
    summary = simulate(standard, 30, 4, seed=5)
    assert summary.games == summary.finished == 30
    assert summary.failures == ()
    assert sum(summary.endings.values()) == 30
    assert summary.length["min"] <= summary.length["mean"] <= summary.length["max"]
    assert summary.scores["min"] <= summary.scores["p25"] <= summary.scores["median"] <= summary.scores["p75"]
    assert len(summary.win_rate_by_seat) == 4
    assert sum(summary.win_rate_by_seat) >= 1.0 - 1e-9  # shared wins count for every winner
    json.dumps(summary.as_dict())
    text = "\n".join(summary.lines())
    assert "finished: 30/30" in text and "win rate by seat" in text


def test_simulate_is_the_same_whatever_the_number_of_jobs(standard):
    one = simulate(standard, 60, 3, seed=2, jobs=1)
    three = simulate(standard, 60, 3, seed=2, jobs=3)
    assert one == three


def test_simulate_reports_progress(standard):
    seen = []
    simulate(standard, 60, 2, seed=0, progress=seen.append)
    assert sum(seen) == 60


def test_simulate_game_i_is_game_seed_plus_i(standard):
    many = simulate(standard, 3, 2, seed=10)
    alone = simulate(standard, 1, 2, seed=12)
    assert alone.length["max"] in (many.length["min"], many.length["median"], many.length["max"])


def test_simulate_refuses_bad_arguments(standard):
    with pytest.raises(DeckError, match="2 to 8 players"):
        simulate(standard, 5, 1)
    with pytest.raises(DeckError, match="at least 1"):
        simulate(standard, 0, 2)
    with pytest.raises(DeckError, match="unknown player"):
        simulate(standard, 5, 2, bot="perfect")


def test_simulate_collects_failures(standard, monkeypatch):
    monkeypatch.setattr(play, "engine_for", lambda game: LosesACard())
    summary = simulate(standard, 4, 2, seed=0)
    assert summary.finished == 0 and len(summary.failures) == 4
    assert "game seed 0" in summary.failures[0]


def test_check_playable_accepts_the_calc_decks(standard):
    assert check_playable(standard) == []
    assert check_playable(load_deck("calc", "expert"), games_per_count=1) == []


def test_check_playable_names_deck_variant_players_seed_and_invariant(standard, monkeypatch):
    monkeypatch.setattr(play, "engine_for", lambda game: LosesACard())
    failures = check_playable(standard, games_per_count=2, seed=40)
    assert len(failures) == 2 * 7  # every game of every player count 2..8
    first = failures[0]
    for part in ("'Calc'", "variant 'standard'", "2 players", "game seed 40", "invariant broken"):
        assert part in first


def test_check_playable_reports_a_deck_the_rules_refuse(standard):
    no_joker = replace(standard, cards=tuple(c for c in standard.cards if c.get("kind") != "joker"))
    (failure,) = check_playable(no_joker)
    assert "no joker" in failure and "variant 'standard'" in failure


def test_check_playable_reports_a_deck_too_small_for_some_player_counts(standard):
    small = replace(standard, cards=standard.cards[-30:])  # enough for 2 to 4 players
    failures = check_playable(small, games_per_count=1)
    assert len(failures) == 4  # 5, 6, 7 and 8 players
    assert all("too few to deal" in f for f in failures)


class RefusesEveryGame(calc.CalcEngine):
    """An engine that accepts the deck but refuses to deal any game with it."""

    @staticmethod
    def new_game(deck, players, seed, **options):
        raise DeckError("no table is big enough")


def test_check_playable_reports_a_bad_spec_option_once(standard):
    failures = check_playable(replace(standard, options={"hook": True}))
    assert len(failures) == 1
    assert "'hook'" in failures[0] and "Calc takes no options" in failures[0]
    assert "variant 'standard'" in failures[0]


def test_check_playable_reports_a_refusal_once_not_per_seed_or_player_count(standard, monkeypatch):
    monkeypatch.setattr(play, "engine_for", lambda game: RefusesEveryGame())
    failures = check_playable(standard, games_per_count=3)
    assert failures == ["deck 'Calc' variant 'standard', 2 players: no table is big enough"]


def test_simulate_names_exactly_the_player_count_when_there_is_one():
    with pytest.raises(DeckError, match=r"stack is played by exactly 2 players, not 3"):
        simulate(load_deck("stack"), 1, 3)
    assert play.player_range(calc.ENGINE) == "2 to 8 players"


@pytest.mark.parametrize("game, unit", [("calc", "turns"), ("stack", "turns"), ("clag", "moves")])
def test_summary_length_says_what_the_engine_counts(game, unit):
    deck = load_deck(game)
    summary = simulate(deck, 1, default_players(engine_for(game)), seed=1, check=False)
    assert summary.length_unit == unit and summary.as_dict()["length_unit"] == unit
    assert any(line.startswith(f"length ({unit}): ") for line in summary.lines())
    record = play_game(engine_for(game), deck, default_players(engine_for(game)), 1, check=False)
    if unit == "moves":
        assert record.outcome.turns == len(record.moves)


def test_default_players():
    assert default_players(calc.ENGINE) == 4
    assert default_players(calc.ENGINE, preferred=12) == 8


@pytest.mark.parametrize("game", sorted(set(engine_names()) - {"calc"}))
def test_the_machinery_drives_the_other_engines(game):
    engine = engine_for(game)
    deck = load_deck(game)
    record = play_game(engine, deck, default_players(engine), 1, "random")
    assert record.moves  # a game may end without a winner (e.g. a Stack draw)
