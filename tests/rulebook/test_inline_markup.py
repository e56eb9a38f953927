"""Icons and spans in rule texts, drawn as on cards; rule texts in any language; their errors located."""

from __future__ import annotations

import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from cli_in import invoke_in
from printkit.rulebook import markdown as md
from printkit.rulebook.producer import render_rulebook

DECKS = Path(__file__).resolve().parents[2] / "decks"
FIRE_RED = (0xD9, 0x48, 0x3B)  # the outer flame of Emberfall's fire.svg
SPEC = """\
game: demo
name: Tiny
art: {colors: {ember: "#2a7fd4"}}
icons:
  fire: icons/fire.svg
  mark: circle
groups:
  - name: a
    cards: [{n: 1}, {n: 2}, {n: 3}]
"""


@pytest.fixture
def deck(tmp_path) -> Path:
    folder = tmp_path / "deck"
    (folder / "icons").mkdir(parents=True)
    shutil.copy(DECKS / "emberfall" / "icons" / "fire.svg", folder / "icons" / "fire.svg")
    (folder / "tiny.yaml").write_text(SPEC, encoding="utf-8")
    return folder


def write(folder: Path, lang: str, text: str) -> None:
    (folder / f"tiny.rules.{lang}.md").write_text(text, encoding="utf-8")


def pages(data: bytes, scale: float = 2.0):
    pdf = pdfium.PdfDocument(data)
    try:
        return ([pdf[i].get_textpage().get_text_range() for i in range(len(pdf))],
                [pdf[i].render(scale=scale).to_pil().convert("RGB") for i in range(len(pdf))])
    finally:
        pdf.close()


def near(image, rgb, tolerance=40) -> int:
    """How many pixels of ``image`` are within ``tolerance`` of ``rgb`` in every channel."""
    r, g, b = rgb
    return sum(1 for p in image.get_flattened_data()
               if abs(p[0] - r) <= tolerance and abs(p[1] - g) <= tolerance and abs(p[2] - b) <= tolerance)


def test_an_icon_in_every_kind_of_block_is_drawn_and_never_printed_as_its_name(deck):
    write(deck, "en", "# Rules\n\n## Burn :fire:\n\nPay :fire: to play.\n\n- one :fire:\n\n"
                      "| Cost | Gain |\n|---|---|\n| 2 :fire: | 1 |\n\n> Mind the :fire:.\n")
    texts, images = pages(render_rulebook(deck / "tiny.yaml", "en").data)
    every = "\n".join(texts)
    assert ":fire:" not in every and "Pay" in every and "to play." in every
    assert near(images[0], FIRE_RED) > 5 * 40  # five flames, each some hundred pixels at 144 dpi
    write(deck, "en", "# Rules\n\n## Burn\n\nPay to play.\n")
    _, plain = pages(render_rulebook(deck / "tiny.yaml", "en").data)
    assert near(plain[0], FIRE_RED) == 0


def test_an_icon_is_sized_to_its_text_and_sits_on_its_line(deck):
    write(deck, "en", "# Rules\n\nPay :fire: to play.\n")
    texts, images = pages(render_rulebook(deck / "tiny.yaml", "en").data, scale=4.0)
    image = images[0]
    ys = [y for y in range(image.height) for x in range(0, image.width, 2)
          if abs(image.getpixel((x, y))[0] - FIRE_RED[0]) < 30 and abs(image.getpixel((x, y))[1] - FIRE_RED[1]) < 30
          and abs(image.getpixel((x, y))[2] - FIRE_RED[2]) < 30]
    height_pt = (max(ys) - min(ys)) / 4.0
    assert 4 < height_pt < 12  # about a capital's height of 10.5 pt text, not a picture's own size


def test_a_span_colours_rule_text_and_an_ink_icon_in_it(deck):
    write(deck, "en", "# Rules\n\nA [blue words :mark:]{color=ember size=1.5} here.\n")
    texts, images = pages(render_rulebook(deck / "tiny.yaml", "en").data)
    assert "blue words" in texts[0] and "{color" not in texts[0] and "[" not in texts[0]
    assert near(images[0], (0x2A, 0x7F, 0xD4), 30) > 200


def test_an_unknown_icon_is_an_error_at_its_line_in_check_and_build(deck):
    write(deck, "en", "# Rules\n\nFirst line.\n\nPay :fier: to play.\n")
    for command in (("check", "tiny.yaml"), ("build", "tiny.yaml", "--out", "out")):
        result = invoke_in(deck, *command)
        assert result.exit_code == 1, result.output
        [line] = result.stderr.strip().splitlines()
        assert line.startswith("tiny.rules.en.md:5:5: unknown icon ':fier:' (did you mean ':fire:'?"), line
        assert "Traceback" not in result.output


def test_a_bad_span_is_an_error_at_its_line(deck):
    write(deck, "en", "# Rules\n\nA [word]{colour=red}.\n")
    result = invoke_in(deck, "check", "tiny.yaml")
    assert result.exit_code == 1
    assert "tiny.rules.en.md:3:3: span {colour=red}: unknown attribute 'colour=red'" in result.stderr
    write(deck, "en", "# Rules\n\nA [word]{color=rust}.\n")
    result = invoke_in(deck, "check", "tiny.yaml")
    assert "tiny.rules.en.md:3:3: span color 'rust' is neither #rgb/#rrggbb nor a name in art.colors" in result.stderr


def test_a_character_no_font_draws_is_named_with_its_line_and_how_to_add_a_font(deck):
    write(deck, "en", "# Rules\n\nA tile \U0001F004 here.\n")
    for command in (("check", "tiny.yaml"), ("build", "tiny.yaml", "--out", "out")):
        result = invoke_in(deck, *command)
        assert result.exit_code == 1
        message = result.stderr.strip()
        assert message.startswith("tiny.rules.en.md:3: no bundled font has the character(s) '\U0001F004' "
                                  "U+1F004"), message
        assert "art: font:" in message


