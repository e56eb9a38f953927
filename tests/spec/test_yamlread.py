"""Reading spec YAML: libyaml when it reads a document as PyYAML does, PyYAML's own parser otherwise."""

import re
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from printkit.errors import SpecError
from printkit.spec import yamlread
from printkit.spec.yamlread import parse_yaml

REPO = Path(__file__).resolve().parents[2]
REAL = {p.name: p.read_bytes() for p in sorted((REPO / "decks").glob("*.yaml"))}
# printkit's own layout files, whose texts are block scalars ('|-'): read by libyaml as well.
LAYOUTS = {str(p.relative_to(REPO)): p.read_bytes()
           for p in sorted([*(REPO / "printkit" / "games").glob("*/faces.yaml"),
                            *(REPO / "printkit" / "layout" / "templates").glob("*.yaml")])}
BAD = {p.name: p.read_bytes() for p in sorted((REPO / "tests" / "data" / "bad").glob("*.yaml"))}
needs_libyaml = pytest.mark.skipif(yamlread._CLoader is None, reason="PyYAML built without libyaml")


def outcome(raw: bytes, libyaml: bool = True):
    """What parse_yaml makes of ``raw``: data and every position, or the error's text."""
    with mock.patch.object(yamlread, "_CLoader", yamlread._CLoader if libyaml else None):
        try:
            doc = parse_yaml(raw, Path("x.yaml"))
        except SpecError as exc:
            return str(exc)
    return repr(doc.data), doc.values, doc.keys


@needs_libyaml
def test_real_specs_are_composed_by_libyaml():
    def refuse(text):
        raise AssertionError("PyYAML's parser was used")

    for name, raw in REAL.items():
        with mock.patch.object(yamlread, "_PureLoader", refuse):
            doc = parse_yaml(raw, Path(name))
        assert doc.data["game"], name


@needs_libyaml
def test_layout_files_with_block_scalars_are_composed_by_libyaml():
    # Calc's layouts were read by PyYAML's own parser for their '|-' texts: five times slower.
    def refuse(text):
        raise AssertionError("PyYAML's parser was used")

    for name in ("printkit/games/calc/faces.yaml", "printkit/games/clag/faces.yaml",
                 "printkit/layout/templates/generic.yaml"):
        assert b"|" in LAYOUTS[name]
        with mock.patch.object(yamlread, "_PureLoader", refuse):
            assert parse_yaml(LAYOUTS[name], Path(name)).data, name


@needs_libyaml
@pytest.mark.parametrize("name", sorted(REAL) + sorted(BAD) + sorted(LAYOUTS))
def test_libyaml_and_pyyaml_agree_on_every_corpus_file(name):
    raw = {**REAL, **BAD, **LAYOUTS}[name]
    assert outcome(raw) == outcome(raw, libyaml=False)


# Documents that libyaml alone reads differently from PyYAML: parse_yaml must still give PyYAML's answer.
PARTING = {
    "empty value in braces": b"game: calc\ncard: {bleed: }\n",
    "empty document after a comment": b"---\n# nothing\n",
    "tab before a value": b"game: \tcalc\n",
    "tab inside a key": b"game: calc\nna\t\tme: X\n",
    "byte-order mark inside": b"game\xef\xbb\xbf: calc\n",
    "question mark in braces": b"game: calc\nart: {background_image: /? etc/x}\n",
    "comment touching a block header": b"name: |#note\n  X\n",
    "comment touching a chomped block header": b"name: >-#note\n  X\n",
    "comment touching an indented block header": b"- |2+#note\n   X\n",
    "bare tag": b"!\n",
    "directive": b"%YAML 1.1\n---\n \n",
}


@needs_libyaml
@pytest.mark.parametrize("raw", PARTING.values(), ids=PARTING.keys())
def test_documents_the_parsers_read_differently_read_as_pyyaml_reads_them(raw):
    assert outcome(raw) == outcome(raw, libyaml=False)


def test_an_empty_value_is_placed_right_after_its_colon():
    doc = parse_yaml(b"game: calc\ncard: {bleed: , size: poker}\n", Path("x.yaml"))
    assert doc.values[("card", "bleed")] == (2, 14)  # libyaml alone says 15, at the comma


# Block scalars as layouts write them, small enough for mutations to reach their headers.
BLOCKS = {
    "texts": b"layouts:\n  front:\n    - text: |-\n        {name}\n\n        {rules}\n      size: 3mm\n",
    "folded": b"a: >\n  one\n   two\n\n  three\nb: |+\n  kept\n\nc: 1\n",
    "indented": b"- |2\n   x\n  y\n- >1-\n  z\n",
}


