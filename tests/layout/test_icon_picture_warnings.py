"""An icon drawn from a picture file says what printkit cannot draw in it (a filter, a mask...) as
an image does: a warning naming the card, the text or icon element that sets it, the icon and the
picture with the element and line, in ``check`` and ``build`` alike, and the proof page marks the
face. A picture's problem is said once per face, and once for the cards that say it alike."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from printkit.cli import main

BLURRY = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 275 375" width="275" height="375">
<rect width="275" height="375" fill="#ffffff"/>
<defs><filter id="f"><feGaussianBlur stdDeviation="8"/></filter></defs>
<circle cx="137" cy="187" r="80" fill="#06c" filter="url(#f)"/>
</svg>
"""
CLEAN = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#06c"/></svg>\n'

TEXT = "{name: body, kind: text, x: 0, y: 15mm, width: 100%, height: 20mm, frame: safe, size: 5mm, text: "
BADGE = "{name: badge, kind: icon, x: 0, y: 40mm, width: 20mm, height: 20mm, frame: safe, icon: "
SPEC = f"""game: iconwarn
name: Icon warnings
card: {{size: poker}}
icons:
  blurry: art/blurry.svg
  fuzzy: art/blurry.svg
  clean: art/clean.svg
layouts:
  inline:
    elements:
      - {TEXT}"Gain :blurry: and :star: now"}}
  badge:
    elements:
      - {BADGE}blurry}}
  both:
    elements:
      - {TEXT}":blurry: :fuzzy: :blurry:"}}
      - {BADGE}blurry}}
  clean:
    elements:
      - {TEXT}"Gain :clean: and :star: now"}}
      - {BADGE}clean}}
groups:
  - {{name: inline, layout: inline, cards: [{{id: a}}, {{id: b}}, {{id: c}}]}}
  - {{name: badges, layout: badge, cards: [{{id: d}}]}}
  - {{name: both, layout: both, cards: [{{id: e}}]}}
  - {{name: clean, layout: clean, cards: [{{id: f}}]}}
"""

PROBLEM = "picture 'art/blurry.svg': <circle> at line 4: its filter is not drawn"
IN_TEXT = f"inline[id=a]#1 body: icon 'blurry': {PROBLEM}"
IN_ELEMENT = f"badges[id=d]#1 badge: icon 'blurry': {PROBLEM}"


@pytest.fixture
def deck(tmp_path, monkeypatch) -> Path:
    (tmp_path / "art").mkdir()
    (tmp_path / "art/blurry.svg").write_text(BLURRY, encoding="utf-8")
    (tmp_path / "art/clean.svg").write_text(CLEAN, encoding="utf-8")
    (tmp_path / "deck.yaml").write_text(SPEC, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def said(output: str) -> list[str]:
    return [line for line in output.splitlines() if "warning:" in line]


@pytest.mark.parametrize("command", [["check", "deck.yaml", "--no-play"],
                                     ["build", "deck.yaml", "--no-rulebooks", "--out", "out"]])
def test_an_icons_picture_problem_is_a_located_warning_said_once(deck, command):
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 0, result.output
    lines = said(result.output)
    # Set inline in text: said of the first card and its text, the three other cards that set it
    # first in a text named body (the card setting it three times and in its badge too) counted.
    in_text = [line for line in lines if IN_TEXT in line]
    assert len(in_text) == 1 and in_text[0].endswith("; flatten the effect into paths or a picture "
                                                     "(and 3 more distinct cards)"), lines
    # As an icon element: said of its card and element.
    assert len([line for line in lines if IN_ELEMENT in line]) == 1
    # Nothing else: the same picture under another icon name is not said again, a clean one not at all.
    assert len(lines) == 2, lines
    assert not [line for line in lines if "clean" in line or "fuzzy" in line]


def test_the_proof_page_marks_each_face_whose_icons_warn(deck):
    result = CliRunner().invoke(main, ["build", "deck.yaml", "--no-rulebooks", "--out", "out"])
    assert result.exit_code == 0, result.output
    page = (deck / "out/deck/proof.html").read_text(encoding="utf-8")
    figures = dict(re.findall(r'<figure id="([^"]+)"([^>]*)>', page))
    for face in ("001-inline-a", "002-inline-b", "003-inline-c", "004-badges-d", "005-both-e"):
        assert figures[face] == ' class="has-warn" data-side="front" data-warnings="1"', face
    assert figures["006-clean-f"] == ' data-side="front" data-warnings="0"'
    warned = dict(re.findall(r'<figure id="([^"]+)"[^>]*>.*?<div class="w">&#9888; ([^<]*)</div>', page))
    shown = PROBLEM.replace("'", "&#x27;").replace("<", "&lt;").replace(">", "&gt;")
    assert warned["001-inline-a"].startswith(f"body: icon &#x27;blurry&#x27;: {shown}")
    assert warned["004-badges-d"].startswith(f"badge: icon &#x27;blurry&#x27;: {shown}")
    assert warned["005-both-e"].startswith("body: icon")  # its first use of the picture on the face


def test_an_icons_picture_changed_between_runs_of_one_process_is_warned_of_as_it_is_now(deck):
    # What a picture's warnings say is kept while its file is unchanged: `printkit watch` checks
    # again in the same process, and a picture fixed (or broken) meanwhile is said as it is now.
    for picture, warned in ((BLURRY, 2), (CLEAN, 0), (BLURRY.replace('r="80"', 'r="81"'), 2)):
        (deck / "art/blurry.svg").write_text(picture, encoding="utf-8")
        result = CliRunner().invoke(main, ["check", "deck.yaml", "--no-play"])
        assert result.exit_code == 0, result.output
        assert len([line for line in said(result.output) if PROBLEM in line]) == warned, result.output


def _png16(transparent: bool) -> bytes:
    """An 8x8 16-bit RGB PNG, with one transparent colour (tRNS) or none."""
    import struct
    import zlib

    def chunk(tag: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))

    rows = b"".join(b"\0" + b"\x12\x34" * 3 * 8 for _ in range(8))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 16, 2, 0, 0, 0))
            + (chunk(b"tRNS", b"\x12\x34" * 3) if transparent else b"") + chunk(b"IDAT", zlib.compress(rows))
            + chunk(b"IEND", b""))


def test_a_png_icons_warning_follows_the_picture_checked(deck):
    # A PNG is drawn as it was checked when its spec was read: its warning is that picture's, and
    # the picture checked anew (the spec changed) is warned of as it is then.
    (deck / "art/gem.png").write_bytes(_png16(transparent=True))
    spec = SPEC.replace("  clean: art/clean.svg\n", "  clean: art/clean.svg\n  gem: art/gem.png\n").replace(
        ":clean: and", ":gem: :clean: and")
    (deck / "deck.yaml").write_text(spec, encoding="utf-8")
    tRNS = "icon 'gem': picture 'art/gem.png': its transparent colour (tRNS)"

    def warned() -> int:
        result = CliRunner().invoke(main, ["check", "deck.yaml", "--no-play"])
        assert result.exit_code == 0, result.output
        return len([line for line in said(result.output) if tRNS in line])

    assert warned() == 1
    (deck / "art/gem.png").write_bytes(_png16(transparent=False))
    warned()  # the spec unchanged: the picture checked before is the one drawn
    (deck / "deck.yaml").write_text(spec + "# changed\n", encoding="utf-8")
    assert warned() == 0
