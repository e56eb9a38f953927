"""The default variant is the one every "none named" path uses; overrides are judged over every variant."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from printkit.cli import main
from printkit.errors import SpecError
from printkit.rulebook.producer import prepare
from printkit.spec import default_deck, load_spec
from printkit.decks import expand_all, load_deck

# Two variants where the default is the second one: small has 2 cards, big has 4.
SPEC = """game: orchard
name: Orchard
default_variant: big
variants:
  small: {exclude: [{value: 2}]}
  big: {}
groups:
  - name: fruit
    generate: {fruit: [apple, pear], value: [1, 2]}
    overrides:
      - match: {value: 2}
        attrs: {title: Gold}
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "orchard.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_default_variant_not_the_first_is_loaded_when_none_is_named(tmp_path):
    path = write(tmp_path, SPEC)
    assert load_deck(path).variant == "big"
    decks = list(expand_all(load_spec(path)))
    assert [d.variant for d in decks] == ["small", "big"]  # the file's order is kept
    assert default_deck(decks).variant == "big"
    # Without default_variant, the first variant is the default.
    plain = write(tmp_path, SPEC.replace("default_variant: big\n", ""))
    assert load_deck(plain).variant == "small"
    assert default_deck(list(expand_all(load_spec(plain)))).variant == "small"


def test_a_rulebook_counts_the_default_variant(tmp_path):
    path = write(tmp_path, SPEC)
    text = tmp_path / "orchard.rules.en.md"
    text.write_text("# Orchard\n\nThe deck has {{ deck.total }} cards.\n", encoding="utf-8")
    doc, deck, _ = prepare(path, "en", text)
    assert deck.variant == "big"
    assert "4 cards" in repr(doc)


def test_export_without_variant_exports_the_default(tmp_path):
    path = write(tmp_path, SPEC)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["export", str(path), "--for", "tts", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "README.txt").read_text(encoding="utf-8").startswith("Orchard (big): export")


def test_export_help_names_default_variant():
    result = CliRunner().invoke(main, ["export", "--help"])
    assert "default_variant" in result.output and "spec's first," not in result.output


def test_an_override_matching_cards_only_in_another_variant_is_fine(tmp_path):
    path = write(tmp_path, SPEC)
    small = load_deck(path, "small")  # excludes every value-2 card the override is for
    assert len(small) == 2 and not any("title" in c.attrs for c in small.cards)
    big = load_deck(path, "big")
    assert sum(1 for c in big.cards if c.get("title") == "Gold") == 2


def test_an_override_matching_no_card_in_any_variant_names_them_all(tmp_path):
    path = write(tmp_path, SPEC.replace("variants:\n  small: {exclude: [{value: 2}]}\n  big: {}",
                                        "variants:\n  small: {exclude: [{value: 2}]}\n  big: {exclude: [{value: 2}]}"))
    for variant in ("small", "big"):
        with pytest.raises(SpecError) as info:
            load_deck(path, variant)
        error = info.value
        assert error.message == ("override match {'value': 2} matches no card in group 'fruit' "
                                 "in variants 'small', 'big'")
        line = path.read_text(encoding="utf-8").splitlines()[error.line - 1]
        assert line[error.column - 1:] == "{value: 2}"


def test_overrides_are_judged_over_variants_in_linear_work(tmp_path, monkeypatch):
    """An override that misses most variants is judged against the others without rescanning
    every card of every variant for each variant: the work grows with the variants, not with their
    square. (Each variant but the last leaves out the cards its overrides are for.)"""
    import importlib

    from printkit.decks import load_all_variants

    expanding = importlib.import_module("printkit.spec.expand")  # the module

    def work(variants: int) -> int:
        folder = tmp_path / str(variants)
        folder.mkdir()
        (folder / "cards.csv").write_text("id,title\n" + "".join(f"r{i},T{i}\n" for i in range(100)))
        left_out = "[" + ", ".join(f"{{id: r{i}}}" for i in range(10)) + "]"
        (folder / "deck.yaml").write_text(
            "game: ov\nname: Ov\ngroups:\n  - name: g\n    data: cards.csv\n    overrides:\n"
            + "".join(f"      - {{match: {{id: r{i}}}, attrs: {{title: X}}}}\n" for i in range(10))
            + "variants:\n" + "".join(f"  v{i}: {{exclude: {left_out}}}\n" for i in range(variants - 1))
            + f"  v{variants - 1}: {{}}\n")
        calls = [0]
        real = expanding.matches
        monkeypatch.setattr(expanding, "matches", lambda *a: calls.__setitem__(0, calls[0] + 1) or real(*a))
        assert len(load_all_variants(folder / "deck.yaml")) == variants
        monkeypatch.setattr(expanding, "matches", real)
        return calls[0]

    assert work(40) < 6 * work(10)
