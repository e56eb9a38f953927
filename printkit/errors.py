"""Exceptions raised by the printkit library; only the CLI turns them into messages and exit codes."""

from __future__ import annotations

from pathlib import Path


class PrintkitError(Exception):
    """Base class for every error printkit reports to a user."""


class SpecError(PrintkitError):
    """A deck specification is invalid; carries the file and position of the problem."""

    def __init__(self, path: str | Path | None, line: int | None, column: int | None, message: str):
        self.path = str(path) if path is not None else None
        self.line = line
        self.column = column
        self.message = message
        super().__init__(self.located())

    def located(self) -> str:
        """The one-line form ``PATH:LINE:COLUMN: message``."""
        where = self.path or "<spec>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.message}"


class DeckError(PrintkitError):
    """A deck cannot be used for what was asked (e.g. a rule engine cannot play with it)."""


class IllegalMoveError(PrintkitError, ValueError):
    """A move breaks the rules of the game; the state it was tried on is left unchanged."""


class InvalidMoveError(PrintkitError, ValueError):
    """A move is malformed (bad notation), as opposed to against the rules."""


class BuildError(PrintkitError):
    """Rendering or writing output failed."""
