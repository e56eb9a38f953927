"""Per-card statistics, card removal, per-seat bots, tournaments, sample games and trajectories:
each checked against a direct recomputation over the same seeds."""

from __future__ import annotations

import json
import statistics
from collections import Counter

import pytest
from click.testing import CliRunner

from printkit.cli import main
from printkit.errors import DeckError
from printkit.report.data import Setting, analyse, parse_compare, play_batch
from printkit.report.impact import card_impact
from printkit.report.sample import sample_game, transcript_lines
from printkit.report.stats import wilson
from printkit.report.tournament import bradley_terry, tournament
from printkit.games.calc import engine as calc
from printkit.games import engine_for
from printkit.rules.observe import card_names, without_cards
from printkit.rules.play import _quantile, play_game
from printkit.decks import load_deck


def calc_direct(games, players=4, bot="random", deck=None):
    """Each Calc game replayed by hand: per seat, the card texts held, drawn and played, and hand sizes."""
    deck = deck or load_deck("calc", None)
    engine = engine_for("calc")
    out = []
    for seed in range(games):
        record = play_game(engine, deck, players, seed, bot, check=False)
        state = engine.new_game(deck, players, seed)
        held = [{state.cards[i].text for i in hand} for hand in state.hands]
        drawn = [Counter() for _ in range(players)]
        played = [Counter() for _ in range(players)]
        sizes = []
        for move in record.moves:
            seat = state.turn
            if isinstance(move, calc.Draw):
                card = state.cards[state.deck[-1]].text
                drawn[seat][card] += 1
                held[seat].add(card)
            else:
                played[seat][state.cards[move.card].text] += 1
            engine.apply(state, move)
            sizes.append([len(h) for h in state.hands])
        out.append((record, held, drawn, played, sizes))
    return out


def test_calc_per_card_statistics_match_a_direct_count():
    games, players = 8, 4
    a = analyse(play_batch("calc", Setting("x"), games=games, players=players, seed=0, bot="random", variant=None))
    games_ = calc_direct(games, players)
    cards = {c["card"]: c for c in a["cards"]}
    assert len(cards) == 34  # -1..9 of four symbols, and the joker
    seat_games = games * players
    for name, entry in cards.items():
        held = sum(name in g[1][s] for g in games_ for s in range(players))
        held_wins = sum(name in g[1][s] and s in g[0].outcome.winners for g in games_ for s in range(players))
        played_by = sum(g[3][s][name] > 0 for g in games_ for s in range(players))
        played_wins = sum(g[3][s][name] > 0 and s in g[0].outcome.winners for g in games_ for s in range(players))
        all_wins = sum(len(g[0].outcome.winners) for g in games_)
        assert entry["drawn"] == sum(g[2][s][name] for g in games_ for s in range(players)), name
        assert entry["played"] == sum(g[3][s][name] for g in games_ for s in range(players)), name
        assert entry["held_by"] == held and entry["played_by"] == played_by, name
        assert entry["win_rate_held"]["wins"] == held_wins
        assert entry["win_rate_not_held"] == {"wins": all_wins - held_wins, "of": seat_games - held,
                                              "rate": round((all_wins - held_wins) / (seat_games - held), 6)
                                              if seat_games - held else None,
                                              "ci95": [round(x, 6) for x in wilson(all_wins - held_wins, seat_games - held)]}
        assert entry["win_rate_played"]["wins"] == played_wins
        assert entry["win_rate_played"]["ci95"] == [round(x, 6) for x in wilson(played_wins, played_by)]
    assert cards["J"]["copies"] == 1 and cards["5x"]["copies"] == 4


def test_calc_trajectories_match_a_direct_replay():
    games = 5
    a = analyse(play_batch("calc", Setting("x"), games=games, players=4, seed=0, bot="greedy", variant=None))
    replayed = calc_direct(games, 4, "greedy")
    t = a["trajectories"]
    for turn in (0, 3, 10):
        values = sorted(v for g in replayed if len(g[4]) > turn for v in g[4][turn])
        assert t["figures"]["hand size"][turn] == [_quantile(values, q) for q in (0.25, 0.5, 0.75)]
        assert t["games"][turn] == sum(1 for g in replayed if len(g[4]) > turn)


