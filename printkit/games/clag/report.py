"""Clag's part of a balance report: contracts made and points by round, wins by place, counted,
plotted and said."""

from __future__ import annotations

import statistics
from typing import Any, Sequence

from printkit.report.render import colour, grouped_bars, legend, new_figure
from printkit.report.stats import wilson
from printkit.rules.play import GameResult, as_float

# Clag's special rounds (GAMES.md): the report gives their points per seat.
SPECIAL_ROUNDS = tuple(range(8, 16))

SCORES = True  # final scores are points: the report plots them and gives their quantiles


def first_round(r: GameResult) -> bool:
    """Never: Clag always plays 22 rounds."""
    return False


def facts(done: Sequence[GameResult], a: dict[str, Any]) -> dict[str, Any]:
    """Clag's numbers over the finished games, per round 1-22, and wins by place from the first dealer."""
    n, seats = len(done), a["players"]
    rounds = len(done[0].facts["made"]) if done else 0
    made = [sum(r.facts["made"][i] for r in done) for i in range(rounds)]
    points = [sum(r.facts["points"][i] for r in done) for i in range(rounds)]
    dealer = [sum(1 for r in done if r.facts["dealer_made"][i]) for i in range(rounds)]
    wins_by_position = [sum(1 for r in done if (r.facts["first_dealer"] + p) % seats in r.winners)
                        for p in range(seats)]
    overbid = []
    for i in range(rounds):
        values = [r.facts["overbid"][i] for r in done if r.facts["overbid"][i] is not None]
        overbid.append(statistics.fmean(values) if values else None)
    return {
        "made_by_round": made,  # seats that completed a contract, over all games
        "seat_rounds": n * seats,  # trials per round for made_by_round
        "made_rate_by_round": [m / (n * seats) if n else 0.0 for m in made],
        "points_per_seat_by_round": [p / (n * seats) if n else 0.0 for p in points],
        "dealer_made_by_round": dealer,
        "overbid_by_round": overbid,
        "contracts_made": sum(made),
        "special_points": [sum(r.facts["points"][i - 1] for i in SPECIAL_ROUNDS) / seats for r in done],
        "bid_rounds_made": sum(made[i] for i in range(rounds) if done[0].facts["overbid"][i] is not None),
        "bid_seat_rounds": n * seats * sum(1 for i in range(rounds) if done and done[0].facts["overbid"][i] is not None),
        # The first dealer is drawn at random, so wins by seat hide the order of play: counted by
        # place from the first dealer (0: the first dealer, 1: the next seat …), they show it.
        "wins_by_position": wins_by_position,
        "win_rate_by_position": [w / n if n else 0.0 for w in wins_by_position],
    }


def paired(done: Sequence[GameResult], seats: int) -> tuple[dict[str, list[bool]], dict[str, list[float]]]:
    """Clag's own numbers per game for the paired tests of ``--compare`` (no yes/no rates)."""
    samples = {f"score, seat {s}": [as_float(r.scores[s]) for r in done] for s in range(seats)}
    samples["points per seat in rounds 8-15"] = [
        sum(r.facts["points"][i - 1] for i in SPECIAL_ROUNDS) / seats for r in done]
    samples["contracts made per game"] = [float(sum(r.facts["made"])) for r in done]
    samples["dealers' contracts made per game"] = [float(sum(map(bool, r.facts["dealer_made"]))) for r in done]
    return {}, samples


def plot(analyses: Sequence[dict[str, Any]], diffs: Sequence[Any]) -> Any:
    """The report's plot of contracts made by round and points in the special rounds (a matplotlib Figure)."""
    fig = new_figure(7.2, 3.4)
    left, right = fig.subplots(1, 2, width_ratios=(3, 2))
    rounds = len(analyses[0]["made_rate_by_round"])
    left.axvspan(7.5, 15.5, color="#999999", alpha=0.12, linewidth=0)
    for i, a in enumerate(analyses):
        xs = list(range(1, rounds + 1))
        rates = [100 * r for r in a["made_rate_by_round"]]
        cis = [wilson(m, a["seat_rounds"]) for m in a["made_by_round"]]
        left.fill_between(xs, [100 * c[0] for c in cis], [100 * c[1] for c in cis], color=colour(i), alpha=0.2,
                          linewidth=0)
        left.plot(xs, rates, marker="o", markersize=3, color=colour(i), label=a["label"])
    left.set_xticks(range(1, rounds + 1), [str(r) for r in range(1, rounds + 1)], fontsize=7)
    left.set_xlabel("round (shaded: special rounds 8-15)")
    left.set_ylabel("% of seats making their contract")
    left.set_title("Contracts made per round")
    legend(left)
    specials = list(range(8, 16))
    grouped_bars(right, [str(r) for r in specials] + ["other"], analyses,
                  lambda a, g: (a["points_per_seat_by_round"][specials[g] - 1] if g < len(specials) else
                                sum(p for r, p in enumerate(a["points_per_seat_by_round"], 1) if r not in specials)
                                / (rounds - len(specials))),
                  None, diffs, None, percent=False)
    # two lines: on one, the label is wider than the narrow right-hand plot and is cut off
    right.set_xlabel("special round\n(other: mean of the normal rounds)")
    right.set_ylabel("points per seat")
    right.set_title("Points per special round")
    return fig


def findings(a: dict[str, Any]) -> list[str]:
    """The report's sentences about contracts made by round and points in the special rounds, each with its numbers."""
    n = max(1, a["finished"])
    out: list[str] = []
    rate = a["bid_rounds_made"] / max(1, a["bid_seat_rounds"])
    worst = min(range(len(a["made_rate_by_round"])), key=lambda i: a["made_rate_by_round"][i])
    best = max(range(len(a["made_rate_by_round"])), key=lambda i: a["made_rate_by_round"][i])
    out.append(f"Contracts made in rounds with bids: {rate:.1%}; most often in round {best + 1} "
               f"({a['made_rate_by_round'][best]:.1%}), least in round {worst + 1} "
               f"({a['made_rate_by_round'][worst]:.1%}). Dealers made theirs in "
               f"{sum(a['dealer_made_by_round']) / (n * len(a['dealer_made_by_round'])):.1%} of rounds.")
    specials = ", ".join(f"{r}: {a['points_per_seat_by_round'][r - 1]:.2f}" for r in range(8, 16))
    out.append(f"Points per seat in the special rounds: {specials}.")
    places = ", ".join(f"{'first dealer' if p == 0 else f'{p} after'} {rate:.1%} "
                       f"[{wilson(w, a['finished'])[0]:.1%}, {wilson(w, a['finished'])[1]:.1%}]"
                       for p, (rate, w) in enumerate(zip(a["win_rate_by_position"], a["wins_by_position"])))
    out.append(f"Win rate by place from the first dealer (seats deal in turn from it; 95 % Wilson): {places}.")
    return out
