"""Balance reports as HTML (plots inline as SVG) or PDF pages, drawn by matplotlib's Agg backend.

matplotlib is the ``report`` extra: it is imported here only, when a report is written, so other
commands never pay for it. Plots are reproducible: fonts are printkit's bundled TrueType files only
(text drawn as paths), ``svg.hashsalt`` is fixed and no dates are written, so the same seeds give
the same bytes.
"""

from __future__ import annotations

import html
import io
import math
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from printkit.errors import ReportError
from printkit.games import module_of
from printkit.plural import counted
from printkit.report.stats import holm, mcnemar_exact, paired_median_difference, wilcoxon_signed_rank, wilson
from printkit.rules.observe import view_for

# A difference is marked when its Holm-adjusted p-value is below this: over all the numbers of a
# report together, the chance of marking any difference that is not there stays under 5 %.
LEVEL = 0.05
COLOURS = ("#1f5f99", "#d9822b", "#3a8f4b", "#b03a48", "#7a5195", "#6b6b6b")
SVG_SALT = "printkit-report"


# ---------------------------------------------------------------- matplotlib set-up


def _matplotlib():
    """matplotlib with the Agg backend and printkit's bundled fonts as the only fonts."""
    try:
        import matplotlib
    except ImportError:
        raise ReportError(
            "reports need matplotlib, which is not installed: pip install 'printkit[report]' "
            "(or: pip install matplotlib)"
        ) from None
    matplotlib.use("Agg", force=True)
    from matplotlib import font_manager

    from printkit.fonts import SYMBOLS, SYMBOLS_BOLD

    paths = [str(SYMBOLS), str(SYMBOLS_BOLD)]
    if [getattr(e, "fname", None) for e in font_manager.fontManager.ttflist] != paths:
        entries = []
        for path in paths:
            font_manager.fontManager.addfont(path)
            entries.append(font_manager.fontManager.ttflist.pop())
        font_manager.fontManager.ttflist = entries  # no system font, no matplotlib's own copies
        font_manager.fontManager.afmlist = []
        font_manager.fontManager._findfont_cached.cache_clear()
    matplotlib.rcParams.update({
        "font.family": ["DejaVu Sans"],
        "font.size": 9,
        "svg.fonttype": "path",
        "svg.hashsalt": SVG_SALT,
        "pdf.fonttype": 42,
        "figure.dpi": 100,
        "savefig.dpi": 100,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "legend.frameon": False,
    })
    used = font_manager.findfont("DejaVu Sans", fallback_to_default=False)
    if Path(used) != Path(SYMBOLS):
        raise ReportError(f"matplotlib picked font {used}, not printkit's bundled {SYMBOLS}")
    return matplotlib


def new_figure(width: float = 7.2, height: float = 3.0):
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


# ---------------------------------------------------------------- comparisons


@dataclass(frozen=True)
class Difference:
    """One number compared between the first setting (baseline) and another, over their common seeds."""

    metric: str
    baseline: str
    other: str
    base_value: str
    other_value: str
    difference: str
    test: str
    p: float
    p_adjusted: float
    pairs: int
    clear: bool


def _paired(base: dict[str, Any], other: dict[str, Any]) -> tuple[list[int], list[int]]:
    """Indices into each setting's per-game lists for the seeds both finished, in seed order."""
    where = {seed: i for i, seed in enumerate(other["paired"]["seeds"])}
    pairs = [(i, where[seed]) for i, seed in enumerate(base["paired"]["seeds"]) if seed in where]
    return [i for i, _ in pairs], [j for _, j in pairs]


def _rate_tests(base, other, ib, io_) -> list[tuple[str, list[bool], list[bool]]]:
    """(metric, yes/no in base, in other) for every rate both settings have, endings included."""
    pb, po = base["paired"], other["paired"]
    same_seats = base["players"] == other["players"]
    out = []
    for metric, values in pb["rates"].items():
        if metric in po["rates"] and (same_seats or not metric.startswith("win rate")):
            out.append((metric, [values[i] for i in ib], [po["rates"][metric][j] for j in io_]))
    for reason in dict.fromkeys(pb["reasons"] + po["reasons"]):
        out.append((f"ended: {reason}", [pb["reasons"][i] == reason for i in ib],
                    [po["reasons"][j] == reason for j in io_]))
    return out