@needs_libyaml
@given(st.sampled_from(sorted(REAL) + sorted(BLOCKS)), st.data())
def test_libyaml_and_pyyaml_agree_on_mutated_specs(name, data):
    raw = bytearray(REAL.get(name) or BLOCKS[name])
    for _ in range(data.draw(st.integers(1, 4))):
        pos = data.draw(st.integers(0, max(len(raw) - 1, 0)))
        op = data.draw(st.sampled_from(["flip", "delete", "insert", "truncate"]))
        if op == "flip" and raw:
            raw[pos] = data.draw(st.integers(0, 255))
        elif op == "delete":
            del raw[pos:pos + data.draw(st.integers(1, 20))]
        elif op == "insert":
            raw[pos:pos] = data.draw(st.sampled_from(
                [b":", b"- ", b"&a ", b"|", b">", b"|-", b">+", b"|2", b"   \n", b"*a", b"{", b"}", b"[", b"]", b",", b"\n  ", b"\n", b"'", b'"', b"#",
                 b" #", b"\\", b"\r\n", b"~", b"\xc2\x85", b"\xe2\x80\xa8", "한".encode(), b"---\n", b"...\n"]))
        else:
            del raw[pos:]
    assert outcome(bytes(raw)) == outcome(bytes(raw), libyaml=False)


