"""Rule texts beside a spec obey the same path rules as the files a spec names."""

from __future__ import annotations

import os
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from cli_in import invoke_in

TINY = (Path(__file__).resolve().parents[1] / "data" / "tiny.yaml").read_text(encoding="utf-8")
SECRET = "PRINTKIT_TEST_SECRET_TOKEN_5f1c"


def build(folder: Path, *args: str):
    return invoke_in(folder, "build", "tiny.yaml", "--out", "out", *args)


def pdf_text(path: Path) -> str:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    finally:
        pdf.close()


@pytest.fixture
def deck(tmp_path) -> Path:
    folder = tmp_path / "deck"
    folder.mkdir()
    (folder / "tiny.yaml").write_text(TINY, encoding="utf-8")
    return folder


@pytest.mark.parametrize("target", ["outside", "/proc/self/environ"])
def test_a_rule_text_linked_out_of_the_folder_is_refused_and_never_printed(deck, monkeypatch, target):
    monkeypatch.setenv("PRINTKIT_SECRET", SECRET)
    outside = deck.parent / "secret.md"
    outside.write_text(f"# Rules\n\n{SECRET}\n", encoding="utf-8")
    (deck / "tiny.rules.en.md").symlink_to(outside if target == "outside" else Path(target))
    result = build(deck)
    assert result.exit_code == 1
    [line] = result.stderr.strip().splitlines()
    assert line == ("error: tiny.rules.en.md: rule text path 'tiny.rules.en.md' leads outside the spec's folder; "
                    "copy the file beside the spec")
    assert SECRET not in result.output
    out = deck / "out"
    assert not out.exists() or not any(SECRET.encode() in p.read_bytes() for p in out.rglob("*") if p.is_file())


def test_a_rule_text_linked_inside_the_folder_is_read(deck):
    (deck / "texts").mkdir()
    (deck / "texts" / "en.md").write_text("# Rules\n\nDeal every card.\n", encoding="utf-8")
    (deck / "tiny.rules.en.md").symlink_to(Path("texts") / "en.md")
    result = build(deck)
    assert result.exit_code == 0, result.output
    assert "Deal every card." in pdf_text(deck / "out" / "tiny" / "rulebook-en-a4.pdf")


@pytest.mark.parametrize("make, said", [
    (lambda p: p.symlink_to(p), "is a loop of links"),
    (lambda p: p.symlink_to(p.parent / "missing.md"), "not found"),
    (lambda p: p.mkdir(), "is a folder, not a file"),
    (lambda p: os.mkfifo(p), "is not a regular file"),
])
def test_a_rule_text_that_cannot_be_a_text_is_one_line(deck, make, said):
    make(deck / "tiny.rules.en.md")
    result = build(deck)
    assert result.exit_code == 1
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: tiny.rules.en.md: rule text") and said in line
    assert "Traceback" not in result.output


def test_a_rule_text_over_the_limit_is_refused(deck):
    from printkit.rulebook.producer import MAX_RULE_TEXT_BYTES

    with open(deck / "tiny.rules.en.md", "w", encoding="utf-8") as handle:
        handle.write("# Rules\n\n")
        handle.truncate(MAX_RULE_TEXT_BYTES + 1)  # sparse: no need to write a megabyte
    result = build(deck)
    assert result.exit_code == 1
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: rule text tiny.rules.en.md is ") and f"the limit is {MAX_RULE_TEXT_BYTES}" in line


@pytest.mark.parametrize("command", ["check", "build"])
def test_a_rule_text_not_in_utf8_is_named_at_its_line_as_a_data_file_is(deck, command):
    (deck / "tiny.rules.en.md").write_bytes("# Rules\n\nTwó players.\n".encode("latin-1"))
    result = invoke_in(deck, command, "tiny.yaml", *(("--out", "out") if command == "build" else ()))
    assert result.exit_code == 1
    [line] = [line for line in result.output.splitlines() if "UTF-8" in line]
    assert line == "tiny.rules.en.md:3: not valid UTF-8 (byte 0xf3); save the file as UTF-8"
    assert "Traceback" not in result.output and "codec" not in result.output


def test_a_rule_text_saved_with_a_byte_order_mark_is_read_without_it(deck):
    (deck / "tiny.rules.en.md").write_bytes(b"\xef\xbb\xbf# Rules\n\nDeal every card.\n")
    result = build(deck, "--no-proof")
    assert result.exit_code == 0, result.output
    assert "\ufeff" not in pdf_text(deck / "out" / "tiny" / "rulebook-en-a4.pdf")