def differences(analyses: Sequence[dict[str, Any]], seed: int = 0) -> list[Difference]:
    """Every number of each setting against the first's, paired by seed; Holm-adjusted over the report.

    Rates: McNemar's exact test (binomial test on the games where exactly one setting has it);
    per-game numbers: the Wilcoxon signed-rank test of the paired differences, shown with both
    medians and the median paired difference. ``seed`` is kept for callers; nothing is random.
    """
    if len(analyses) < 2:
        return []
    base = analyses[0]
    raw: list[tuple] = []
    for other in analyses[1:]:
        ib, io_ = _paired(base, other)
        n = len(ib)
        for metric, xs, ys in _rate_tests(base, other, ib, io_):
            if not any(xs) and not any(ys):
                continue  # never happens in either: nothing to compare
            only_base, only_other, p = mcnemar_exact(xs, ys)
            p1, p2 = sum(xs) / n, sum(ys) / n
            raw.append((metric, other["label"], f"{p1:.1%}", f"{p2:.1%}", f"{(p2 - p1) * 100:+.1f} pts",
                        f"McNemar exact ({counted(only_base, 'game')} only in the first, {only_other} only here)", p, n))
        same_seats = base["players"] == other["players"]
        for metric, values in base["paired"]["samples"].items():
            if metric not in other["paired"]["samples"] or (metric.startswith("score, seat") and not same_seats):
                continue
            xs = [values[i] for i in ib]
            ys = [other["paired"]["samples"][metric][j] for j in io_]
            if not xs:
                continue
            _, p = wilcoxon_signed_rank(xs, ys)
            raw.append((f"{metric} (median)", other["label"], _g(_median(xs)), _g(_median(ys)),
                        f"{_g(paired_median_difference(xs, ys), signed=True)} (median of paired differences)",
                        "Wilcoxon signed-rank", p, n))
    adjusted = holm([r[6] for r in raw])
    return [Difference(metric, base["label"], label, v1, v2, diff, test, p, adj, n, adj < LEVEL)
            for (metric, label, v1, v2, diff, test, p, n), adj in zip(raw, adjusted)]


def _quantile_of(ordered: Sequence[float], q: float) -> float:
    """Nearest-rank quantile of sorted values (an observed value)."""
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def _median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def _g(value: float, signed: bool = False) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return ("+" if signed and value > 0 else "") + ("beyond 1e308" if value > 0 else "below -1e308")
    text = f"{value:.4g}" if isinstance(value, float) and value != int(value) else f"{int(value)}"
    return f"+{text}" if signed and value > 0 else text


# ---------------------------------------------------------------- plots


def colour(i: int) -> str:
    return COLOURS[i % len(COLOURS)]


def _clear(diffs: Sequence[Difference], metric: str, label: str) -> bool:
    return any(d.clear and d.metric == metric and d.other == label for d in diffs)


def _plain_ticks(axis) -> None:
    """Tick labels as plain text (1e+06), never mathtext, which would want fonts printkit lacks."""
    from matplotlib.ticker import FuncFormatter

    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:,.0f}" if abs(value) < 1e6 else f"{value:.0e}"))
    axis.set_minor_formatter(FuncFormatter(lambda value, _: ""))


def legend(ax) -> None:
    """One legend per figure, below the plots (clear of the bars and lines)."""
    fig = ax.figure
    if fig.legends:
        return
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=min(4, max(1, len(labels))), fontsize=8)


def _star(ax, x: float, y: float) -> None:
    ax.annotate("*", (x, y), xytext=(0, 2), textcoords="offset points", ha="center", va="bottom",
                fontsize=13, fontweight="bold", color="#c0392b")


def grouped_bars(ax, groups: Sequence[str], analyses, values: Callable, cis: Callable | None,
                  diffs, metric_of: Callable[[int], str] | None = None, percent: bool = True) -> None:
    """Bars for each group (x) and setting (colour), with 95 % Wilson intervals and * for clear."""
    width = 0.8 / len(analyses)
    for i, a in enumerate(analyses):
        xs = [g + (i - (len(analyses) - 1) / 2) * width for g in range(len(groups))]
        ys = [values(a, g) for g in range(len(groups))]
        scale = 100 if percent else 1
        kwargs = {}
        if cis is not None:
            lows, highs = zip(*(cis(a, g) for g in range(len(groups))))
            kwargs["yerr"] = [[max(0.0, y - lo) * scale for y, lo in zip(ys, lows)],
                              [max(0.0, hi - y) * scale for y, hi in zip(ys, highs)]]
            kwargs["capsize"] = 3
        ax.bar(xs, [y * scale for y in ys], width * 0.95, color=colour(i), label=a["label"], **kwargs)
        if i and metric_of is not None:
            for g, (x, y) in enumerate(zip(xs, ys)):
                if _clear(diffs, metric_of(g), a["label"]):
                    top = (cis(a, g)[1] if cis else y) * scale
                    _star(ax, x, top)
    ax.set_xticks(range(len(groups)), groups)
    if percent:
        ax.set_ylabel("% of games")


