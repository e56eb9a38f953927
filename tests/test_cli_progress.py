"""The command line's progress bar: shown on a terminal, absent otherwise."""

from __future__ import annotations

import io

from printkit import cli


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_bar_when_stderr_is_not_a_terminal(monkeypatch):
    monkeypatch.setattr(cli.sys, "stderr", io.StringIO())
    with cli.progress_bar(10, "Rendering") as progress:
        assert progress is None
    assert cli.sys.stderr.getvalue() == ""


def test_a_bar_on_a_terminal_counts_the_steps(monkeypatch):
    monkeypatch.setattr(cli.sys, "stderr", _Terminal())
    with cli.progress_bar(4, "Playing") as progress:
        progress(2)
        progress(2)
    assert "Playing" in cli.sys.stderr.getvalue()
