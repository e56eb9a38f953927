"""Balance reports: their numbers equal a direct count over the same seeds, and they are reproducible."""

from __future__ import annotations

import math
import subprocess
import sys
from collections import Counter

import pytest
from click.testing import CliRunner

from printkit.cli import main
from printkit.errors import DeckError
from printkit.report.data import Setting, analyse, parse_compare, play_batch
from printkit.report.stats import (
    binomial_two_sided,
    holm,
    mcnemar_exact,
    two_proportion_z,
    wilcoxon_signed_rank,
    wilson,
)
from printkit.games import engine_for
from printkit.rules.play import play_game, with_options
from printkit.decks import load_deck

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


def test_clag_wins_are_counted_by_place_from_the_first_dealer():
    from printkit.games.clag import engine as clag

    a = batch("clag", games=6)
    deck = load_deck("clag", None)
    expected = [0] * 4
    for seed in range(6):  # the deal of each seed names its first dealer; the records its winners
        first = clag.ENGINE.new_game(deck, 4, seed).first_dealer
        record = play_game(engine_for("clag"), deck, 4, seed, "greedy", check=False, facts=True)
        assert record.facts["first_dealer"] == first
        for place in range(4):
            expected[place] += (first + place) % 4 in record.outcome.winners
    assert a["wins_by_position"] == expected
    assert sum(a["wins_by_position"]) == sum(a["wins"])
    assert a["win_rate_by_position"] == [w / 6 for w in expected]


def test_clag_facts_agree_with_the_game_record():
    from printkit.games.clag import engine as clag

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
    assert "McNemar exact" in text and "Wilcoxon signed-rank" in text and "Holm" in text
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


def test_paired_statistics_against_known_values():
    # Exact binomial, two-sided (as scipy.stats.binomtest gives): 2 of 10 -> 0.109375, 0 of 5 -> 0.0625.
    assert binomial_two_sided(2, 10) == pytest.approx(0.109375)
    assert binomial_two_sided(0, 5) == pytest.approx(0.0625)
    assert binomial_two_sided(5, 10) == 1.0 and binomial_two_sided(0, 0) == 1.0
    assert binomial_two_sided(0, 2000) < 1e-300 or binomial_two_sided(0, 2000) == 0.0
    # McNemar counts only the discordant pairs.
    a = [True] * 30 + [False] * 70
    b = [True] * 20 + [False] * 10 + [True] * 2 + [False] * 68
    assert mcnemar_exact(a, b) == (10, 2, pytest.approx(binomial_two_sided(2, 12)))
    # Wilcoxon: ten positive differences of distinct sizes: W+ = 55, z = 27.5 / sqrt(96.25) = 2.803;
    # exact p: only all-plus and all-minus are as far out, 2 / 2**10.
    z, p = wilcoxon_signed_rank([0.0] * 10, [float(i) for i in range(1, 11)])
    assert z == pytest.approx(2.8031, abs=1e-4) and p == pytest.approx(2 / 1024)
    # Zero differences are dropped; ties share ranks (tie-corrected variance).
    z, p = wilcoxon_signed_rank([1, 2, 3, 4], [1, 3, 4, 3])
    assert z == pytest.approx(1 / 3**0.5)  # W+ = 4 against 3; ties (1,1,1): var = 3.5 - 24/48 = 3
    assert p == 1.0  # ranks 2, 2, 2: W+ = 4 is the middle of 0, 2, 4, 6
    assert wilcoxon_signed_rank([1, 2], [1, 2]) == (0.0, 1.0)
    # Holm: sorted p times (m - rank), made monotone.
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_compare_uses_paired_tests_and_a_setting_against_itself_flags_nothing():
    from printkit.report.render import differences

    same = [batch("calc", Setting("players=4", players=4), games=40) for _ in range(2)]
    diffs = differences(same)
    assert diffs and not any(d.clear for d in diffs)
    assert all(d.p == 1.0 and d.pairs == 40 for d in diffs)
    tests = {d.test.split(" (")[0] for d in diffs}
    assert tests == {"McNemar exact", "Wilcoxon signed-rank"}
    metrics = {d.metric for d in diffs}
    assert {"shared win", "ended: deck-empty", "game length (median)", "score, seat 0 (median)"} <= metrics