def test_a_french_rule_text_builds_a_french_rulebook_beside_the_others(deck):
    write(deck, "en", "# Rules\n\nDeal the cards.\n")
    write(deck, "fr", "# Règles\n\nDistribuez les cartes : « à vous » :fire:.\n")
    write(deck, "pt-BR", "# Regras\n\nDistribua as cartas.\n")
    result = invoke_in(deck, "build", "tiny.yaml", "--out", "out")
    assert result.exit_code == 0, result.output
    out = deck / "out" / "tiny"
    assert sorted(p.name for p in out.glob("rulebook-*.pdf")) == [
        "rulebook-en-a4.pdf", "rulebook-fr-a4.pdf", "rulebook-pt-BR-a4.pdf"]
    texts, images = pages((out / "rulebook-fr-a4.pdf").read_bytes())
    assert "Distribuez les cartes" in texts[0] and "Règles" in texts[0] and ":fire:" not in texts[0]
    assert near(images[0], FIRE_RED) > 40
    assert "Regras" in pages((out / "rulebook-pt-BR-a4.pdf").read_bytes())[0][0]


def test_a_rule_text_named_with_no_language_tag_is_an_error(deck):
    write(deck, "en", "# Rules\n\nDeal.\n")
    (deck / "tiny.rules.my draft.md").write_text("# x\n", encoding="utf-8")
    result = invoke_in(deck, "build", "tiny.yaml", "--out", "out")
    assert result.exit_code == 1
    assert "'my draft' is not a language tag" in result.stderr


def test_icon_and_span_markup_reads_as_card_text_reads_it():
    spans = md.parse_inline(r"3:gold: \:x: [a *b*]{color=#c33 size=1.2} [plain] 10:30", icons={"gold"})
    assert [(s.text, s.icon, s.italic, s.color, s.size) for s in spans] == [
        ("3", None, False, None, 1.0), ("", "gold", False, None, 1.0), (" :x: ", None, False, None, 1.0),
        ("a ", None, False, "#c33", 1.2), ("b", None, True, "#c33", 1.2), (" [plain] 10:30", None, False, None, 1.0)]
    # values quoted into a text print as written: no icon, no span
    assert md.plain(md.escape("[x]{color=red} :gold:")) == "[x]{color=red} :gold:"


def test_anatomy_labels_follow_the_books_language():
    from printkit.rulebook.designed import anatomy_figure
    from printkit.decks import load_all_variants

    deck = load_all_variants(DECKS / "emberfall.yaml")[0]
    labels = lambda lang: [label for label, _ in anatomy_figure(deck, "ember-drake: cost, element_icon", lang).parts]  # noqa: E731
    assert labels("ko") == ["비용", "원소"]
    assert labels("en") == labels("fr") == ["cost", "element icon"]


def test_a_card_text_span_check_cannot_set_is_an_error_at_the_card(tmp_path):
    spec = ("game: demo\nname: Spans\nart: {colors: {fire: \"#b8432f\"}}\nlayouts:\n  f:\n    elements:\n"
            "      - {kind: text, text: \"{text}\", size: 4mm}\ngroups:\n  - name: a\n    layout: f\n    cards:\n"
            "      - {text: \"Deal [3 :star:]{color=fire} damage\"}\n      - {text: \"Bad [x]{color=rust}\"}\n")
    (tmp_path / "t.yaml").write_text(spec, encoding="utf-8")
    result = invoke_in(tmp_path, "check", "t.yaml", "--no-play")
    assert result.exit_code == 1
    assert result.stderr.startswith("t.yaml:13:9: ")
    assert "span color 'rust' is neither #rgb/#rrggbb nor a name in art.colors (names: background, fire, ink)" \
        in result.stderr


def test_right_to_left_text_is_refused_at_its_line(tmp_path):
    """Arabic letters DejaVu Sans has would print unjoined, left to right: an error, not a garbled book."""
    from printkit.rulebook.book import font_runs, REGULAR

    with pytest.raises(KeyError, match="right-to-left text"):
        font_runs("قواعد اللعبة", REGULAR)


BLURRY = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\n'
          '<defs><filter id="b"><feGaussianBlur stdDeviation="1"/></filter></defs>\n'
          '<circle cx="5" cy="5" r="4" fill="red" filter="url(#b)"/>\n</svg>\n')


def test_an_icon_whose_picture_has_a_filter_is_a_warning_at_its_first_use_from_check_and_build(deck):
    (deck / "icons" / "blurry.svg").write_text(BLURRY, encoding="utf-8")
    (deck / "tiny.yaml").write_text(SPEC.replace("  mark: circle", "  mark: circle\n  blurry: icons/blurry.svg"),
                                    encoding="utf-8")
    write(deck, "en", "# Rules\n\nA blurry :blurry: icon, and :blurry: again.\n\n- one :blurry:\n")
    warning = ("tiny.rules.en.md:3:10: icon 'blurry': picture 'icons/blurry.svg': <circle> at line 3: "
               "its filter is not drawn; flatten the effect into paths or a picture")
    for command in (("check", "tiny.yaml", "--no-play"), ("build", "tiny.yaml", "--out", "out", "--no-proof")):
        result = invoke_in(deck, *command)
        assert result.exit_code == 0, result.output
        said = [line for line in result.output.splitlines() if "tiny.rules.en.md" in line]
        assert len(said) == 1 and said[0].endswith(warning), said  # once, however often the text uses it
