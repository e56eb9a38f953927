"""README.txt names each picture that prints below the service's DPI (its profile's, else 150), among
what the export warned of."""

from __future__ import annotations

from PIL import Image

from printkit.decks import load_deck
from printkit.export import ExportOptions, export_deck

DECK = """game: soft
name: Soft
card: {size: poker, bleed: 0.125in}
art: {background_image: bg.png}
groups:
  - name: cards
    cards: [{title: Alpha}, {title: Beta}]
"""


def _export(tmp_path, pixels, target):
    Image.new("RGB", pixels, (30, 90, 160)).save(tmp_path / "bg.png")
    spec = tmp_path / "soft.yaml"
    spec.write_text(DECK, encoding="utf-8")
    out = tmp_path / target
    result = export_deck(load_deck(str(spec)), ExportOptions(target=target, out_dir=out))
    readme = (out / "README.txt").read_text(encoding="utf-8")
    # What the export warned of, one "- " line each (wrapped), as a person reads it.
    look = readme.split("Look at these before you order\n------------------------------\n")[1].split("\n\n")[0]
    return " ".join(look.split()), result.warnings


def test_below_the_services_own_dpi_is_named_once_for_all_cards(tmp_path):
    # 550 x 750 px over the 2.75 x 3.75 in bleed box: 200 DPI, under The Game Crafter's 300.
    readme, warnings = _export(tmp_path, (550, 750), "tgc")
    line = ("picture 'bg.png' on the front of cards 'Alpha' and 1 more distinct card: 550 x 750 px drawn at "
            "69.8 x 95.2 mm is 200 DPI, below 300; The Game Crafter asks 300 DPI: give it at least 825 x 1125 px.")
    assert "- " + line in readme
    assert readme.count("picture 'bg.png'") == 1
    assert [w for w in warnings if "bg.png" in w] == [f"soft: {line}"]


def test_without_a_dpi_in_the_profile_150_is_the_floor(tmp_path):
    readme, _ = _export(tmp_path, (550, 750), "print-shop")
    assert readme == "None: printkit warned of nothing as it made this export."
    readme, warnings = _export(tmp_path, (55, 75), "print-shop")
    # Said by the faces themselves (below 150 everywhere), not again by the export; README.txt
    # says it as the command line does.
    assert not [w for w in warnings if "on the front of" in w]
    [said] = [w for w in warnings if "bg.png" in w]
    assert said == ("soft: cards[title=Alpha]#1 art background_image: picture 'bg.png': 55 x 75 px drawn at "
                    "69.8 x 95.2 mm is 20 DPI, below 150; print services commonly ask 300 DPI: give it at least "
                    "825 x 1125 px (and 1 more distinct card)")
    assert "- " + said[len("soft: "):] in readme and readme.count("bg.png") == 1


def test_a_deck_whose_bleed_differs_from_the_services_is_warned_once_at_the_size_printed(tmp_path):
    # The deck's 1 mm bleed is laid out by the build's checks, The Game Crafter's 0.125 in by the
    # export: only the size that prints is said.
    from click.testing import CliRunner

    from printkit.cli import main

    Image.new("RGB", (100, 140), (200, 50, 50)).save(tmp_path / "pic.png")
    (tmp_path / "soft.yaml").write_text(
        "game: soft\nname: Soft\ncard: {size: poker, bleed: 1mm}\nlayouts:\n  front:\n    elements:\n"
        "      - {kind: image, image: pic.png, x: 0, y: 0, width: 100%, height: 100%, frame: bleed}\n"
        "groups:\n  - name: cards\n    layout: front\n    cards: [{title: Alpha}]\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["export", str(tmp_path / "soft.yaml"), "--for", "tgc", "--out",
                                       str(tmp_path / "tgc")])
    assert result.exit_code == 0, result.output
    said = [line for line in result.stderr.splitlines() if "pic.png" in line]
    assert len(said) == 1 and "100 x 140 px drawn at 69.8 x 97.8 mm is 36 DPI" in said[0], said
