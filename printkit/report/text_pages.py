"""The first page of a PDF report: settings, findings and differences as text on a figure."""

from __future__ import annotations

import textwrap
from typing import Any, Callable, Sequence


def text_figure(title: str, command: str, analyses: Sequence[dict[str, Any]], diffs: Sequence[Any],
                findings: Callable[[dict[str, Any]], list[str]], note: str = "", level: float = 0.05):
    from matplotlib.figure import Figure

    lines: list[tuple[str, dict]] = [(title, {"fontsize": 13, "fontweight": "bold"})]
    if command:
        lines.append((command, {"fontsize": 7, "color": "#555555"}))
    for a in analyses:
        lines.append((f"{a['label']}: {a['players']} players, bot {a['bot']}, seeds {a['seed']}-"
                      f"{a['seed'] + a['games'] - 1}", {"fontsize": 9, "fontweight": "bold"}))
        for sentence in findings(a):
            for i, line in enumerate(textwrap.wrap(sentence, 110)):
                lines.append((("- " if i == 0 else "  ") + line, {"fontsize": 7.5}))
    clear = [d for d in diffs if d.clear]
    if diffs:
        lines.append((f"Clear differences against {analyses[0]['label']} ({len(clear)} of {len(diffs)} compared, "
                      f"paired by seed, Holm-adjusted p below {level:g}):", {"fontsize": 9, "fontweight": "bold"}))
        for d in clear:
            lines.append((f"- {d.metric}, {d.other}: {d.base_value} -> {d.other_value} ({d.difference}; {d.test}; "
                          f"Holm p = {d.p_adjusted:.2g})", {"fontsize": 7.5}))
        for i, line in enumerate(textwrap.wrap(note, 110)):
            lines.append((line, {"fontsize": 7, "color": "#555555"}))
    height = max(3.0, 0.2 * len(lines) + 0.6)
    fig = Figure(figsize=(8.27, height))
    y = 1 - 0.3 / height
    for text, style in lines:
        fig.text(0.04, y, text, va="top", **style)
        y -= 0.2 / height
    return fig


def lines_figure(title: str, lines: Sequence[str | Sequence[str]], note: str = "", limit: int = 400):
    """A page of lines under a title: text, or rows of cells set in columns (a table); beyond
    ``limit`` lines, a count of the rest."""
    from matplotlib.figure import Figure

    shown = list(lines[:limit]) + ([f"... and {len(lines) - limit} more lines (the HTML report has them all)"]
                                    if len(lines) > limit else [])
    notes = textwrap.wrap(note, 120) if note else []
    rows = [line for line in shown if not isinstance(line, str)]
    # Column starts from the longest cell of each column (bundled fonts have no monospace face).
    widths = [max(len(row[k]) for row in rows if k < len(row)) for k in range(max(map(len, rows), default=0))]
    starts = [0.04 + 0.0062 * (sum(widths[:k]) + 2 * k) for k in range(len(widths))]
    height = max(3.0, 0.15 * (len(shown) + len(notes)) + 0.8)
    fig = Figure(figsize=(8.27, height))
    y = 1 - 0.3 / height
    fig.text(0.04, y, title, va="top", fontsize=11, fontweight="bold")
    y -= 0.3 / height
    for line in notes:
        fig.text(0.04, y, line, va="top", fontsize=6.5, color="#555555")
        y -= 0.15 / height
    for line in shown:
        if isinstance(line, str):
            fig.text(0.04, y, line, va="top", fontsize=6.5)
        else:
            for x, cell in zip(starts, line):
                fig.text(x, y, cell, va="top", fontsize=6.5)
        y -= 0.15 / height
    return fig