def plot_length(analyses, diffs):
    fig = new_figure()
    ax = fig.add_subplot()
    unit = analyses[0]["length_unit"]
    low = min(a["length"]["min"] for a in analyses)
    high = max(a["length"]["max"] for a in analyses)
    step = 1 if high - low <= 80 else math.ceil((high - low + 1) / 60)
    bins = list(range(low, high + step + 1, step))
    for i, a in enumerate(analyses):
        n = max(1, a["finished"])
        ax.hist(a["lengths"], bins=bins, weights=[100 / n] * len(a["lengths"]), histtype="step",
                linewidth=1.6, color=colour(i), align="left" if step == 1 else "mid",
                label=f"{a['label']}: median {_g(a['length']['median'])}"
                      + (" *" if _clear(diffs, "game length (median)", a["label"]) else ""))
        ax.axvline(a["length"]["median"], color=colour(i), linestyle="--", linewidth=1)
    ax.set_xlabel(f"game length ({unit})")
    ax.set_ylabel("% of games")
    ax.set_title("Game length (dashed: median)")
    legend(ax)
    return fig


def plot_wins(analyses, diffs):
    fig = new_figure()
    ax = fig.add_subplot()
    seats = max(a["players"] for a in analyses)
    grouped_bars(ax, [f"seat {s}" for s in range(seats)], analyses,
                  lambda a, g: a["win_rate"][g] if g < a["players"] else 0.0,
                  lambda a, g: a["win_ci"][g] if g < a["players"] else (0.0, 0.0),
                  diffs, lambda g: f"win rate, seat {g}")
    for i, a in enumerate(analyses):
        # A shared win counts for every winner, so an equal share is the seats' mean win rate
        # (above 1/players when games are shared).
        ax.axhline(100 * a["equal_share"], color=colour(i), linestyle=":", linewidth=1)
    ax.set_ylabel("% of games won")
    ax.set_title("Win rate by seat (95 % Wilson intervals; dotted: an equal share, shared wins counted)")
    legend(ax)
    return fig


def plot_scores(analyses, diffs):
    fig = new_figure()
    ax = fig.add_subplot()
    seats = max(a["players"] for a in analyses)
    width = 0.8 / len(analyses)
    for i, a in enumerate(analyses):
        # Scores beyond the float range (astronomic Calc pays) sit at the plot's edge, not at inf.
        data = [[max(-1e300, min(1e300, v)) for v in a["scores"][s]] for s in range(a["players"])]
        xs = [s + (i - (len(analyses) - 1) / 2) * width for s in range(a["players"])]
        box = ax.boxplot(data, positions=xs, widths=width * 0.8, showfliers=False, patch_artist=True,
                         whis=(5, 95), manage_ticks=False)
        for patch in box["boxes"]:
            patch.set_facecolor(colour(i))
            patch.set_alpha(0.55)
        for median in box["medians"]:
            median.set_color("black")
        ax.plot([], [], color=colour(i), linewidth=6, alpha=0.55, label=a["label"])
    if getattr(module_of(analyses[0]["game"], "report"), "SCORE_AXIS", "linear") == "symlog":
        ax.set_yscale("symlog", linthresh=100)
        _plain_ticks(ax.yaxis)
    ax.set_xticks(range(seats), [f"seat {s}" for s in range(seats)])
    ax.set_ylabel("final score")
    ax.set_title("Scores by seat (box: quartiles; whiskers: 5th-95th percentile)")
    legend(ax)
    return fig