def test_compare_marks_a_change_in_how_games_end():
    from printkit.report.render import differences

    quick = batch("stack", Setting("mode=quick", options={"mode": "quick"}), games=200)
    long = batch("stack", Setting("mode=long", options={"mode": "long"}), games=200)
    diffs = {d.metric: d for d in differences([quick, long])}
    # Only games where both players finish in the same turn can differ: the deciding-card ending
    # disappears in the long mode, seen by McNemar on those discordant games alone.
    deciding = diffs["ended: matched the deciding field card"]
    assert deciding.clear and deciding.p_adjusted < 0.05 and deciding.other_value == "0.0%"


def test_equal_share_counts_shared_wins():
    a = batch("calc", players=4, games=60)
    assert a["equal_share"] == pytest.approx(sum(a["wins"]) / (4 * a["finished"]))
    assert a["shared"] == 0 or a["equal_share"] > 0.25


def test_wilcoxon_small_samples_are_exact():
    # Five pairs, all positive: the normal approximation said 0.043, the exact p is 2 / 32.
    assert wilcoxon_signed_rank([0] * 5, [1, 2, 3, 4, 5])[1] == pytest.approx(0.0625)
    # Known exact values (as scipy.stats.wilcoxon(method="exact") gives them).
    assert wilcoxon_signed_rank([0] * 8, [1, 2, 3, 4, 5, -6, 7, 8])[1] == pytest.approx(0.109375)
    assert wilcoxon_signed_rank([0] * 6, [1, -2, 3, -4, 5, -6])[1] == pytest.approx(0.84375)


def _brute_force_p(a, b):
    """Every sign pattern of the observed ranks, counted one by one."""
    from itertools import product

    diffs = [y - x for x, y in zip(a, b) if x != y]
    order = sorted(abs(d) for d in diffs)
    rank = {m: (order.index(m) + len(order) - order[::-1].index(m) + 1) / 2 for m in order}
    ranks = [rank[abs(d)] for d in diffs]
    observed = sum(r for r, d in zip(ranks, diffs) if d > 0)
    sums = [sum(r for r, s in zip(ranks, signs) if s) for signs in product((0, 1), repeat=len(ranks))]
    low = sum(1 for s in sums if s <= observed + 1e-9)
    high = sum(1 for s in sums if s >= observed - 1e-9)
    return min(1.0, 2 * min(low, high) / len(sums))


def test_wilcoxon_exact_matches_brute_force_with_ties_and_zeros():
    import random

    rng = random.Random(7)
    for _ in range(60):
        n = rng.randint(1, 11)
        a = [rng.randint(0, 4) for _ in range(n)]
        b = [rng.randint(0, 4) for _ in range(n)]  # small integers: many ties and zero differences
        if all(x == y for x, y in zip(a, b)):
            continue
        assert wilcoxon_signed_rank(a, b)[1] == pytest.approx(_brute_force_p(a, b)), (a, b)


def test_wilcoxon_large_samples_use_a_continuity_correction():
    # 40 pairs, W+ = 600 of 820, mean 410, variance 40*41*81/24 = 5535: p of (190 - 1/2) / sqrt(5535).
    diffs = [float(i) if i % 4 else -float(i) for i in range(1, 41)]
    z, p = wilcoxon_signed_rank([0.0] * 40, diffs)
    w_plus = sum(i for i in range(1, 41) if i % 4)
    assert w_plus == 600
    assert z == pytest.approx(190 / 5535**0.5)
    assert p == pytest.approx(math.erfc((189.5 / 5535**0.5) / math.sqrt(2)))
