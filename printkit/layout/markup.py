r"""Inline markup, read once for card text and rule texts alike: text in, tokens out.

Syntax
------
- ``**bold**``, ``*italic*``; they nest: ``***both***``, ``**bold *and italic***``. A run of
  stars opens where a non-space follows it and closes where a non-space precedes it. A run that
  cannot do its job (``a * b``), a run of more than three stars and an opening run never closed
  by the end of the text are not emphasis.
- ``:name:`` (letters, digits, ``_`` and ``-``, at most 64) is an icon.
- ``[text]{color=#c33 size=1.2}`` is a span (a colour and/or a size relative to the text around
  it); it ends on its line and spans do not nest. A ``[`` without a ``]{…}`` after it is text;
  a ``{…}`` asking for what a span does not do is an error.
- `` `code` ``: the text between two backticks on one line, as typed (no markup inside).
- A backslash before ASCII punctuation (``\*``, ``\:``, ``\[``, ``\``` …) is that character as
  typed; any other backslash is itself (``C:\path``).
- A newline is a line break (the text of one paragraph).

:func:`tokenize` reads the text once, left to right, without backtracking: work and memory linear
in its length. Card text reads it leniently: what is not markup is text, so stars that are not
emphasis and a lone backtick print as typed. Rule texts read it strictly: those are errors
(:class:`~printkit.errors.MarkupError`, with the offset of the star or backtick), as are, in both,
a span's bad ``{…}``. Whether an icon or colour name is known is for the caller, who knows the
names (:func:`unknown_icon` and :func:`unknown_color` word the message).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Collection, Mapping

from printkit.errors import MarkupError
from printkit.suggest import close_match

# Token kinds; a token is (kind, value, offset of its first character in the text).
TEXT = "t"  # value: text as written (may hold spaces)
LITERAL = "x"  # value: one backslash-escaped character
CODE = "c"  # value: the text between the backticks
BOLD = "b"  # bold on or off (value None)
ITALIC = "i"  # italic on or off
ICON = "o"  # value: the icon's name
SPAN = "s"  # value: the SpanStyle of a span that starts here
END = "e"  # the open span ends
BREAK = "n"  # a line break
Token = tuple  # (kind, value, offset)

# Longest icon name; a longer ``:...:`` is text.
MAX_ICON_NAME = 64
# Longest ``{…}`` of a span's attributes; a longer one is not a span.
MAX_SPAN_ATTRS = 120
SPAN_SIZES = (0.25, 4.0)

ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_SPECIAL = re.compile(r"[\\*:\[\]`]")
_BRACKET_OR_BACKSLASH = re.compile(r"[\\\]]")
_COLONS = re.compile(":+")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
_HEX_COLOR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
_COLOR_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")


@dataclass(frozen=True)
class SpanStyle:
    """What a ``[text]{…}`` span asks of its text: a colour (``#rrggbb``, ``#rgb`` or a palette
    name, as written) and a size relative to the text around it."""

    color: str | None = None
    size: float = 1.0


PLAIN = SpanStyle()


def tokenize(text: str, strict: bool = False) -> list[Token]:
    """The tokens of ``text`` (one paragraph; newlines are BREAK tokens).

    Emphasis comes out as BOLD and ITALIC switches; stars that are not emphasis come out as
    TEXT, or with ``strict`` raise :class:`MarkupError`, as an unclosed backtick does.
    """
    tokens: list[Token] = []
    base = 0
    for number, line in enumerate(text.split("\n")):
        if number:
            tokens.append((BREAK, None, base - 1))
        _scan_line(line, base, strict, tokens)
        base += len(line) + 1
    return _emphasis(tokens, strict)


def _scan_line(line: str, base: int, strict: bool, tokens: list[Token]) -> None:
    """Tokens of one line, star runs as ("d", (count, can_open, can_close), offset)."""
    i, n = 0, len(line)
    ends: list[int] | None = None  # where spans may close, found once a '[' is met
    span_close = span_after = -1  # the open span's ']' and the index after its '}'
    while i < n:
        found = _SPECIAL.search(line, i)
        if found is None:
            tokens.append((TEXT, line[i:], base + i))
            return
        j = found.start()
        if j > i:
            tokens.append((TEXT, line[i:j], base + i))
        ch = line[j]
        if ch == "\\":
            if j + 1 < n and line[j + 1] in ASCII_PUNCTUATION:
                tokens.append((LITERAL, line[j + 1], base + j))
                i = j + 2
            else:
                tokens.append((TEXT, "\\", base + j))
                i = j + 1
        elif ch == "*":
            k = j
            while k < n and line[k] == "*":
                k += 1
            tokens.append(("d", (k - j, k < n and not line[k].isspace(), j > 0 and not line[j - 1].isspace()),
                           base + j))
            i = k
        elif ch == "`":
            end = line.find("`", j + 1)
            if end < 0:
                if strict:
                    raise MarkupError("unclosed `", base + j)
                tokens.append((TEXT, "`", base + j))
                i = j + 1
            else:
                tokens.append((CODE, line[j + 1:end], base + j))
                i = end + 1
        elif ch == "[":
            span = None
            if span_close < 0:
                if ends is None:
                    ends = span_ends(line)
                try:
                    span = span_at(line, j, ends)
                except ValueError as exc:
                    raise MarkupError(str(exc), base + j) from None
            if span is None:
                tokens.append((TEXT, "[", base + j))
            else:
                tokens.append((SPAN, span[0], base + j))
                span_close, span_after = span[1], span[2]
            i = j + 1
        elif ch == "]":
            if j == span_close:
                tokens.append((END, None, base + j))
                i = span_after
                span_close = span_after = -1
            else:
                tokens.append((TEXT, "]", base + j))
                i = j + 1
        else:  # ":" - an icon when a name and a closing colon follow
            run = _COLONS.match(line, j).end()
            if run - j > 1:  # only the last of several colons can open a name
                tokens.append((TEXT, line[j:run - 1], base + j))
                j = run - 1
            icon = icon_at(line, j)
            if icon is not None:
                tokens.append((ICON, icon[0], base + j))
                i = icon[1]
            else:
                k = j + 1
                while k < n and k - j <= MAX_ICON_NAME and line[k] in _NAME_CHARS:
                    k += 1
                tokens.append((TEXT, line[j:k], base + j))  # the colon and any name characters: text
                i = k


_FLAGS = {1: (ITALIC,), 2: (BOLD,), 3: (BOLD, ITALIC)}
_STARS = {BOLD: 2, ITALIC: 1}


def _emphasis(tokens: list[Token], strict: bool) -> list[Token]:
    """Star runs resolved: which open or close which emphasis (an opener counts once closed)."""
    opened: dict[str, int | None] = {BOLD: None, ITALIC: None}
    effective: dict[int, list[str]] = {}
    for index, (kind, value, _) in enumerate(tokens):
        if kind != "d" or value[0] not in _FLAGS:
            continue
        count, can_open, can_close = value
        flags = _FLAGS[count]
        if not all(can_close if opened[f] is not None else can_open for f in flags):
            continue
        for f in flags:
            start = opened[f]
            if start is not None:
                effective.setdefault(start, []).append(f)
                effective.setdefault(index, []).append(f)
                opened[f] = None
            else:
                opened[f] = index
    out: list[Token] = []
    for index, token in enumerate(tokens):
        if token[0] != "d":
            out.append(token)
            continue
        count, at = token[1][0], token[2]
        toggles = effective.get(index, ())
        left = count - sum(_STARS[f] for f in toggles)
        if left:  # stars that are not emphasis: text as typed, in the style before the run
            if strict:
                raise MarkupError(_stray_stars(count, left, index, opened), at)
            out.append((TEXT, "*" * left, at))
        out.extend((f, None, at) for f in toggles)
    return out


def _stray_stars(count: int, left: int, index: int, opened: dict[str, int | None]) -> str:
    if count > 3:
        why = f"{'*' * count} is not emphasis (at most three stars)"
    elif index in opened.values():
        why = f"unclosed {'*' * left}"
    else:
        why = f"{'*' * count} neither opens nor closes emphasis (it opens before a non-space, closes after one)"
    return why + " (write \\* for a literal star)"


# --- pieces of the syntax ----------------------------------------------------------------------

def icon_at(line: str, j: int) -> tuple[str, int] | None:
    """At the colon ``line[j]``: the icon ``:name:`` that starts there, as (name, index after its
    closing colon), or None. Reads at most MAX_ICON_NAME + 2 characters."""
    k, n = j + 1, len(line)
    while k < n and k - j <= MAX_ICON_NAME and line[k] in _NAME_CHARS:
        k += 1
    if k < n and line[k] == ":" and 1 < k - j <= MAX_ICON_NAME:
        return line[j + 1:k], k + 1
    return None


def span_ends(line: str) -> list[int]:
    """The indexes of the ``]`` in ``line`` that a backslash does not escape, in order."""
    ends: list[int] = []
    i, n = 0, len(line)
    while True:
        found = _BRACKET_OR_BACKSLASH.search(line, i)
        if found is None:
            return ends
        j = found.start()
        if line[j] == "\\":
            i = j + 2 if j + 1 < n and line[j + 1] in ASCII_PUNCTUATION else j + 1
        else:
            ends.append(j)
            i = j + 1


def span_at(line: str, j: int, ends: list[int]) -> tuple[SpanStyle, int, int] | None:
    """At the ``[`` ``line[j]``: the span that opens there, as (style, index of its ``]``, index
    after its ``}``), or None when no ``]{…}`` follows (the bracket is then text). ``ends`` is
    :func:`span_ends` of ``line``. Raises ValueError (a message for the user) for attributes that
    are not ``color=`` and ``size=``."""
    at = bisect.bisect_right(ends, j)
    if at == len(ends):
        return None
    close = ends[at]
    if not line.startswith("{", close + 1):
        return None
    stop = line.find("}", close + 2, close + 2 + MAX_SPAN_ATTRS)
    if stop < 0:
        return None
    return span_style(line[close + 2:stop]), close, stop + 1


def span_style(attrs: str) -> SpanStyle:
    """The style of a span's ``{…}``: ``color=…`` and ``size=…`` separated by spaces."""
    color: str | None = None
    size = 1.0
    for part in attrs.split():
        key, sep, value = part.partition("=")
        if key == "color" and sep and (_HEX_COLOR.fullmatch(value) or _COLOR_NAME.fullmatch(value)):
            color = value
        elif key == "size" and sep and _is_size(value):
            size = float(value)
        elif key in ("color", "size"):
            want = ("a colour such as #c33, #1f3b5a or a name of art.colors" if key == "color"
                    else f"a number from {SPAN_SIZES[0]:g} to {SPAN_SIZES[1]:g} (1 = the text's size)")
            raise ValueError(f"span {{{attrs}}}: {key}= wants {want}, got {value!r}")
        else:
            raise ValueError(f"span {{{attrs}}}: unknown attribute {part!r} (a span takes color=… and size=…, "
                             f"e.g. [text]{{color=#c33 size=1.2}}; write \\] for a bracket before a brace)")
    return SpanStyle(color, size)