def plot_endings(analyses, diffs):
    fig = new_figure()
    ax = fig.add_subplot()
    reasons = list(dict.fromkeys(r for a in analyses for r in a["endings"]))
    groups = ["\n".join(textwrap.wrap(r, 18)) for r in reasons] + ["ended in\nround 1"]

    def count(a, g):
        return a["endings"].get(reasons[g], 0) if g < len(reasons) else a["first_round"]

    def share(a, g):
        return count(a, g) / max(1, a["finished"])

    def ci(a, g):
        return wilson(count(a, g), a["finished"])

    grouped_bars(ax, groups, analyses, share, ci, diffs,
                  lambda g: "ended in the first round" if g == len(reasons) else "")
    ax.set_title("How games ended")
    legend(ax)
    return fig


def plot_trajectories(analyses, diffs):
    """Per-turn figures (score, hand size, stacks …): median and middle half over the games still going."""
    # No plot of a constant (a figure every game has at every turn's end), as elsewhere.
    names = [name for name in analyses[0]["trajectories"]["figures"]
             if len({v for a in analyses if a["trajectories"] for row in a["trajectories"]["figures"][name]
                     for v in row}) > 1]
    fig = new_figure(7.2, 2.6 * math.ceil(len(names) / 2) + 0.4)
    axes = list(fig.subplots(math.ceil(len(names) / 2), 2, squeeze=False).flat)
    view = view_for(analyses[0]["game"])
    unit = view.clock_word if view else "turn"
    for ax, name in zip(axes, names):
        for i, a in enumerate(analyses):
            t = a["trajectories"]
            if not t:
                continue
            # Late turns of only a few long games say little: plot the turns at least 10 % of games reach.
            enough = [k for k, g in enumerate(t["games"]) if g >= max(1, 0.1 * t["games"][0])]
            rows = [t["figures"][name][k] for k in enough]
            xs = [k + 1 for k in enough]
            clip = [[max(-1e300, min(1e300, v)) for v in row] for row in rows]
            ax.fill_between(xs, [r[0] for r in clip], [r[2] for r in clip], color=colour(i), alpha=0.2, linewidth=0)
            ax.plot(xs, [r[1] for r in clip], color=colour(i), linewidth=1.5, label=a["label"])
        if name in LOG_FIGURES:
            ax.set_yscale("symlog", linthresh=10)
            _plain_ticks(ax.yaxis)
        ax.set_title(f"{name} at the end of each {unit}", fontsize=9)
        ax.set_xlabel(unit)
    for ax in axes[len(names):]:
        ax.set_visible(False)  # an odd number of figures leaves one panel empty
    legend(fig.axes[0])
    # two lines: on one, the title is wider than the figure and is cut off
    fig.suptitle("Per-turn trajectories: median over seats and games (line), middle half (band);\n"
                 "games that have ended drop out; turns reached by fewer than 10 % of games are left out",
                 fontsize=8.5)
    return fig


# Per-turn figures that span orders of magnitude.
LOG_FIGURES = {"pay value"}


def figures(analyses, diffs) -> list[tuple[str, Any]]:
    """(title, matplotlib Figure) for every plot of the report, in order."""
    _matplotlib()
    game = analyses[0]["game"]
    out = []
    # No plot of a constant: a length every game shares, or one way of ending, is said in the findings.
    if len({x for a in analyses for x in a["lengths"]}) > 1:
        out.append(("length", plot_length(analyses, diffs)))
    out.append(("wins", plot_wins(analyses, diffs)))
    if getattr(module_of(game, "report"), "SCORES", True):
        out.append(("scores", plot_scores(analyses, diffs)))
    if len({r for a in analyses for r in a["endings"]}) > 1 or any(a["first_round"] for a in analyses):
        out.append(("endings", plot_endings(analyses, diffs)))
    plot = getattr(module_of(game, "report"), "plot", None)
    if plot is not None:  # the game's own numbers, drawn by its report module
        out.append((game, plot(analyses, diffs)))
    if analyses[0].get("trajectories") and any(
            len({v for row in rows for v in row}) > 1 for rows in analyses[0]["trajectories"]["figures"].values()):
        out.append(("trajectories", plot_trajectories(analyses, diffs)))
    return out


def svg_of(fig) -> str:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    text = buffer.getvalue()
    text = text[text.index("<svg"):]
    start, end = text.find(" <metadata>"), text.find("</metadata>")
    if 0 <= start < end:  # an RDF block naming namespaces; nothing a reader needs
        text = text[:start] + text[end + len("</metadata>"):].lstrip("\n")
    return text


def png_of(fig, dpi: int = 110) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
    return buffer.getvalue()


# ---------------------------------------------------------------- text

