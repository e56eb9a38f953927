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