def test_nesting_too_deep_for_any_parser_is_a_located_error():
    # Tens of thousands of levels would overflow libyaml's C stack: the process must survive.
    script = (
        "from pathlib import Path\n"
        "from printkit.errors import SpecError\n"
        "from printkit.spec.yamlread import parse_yaml\n"
        "for raw in (b'a: ' + b'[' * 100000 + b']' * 100000, b'a:\\n' + b'- ' * 100000 + b'x\\n'):\n"
        "    try:\n"
        "        parse_yaml(raw, Path('deep.yaml'))\n"
        "    except SpecError as exc:\n"
        "        print(exc)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 2
    assert all(re.fullmatch(r"deep\.yaml:[12]:\d+: nesting deeper than 32 levels", line) for line in lines), lines


@pytest.mark.parametrize("levels", [40, 3000])
def test_deep_nesting_is_a_located_error(levels):
    raw = b"game: calc\ngroups: " + b"[" * levels + b"]" * levels + b"\n"
    with pytest.raises(SpecError, match=r"x\.yaml:2:\d+: nesting deeper than 32 levels"):
        parse_yaml(raw, Path("x.yaml"))


def test_an_escape_beyond_unicode_is_a_located_error():
    with pytest.raises(SpecError, match=r"x\.yaml:2:\d+: YAML syntax error: escaped character beyond U\+10FFFF"):
        parse_yaml(b'game: calc\nname: "\\U7FFFFFFF"\n', Path("x.yaml"))


def test_an_explicit_boolean_that_is_no_boolean_is_a_located_error():
    with pytest.raises(SpecError, match=r"x\.yaml:2:7: bad value 'maybe': not a boolean"):
        parse_yaml(b"game: calc\nname: !!bool maybe\n", Path("x.yaml"))


def test_pyyaml_alone_reads_a_spec_as_before():
    raw = REAL["calc.yaml"]
    with mock.patch.object(yamlread, "_CLoader", None):
        doc = parse_yaml(raw, Path("calc.yaml"))
    assert doc.data == yaml.safe_load(raw)


CORE = (b"card: {kind: crow, secret: yes, on: off, code: 010, time: 12:30, day: 2024-01-02, big: 1_000,\n"
        b"       yes_: true, no_: False, hex: 0x1F, oct: 0o17, neg: -3, ver: 1.10, exp: 1e3, none: ~}\n")
CORE_DATA = {"card": {"kind": "crow", "secret": "yes", "on": "off", "code": 10, "time": "12:30", "day": "2024-01-02",
                      "big": "1_000", "yes_": True, "no_": False, "hex": 31, "oct": 15, "neg": -3, "ver": 1.1,
                      "exp": 1000.0, "none": None}}


def test_plain_values_are_typed_as_yaml_1_2_core_types_them_by_pyyaml():
    """Text that YAML 1.1 would turn into a boolean, an octal or a base-60 number stays as written."""
    with mock.patch.object(yamlread, "_CLoader", None):
        assert parse_yaml(CORE, Path("x.yaml")).data == CORE_DATA


@needs_libyaml
def test_plain_values_are_typed_as_yaml_1_2_core_types_them_by_libyaml():
    def refuse(text):
        raise AssertionError("PyYAML's parser was used")

    with mock.patch.object(yamlread, "_PureLoader", refuse):
        assert parse_yaml(CORE, Path("x.yaml")).data == CORE_DATA


@pytest.mark.parametrize("raw, where, colour", [
    (b"game: g\nart:\n  back:\n    color: #2f4f2f\n", "4:12", "#2f4f2f"),  # the value is silently empty
    (b"game: g\nart:\n  colors: {background: #fff8e7, ink: '#000'}\nname: x\n", "3:24", "#fff8e7"),  # breaks the braces
    (b"game: g\ngenerate: {colour: [#f00, #0f0]}\n", "2:21", "#f00"),  # no space after '[': a comment too
    (b"game: g\nart:\n  colors: {ink: '#000', background: #fff}\n", "3:37", "#fff"),  # after a quoted one
])
def test_a_colour_without_quotes_is_named_as_a_comment(raw, where, colour):
    with pytest.raises(SpecError) as info:
        parse_yaml(raw, Path("x.yaml"))
    assert str(info.value) == f'x.yaml:{where}: {colour} is read as a YAML comment, so the value is empty: ' \
                              f'write colours in quotes, "{colour}"'


def test_comments_and_quoted_colours_are_left_alone():
    doc = parse_yaml(b"game: g # a comment\nname: 'a: #fff'\nlabel:  # deliberately empty\nink: \"#000\"\n"
                     b"description: #add later\nnotes:\n  - #bad one\n", Path("x.yaml"))
    assert doc.data == {"game": "g", "name": "a: #fff", "label": None, "ink": "#000", "description": None,
                        "notes": [None]}  # an empty value before a comment is a colour only where one belongs


@pytest.mark.parametrize("raw, where, says", [
    (b'game: g\nname: "abc\ngroups:\n  - name: a\n', "2:7", "this quoted value is never closed"),
    (b"game: g\ncard:\n  bleed: 3mm\n  safe 3mm\n  corner_radius: 2mm\n", "4:3", "this line has no ':' after its key"),
    (b"game: g\nname: x\n   bad: 1\n", "3:7", "a ':' is not allowed here: check this line's indentation"),
    (b"game: g\ncard:\n  - size: poker\n  bleed: 3mm\n", "4:3", "this line does not line up with the lines above it"),
    (b"game: g\nart: {font: x\nname: y\n", "2:6", "the mapping opened here is not closed with '}'"),
])
def test_yaml_syntax_errors_are_said_in_plain_words_where_they_start(raw, where, says):
    with pytest.raises(SpecError) as info:
        parse_yaml(raw, Path("x.yaml"))
    assert str(info.value).startswith(f"x.yaml:{where}: YAML syntax error: {says}")


def test_a_syntax_error_is_not_blamed_on_a_colour_that_is_plain_text_or_a_comment():
    for raw in (b"game: g\ndescription: Red,#fff is the hue\ngroups:\n  - name: n\n    cards: [{a: 1}\n",
                b"game: g # see #fff\ngroups: [1\n"):
        with pytest.raises(SpecError, match="YAML syntax error: the list opened here is not closed"):
            parse_yaml(raw, Path("x.yaml"))


def test_a_colour_glued_to_its_key_is_named():
    with pytest.raises(SpecError) as info:
        parse_yaml(b"game: g\nart:\n  colors: {ink:#000}\n", Path("x.yaml"))
    assert str(info.value) == ("x.yaml:3:12: 'ink:#000' is read as one key with no value: "
                               "write ink: \"#000\" (a space after ':', the colour in quotes)")


def test_a_long_but_shallow_spec_is_composed_by_libyaml_and_a_deep_one_is_not():
    from printkit.spec.yamlread import _FAST_NESTING_LIMIT, _fast_safe, _nesting_bound

    wide = "game: demo\ncomponents:\n" + "".join(f"  - name: c{i}\n    cards: [{{n: {i}}}]\n" for i in range(5000))
    assert _nesting_bound(wide) < 20 and _fast_safe(wide)
    for deep in ("a: " + "[" * 3000 + "]" * 3000, "- " * 3000 + "a", "a:\n" + "".join(" " * i + f"k{i}:\n" for i in range(1200))):
        assert _nesting_bound(deep) > _FAST_NESTING_LIMIT and not _fast_safe(deep)
