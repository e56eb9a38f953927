"""Stack's part of a balance report: how games end, first-turn wins, stacks used and deals,
counted, plotted and said."""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from printkit.report.render import colour, grouped_bars, legend, new_figure
from printkit.report.stats import wilson
from printkit.rules.play import GameResult

# Stack's scores are 1 for the winner, 0 otherwise: the win rates say it all (no scores plot).
SCORES = False


def first_round(r: GameResult) -> bool:
    """The game ended at the first settlement."""
    return r.turns == 1


def facts(done: Sequence[GameResult], a: dict[str, Any]) -> dict[str, Any]:
    """Stack's numbers over the finished games: how they ended, first-turn wins, stacks used, deals."""
    cases = Counter(r.facts["case"] for r in done)
    return {
        "cases": {case: cases.get(case, 0) for case in ("all", "deciding", "cap")},
        "both_full_games": sum(1 for r in done if r.facts["both_full"]),
        "stacks_used": [sum(r.facts["stacks_used"]) for r in done],
        "first_turn_wins": sum(1 for r in done if r.facts["first_turn_win"]),
        "first_turn_wins_by_seat": [sum(1 for r in done if r.facts["first_turn_win"] and r.winners == (s,))
                                    for s in range(2)],
        "deal_complete_any": sum(1 for r in done if any(r.facts["deal_complete"])),
        "deal_complete_seat": [sum(1 for r in done if r.facts["deal_complete"][s]) for s in range(2)],
    }


def paired(done: Sequence[GameResult], seats: int) -> tuple[dict[str, list[bool]], dict[str, list[float]]]:
    """Stack's own yes/no rates and numbers per game for the paired tests of ``--compare``."""
    rates = {
        "first-turn wins": [bool(r.facts["first_turn_win"]) for r in done],
        "both matched all at least once": [bool(r.facts["both_full"]) for r in done],
        "a dealt hand holds all field types": [any(r.facts["deal_complete"]) for r in done],
    }
    return rates, {"stacks used per game": [float(sum(r.facts["stacks_used"])) for r in done]}


def plot(analyses: Sequence[dict[str, Any]], diffs: Sequence[Any]) -> Any:
    """The report's plot of how Stack's games ended, first-turn wins and stacks used (a matplotlib Figure)."""
    fig = new_figure(7.2, 3.2)
    left, right = fig.subplots(1, 2, width_ratios=(3, 2))
    names = ["first-turn\nwin", "dealt all\nfield types", "case 2:\none matched all", "case 3:\ndeciding card",
             "turn cap\n(draw)", "both matched\nall (once+)"]
    counts = [lambda a: a["first_turn_wins"], lambda a: a["deal_complete_any"], lambda a: a["cases"]["all"],
              lambda a: a["cases"]["deciding"], lambda a: a["cases"]["cap"], lambda a: a["both_full_games"]]
    metrics = ["first-turn wins", "a dealt hand holds all field types", "ended: one player matched all (case 2)",
               "ended: deciding card (case 3, quick)", "ended: turn cap, draw", "both matched all at least once"]
    grouped_bars(left, names, analyses, lambda a, g: counts[g](a) / max(1, a["finished"]),
                  lambda a, g: wilson(counts[g](a), a["finished"]), diffs, lambda g: metrics[g])
    left.tick_params(axis="x", labelsize=7)
    left.set_title("Settlement that ended the game, first turn")
    legend(left)
    high = max(max(a["stacks_used"], default=0) for a in analyses)
    for i, a in enumerate(analyses):
        n = max(1, a["finished"])
        right.hist(a["stacks_used"], bins=range(0, high + 2), align="left", histtype="step", linewidth=1.5,
                   color=colour(i), weights=[100 / n] * len(a["stacks_used"]), label=a["label"])
    right.set_xlabel("stacks spent in a game (both players)")
    right.set_ylabel("% of games")
    right.set_title("Stacks used")
    return fig


def findings(a: dict[str, Any]) -> list[str]:
    """The report's sentences about how Stack's games ended, first-turn wins and stacks used, each with its numbers."""
    n = max(1, a["finished"])
    out: list[str] = []
    lo_, hi_ = wilson(a["first_turn_wins"], a["finished"])
    c = a["cases"]
    out.append(f"First-turn wins: {a['first_turn_wins']:,} ({a['first_turn_wins'] / n:.1%}, 95 % {lo_:.1%}-{hi_:.1%}; "
               f"seat 0 {a['first_turn_wins_by_seat'][0]:,}, seat 1 {a['first_turn_wins_by_seat'][1]:,}). "
               f"A dealt hand held every field type in {a['deal_complete_any'] / n:.1%} of deals "
               f"(seat 0 {a['deal_complete_seat'][0] / n:.1%}, seat 1 {a['deal_complete_seat'][1] / n:.1%}).")
    out.append(f"Ending settlement: one player matched all (case 2) {c['all']:,} ({c['all'] / n:.1%}), "
               f"deciding card (case 3, quick) {c['deciding']:,} ({c['deciding'] / n:.1%}), turn cap (draw) "
               f"{c['cap']:,} ({c['cap'] / n:.1%}); both players matched everything at least once in "
               f"{a['both_full_games']:,} games. Stacks spent per game: mean "
               f"{sum(a['stacks_used']) / n:.2f}.")
    return out