def _is_size(value: str) -> bool:
    try:
        size = float(value)
    except ValueError:
        return False
    return SPAN_SIZES[0] <= size <= SPAN_SIZES[1]


def hex_color(value: str) -> str | None:
    """``#rgb`` or ``#rrggbb`` as lower-case ``#rrggbb``; None for anything else (a palette name)."""
    if not _HEX_COLOR.fullmatch(value):
        return None
    if len(value) == 4:
        value = "#" + "".join(ch * 2 for ch in value[1:])
    return value.lower()


def unknown_color(name: str, palette: Collection[str], where: object) -> str:
    """The message for a span colour that is neither ``#rgb``/``#rrggbb`` nor a name of ``palette``."""
    close = close_match(name, palette)
    hint = f"did you mean {close!r}? " if close else ""
    prefix = f"{where}: " if where else ""
    return (f"{prefix}span color {name!r} is neither #rgb/#rrggbb nor a name in art.colors "
            f"({hint}names: {', '.join(sorted(palette)) or 'none'})")


def unknown_icon(name: str, icons: Collection[str] | Mapping[str, object], where: object) -> str:
    """The message for an icon name not in ``icons``: the names known, and the closest one."""
    known = sorted(icons)
    close = close_match(name, known)
    listed = ", ".join(known[:40]) + (", …" if len(known) > 40 else "") if known else "none"
    hint = f"did you mean ':{close}:'? " if close else ""
    prefix = f"{where}: " if where else ""
    return (f"{prefix}unknown icon ':{name}:' ({hint}known: {listed}; "
            f"write \\: for a colon that is not an icon)")


__all__ = ["tokenize", "SpanStyle", "PLAIN", "icon_at", "span_ends", "span_at", "span_style", "hex_color",
           "unknown_color", "unknown_icon", "MarkupError", "TEXT", "LITERAL", "CODE", "BOLD", "ITALIC", "ICON",
           "SPAN", "END", "BREAK", "MAX_ICON_NAME", "MAX_SPAN_ATTRS", "SPAN_SIZES"]
