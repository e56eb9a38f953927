"""Hostile inputs: each ends as printkit promises (one located line and exit 1, or
success), within seconds, whatever the input. Big inputs are generated here, sparse where they can be."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from printkit.render.svg_normal import LENGTH as _LENGTH
from printkit.rulebook.markdown import RulebookError, parse
from printkit.spec.fields import Number
from printkit.spec.models import _HEX, BOX_LENGTH_RE, TEXT_SIZE_RE
from printkit.spec.sheet_xml import FAR, _WORKBOOK_SHEET, ods_sheets, xlsx_sheet
from printkit.units import parse_length_mm

ROOT = Path(__file__).resolve().parent.parent
TINY = "game: demo\nname: Tiny\ngroups:\n  - name: a\n    cards: [{n: 1}, {n: 2}, {n: 3}]\n"


def printkit(args: list[str], cwd: Path, stdout=subprocess.PIPE, env: dict | None = None, timeout: float = 60):
    environment = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    return subprocess.run([sys.executable, "-m", "printkit", *args], cwd=cwd, stdout=stdout,
                          stderr=subprocess.PIPE, env=environment, timeout=timeout)


def one_error(result) -> str:
    """The single line of stderr of a refused command (exit 1, no traceback)."""
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 1, err
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    return lines[0]


def png(width: int, height: int) -> bytes:
    compressor = zlib.compressobj(9)
    row = b"\0" * (width + 1)
    data = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()

    def chunk(tag: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


# --- linear parsers ----------------------------------------------------------------------------


@pytest.mark.parametrize("line", ["# a" + " " * 4000 + "b", "{{" + " " * 6000, "::: figure" + " " * 5000 + "x",
                                  "a****" * 5000 + "a", "## heading\n\n" * 10_000])
def test_rule_text_lines_parse_in_linear_time(line):
    start = time.perf_counter()
    try:
        parse("# T\n\n" + line + "\n", resolve=lambda key: "v")
    except RulebookError:
        pass
    assert time.perf_counter() - start < 1.0


# Sheet XML: each input is big enough that reading it again from every tag (quadratic) takes
# minutes, where one pass takes a fraction of a second; the result shows the tags were read right.
_COMMENTED_CLOSES = (b'<row r="1"><c r="A1" t="e"><v>#N/A</v></c><c r="B1"><v>1</v><!--'
                     + b"</v>xxxxxxxxxxxx" * 200_000 + b"--></c></row>")


def _reach(xml: bytes) -> list:
    return [(sheet.name, sheet.reach) for sheet in ods_sheets(xml, 50)] if b"table:" in xml else \
        [(None, xlsx_sheet(xml, 50).reach)]


@pytest.mark.parametrize("read, xml, expected", [
    (_reach, b'<c r="C2"/>' + b"<c " * 300_000, [(None, (2, 3))]),
    (_reach, b'<table:table table:name="S">' + b"<table:table-cell " * 300_000, []),
    (lambda xml: list(xlsx_sheet(xml, 50).unread), b'<c r="A1" t="e"><v>#N/A</v></c>' + b"<c " * 300_000, [(0, 0)]),
    (lambda xml: list(xlsx_sheet(xml, 50).unread), _COMMENTED_CLOSES, [(0, 0)]),  # B1 holds its value 1
    (lambda xml: list(xlsx_sheet(xml, 50).unread.values()), b'<c r="A1" t="e"><v>' + b"<x" * 300_000
     + b"#N/A</v></c>", ["the cell shows the error <x<x<x<x<x<x<x<x<x<x<x<x<x<x<x<x<x<x<x<…: type the value it "
                         "should hold, or clear the cell"]),
    (lambda xml: ods_sheets(xml, 50), b"a" * 5_000_000, []),
    (lambda xml: [m.group(1) for m in _WORKBOOK_SHEET.finditer(xml)], b"<sheet a>" + b"<sheet " * 300_000, [b" a"]),
    (_reach, b'<c r="' + b"A" * 1_000_000 + b'1"/>', [(None, (1, FAR))]),
    (_reach, b'<c r="A' + b"9" * 100_000 + b'"/>', [(None, (FAR, 1))]),
    (_reach, b'<table:table><table:table-row table:number-rows-repeated="' + b"9" * 100_000
     + b'"><table:table-cell office:value-type="float"/></table:table-row></table:table>', [(None, (FAR, 1))]),
    # A formula repeated down rows far past every limit, in no column: no cell is marked, however many rows.
    (lambda xml: [(s.reach, s.unread) for s in ods_sheets(xml, 50)],
     b'<table:table><table:table-row table:number-rows-repeated="' + b"9" * 100_000
     + b'"><table:table-cell table:formula="of:=1" table:number-columns-repeated="0"/></table:table-row>'
       b'</table:table>', [((FAR, 0), {})]),
])
def test_sheet_xml_is_read_in_linear_time(read, xml, expected):
    assert read(xml) == expected


def test_length_with_a_long_run_of_spaces_is_refused_quickly():
    start = time.perf_counter()
    with pytest.raises(ValueError):
        parse_length_mm("1" + " " * 200_000 + "x")
    assert time.perf_counter() - start < 1.0


def test_rule_text_limits_are_located():
    with pytest.raises(RulebookError, match=r"<rulebook>:3: a word of 2000 characters"):
        parse("# T\n\n" + "a" * 2000 + "\n")
    with pytest.raises(RulebookError, match=r"<rulebook>:3: a table of 500 columns"):
        parse("# T\n\n|" + "a|" * 500 + "\n|" + "---|" * 500 + "\n")
    with pytest.raises(RulebookError, match=r"<rulebook>:3: this block of text"):
        parse("# T\n\n" + "word " * 5000 + "\n")


@settings(deadline=1000, max_examples=60)
@given(st.text(alphabet=st.sampled_from(list("# {}|:*`\\->1.abc\n\t")), max_size=3000))
def test_markdown_reader_fuzz(text):
    try:
        document = parse(text, resolve=lambda key: "value", default_title="T")
    except RulebookError as exc:
        assert "\n" not in exc.message
        return
    assert document.title is not None


@settings(deadline=200, max_examples=200)
@given(st.text(alphabet=st.sampled_from(list(" \t0123456789.+-emincpt%x")), max_size=2000))
def test_length_parser_fuzz(text):
    try:
        value = parse_length_mm(text)
    except ValueError:
        return
    assert value == value and abs(value) != float("inf")


@settings(deadline=200, max_examples=200)
@given(st.text(alphabet=st.sampled_from(list(" 0123456789.+-eEpxtcmin")), max_size=2000))
def test_svg_length_and_box_length_fuzz(text):
    for pattern in (_LENGTH, BOX_LENGTH_RE, TEXT_SIZE_RE):
        pattern.fullmatch(text)


@settings(deadline=200, max_examples=100)
@given(st.text(max_size=200))
def test_colour_and_number_fields_fuzz(text):
    _HEX.match(text)
    problems: list = []
    Number().check(text, ("x",), problems)
    for value in (float("nan"), float("inf"), -float("inf")):
        problems = []
        Number().check(value, ("x",), problems)
        assert problems


# --- through the command line ------------------------------------------------------------------


def test_bleed_with_a_million_spaces_is_one_short_line(tmp_path):
    (tmp_path / "t.yaml").write_text(TINY + 'card: {bleed: "1' + " " * 990_000 + 'x"}\n')
    line = one_error(printkit(["check", "--no-play", "t.yaml"], tmp_path, timeout=20))
    assert line.startswith("t.yaml:6:") and len(line) <= 2000


def test_too_many_variants_and_components_are_located(tmp_path):
    deck = "game: demo\nname: T\ngroups:\n  - name: a\n    generate: {n: [1, 2]}\n"
    (tmp_path / "v.yaml").write_text(deck + "variants:\n" + "".join(f"  v{i}: {{}}\n" for i in range(2000)))
    assert "at most 100 entries" in one_error(printkit(["check", "--no-play", "v.yaml"], tmp_path, timeout=20))
    (tmp_path / "c.yaml").write_text(deck + "components:\n" + "".join(f"  - {{name: c{i}, cards: [{{n: 1}}]}}\n"
                                                                       for i in range(300)))
    assert "at most 200 items" in one_error(printkit(["check", "--no-play", "c.yaml"], tmp_path, timeout=20))


def test_cards_times_variants_is_bounded(tmp_path, monkeypatch):
    from printkit.errors import SpecError
    expanding = sys.modules["printkit.spec.expand"]
    from printkit.spec import load_spec
    from printkit.decks import expand_all

    monkeypatch.setattr(expanding, "MAX_VARIANT_CARDS", 50)  # the same rule as 30,000, in less time
    (tmp_path / "t.yaml").write_text("game: demo\nname: T\ngroups:\n  - name: a\n    generate: {n: ["
                                     + ",".join(map(str, range(20))) + "]}\nvariants:\n"
                                     + "".join(f"  v{i}: {{}}\n" for i in range(5)))
    with pytest.raises(SpecError, match=r"t.yaml:9:3: the variants up to 'v2' make 60 cards"):
        list(expand_all(load_spec(tmp_path / "t.yaml")))


def test_a_long_text_shared_through_an_alias_is_bounded(tmp_path):
    numbers = ",".join(map(str, range(9000)))
    (tmp_path / "t.yaml").write_text("game: demo\nname: T\ngroups:\n  - name: b\n    cards: [{text: &t \""
                                     + "a b " * 225_000 + f"\"}}]\n  - name: a\n    attrs: {{text: *t}}\n"
                                     f"    generate: {{n: [{numbers}]}}\n")
    assert "characters of text" in one_error(printkit(["check", "--no-play", "t.yaml"], tmp_path, timeout=30))


def test_lone_surrogate_is_refused_at_load(tmp_path):
    (tmp_path / "t.yaml").write_text('game: demo\nname: "x\\ud800"\ngroups:\n  - name: a\n    cards: [{n: 1}]\n')
    assert one_error(printkit(["check", "--no-play", "t.yaml"], tmp_path)).startswith("t.yaml:2:7: escaped U+D800")


def test_picture_of_fifty_million_by_one_is_located(tmp_path):
    (tmp_path / "w.png").write_bytes(png(50_000_000, 1))
    (tmp_path / "t.yaml").write_text(TINY + "art: {back: {image: w.png}}\n")
    assert one_error(printkit(["check", "--no-play", "t.yaml"], tmp_path)).startswith("t.yaml:6:")


def test_mpo_photo_builds_from_its_first_frame(tmp_path):
    from PIL import Image

    Image.new("RGB", (40, 40), "red").save(tmp_path / "p.jpg", format="MPO", save_all=True,
                                           append_images=[Image.new("RGB", (40, 40), "blue")])
    (tmp_path / "t.yaml").write_text(TINY + "art: {back: {image: p.jpg}}\n")
    result = printkit(["build", "t.yaml", "--out", "out", "--no-rulebooks", "--no-proof"], tmp_path)
    assert result.returncode == 0, result.stderr


def test_a_picture_is_decoded_once_per_process(tmp_path):
    from printkit import images

    (tmp_path / "p.png").write_bytes(png(50, 50))
    first = images.checked_picture(tmp_path / "p.png")
    assert images.checked_picture(tmp_path / "p.png") is first
    (tmp_path / "p.png").write_bytes(b"not a picture any more")
    assert images.picture(tmp_path / "p.png") is first  # drawn from the bytes that were checked


def damaged_font() -> bytes:
    """DejaVu Sans with its glyph outlines overwritten by noise: tables intact, glyphs not."""
    source = bytearray((ROOT / "fonts" / "DejaVuSans.ttf").read_bytes())
    count = struct.unpack(">H", source[4:6])[0]
    for i in range(count):
        tag, _, offset, length = struct.unpack(">4sIII", source[12 + 16 * i:28 + 16 * i])
        if tag == b"glyf":
            source[offset:offset + length] = bytes((j * 7919) & 0xFF for j in range(length))
    return bytes(source)


def test_damaged_glyph_outlines_are_refused_at_the_font_key(tmp_path):
    (tmp_path / "f.ttf").write_bytes(damaged_font())
    (tmp_path / "t.yaml").write_text(TINY + "art: {font: f.ttf}\n")
    assert "glyph data is damaged" in one_error(printkit(["check", "--no-play", "t.yaml"], tmp_path))


def test_spec_name_with_a_newline_errs_on_one_line(tmp_path):
    (tmp_path / "a\nb.yaml").write_text("x: [\n")
    assert one_error(printkit(["check", "--no-play", "a\nb.yaml"], tmp_path)).startswith("a\\nb.yaml:")


@pytest.mark.parametrize("manifest", ["sparse", "deep"])
def test_hostile_previous_manifest_is_refused(tmp_path, manifest):
    (tmp_path / "t.yaml").write_text(TINY)
    (tmp_path / "out").mkdir()
    if manifest == "sparse":
        with open(tmp_path / "out" / "manifest.json", "wb") as handle:
            handle.truncate(3_000_000_000)
    else:
        (tmp_path / "out" / "manifest.json").write_text("[" * 100_000 + "]" * 100_000)
    line = one_error(printkit(["build", "t.yaml", "--out", "out", "--no-rulebooks"], tmp_path, timeout=30))
    assert "not a manifest printkit wrote" in line


@pytest.mark.parametrize("command", [["build", "t.yaml", "--out", "out", "--no-rulebooks", "--no-proof"],
                                     ["score", "9-", "5x"]])
def test_full_stdout_is_a_message(tmp_path, command):
    (tmp_path / "t.yaml").write_text(TINY)
    with open("/dev/full", "w") as full:
        result = printkit(command, tmp_path, stdout=full)
    assert "No space left" in one_error(result)


def test_latin1_terminal_escapes_korean(tmp_path):
    (tmp_path / "한국어.yaml").write_text(TINY.replace("Tiny", "한국어"), encoding="utf-8")
    result = printkit(["check", "--no-play", "한국어.yaml"], tmp_path, env={"PYTHONIOENCODING": "latin-1"})
    assert result.returncode == 0, result.stderr
    assert b"\\ud55c" in result.stdout and b"Traceback" not in result.stderr


def test_empty_out_is_an_error(tmp_path):
    (tmp_path / "t.yaml").write_text(TINY)
    result = printkit(["build", "t.yaml", "--out", ""], tmp_path)
    assert result.returncode == 2 and b"output folder is empty" in result.stderr
    assert not (tmp_path / "t").exists() and not (tmp_path / "manifest.json").exists()
