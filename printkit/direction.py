"""Text written right to left (Hebrew, Arabic, Syriac, Thaana …), which printkit does not set.

Neither the cards nor the rulebook reorder a right-to-left run or join its letters, so such text
would print reversed and unjoined. Card text and rule texts refuse it with one message, made here.
"""

from __future__ import annotations

import unicodedata

SHOWN = 5  # characters named in the message


def right_to_left(text: str) -> str:
    """The characters of ``text`` that are written right to left, each once, in code point order."""
    if text.isascii():  # the usual answer, found without a loop in Python
        return ""
    return "".join(sorted(ch for ch in set(text) if unicodedata.bidirectional(ch) in ("R", "AL")))


def refusal(text: str, what: str) -> str | None:
    """Why ``text`` cannot be set, if it has right-to-left characters (None if it has none); ``what``
    names what to write in a left-to-right script instead (``the rule text``, ``the card's text``)."""
    backwards = right_to_left(text)
    if not backwards:
        return None
    listed = ", ".join(f"{ch!r} U+{ord(ch):04X}" for ch in backwards[:SHOWN])
    return (f"right-to-left text ({listed}) is not set by printkit: its letters would print unjoined "
            f"and left to right; write {what} in a left-to-right script")
