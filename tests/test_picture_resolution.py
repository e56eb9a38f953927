"""A PNG or JPEG printed below 150 DPI where it is placed is a warning naming it, its card and element."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image as PILImage

from printkit.cli import main
from printkit.layout.ops import Image
from printkit.layout.resolution import low_resolution, resolution

DECK = """game: soft
name: Soft
card: {size: poker}
layouts:
  card:
    elements:
      - {name: art, kind: image, image: "{pic}", x: 5mm, y: 5mm, width: 40mm, height: 40mm}
      - {kind: text, text: "{title}", x: 5mm, y: 50mm, width: 40mm, height: 10mm}
groups:
  - name: cards
    layout: card
    cards:
      - {title: Alpha, pic: tiny.png}
      - {title: Beta, pic: tiny.png}
      - {title: Gamma, pic: sharp.png}
      - {title: Delta, pic: art.svg}
"""
SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>'
TINY = ("cards[title=Alpha, pic=tiny.png]#1 art (soft.yaml:7:9): picture 'tiny.png': 40 x 55 px drawn at "
        "40.0 x 55.0 mm is 25 DPI, below 150; print services commonly ask 300 DPI: give it at least 473 x 650 px "
        "(and 1 more distinct card)")


def _png(path: Path, size: tuple[int, int]) -> None:
    PILImage.new("RGB", size, (200, 80, 40)).save(path)


def _deck(folder: Path) -> Path:
    _png(folder / "tiny.png", (40, 55))
    _png(folder / "sharp.png", (400, 400))  # 254 DPI over 40 mm
    (folder / "art.svg").write_text(SVG, encoding="utf-8")
    spec = folder / "soft.yaml"
    spec.write_text(DECK, encoding="utf-8")
    return spec


def test_check_and_build_say_it_once_per_picture_and_size(tmp_path, monkeypatch):
    _deck(tmp_path)
    monkeypatch.chdir(tmp_path)
    checked = CliRunner().invoke(main, ["check", "soft.yaml"])
    assert checked.exit_code == 0, checked.output
    warnings = [line.strip() for line in checked.output.splitlines() if "warning:" in line]
    assert warnings == [f"warning: {TINY}"]
    built = CliRunner().invoke(main, ["build", "soft.yaml", "--no-rulebooks"])
    assert built.exit_code == 0, built.output
    warnings = [line for line in built.output.splitlines() if line.startswith("warning:")]
    assert warnings == [f"warning: soft: {TINY}"]


def test_the_proof_page_marks_the_cards_showing_it(tmp_path, monkeypatch):
    _deck(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["build", "soft.yaml", "--no-rulebooks"]).exit_code == 0
    page = (tmp_path / "output" / "soft" / "proof.html").read_text(encoding="utf-8")
    figures = dict(re.findall(r'<figure id="([^"]+)"[^>]*data-warnings="(\d)"', page))
    assert figures == {"001-cards-alpha": "1", "002-cards-beta": "1", "003-cards-gamma": "0",
                       "004-cards-delta": "0", "back-1": "0"}
    assert page.count('class="has-warn"') == 2
    assert page.count('<div class="w">&#9888; art (soft.yaml:7:9): picture &#x27;tiny.png&#x27;: 40 x 55 px drawn '
                      'at 40.0 x 55.0 mm is 25 DPI, below 150') == 2


def test_a_background_picture_is_measured_over_the_bleed_box(tmp_path):
    _png(tmp_path / "tiny.png", (40, 55))
    (tmp_path / "bg.yaml").write_text("game: bg\nname: Bg\ncard: {size: poker}\nart: {background_image: tiny.png}\n"
                                      "groups:\n  - name: cards\n    cards: [{title: Alpha}]\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(tmp_path / "bg.yaml")])
    # 63.5 x 88.9 mm and 3 mm of bleed: 69.5 x 94.9 mm, covered by a 40:55 picture 69.5 x 95.6 mm.
    assert ("warning: cards[title=Alpha]#1 art background_image: picture 'tiny.png': 40 x 55 px drawn at "
            "69.5 x 95.6 mm is 15 DPI, below 150; print services commonly ask 300 DPI: give it at least "
            "821 x 1129 px") in result.output


@pytest.mark.parametrize("fit, drawn, dpi", [("cover", (40.0, 55.0), 25.4), ("contain", (40 * 40 / 55, 40.0), 34.925),
                                             ("stretch", (40.0, 40.0), 25.4)])
def test_fit_decides_the_size_a_picture_prints_at(tmp_path, fit, drawn, dpi):
    _png(tmp_path / "tiny.png", (40, 55))
    found = resolution(Image(0, 0, 40, 40, tmp_path / "tiny.png", fit=fit))
    assert found.pixels == (40, 55)
    assert found.drawn_mm == pytest.approx(drawn) and found.dpi == pytest.approx(dpi, rel=1e-3)


def test_exif_orientation_and_quarter_turns_are_followed(tmp_path):
    stored = io.BytesIO()
    exif = PILImage.Exif()
    exif[0x0112] = 6  # shown a quarter turn clockwise: 50 x 100
    PILImage.new("RGB", (100, 50), (10, 20, 30)).save(stored, "JPEG", exif=exif)
    (tmp_path / "turned.jpg").write_bytes(stored.getvalue())
    found = resolution(Image(0, 0, 20, 40, tmp_path / "turned.jpg", fit="stretch"))
    assert found.pixels == (50, 100) and found.dpi == pytest.approx(63.5)
    found = resolution(Image(0, 0, 40, 20, tmp_path / "turned.jpg", fit="stretch", quarter_turns=1))
    assert found.pixels == (100, 50) and found.dpi == pytest.approx(63.5)


def test_svg_art_and_sharp_pictures_are_not_warned(tmp_path):
    (tmp_path / "art.svg").write_text(SVG, encoding="utf-8")
    _png(tmp_path / "sharp.png", (237, 237))  # 150.5 DPI over 40 mm
    assert resolution(Image(0, 0, 40, 40, tmp_path / "art.svg")) is None
    assert low_resolution(Image(0, 0, 40, 40, tmp_path / "sharp.png")) is None
    assert low_resolution(Image(0, 0, 40, 40, tmp_path / "sharp.png"), below=300) is not None


ICONS = """game: ic
name: Ic
card: {size: poker}
icons: {spark: spark.png, vector: art.svg}
layouts:
  card:
    elements:
      - {name: badge, kind: icon, icon: spark, x: 5mm, y: 5mm, width: 20mm, height: 20mm}
      - {name: flat, kind: icon, icon: vector, x: 30mm, y: 5mm, width: 20mm, height: 20mm}
      - {name: rule, kind: text, text: "{text}", x: 5mm, y: 50mm, width: 50mm, height: 10mm, size: 4mm}
