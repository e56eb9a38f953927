"""Calc's part of a balance report: the fewest-cards bonus and the values paid, counted, plotted
and said."""

from __future__ import annotations

import math
from typing import Any, Sequence

from printkit.report.render import colour, grouped_bars, legend, new_figure
from printkit.report.stats import wilson
from printkit.rules.play import GameResult, as_float

# Scores mean more than the win, and pays span many magnitudes: a symmetric log axis.
SCORES = True
SCORE_AXIS = "symlog"


def first_round(r: GameResult) -> bool:
    """The game ended before any seat's second turn."""
    return bool(r.facts.get("first_round"))


def facts(done: Sequence[GameResult], a: dict[str, Any]) -> dict[str, Any]:
    """Calc's numbers over the finished games: the values paid and the bonus's part in the wins."""
    return {
        "pay_values": [v for r in done for v in r.facts["pay"]],
        "decided_by_bonus": sum(1 for r in done if r.facts["decided_by_bonus"]),
        "winner_had_bonus": sum(1 for r in done if set(r.winners) & set(r.facts["bonus"])),
        "bonus_shared": sum(1 for r in done if len(r.facts["bonus"]) > 1),
    }


def paired(done: Sequence[GameResult], seats: int) -> tuple[dict[str, list[bool]], dict[str, list[float]]]:
    """Calc's own yes/no rates and numbers per game for the paired tests of ``--compare``."""
    samples = {f"score, seat {s}": [as_float(r.scores[s]) for r in done] for s in range(seats)}
    rates = {
        "decided by the fewest-cards bonus": [bool(r.facts["decided_by_bonus"]) for r in done],
        "a winner had the bonus": [bool(set(r.winners) & set(r.facts["bonus"])) for r in done],
    }
    return rates, samples


def plot(analyses: Sequence[dict[str, Any]], diffs: Sequence[Any]) -> Any:
    """The report's plot of Calc's pay values and its fewest-cards bonus (a matplotlib Figure)."""
    fig = new_figure(7.2, 3.2)
    left, right = fig.subplots(1, 2)
    notes = []
    finite = [abs(v) for a in analyses for v in a["pay_values"] if v and math.isfinite(v)]
    top = max(1.0, math.log10(max(finite))) if finite else 1.0
    bins = [x / 2 for x in range(0, 2 * math.ceil(top) + 3)]
    for i, a in enumerate(analyses):
        values = a["pay_values"]
        if not values:
            continue
        # Pays span 0 to astronomic: plot log10 of the size of the non-zero ones, state the zeros.
        sizes = [min(math.log10(abs(v)), bins[-1] - 0.01) if math.isfinite(v) else bins[-1] - 0.01
                 for v in values if v]
        sizes = [max(x, 0.0) for x in sizes]
        left.hist(sizes, bins=bins, histtype="step", linewidth=1.5, color=colour(i),
                  weights=[100 / len(values)] * len(sizes), label=a["label"])
        zero = sum(1 for v in values if v == 0) / len(values)
        negative = sum(1 for v in values if v < 0) / len(values)
        notes.append(f"{a['label']}: {zero:.0%} zero, {negative:.0%} negative")
    left.set_xlabel("log10 |pay value| of non-zero pays (last bin: larger)")
    left.set_ylabel("% of pays")
    left.set_title("Pay values: " + "; ".join(notes) if len(notes) == 1 else "Pay values", fontsize=8)
    if len(notes) > 1:
        left.text(0.98, 0.97, "\n".join(notes), transform=left.transAxes, ha="right", va="top", fontsize=7)
    names = ["decided by bonus", "winner had bonus"]
    keys = ["decided_by_bonus", "winner_had_bonus"]
    metrics = ["decided by the fewest-cards bonus", "a winner had the bonus"]
    grouped_bars(right, names, analyses, lambda a, g: a[keys[g]] / max(1, a["finished"]),
                  lambda a, g: wilson(a[keys[g]], a["finished"]), diffs, lambda g: metrics[g])
    right.set_title("The +5 fewest-cards bonus")
    legend(right)
    return fig


def findings(a: dict[str, Any]) -> list[str]:
    """The report's sentences about Calc's pay values and its fewest-cards bonus, each with its numbers."""
    n = max(1, a["finished"])
    out: list[str] = []
    lo_, hi_ = wilson(a["decided_by_bonus"], a["finished"])
    out.append(f"The fewest-cards bonus decided {a['decided_by_bonus']:,} games ({a['decided_by_bonus'] / n:.1%}, "
               f"95 % {lo_:.1%}-{hi_:.1%}); a winner held the bonus in {a['winner_had_bonus'] / n:.1%}.")
    out.append(f"Ended in the first round: {a['first_round']:,} games.")
    return out