TESTS_NOTE = (
    "Every setting plays the same seeds, so games are compared in pairs (same seed): rates by McNemar's "
    "exact test (a binomial test on the games where only one setting has the outcome), per-game numbers "
    "(length, scores, ...) by the Wilcoxon signed-rank test of the paired differences (exact up to "
    "25 non-zero pairs, else the normal approximation, ties and continuity corrected); medians are shown because scores are heavy-tailed. All p-values "
    f"of the report are adjusted together by Holm's method; a difference is marked (and starred * in "
    f"the plots) when its adjusted p is below {LEVEL:g}, so the chance of any false mark stays under "
    f"{LEVEL:.0%}."
)


def findings(a: dict[str, Any]) -> list[str]:
    """Headline sentences for one setting, each with its numbers (the game's own last)."""
    lo, hi = a["length"]["p25"], a["length"]["p75"]
    out = [f"{a['finished']:,} of {a['games']:,} games finished; median length {_g(a['length']['median'])} "
           f"{a['length_unit']} (middle half {_g(lo)}-{_g(hi)}, longest {_g(a['length']['max'])})."]
    if a["length"]["min"] == a["length"]["max"]:
        out[0] = (f"{a['finished']:,} of {a['games']:,} games finished; every game lasted "
                  f"{_g(a['length']['max'])} {a['length_unit']} (no length plot).")
    if len(a["endings"]) == 1:
        out.append(f"Every game ended the same way: {next(iter(a['endings']))} (no endings plot).")
    rates = ", ".join(f"seat {s} {r:.1%} [{c[0]:.1%}, {c[1]:.1%}]" for s, (r, c) in enumerate(zip(a["win_rate"], a["win_ci"])))
    out.append(f"Win rate by seat (95 % Wilson): {rates}; shared wins {a['shared']:,}, no winner {a['no_winner']:,}. "
               f"A shared win counts for each of its winners, so an equal share is {a['equal_share']:.1%} "
               f"(1/{a['players']} = {1 / a['players']:.1%} only without shared wins).")
    # A game whose turn order starts elsewhere (Clag: the first dealer) says so in its own findings.
    if a.get("position_from") == "the first player" and a.get("wins_by_turn_order"):
        if a["wins_by_turn_order"] == a["wins"]:
            out.append(f"Turn order: {a['position_from']} is seat 0 in every game, so the win rates by seat "
                       f"are the win rates by turn order.")
        else:
            order = ", ".join(f"{p}: {r:.1%} [{c[0]:.1%}, {c[1]:.1%}]" for p, (r, c) in
                              enumerate(zip(a["win_rate_by_turn_order"], a["win_ci_by_turn_order"])))
            out.append(f"Win rate by turn order from {a['position_from']} (95 % Wilson): {order}.")
    if getattr(module_of(a["game"], "report"), "SCORES", True) and a["finished"]:
        every = sorted(v for seat in a["scores"] for v in seat)
        q = [_quantile_of(every, f) for f in (0.1, 0.25, 0.5, 0.75, 0.9)]
        zeros = sum(1 for v in every if v == 0)
        out.append(f"Final scores (all seats; heavy-tailed, so quantiles, not means): 10th {_g(q[0])}, 25th "
                   f"{_g(q[1])}, median {_g(q[2])}, 75th {_g(q[3])}, 90th {_g(q[4])}, largest {_g(every[-1])}; "
                   f"{zeros / len(every):.1%} exactly 0.")
    own = getattr(module_of(a["game"], "report"), "findings", None)
    if own is not None:  # the game's own sentences
        out.extend(own(a))
    return out


CARDS_NOTE = (
    "A seat-game is one seat in one game. Held: the seat had the card in hand (dealt or drawn); played: "
    "the card left the seat's hand by the seat's own move. Win rates compare the seat-games that held "
    "(played) the card with those that did not, with 95 % Wilson intervals; a shared win counts for each "
    "winner. These are associations, not effects: a card held by the seats that draw more is held by "
    "longer games' seats. For the effect of a card, see --card-impact."
)


def _rate_cell(entry: dict[str, Any]) -> str:
    if not entry["of"]:
        return "-"
    return f"{entry['rate']:.1%} [{entry['ci95'][0]:.0%}-{entry['ci95'][1]:.0%}]"