groups:
  - name: cards
    layout: card
    cards: [{text: "Gain :spark: and :spark: and :vector:"}]
"""


def test_an_icon_drawn_from_a_png_is_warned_where_it_prints_soft(tmp_path, monkeypatch):
    _png(tmp_path / "spark.png", (16, 16))
    (tmp_path / "art.svg").write_text(SVG, encoding="utf-8")
    (tmp_path / "ic.yaml").write_text(ICONS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    badge = ("cards[text=Gain :spark: and :spark: and :vector:]#1 badge: icon 'spark': picture "
             "'spark.png': 16 x 16 px drawn at 20.0 x 20.0 mm is 20 DPI, below 150; print services commonly ask "
             "300 DPI: give it at least 237 x 237 px")
    checked = CliRunner().invoke(main, ["check", "ic.yaml"])
    assert checked.exit_code == 0, checked.output
    assert [line.strip() for line in checked.output.splitlines() if "warning:" in line] == [f"warning: {badge}"]
    built = CliRunner().invoke(main, ["build", "ic.yaml", "--no-rulebooks"])
    assert built.exit_code == 0, built.output
    warnings = [line for line in built.output.splitlines() if line.startswith("warning:")]
    # The icon in the text, twice at one size, is said once; the SVG icons never.
    assert warnings[0] == f"warning: ic: {badge}"
    assert len(warnings) == 2 and re.fullmatch(
        r"warning: ic: cards\[.*\]#1 rule: icon 'spark': picture 'spark.png': 16 x 16 px drawn at ([\d.]+) x \1 mm "
        r"is \d+ DPI, below 150; print services commonly ask 300 DPI: give it at least (\d+) x \2 px", warnings[1])
    # The export says it too, in its warnings and in README.txt.
    exported = CliRunner().invoke(main, ["export", "ic.yaml", "--for", "print-shop", "--out", "shop"])
    assert exported.exit_code == 0, exported.output
    assert f"warning: ic: {badge}" in exported.output.splitlines()
    readme = " ".join((tmp_path / "shop" / "README.txt").read_text(encoding="utf-8").split())
    said = [line for line in exported.output.splitlines() if line.startswith("warning:")]
    assert len(said) == 2 and all(f"- {line[len('warning: ic: '):]}" in readme for line in said)


def test_a_finding_is_worded_by_one_function_for_build_and_export(tmp_path):
    _png(tmp_path / "tiny.png", (40, 55))
    op = Image(0, 0, 40, 40, tmp_path / "tiny.png")
    found = resolution(op)
    assert found.said() == low_resolution(op) == ("40 x 55 px drawn at 40.0 x 55.0 mm is 25 DPI, below 150; print "
                                                  "services commonly ask 300 DPI: give it at least 473 x 650 px")
    assert found.said(300, 300, "The Game Crafter asks") == low_resolution(op, 300, 300, "The Game Crafter asks")


def test_a_picture_turned_a_quarter_is_said_in_its_files_own_pixels(tmp_path, monkeypatch):
    # 200 x 100 px turned 90 degrees into a 30 x 60 mm box: asking for 355 x 709 px would have the
    # designer redraw it sideways; the file's own orientation is 709 x 355.
    _png(tmp_path / "r200.png", (200, 100))
    (tmp_path / "rot.yaml").write_text(
        "game: rot\nname: Rot\ncard: {size: poker}\nlayouts:\n  f:\n    elements:\n"
        "      - {kind: image, image: r200.png, x: 0, y: 0, width: 30mm, height: 60mm, fit: contain, rotate: 90}\n"
        "groups:\n  - {name: c, layout: f, cards: [{title: a}]}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    checked = CliRunner().invoke(main, ["check", "rot.yaml"])
    assert checked.exit_code == 0, checked.output
    assert ("picture 'r200.png': 200 x 100 px, turned a quarter turn, drawn at 30.0 x 60.0 mm is 85 DPI, below "
            "150; print services commonly ask 300 DPI: give it at least 709 x 355 px") in checked.output
    found = resolution(Image(0, 0, 30, 60, tmp_path / "r200.png", fit="contain", quarter_turns=3))
    assert found.turned and found.said().startswith("200 x 100 px, turned a quarter turn,")
    upright = resolution(Image(0, 0, 60, 30, tmp_path / "r200.png", fit="contain", quarter_turns=2))
    assert not upright.turned and upright.said().endswith("give it at least 709 x 355 px")
