"""No card attribute may take the name of one of printkit's own values a layout reads
(``{_group}``, ``{_back_image}`` ...): a template would read printkit's value, not the card's."""

from __future__ import annotations

import pytest

from printkit.deck import OWN_VALUES

from cli_in import assert_one_error, check_in, invoke_in

HEAD = "game: own\nname: Own\ncard: {size: poker}\n"


@pytest.mark.parametrize("name", OWN_VALUES)
def test_a_cards_attribute_named_like_printkits_own_value_is_refused_at_its_key(name, tmp_path):
    spec = HEAD + f"groups:\n  - name: cards\n    cards:\n      - {{title: One, {name}: promo}}\n"
    assert_one_error(tmp_path, spec, f"{name}: promo", f"{name!r} is printkit's own value")


@pytest.mark.parametrize("where", ["generate", "attrs", "combine"])
def test_every_way_of_naming_attributes_refuses_them(where, tmp_path):
    group = {"generate": "    generate: {_role: [a, b]}\n",
             "attrs": "    attrs: {_group: x}\n    cards: [{title: One}]\n",
             "combine": "    combine: {attr: _languages, of: [a, b], size: 1}\n"}[where]
    needle = {"generate": "_role", "attrs": "_group", "combine": "_languages"}[where]
    assert_one_error(tmp_path, HEAD + "groups:\n  - name: cards\n" + group, needle, "is printkit's own value")


def test_a_data_files_column_named_like_printkits_own_value_is_refused_at_its_cell(tmp_path):
    (tmp_path / "cards.csv").write_text("title,_back_image\nOne,promo\n", encoding="utf-8")
    (tmp_path / "deck.yaml").write_text(HEAD + "groups:\n  - {name: cards, data: cards.csv}\n", encoding="utf-8")
    result = invoke_in(tmp_path, "check", "deck.yaml", "--no-play")
    assert result.exit_code == 1, result.output
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("cards.csv:1:2: column name '_back_image' is printkit's own value"), line


@pytest.mark.parametrize("name, says", [("my-cost!", "is not a valid name"), ("_role", "is printkit's own value"),
                                        ("a" * 65, "is too long for a name: at most 64 characters, got 65")])
def test_a_spec_key_and_a_data_column_are_refused_a_name_with_the_same_words(name, says, tmp_path):
    spec = HEAD + f"groups:\n  - name: cards\n    cards:\n      - {{title: One, '{name}': x}}\n"
    assert_one_error(tmp_path, spec, "title: One", says)
    in_spec = check_in(tmp_path, spec).stderr.strip().split(": ", 1)[1]
    (tmp_path / "cards.csv").write_text(f"title,{name}\nOne,x\n", encoding="utf-8")
    result = check_in(tmp_path, HEAD + "groups:\n  - {name: cards, data: cards.csv}\n")
    assert result.stderr.strip() == f"cards.csv:1:2: column name {in_spec}"