def card_rows(a: dict[str, Any]) -> list[list[str]]:
    """The per-card table's rows (text), deck order."""
    seat_games = max(1, a["finished"] * a["players"])
    rows = []
    for c in a["cards"]:
        gap = (c["win_rate_played"]["rate"] - c["win_rate_not_played"]["rate"]
               if c["win_rate_played"]["of"] and c["win_rate_not_played"]["of"] else None)
        rows.append([c["card"], str(c["copies"]), f"{c['drawn']:,}", f"{c['played']:,}",
                     f"{c['held_by'] / seat_games:.0%}", _rate_cell(c["win_rate_held"]),
                     _rate_cell(c["win_rate_not_held"]), f"{c['played_by'] / seat_games:.0%}",
                     _rate_cell(c["win_rate_played"]), _rate_cell(c["win_rate_not_played"]),
                     "-" if gap is None else f"{gap * 100:+.1f}"])
    return rows


CARD_HEADER = ["card", "copies", "drawn", "played", "held in", "win rate held", "not held", "played in",
               "win rate played", "not played", "played − not (pts)"]


def _table(rows: Sequence[Sequence[str]], header: Sequence[str], cls: str = "") -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table{cls and f' class={cls!r}'}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


CSS = """
body{font-family:'DejaVu Sans',sans-serif;max-width:60rem;margin:1.5rem auto;padding:0 1rem;color:#222;line-height:1.4}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:1.6rem;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:.85rem;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left}
th{background:#f2f2f2}.clear{background:#fde2de;font-weight:bold}figure{margin:.6rem 0}svg{max-width:100%;height:auto}
.note{color:#555;font-size:.85rem}
table.cards{font-size:.75rem}table.cards td{white-space:nowrap}
table.cards td:not(:first-child){text-align:right;font-variant-numeric:tabular-nums}
table.cards th{position:sticky;top:0}table.cards tr:nth-child(even){background:#fafafa}
pre.sample{font-size:.78rem;max-height:32rem;overflow:auto;background:#f7f7f7;padding:.5rem;border:1px solid #ddd}
"""


def report_html(analyses: Sequence[dict[str, Any]], diffs: Sequence[Difference], title: str,
                command: str = "", sample: dict[str, Any] | None = None) -> str:
    """The whole report as one self-contained HTML page (no scripts, no links, plots inline)."""
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
             f"<style>{CSS}</style></head><body><h1>{html.escape(title)}</h1>"]
    if command:
        parts.append(f"<p class='note'>Made by <code>{html.escape(command)}</code>. The same command gives the "
                     f"same report: game <i>i</i> uses seed SEED+<i>i</i>, and every setting plays the same seeds.</p>")
    rows = [[html.escape(a["label"]), html.escape(a["variant"] or "-"), str(a["players"]), html.escape(a["bot"]),
             html.escape(", ".join(f"{k}={v}" for k, v in a["options_text"].items()) or "-"),
             f"{a['seed']}-{a['seed'] + a['games'] - 1}", f"{a['finished']:,}/{a['games']:,}"]
            for a in analyses]
    parts.append(_table(rows, ["setting", "variant", "players", "bot", "options", "seeds", "finished"]))
    parts.append("<h2>Findings</h2>")
    for a in analyses:
        if len(analyses) > 1:
            parts.append(f"<h3>{html.escape(a['label'])}</h3>")
        parts.append("<ul>" + "".join(f"<li>{html.escape(s)}</li>" for s in findings(a)) + "</ul>")
        for failure in a["failures"][:10]:
            parts.append(f"<p class='clear'>FAILED {html.escape(failure)}</p>")
    if diffs:
        parts.append("<h2>Differences against the first setting</h2>")
        parts.append(f"<p class='note'>{html.escape(TESTS_NOTE)}</p>")
        rows = []
        for d in diffs:
            cls = " class='clear'" if d.clear else ""
            rows.append([html.escape(d.metric), html.escape(d.other), d.base_value, d.other_value,
                         f"<span{cls}>{html.escape(d.difference)}</span>", html.escape(d.test), f"{d.pairs:,}",
                         f"{d.p:.2g}", f"{d.p_adjusted:.2g}", "yes" if d.clear else "no"])
        parts.append(_table(rows, ["number", "setting", analyses[0]["label"], "setting's value", "difference",
                                   "paired test", "pairs", "p", "Holm p", "clear"]))
    parts.append("<h2>Plots</h2>")
    for name, fig in figures(analyses, diffs):
        parts.append(f"<figure id='{name}'>{svg_of(fig)}</figure>")
    if any(a.get("cards") for a in analyses):
        parts.append("<h2 id='cards'>Cards</h2>")
        parts.append(f"<p class='note'>{html.escape(CARDS_NOTE)}</p>")
        for i, a in enumerate(analyses):
            if not a.get("cards"):
                continue
            table = _table([[html.escape(c) for c in row] for row in card_rows(a)], CARD_HEADER, "cards")
            if len(analyses) > 1:
                table = (f"<details{' open' if i == 0 else ''}><summary>{html.escape(a['label'])}</summary>"
                         f"{table}</details>")
            parts.append(table)
    if sample is not None:
        from printkit.report.sample import transcript_lines

        parts.append("<h2 id='sample'>A game to read</h2>")
        parts.append(f"<p class='note'>Game {sample['game']} of {html.escape(analyses[0]['label'])}, replayed "
                     f"move by move (<code>--seed {sample['seed']} --games 1</code> plays it again).</p>")
        parts.append("<pre class='sample'>" + html.escape("\n".join(transcript_lines(sample))) + "</pre>")
    parts.append("<p class='note'>Win-rate and share intervals are 95 % Wilson score intervals. "
                 "Made by printkit with matplotlib (Agg); fonts: DejaVu Sans from printkit's fonts/.</p>")
    parts.append("</body></html>\n")
    return "".join(parts)


