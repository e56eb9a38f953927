"""Exceptions raised by the printkit library; only the CLI turns them into messages and exit codes."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only named in annotations: `printkit --help` need not import pathlib
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

    def __reduce__(self):
        # Rebuilt from its parts (pickled from a worker process), not from the one-line text.
        return type(self), (self.path, self.line, self.column, self.message)

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


class OutputFailed(PrintkitError):
    """Standard output cannot be written (a full disk, a closed pipe)."""


class GameError(PrintkitError):
    """An installed package registers a game printkit cannot use; the message names the package."""


class StarterError(PrintkitError):
    """The starter cannot be written: a bad name or a folder that is already in use."""


class PathRefused(PrintkitError, ValueError):
    """A name that does not lead to a readable file inside the folder; the message says why.
    ``missing``: the name stays inside the folder and only the file is not there (yet)."""

    def __init__(self, message: str, missing: bool = False):
        super().__init__(message)
        self.missing = missing


class FontError(PrintkitError):
    """A font is missing, unreadable or lacks glyphs the text needs."""


class UnsafeFileError(PrintkitError, ValueError):
    """The path is not a regular file or is over the size limit; the message says which."""


class ReportError(PrintkitError):
    """A report cannot be written (matplotlib missing, a bad file name)."""


class ImageError(PrintkitError, ValueError):
    """An image printkit refuses; the message says why, without naming the file."""


class SelectorTooCostly(ImageError):
    """A CSS selector in SVG art whose matching looked at more elements than printkit's limit
    (printkit.render.svg_normal), which names the selector or the rules."""


class JpegNotPlain(PrintkitError):
    """A JPEG whose markers cannot prove it whole (printkit.jpeg): it is decoded instead. Never
    reaches a user."""


class SvgRefused(PrintkitError):
    """SVG art printkit will not draw (past a limit); the message says what and where."""


class LayoutError(PrintkitError, ValueError):
    """A layout cannot be drawn for a card (a missing attribute, an unknown colour …)."""


class RichTextError(PrintkitError, ValueError):
    """Rich text that cannot be set: an icon name that is not known."""


class MarkupError(RichTextError):
    """Inline markup that cannot be read; ``at`` is the offset of the bad markup in its text."""

    def __init__(self, message: str, at: int):
        self.message, self.at = message, at
        super().__init__(message)

    def __reduce__(self):
        return type(self), (self.message, self.at)


class InvariantError(PrintkitError, AssertionError):
    """A game state broke a rule-engine invariant (a bug in the engine, never a user error)."""


class FigureError(PrintkitError, ValueError):
    """A designed figure names something the deck does not have; the message says what."""


class ConversionError(PrintkitError, ValueError):
    """The font cannot be converted; the message says why in a few words."""


class CalcUndecided(PrintkitError):
    """Two astronomic Calc values whose order could not be proven within the precision allowed."""


class DataFileError(PrintkitError, ValueError):
    """The data file as a whole cannot be read; reported at the spec's ``data`` (or ``sheet``) key."""

    def __init__(self, message: str, at_sheet: bool = False):
        super().__init__(message)
        self.at_sheet = at_sheet


class RulebookError(BuildError):
    """A rule text is malformed or names something unknown; knows its file and line."""

    def __init__(self, path: str | Path | None, line: int | None, message: str, column: int | None = None):
        self.path = str(path) if path is not None else "<rulebook>"
        self.line = line
        self.message = message
        self.column = column  # 1-based, when known
        super().__init__(self.located())

    def __reduce__(self):
        # Rebuilt from its parts (pickled from a worker process), not from the one-line text.
        return type(self), (self.path, self.line, self.message, self.column)

    def located(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}:{self.column}: {self.message}" if self.line is not None and self.column else f"{where}: {self.message}"


# Characters that would break a message's one line (a newline in a file name) or move the
# terminal's cursor: shown as escapes.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
MAX_MESSAGE_CHARS = 2_000  # a message quoting a value someone made huge stays readable


def one_line(message: str) -> str:
    """``message`` as one line of at most MAX_MESSAGE_CHARS characters, control characters escaped."""
    message = _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), message)
    if len(message) > MAX_MESSAGE_CHARS:
        message = message[:MAX_MESSAGE_CHARS - 1] + "…"
    return message


def error_line(exc: PrintkitError) -> str:
    """How an error is said to the user: ``FILE:LINE:COLUMN: message`` when located, else
    ``error: message``; one line either way."""
    return one_line(exc.located() if hasattr(exc, "located") else f"error: {exc}")


MAX_ERRORS = 50  # a deck with more mistakes than this is shown its first ones: enough to start fixing


class ManyErrors(PrintkitError):
    """Several independent mistakes found in one run, each a PrintkitError saying where it is."""

    def __init__(self, errors):
        self.errors = tuple(errors)
        super().__init__(f"{len(self.errors)} errors")

    def __reduce__(self):
        return type(self), (self.errors,)


class Errors:
    """Collects independent mistakes so one run names them all (up to :data:`MAX_ERRORS`).

    ``with errors.collecting():`` runs a step whose PrintkitError is kept instead of raised (a
    ManyErrors gives its own); :meth:`raise_any` raises what was kept: the error itself when
    there is one, else a ManyErrors. The same message is kept once.
    """

    def __init__(self, limit: int = MAX_ERRORS) -> None:
        self.limit = limit
        self.found: list[PrintkitError] = []
        self._said: set[str] = set()

    def add(self, exc: PrintkitError) -> None:
        for one in exc.errors if isinstance(exc, ManyErrors) else (exc,):
            line = error_line(one)
            if line not in self._said and len(self.found) < self.limit:
                self._said.add(line)
                self.found.append(one)

    @property
    def full(self) -> bool:
        return len(self.found) >= self.limit

    def collecting(self) -> "_Collecting":
        return _Collecting(self)

    def raise_any(self) -> None:
        if len(self.found) == 1:
            raise self.found[0]
        if self.found:
            raise ManyErrors(self.found)


class _Collecting:
    def __init__(self, errors: Errors) -> None:
        self.errors = errors

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, exc, tb) -> bool:
        if isinstance(exc, PrintkitError):
            self.errors.add(exc)
            return True
        return False


def error_lines(exc: PrintkitError) -> list[str]:
    """Each mistake of ``exc`` as :func:`error_line` says it (several for a ManyErrors)."""
    return [error_line(e) for e in (exc.errors if isinstance(exc, ManyErrors) else (exc,))]
