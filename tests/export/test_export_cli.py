"""The export command: bad input is one error line and exit 1; the default folder."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from printkit.cli import main

REPO = Path(__file__).resolve().parents[2]


def test_unknown_target_is_one_line_and_exit_1():
    result = CliRunner().invoke(main, ["export", "calc", "--for", "nope"])
    assert result.exit_code == 1
    assert result.output.strip() == ("error: unknown export target 'nope' "
                                     "(expected one of: tgc, mpc, drivethrucards, print-shop, tts)")


def test_a_deck_size_the_service_lacks_is_one_line_naming_its_sizes(tmp_path):
    spec = tmp_path / "big.yaml"
    spec.write_text("game: big\nname: Big\ncard: {size: tarot}\ngroups:\n  - name: a\n    cards: [{n: 1}]\n",
                    encoding="utf-8")
    result = CliRunner().invoke(main, ["export", str(spec), "--for", "tgc", "--out", str(tmp_path / "o")])
    assert result.exit_code == 1
    assert result.output.strip() == ("error: The Game Crafter takes poker (63.5 x 88.9 mm); "
                                     "Big's cards are tarot (70 x 120 mm)")
    assert not (tmp_path / "o").exists()


def test_options_of_another_target_are_refused():
    result = CliRunner().invoke(main, ["export", "calc", "--for", "tgc", "--base-url", "https://x"])
    assert result.exit_code == 1 and "--base-url is for --for tts only" in result.output
    result = CliRunner().invoke(main, ["export", "calc", "--for", "mpc", "--no-rulebooks"])
    assert result.exit_code == 1
    assert result.output.strip() == "error: --no-rulebooks is for --for print-shop only (mpc takes no rulebook)"


def test_a_base_url_that_is_no_http_folder_address_is_refused_before_the_deck_is_read(tmp_path):
    refused = {
        "https://example.org/deck?v=2": "has a query (?) or a fragment (#)",
        "https://example.org/deck#top": "has a query (?) or a fragment (#)",
        "my images/": "holds a space",
        "images/": "is not an http:// or https:// address",
        "javascript:alert(1)": "is not an http:// or https:// address",
        "ftp://example.org/deck/": "is not an http:// or https:// address",
        "file:///home/me/deck/": "is not an http:// or https:// address",
        "https://exa mple.org/": "holds a space",
        "https://example.org/a\tb/": "holds a space, a backslash or a control character",
        "https://example.org\\deck/": "holds a space, a backslash or a control character",
        "https:///deck/": "names no host",
        "https://example.org:http/": "is not a web address",
        "": "is not an http:// or https:// address",
    }
    for url, problem in refused.items():
        result = CliRunner().invoke(main, ["export", "no-such-deck", "--for", "tts", "--base-url", url,
                                           "--out", str(tmp_path / "o")])
        assert result.exit_code == 1, url
        assert result.output.startswith(f"error: --base-url {url!r} {problem}"), result.output
        assert result.output.strip().endswith("write the http:// or https:// address of the folder you will "
                                              "upload images/ to, such as --base-url https://example.org/mydeck/")
        assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()


def test_no_rulebooks_leaves_the_print_shop_export_without_them(tmp_path):
    result = CliRunner().invoke(main, ["export", "emberfall", "--for", "print-shop", "--no-rulebooks",
                                       "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "o" / "upload").iterdir()) == ["cards.pdf"]


def test_default_folder_is_beside_the_decks_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "tiny.yaml").write_text((REPO / "tests" / "data" / "tiny.yaml").read_text())
    result = CliRunner().invoke(main, ["export", "decks/tiny.yaml", "--for", "print-shop"])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "output" / "tiny" / "export-print-shop"
    # The files to send sit in upload/ alone; printkit's manifest and README beside it.
    assert sorted(p.name for p in folder.iterdir()) == ["README.txt", "manifest.json", "upload"]
    assert sorted(p.name for p in (folder / "upload").iterdir()) == ["cards.pdf"]
    # A second export replaces exactly its own files.
    assert CliRunner().invoke(main, ["export", "decks/tiny.yaml", "--for", "print-shop"]).exit_code == 0


def test_export_is_documented():
    result = CliRunner().invoke(main, ["export", "--help"])
    assert "Example: printkit export" in result.output
    assert "printkit export DECK --for TARGET" in (REPO / "README.md").read_text(encoding="utf-8")
    assert "## `printkit export DECK --for TARGET" in (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