def write_report(path: Path, analyses: Sequence[dict[str, Any]], title: str, command: str = "",
                 seed: int = 0, sample: dict[str, Any] | None = None) -> list[Difference]:
    """Write an ``.html`` or ``.pdf`` report to ``path`` (via a temporary file); return the differences."""
    suffix = path.suffix.lower()
    if suffix not in (".html", ".htm", ".pdf"):
        raise ReportError(f"report {str(path)!r}: the name must end in .html or .pdf")
    _matplotlib()
    diffs = differences(analyses, seed)
    tmp = path.with_name(f".{path.name}.tmp")
    if suffix == ".pdf":
        from matplotlib.backends.backend_pdf import PdfPages

        from printkit.report.text_pages import lines_figure, text_figure

        with PdfPages(tmp, metadata={"CreationDate": None, "ModDate": None, "Creator": None, "Producer": None}) as pdf:
            pdf.savefig(text_figure(title, command, analyses, diffs, findings, TESTS_NOTE, LEVEL))
            for _, fig in figures(analyses, diffs):
                pdf.savefig(fig)
            if analyses[0].get("cards"):
                pdf.savefig(lines_figure(f"Cards ({analyses[0]['label']})",
                                         [CARD_HEADER] + card_rows(analyses[0]), CARDS_NOTE))
            if sample is not None:
                from printkit.report.sample import transcript_lines

                pdf.savefig(lines_figure(f"A game to read: game {sample['game']}", transcript_lines(sample)))
    else:
        tmp.write_text(report_html(analyses, diffs, title, command, sample), encoding="utf-8")
    tmp.replace(path)
    return diffs


# ---------------------------------------------------------------- sweeps: card impact, tournaments

IMPACT_NOTE = (
    "Each row plays the same seeds as the full deck with every copy of one card taken out. The first "
    "player's win rate (position 0 of the turn order) is compared by McNemar's exact test on the games "
    "where exactly one deck gives that player a win, game length by the Wilcoxon signed-rank test of the "
    "paired differences. All p-values of the sweep are adjusted together by Holm's method; a row is "
    f"marked when an adjusted p is below {LEVEL:g}."
)
TOURNAMENT_NOTE = (
    "Every pair of bots plays the same seeds twice, once in each seating (A, B, A, B … and B, A, B, A …). "
    "A game scores 1 for the row's bot when only its seats win, ½ when both bots' seats (or nobody) win. "
    "Cells: the row bot's mean score against the column bot, with a 95 % Wilson interval (½ counts as half "
    "a win). Bots are ranked by their mean head-to-head win rate; the interval pools all their games."
)


