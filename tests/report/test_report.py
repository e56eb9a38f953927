"""Balance reports: their numbers equal a direct count over the same seeds, and they are reproducible."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest
from click.testing import CliRunner

from printkit.cli import main
from printkit.errors import DeckError
from printkit.report.data import Setting, analyse, parse_compare, play_batch
from printkit.report.stats import two_proportion_z, wilson
from printkit.rules.base import engine_for
from printkit.rules.play import play_game, with_options
from printkit.spec import load_deck

GAMES = 12


def direct(game, games, players, bot="greedy", options=None):
    """Play the seeds one by one with play_game and return (records, final states' facts)."""
    deck = with_options(load_deck(game, None), options)
    engine = engine_for(game)
    return [play_game(engine, deck, players, seed, bot, check=False, facts=True) for seed in range(games)]


def batch(game, setting=None, players=None, games=GAMES):
    return analyse(play_batch(game, setting or Setting("as given"), games=games, players=players, seed=0,
                              bot="greedy", variant=None, jobs=1))


def test_stack_report_numbers_match_a_direct_count():
    a = batch("stack")
    records = direct("stack", GAMES, 2)
    assert a["lengths"] == [r.outcome.turns for r in records]
    assert a["wins"] == [sum(seat in r.outcome.winners for r in records) for seat in range(2)]
    assert a["first_turn_wins"] == sum(1 for r in records if r.outcome.winners and r.outcome.turns == 1)
    assert a["first_round"] == sum(1 for r in records if r.outcome.turns == 1)
    assert a["endings"] == dict(Counter(r.outcome.reason for r in records))
    assert a["cases"]["all"] == sum(r.outcome.reason == "matched every field card" for r in records)
    # the deal: a hand that holds every field type, counted from a fresh deal
    engine, deck = engine_for("stack"), load_deck("stack", None)
    complete = 0
    for seed in range(GAMES):
        s = engine.new_game(deck, 2, seed)
        field = {slot[0] for slot in s.field}
        complete += any(all(s.hands[p][c] for c in field) for p in range(2))
    assert a["deal_complete_any"] == complete
    assert a["win_ci"][0] == wilson(a["wins"][0], GAMES)


def test_calc_report_numbers_match_a_direct_count():
    a = batch("calc", players=3)
    records = direct("calc", GAMES, 3)
    assert a["wins"] == [sum(seat in r.outcome.winners for r in records) for seat in range(3)]
    assert a["scores"][1] == [float(r.outcome.scores[1]) for r in records]
    decided = 0
    for r in records:
        pays = r.facts["pay"]
        pay_winners = tuple(s for s, v in enumerate(pays) if v == max(pays))
        decided += pay_winners != r.outcome.winners
    assert a["decided_by_bonus"] == decided


def test_clag_report_numbers_match_a_direct_count():
    a = batch("clag", games=4)
    records = direct("clag", 4, 4)
    made = [sum(r.facts["made"][i] for r in records) for i in range(22)]
    assert a["made_by_round"] == made
    assert a["contracts_made"] == sum(sum(r.facts["contracts"]) for r in records)
    assert a["scores"][0] == [float(r.outcome.scores[0]) for r in records]


def test_clag_facts_agree_with_the_game_record():
    from printkit.rules import clag

    deck = load_deck("clag", None)
    state = clag.ENGINE.new_game(deck, 5, 7)
    rng = __import__("random").Random(1)
    while not clag.ENGINE.is_over(state):
        clag.apply(state, clag.greedy_player(state, rng))
    facts = clag.facts(state, state, state.moves, [])
    assert sum(facts["made"]) == sum(state.contracts)
    assert sum(facts["points"]) == sum(state.scores)


def test_compare_plays_the_same_seeds_under_each_setting():
    settings = parse_compare("mode=quick,mode=long")
    assert [s.options for s in settings] == [{"mode": "quick"}, {"mode": "long"}]
    quick, long = (play_batch("stack", s, games=GAMES, players=None, seed=5, bot="greedy", variant=None)
                   for s in settings)
    assert [r.seed for r in quick.results] == [r.seed for r in long.results] == list(range(5, 5 + GAMES))
    # the same deals: a game won at its first settlement by one player is won the same way in both modes
    for q, l in zip(quick.results, long.results):
        if q.facts["case"] == "all" and q.turns == 1:
            assert (l.turns, l.winners) == (q.turns, q.winners)


def test_parse_compare_forms():
    assert [s.players for s in parse_compare("players=3,6")] == [3, 6]
    both = parse_compare("players=5+hook=true,players=5+hook=false")
    assert [(s.players, dict(s.options)) for s in both] == [(5, {"hook": True}), (5, {"hook": False})]
    with pytest.raises(DeckError, match="two or more"):
        parse_compare("mode=quick")


def test_statistics():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    z, p = two_proportion_z(30, 100, 50, 100)
    assert z == pytest.approx(2.89, abs=0.01) and p < 0.01


def test_report_html_is_self_contained_and_reproducible(tmp_path):
    pytest.importorskip("matplotlib")
    runner = CliRunner()
    outputs = []
    for name in ("a.html", "b.html"):
        path = tmp_path / name
        result = runner.invoke(main, ["simulate", "stack", "--games", "10", "--bot", "greedy",
                                      "--compare", "mode=quick,mode=long", "--report", str(path)])
        assert result.exit_code == 0, result.output
        outputs.append(path.read_bytes())
    assert outputs[0] == outputs[1]
    text = outputs[0].decode()
    assert "<svg" in text and "<metadata>" not in text
    assert "<script" not in text and "src=" not in text and "<link" not in text and 'href="http' not in text
    assert "two-proportion z-test" in text and "bootstrap" in text
    quick = analyse(play_batch("stack", parse_compare("mode=quick,mode=long")[0], games=10, players=None,
                               seed=0, bot="greedy", variant=None))
    assert f"First-turn wins: {quick['first_turn_wins']:,} ({quick['first_turn_wins'] / 10:.1%}" in text
    assert "[mode=quick]" in result.output and "[mode=long]" in result.output


def test_report_pdf(tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "r.pdf"
    result = CliRunner().invoke(main, ["simulate", "calc", "--games", "6", "--bot", "strong", "--report", str(path)])
    assert result.exit_code == 0, result.output
    assert path.read_bytes().startswith(b"%PDF")


def test_report_refuses_other_file_types(tmp_path):
    pytest.importorskip("matplotlib")
    result = CliRunner().invoke(main, ["simulate", "calc", "--games", "2", "--report", str(tmp_path / "r.png")])
    assert result.exit_code == 1 and ".html or .pdf" in result.output


def test_other_commands_do_not_import_matplotlib():
    code = ("import sys; from click.testing import CliRunner; from printkit.cli import main; "
            "r = CliRunner().invoke(main, ['simulate', 'calc', '--games', '2']); "
            "assert r.exit_code == 0, r.output; print('matplotlib' in sys.modules, 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


@pytest.mark.parametrize("game,players", [("calc", 3), ("stack", 2), ("clag", 4)])
def test_strong_bot_is_seeded_and_legal(game, players):
    deck, engine = load_deck(game, None), engine_for(game)
    a = play_game(engine, deck, players, 3, "strong", check=True)
    b = play_game(engine, deck, players, 3, "strong", check=True)
    assert a == b


def test_jobs_give_the_same_report_numbers():
    one = play_batch("calc", Setting("x"), games=60, players=2, seed=0, bot="greedy", variant=None, jobs=1)
    two = play_batch("calc", Setting("x"), games=60, players=2, seed=0, bot="greedy", variant=None, jobs=2)
    assert one.results == two.results
    assert [r.facts for r in one.results] == [r.facts for r in two.results]


def test_compare_report_shows_settings_as_typed(tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "hook.html"
    result = CliRunner().invoke(main, ["simulate", "clag", "--games", "2", "--bot", "greedy",
                                       "--compare", "hook=false,hook=true", "--report", str(path)])
    assert result.exit_code == 0, result.output
    assert "[hook=true]" in result.output
    text = path.read_text()
    assert "<td>hook=true</td>" in text and "<td>hook=false</td>" in text
    assert "hook=True" not in text and "hook=False" not in text
    settings = parse_compare("hook=yes,hook=no")
    assert [s.label for s in settings] == ["hook=yes", "hook=no"]
    assert [dict(s.options) for s in settings] == [{"hook": True}, {"hook": False}]
