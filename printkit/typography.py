"""Typographic marks for printed text: curly quotes and apostrophes, and the minus sign.

Rule texts and card text are written with the keys of a keyboard: straight quotes (``"``, ``'``)
and the hyphen-minus (``-``). :func:`smarten` turns them into what a typesetter would set:

- ``"…"`` and ``'…'`` become the language's double and single quotes (“…” and ‘…’ in English and
  Korean alike), and an apostrophe becomes ’ (``player's`` → player’s, ``'90s`` → ’90s);
- a hyphen that stands for a minus becomes U+2212 (−): before a digit where no word or number
  precedes it (``-1``, ``x^-1``, ``(-3)``), and spaced between terms of which one is a number or
  a bracket (``hand + 1 - bids``);
- a hyphen between two numbers becomes an en dash, as a range is set (``rounds 1-7`` → rounds 1–7),
  unless either number is part of a word or of a longer chain (``x2-3``, ``2024-01-05``).
  A hyphen inside a word (``two-player``, ``7-lock``) stays a hyphen.

Callers leave alone what must print as typed: inline code in rule texts (a command such as
``printkit score 9- 5x`` is typed by the reader) and characters escaped with a backslash.
"""

from __future__ import annotations

MINUS = "\u2212"
EN_DASH = "\u2013"

# (open double, close double, open single, close single = apostrophe) by language.
QUOTES = {
    "en": ("\u201c", "\u201d", "\u2018", "\u2019"),
    "ko": ("\u201c", "\u201d", "\u2018", "\u2019"),
}
DEFAULT_LANG = "en"

# After these (or at the start of the text, or after a space) a quote opens.
_OPENS_AFTER = frozenset("([{<\u2012\u2013\u2014-/\u201c\u2018")
# After these (or at the start, or after a space) a hyphen before a digit is a minus.
_SIGN_AFTER = frozenset("([{=<>+\u00d7\u00f7*/^,;:\u2212\u00b1\u2264\u2265\u201c\u2018\"'")
_TERM_ENDS = frozenset("0123456789)]")
_TERM_STARTS = frozenset("0123456789([")
_CHANGED = frozenset("\"'-")


def smarten(text: str, lang: str | None = None, before: str = "", transparent: str = "") -> str:
    """``text`` with straight quotes made curly and minus signs made real.

    ``before`` is the text set just before this one (only its last character matters), so a
    text set in pieces (bold, italic …) reads its quotes as one. Characters in ``transparent``
    (markup such as ``*``) are skipped when looking at a quote's neighbours.
    """
    if not _CHANGED.intersection(text):
        return text  # most text has nothing to change: no loop in Python
    open_double, close_double, open_single, apostrophe = QUOTES.get(lang or DEFAULT_LANG, QUOTES[DEFAULT_LANG])
    out: list[str] = []
    last = before[-1:] if before else ""  # the last character set, markup skipped
    for i, ch in enumerate(text):
        if ch == '"':
            ch = open_double if _opens(last) else close_double
        elif ch == "'":
            if last.isalnum() or not _opens(last) or _next(text, i + 1, transparent).isdigit():
                ch = apostrophe
            else:
                ch = open_single
        elif ch == "-" and _is_minus(text, i, last):
            ch = MINUS
        elif ch == "-" and _is_range(text, i, last):
            ch = EN_DASH
        out.append(ch)
        if ch not in transparent:
            last = ch
    return "".join(out)


def _opens(last: str) -> bool:
    return not last or last.isspace() or last in _OPENS_AFTER


def _next(text: str, start: int, transparent: str) -> str:
    for ch in text[start:start + 8]:
        if ch not in transparent:
            return ch
    return ""


def _is_minus(text: str, i: int, last: str) -> bool:
    before = text[i - 1] if i else last
    after = text[i + 1] if i + 1 < len(text) else ""
    if before == "-" or after == "-":
        return False  # part of a "--" or a rule of hyphens
    if after.isdigit():
        return not before or before.isspace() or before in _SIGN_AFTER
    if before == " " and after == " ":
        # A spaced hyphen is subtraction when a number or bracket stands on either side. Only the
        # spaces next to this hyphen are looked across (each run belongs to one hyphen), so a text
        # full of " - " is still read in time linear in its length.
        j = i - 1
        while j >= 0 and text[j].isspace():
            j -= 1
        k = i + 1
        while k < len(text) and text[k].isspace():
            k += 1
        left = text[j] if j >= 0 else last
        right = text[k] if k < len(text) else ""
        return left in _TERM_ENDS or right in _TERM_STARTS
    return False


def _is_range(text: str, i: int, last: str) -> bool:
    """Whether the hyphen at ``i`` joins two numbers standing alone (``1-7``, ``(2-4)``), a range.

    Only the digits next to this hyphen are looked across, so the check is linear over a text.
    """
    j = i - 1
    while j >= 0 and text[j].isdigit():
        j -= 1
    k = i + 1
    while k < len(text) and text[k].isdigit():
        k += 1
    if j == i - 1 or k == i + 1:
        return False  # a digit on each side, or it is no range
    before = text[j] if j >= 0 else last
    after = text[k] if k < len(text) else ""
    # a number glued to a letter, a sign or another hyphen is a code, a date or a formula
    glued_before = before.isalpha() or (before != "" and before in "-_.^\u2212/")
    glued_after = after.isalpha() or (after != "" and after in "-_^/") or \
        (after == "." and text[k + 1:k + 2].isdigit())
    return not (glued_before or glued_after)