def table_rows(result: dict[str, Any]) -> tuple[list[str], list[list[str]], str, list[str] | None, list[list[str]]]:
    """(header, rows, note, second header, second rows) of a card-impact sweep or a tournament, as text."""
    if "matrix" in result:
        bots = result["bots"]
        rows = [[a] + ["-" if c is None else f"{c['rate']:.1%} [{c['ci95'][0]:.0%}-{c['ci95'][1]:.0%}]" for c in row]
                for a, row in zip(bots, result["matrix"])]
        ranking = [[str(i), e["bot"], f"{e['mean_rate']:.1%}", f"{e['ci95'][0]:.1%}-{e['ci95'][1]:.1%}", f"{e['games']:,}",
                    f"{e['bradley_terry']:.1%}"] for i, e in enumerate(result["ranking"], 1)]
        return (["row against column"] + bots, rows, TOURNAMENT_NOTE,
                ["rank", "bot", "mean head-to-head win rate", "95 % interval", "games",
                 "Bradley–Terry: win rate against a mean bot"], ranking)
    unit = result["length_unit"]
    header = ["card", "copies", f"win rate of {result['position_from']}", "change (pts)", "Holm p",
              f"median length ({unit})", "median paired change", "mean change", "Holm p", "clear"]
    rows = []
    for r in result["cards"]:
        if "unplayable" in r:
            rows.append([r["card"], str(r["copies"]), "unplayable (below)"] + [""] * 7)
            continue
        rows.append([r["card"], str(r["copies"]), f"{r['first_player_win_rate'][1]:.1%}",
                     f"{r['win_rate_change'] * 100:+.1f}", f"{r['p_win_holm']:.2g}", _g(r["length_median"][1]),
                     _g(r["length_change"], signed=True) if r["length_change"] else "0",
                     f"{r['length_mean_change']:+.2f}", f"{r['p_length_holm']:.2g}", "yes" if r["clear"] else "no"])
    return header, rows, IMPACT_NOTE, None, []


def write_table_report(path: Path, result: dict[str, Any], title: str, command: str = "") -> None:
    """Write a card-impact sweep or a tournament as ``.html`` or ``.pdf`` (tables, no plots)."""
    suffix = path.suffix.lower()
    if suffix not in (".html", ".htm", ".pdf"):
        raise ReportError(f"report {str(path)!r}: the name must end in .html or .pdf")
    header, rows, note, header2, rows2 = table_rows(result)
    if "matrix" in result:
        setting = f"{result['players']} players, seeds {result['seed']}-{result['seed'] + result['games'] - 1} in both seatings"
    else:
        full = result["full_deck"]
        setting = (f"{result['players']} players, bot {result['bot']}, seeds {result['seed']}-"
                   f"{result['seed'] + result['games'] - 1}; full deck: {result['position_from']} wins "
                   f"{full['first_player_win_rate']:.1%}, median length {_g(full['length_median'])} {result['length_unit']}")
    tmp = path.with_name(f".{path.name}.tmp")
    if suffix == ".pdf":
        _matplotlib()
        from matplotlib.backends.backend_pdf import PdfPages

        from printkit.report.text_pages import lines_figure

        with PdfPages(tmp, metadata={"CreationDate": None, "ModDate": None, "Creator": None, "Producer": None}) as pdf:
            lines: list = [setting, command, header] + rows
            lines += [f"unplayable without {r['card']}: {r['unplayable']}"
                      for r in result.get("cards", []) if "unplayable" in r]
            if header2:
                lines += ["", header2] + rows2
            pdf.savefig(lines_figure(title, lines, note))
    else:
        parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
                 f"<style>{CSS}</style></head><body><h1>{html.escape(title)}</h1>"]
        if command:
            parts.append(f"<p class='note'>Made by <code>{html.escape(command)}</code>; the same command gives the "
                         f"same report.</p>")
        parts.append(f"<p>{html.escape(setting)}.</p><p class='note'>{html.escape(note)}</p>")
        marked = ["<span class='clear'>" + html.escape(c) + "</span>" if row[-1] == "yes" and k == 0 else html.escape(c)
                  for row in rows for k, c in enumerate(row)]
        width = len(header)
        parts.append(_table([marked[i:i + width] for i in range(0, len(marked), width)], header, "cards"))
        refused = [r for r in result.get("cards", []) if "unplayable" in r]
        if refused:
            parts.append("<p>Unplayable without the card:</p><ul>" + "".join(
                f"<li>{html.escape(r['card'])}: {html.escape(r['unplayable'])}</li>" for r in refused) + "</ul>")
        if header2:
            parts.append("<h2>Ranking</h2>")
            parts.append(_table([[html.escape(c) for c in row] for row in rows2], header2, "cards"))
        parts.append("</body></html>\n")
        tmp.write_text("".join(parts), encoding="utf-8")
    tmp.replace(path)