def test_watching_does_not_change_the_game():
    engine, deck = engine_for("stack"), load_deck("stack", None)
    for seed in range(3):
        plain = play_game(engine, deck, 2, seed, "greedy")
        watched = play_game(engine, deck, 2, seed, "greedy", watch=True)
        assert plain.moves == watched.moves and plain.outcome == watched.outcome
        assert watched.watched["turns"] and plain.watched is None


def test_json_carries_cards_and_positions():
    out = CliRunner().invoke(main, ["simulate", "calc", "--games", "4", "--json", "--no-check"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert len(data["cards"]) >= 30
    assert data["trajectories"]["figures"]["hand size"][0][1] == 7.0  # after turn 1 only seat 0 has moved
    assert {"card", "drawn", "played", "win_rate_held", "win_rate_played"} <= set(data["cards"][0])
    # Calc's first player is seat 0: positions are seats
    assert data["win_rate_by_position"]["rate"] == data["win_rate_by_seat"]
    out = CliRunner().invoke(main, ["simulate", "clag", "--games", "6", "--bot", "greedy", "--json", "--no-check"])
    data = json.loads(out.output)
    position = data["win_rate_by_position"]
    assert position["from"] == "the first dealer"
    deck = load_deck("clag", None)
    expected = [0] * 4
    for seed in range(6):
        first = engine_for("clag").new_game(deck, 4, seed).first_dealer
        winners = play_game(engine_for("clag"), deck, 4, seed, "greedy", check=False).outcome.winners
        for place in range(4):
            expected[place] += (first + place) % 4 in winners
    assert position["wins"] == expected
    assert position["ci95"][0] == [round(x, 6) for x in wilson(expected[0], 6)]


def test_remove_takes_every_copy_and_plays_the_same_seeds():
    deck = load_deck("calc", None)
    smaller = without_cards(deck, ["5x"])
    assert len(smaller.cards) == len(deck.cards) - 4 and "5x" not in card_names(smaller)
    b = play_batch("calc", parse_compare("remove=5x,remove=9x")[0], games=4, players=4, seed=0, bot="greedy",
                   variant=None)
    engine = engine_for("calc")
    assert [r.turns for r in b.results] == [play_game(engine, smaller, 4, s, "greedy").outcome.turns for s in range(4)]
    with pytest.raises(DeckError, match="no such card"):
        without_cards(deck, ["5q"])
    stack = load_deck("stack", None)
    assert without_cards(stack, ["gold+ruby"]) == without_cards(stack, ["ruby+gold"])
    assert len(without_cards(stack, ["gold+ruby"]).cards) == len(stack.cards) - 4
    clag = load_deck("clag", None)
    assert "QH" not in card_names(without_cards(clag, ["qh"]))
    out = CliRunner().invoke(main, ["simulate", "calc", "--games", "3", "--no-check", "--remove", "5x"])
    assert out.exit_code == 0 and "[without 5x]" in out.output
    assert "paired differences against [full deck]" in out.output and "McNemar exact" in out.output
    out = CliRunner().invoke(main, ["simulate", "calc", "--games", "2", "--remove", "J"])
    assert out.exit_code == 1 and "without J the calc deck cannot be played" in out.output
    assert "Traceback" not in out.output


def test_compare_remove_takes_a_card_name_with_plus_whole():
    settings = parse_compare("remove=5+,remove=5x")
    assert [s.remove for s in settings] == [("5+",), ("5x",)]
    settings = parse_compare("remove=ruby+gold,remove=gold+ruby+remove=coal+players=3,bots=greedy+random")
    assert settings[0].remove == ("ruby+gold",) and settings[0].label == "remove=ruby+gold"
    assert settings[1].remove == ("gold+ruby", "coal") and settings[1].players == 3
    assert settings[2].bot == "greedy+random" and settings[2].remove == ()
    assert [s.remove for s in parse_compare("hook=true+remove=QH,hook=false")] == [("QH",), ()]
    deck = load_deck("calc", None)
    b = play_batch("calc", parse_compare("remove=5+,remove=5x")[0], games=2, players=4, seed=0, bot="greedy",
                   variant=None)
    assert b.removed == ("5+",) and "5+" not in b.card_names and len(b.card_names) == len(card_names(deck)) - 4
    out = CliRunner().invoke(main, ["simulate", "stack", "--games", "2", "--no-check", "--compare",
                                    "remove=ruby+gold,remove=ruby"])
    assert out.exit_code == 0 and "[remove=ruby+gold]" in out.output and "[remove=ruby]" in out.output
    # a card not in the deck: the message names the setting and the card
    out = CliRunner().invoke(main, ["simulate", "calc", "--games", "2", "--no-check", "--compare",
                                    "remove=5x,remove=5q+remove=7x"])
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert "setting 'remove=5q+remove=7x': no such card '5q' in deck 'Calc'" in out.output
    with pytest.raises(DeckError, match="setting 'remove=': 'remove=' names no card"):
        parse_compare("remove=5x,remove=")


def test_card_impact_sweep_matches_a_direct_recomputation():
    games = 3
    sweep = card_impact("calc", Setting("full deck"), games=games, players=4, seed=0, bot="random", variant=None)
    rows = {r["card"]: r for r in sweep["cards"]}
    assert len(rows) == 34 and "unplayable" in rows["J"]
    engine, deck = engine_for("calc"), load_deck("calc", None)
    full = [play_game(engine, deck, 4, s, "random", check=False).outcome for s in range(games)]
    for name in ("-1+", "7x", "9^" if "9^" in rows else "9-"):
        without = [play_game(engine, without_cards(deck, [name]), 4, s, "random", check=False).outcome
                   for s in range(games)]
        row = rows[name]
        assert row["first_player_win_rate"] == [sum(0 in o.winners for o in full) / games,
                                                sum(0 in o.winners for o in without) / games]
        assert row["length_median"] == [statistics.median(o.turns for o in full),
                                        statistics.median(o.turns for o in without)]
        assert row["length_mean_change"] == sum(b.turns - a.turns for a, b in zip(full, without)) / games
    # the Holm adjustment covers every test of the sweep: an adjusted p is never below its raw p
    for row in sweep["cards"]:
        if "unplayable" not in row:
            assert row["p_win_holm"] >= row["p_win"] and row["p_length_holm"] >= row["p_length"]


def test_per_seat_bots_in_a_compare_setting():
    settings = parse_compare("bots=greedy+random+random+random,bot=random")
    assert settings[0].bot == "greedy+random+random+random" and settings[1].bot == "random"
    b = play_batch("calc", settings[0], games=3, players=4, seed=0, bot="random", variant=None)
    engine, deck = engine_for("calc"), load_deck("calc", None)
    expected = [play_game(engine, deck, 4, s, ("greedy", "random", "random", "random"), check=False).outcome
                for s in range(3)]
    assert [(r.turns, r.winners) for r in b.results] == [(o.turns, o.winners) for o in expected]
    assert analyse(b)["bots"] == ("greedy", "random", "random", "random")


def test_tournament_matches_a_direct_count():
    games = 4
    t = tournament("stack", ["random", "greedy"], games=games, players=None, seed=0, variant=None)
    engine, deck = engine_for("stack"), load_deck("stack", None)
    score = 0.0
    for seating in (("random", "greedy"), ("greedy", "random")):
        for seed in range(games):
            winners = play_game(engine, deck, 2, seed, seating, check=False).outcome.winners
            mine = any(seating[s] == "greedy" for s in winners)
            theirs = any(seating[s] == "random" for s in winners)
            score += 1.0 if mine and not theirs else 0.5 if mine == theirs else 0.0
    greedy = t["bots"].index("greedy")
    cell = t["matrix"][greedy][1 - greedy]
    assert cell["rate"] == score / (2 * games) and cell["games"] == 2 * games
    assert cell["ci95"] == list(wilson(score, 2 * games))
    assert t["matrix"][1 - greedy][greedy]["rate"] == 1 - score / (2 * games)
    assert t["ranking"][0]["bot"] == ("greedy" if score >= games else "random")
    with pytest.raises(DeckError):
        tournament("stack", ["greedy"], games=1, players=None, seed=0, variant=None)


def test_tournament_refuses_joined_bot_names_and_a_bot_option():
    with pytest.raises(DeckError, match="'greedy\\+random': name one bot per entry"):
        tournament("calc", ["greedy+random", "random"], games=1, players=None, seed=0, variant=None)
    base = ["simulate", "calc", "--games", "1", "--no-check", "--tournament"]
    out = CliRunner().invoke(main, base + ["greedy+random,random"])
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert "name one bot per entry, separated by commas (e.g. greedy,random)" in out.output
    for bot in ("strong", "random"):  # even the default bot, written out, is refused rather than ignored
        out = CliRunner().invoke(main, base + ["greedy,random", "--bot", bot])
        assert out.exit_code == 1 and "--bot does not apply to --tournament" in out.output
        assert "tournament:" not in out.output
    out = CliRunner().invoke(main, base + ["greedy,random"])
    assert out.exit_code == 0 and "tournament: calc" in out.output


def test_bradley_terry_of_two_bots_has_its_closed_form():
    # With half a win added each way, p_a / p_b = 30.5 / 10.5; against the geometric mean bot,
    # a's expected rate is sqrt(ratio) / (sqrt(ratio) + 1).
    ratio = 30.5 / 10.5
    strengths = bradley_terry(["a", "b"], {("a", "b"): 30.0, ("b", "a"): 10.0}, {("a", "b"): 40, ("b", "a"): 40})
    assert strengths[0] == pytest.approx(ratio ** 0.5 / (ratio ** 0.5 + 1), abs=1e-9)
    assert strengths[0] + strengths[1] == pytest.approx(1.0)


def test_sample_transcript_is_the_replayed_game():
    deck = load_deck("calc", None)
    sample = sample_game(deck, 4, 10, 5, "greedy", 2)
    engine = engine_for("calc")
    record = play_game(engine, deck, 4, 12, "greedy")
    state = engine.new_game(deck, 4, 12)
    texts = []
    for move in record.moves:
        texts.append(state.describe(move))
        engine.apply(state, move)
    assert [m["move"] for m in sample["moves"]] == texts
    assert sample["seed"] == 12 and sample["winners"] == list(record.outcome.winners)
    lines = transcript_lines(sample)
    assert lines[-1].startswith("ended (") and len(lines) == 1 + 4 + len(texts) + 1
    clag = sample_game(load_deck("clag", None), 4, 0, 1, "random", 0)
    assert clag["moves"][0]["move"].startswith("bid ")
    with pytest.raises(DeckError):
        sample_game(deck, 4, 0, 5, "greedy", 5)


def test_html_report_shows_cards_trajectories_and_the_sample(tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "calc.html"
    out = CliRunner().invoke(main, ["simulate", "calc", "--games", "6", "--bot", "greedy", "--sample", "1",
                                    "--report", str(path)])
    assert out.exit_code == 0, out.output
    text = path.read_text()
    assert "<h2 id='cards'>Cards</h2>" in text and text.count("<tr>") > 34
    assert "id='trajectories'" in text and "<h2 id='sample'>A game to read</h2>" in text
    first = sample_game(load_deck("calc", None), 4, 0, 6, "greedy", 1)["moves"][0]["move"]
    assert first.replace("'", "&#x27;") in text
    for flag, marker in (("--card-impact", "calc card impact"), ("--tournament", "bot tournament")):
        report = tmp_path / f"{flag[2:]}.html"
        args = ["simulate", "calc", "--games", "2", "--report", str(report), flag]
        out = CliRunner().invoke(main, args + (["random,greedy"] if flag == "--tournament" else []))
        assert out.exit_code == 0, out.output
        assert marker in report.read_text()


def test_clag_cards_played_are_the_play_moves():
    # A card played last in a round and dealt to the same seat in the next round still counts.
    from printkit.games.clag.cards import Play

    a = analyse(play_batch("clag", Setting("x"), games=2, players=4, seed=0, bot="random", variant=None))
    engine, deck = engine_for("clag"), load_deck("clag", None)
    played = Counter()
    for seed in range(2):
        record = play_game(engine, deck, 4, seed, "random", check=False)
        played.update(str(m.card) for m in record.moves if isinstance(m, Play))
    assert {c["card"]: c["played"] for c in a["cards"]} == {name: played[name] for name in card_names(deck)}
    # every card in hand is played by the end of its round: drawn plus the first deal equals played
    first = Counter()
    for seed in range(2):
        state = engine.new_game(deck, 4, seed)
        first.update(str(c) for hand in state.hands for c in hand)
    assert all(c["drawn"] + first[c["card"]] == c["played"] for c in a["cards"])
