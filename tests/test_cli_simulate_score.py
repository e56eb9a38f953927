"""`printkit score` and `printkit simulate` through click's test runner."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from printkit.cli import main


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_score_prints_each_step_and_the_score_last():
    result = run("score", "9-", "5x", "2-", "1+", "8+")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[-1] == "52"
    assert len(lines) == 6
    assert "9 x 5 = 45" in result.stdout


def test_score_negative_numbers_need_no_double_dash():
    result = run("score", "-1x", "3+")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "2"
    assert run("score", "--", "-1x", "3+").stdout.splitlines()[-1] == "2"


@pytest.mark.parametrize("times", ["x", "X", "×", "*"])
def test_score_times_spellings(times):
    assert run("score", "4+", f"3{times}").stdout.splitlines()[-1] == "12"


def test_score_joker_and_power():
    assert run("score", "9+", "J", "2+", "3^").stdout.splitlines()[-1] == "8"
    assert run("score", "5+", "J").stdout.splitlines()[-1] == "0"


def test_score_fraction_prints_exact_and_decimal():
    assert run("score", "3+", "-1^", "7x").stdout.splitlines()[-1] == "7/3 = 2.33333333333"


def test_score_has_no_cap():
    tower = run("score", "9+", "9^", "9^", "9^").stdout.splitlines()[-1]
    doubled = run("score", "9+", "9^", "9^", "9^", "2x").stdout.splitlines()[-1]
    assert tower == "3^1458 ≈ 4.39329e+695" and doubled == "2·3^1458 ≈ 8.78657e+695"
    assert "saturat" not in tower + doubled


def test_score_zero_to_the_minus_one():
    result = run("score", "0+", "-1^")
    assert result.stdout.splitlines()[-1].startswith("0")
    assert "0 ^ -1 leaves the score at 0" in result.stdout


@pytest.mark.parametrize("args", [["9-", "5q"], ["10+"], ["abc"], []])
def test_score_bad_input_is_one_line_and_exit_1(args):
    result = run("score", *args)
    assert result.exit_code == 1
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_score_hostile_pile_finishes():
    result = run("score", "2+", *(["9^", "-1^"] * 300))
    assert result.exit_code == 0
    # The exponent is multiplied by -9 per pair: 2^(9^300) exactly, written with its exponent's primes.
    assert result.stdout.splitlines()[-1].startswith("2^(3^600) ≈ ")


def test_simulate_text_summary():
    result = run("simulate", "calc", "--games", "20", "--seed", "3")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "calc (standard): 20 games, 4 players, bot random, seed 3" in out
    for part in ("finished: 20/20", "length (turns)", "scores:", "win rate by seat", "endings:"):
        assert part in out


def test_simulate_json_and_options():
    result = run("simulate", "calc", "--games", "10", "--players", "3", "--bot", "greedy", "--variant", "expert", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["variant"] == "expert" and data["players"] == 3 and data["bot"] == "greedy"
    assert data["games"] == data["finished"] == 10
    assert len(data["win_rate_by_seat"]) == 3
    assert set(data["length"]) >= {"mean", "stdev", "min", "max"}


def test_simulate_same_output_whatever_jobs():
    args = ["simulate", "calc", "--games", "60", "--seed", "9", "--json"]
    assert run(*args, "--jobs", "1").stdout == run(*args, "--jobs", "2").stdout


@pytest.mark.parametrize(
    "args",
    [["calc", "--players", "9"], ["no-such-game"], ["calc", "--variant", "nope"]],
)
def test_simulate_errors_exit_1_with_one_line(args):
    result = run("simulate", *args, "--games", "2")
    assert result.exit_code == 1, result.output
    assert len(result.stderr.strip().splitlines()) == 1


def test_simulate_and_score_have_help_with_an_example():
    for command in ("simulate", "score"):
        result = run(command, "--help")
        assert result.exit_code == 0
        assert "Example:" in result.stdout


def test_simulate_without_checks_gives_the_same_figures():
    args = ["simulate", "calc", "--games", "15", "--seed", "4", "--json"]
    assert run(*args, "--no-check").stdout == run(*args).stdout
