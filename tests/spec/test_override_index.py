"""Overrides are found for each card through an index, with the meaning trying each one has."""

from pathlib import Path

from printkit import deck as deck_module
from printkit.deck import MatchIndex, matches
from printkit.decks import expand
from printkit.spec import expand as expand_module, load_spec


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "deck.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_three_hundred_overrides_are_not_tried_on_every_card(tmp_path, monkeypatch):
    rows = "\n".join(f"id,title\nC{n:03d},Card {n}" if n == 0 else f"C{n:03d},Card {n}" for n in range(300))
    (tmp_path / "cards.csv").write_text(rows + "\n", encoding="utf-8")
    overrides = "".join(f"      - {{match: {{id: C{n:03d}}}, attrs: {{art: a{n}.png}}}}\n" for n in range(300))
    spec = write(tmp_path, f"game: g\nname: G\ngroups:\n  - name: n\n    data: cards.csv\n    overrides:\n{overrides}")
    tried = []
    real = deck_module.matches
    monkeypatch.setattr(expand_module, "matches", lambda match, attrs: tried.append(1) or real(match, attrs))
    deck = expand(load_spec(spec))
    assert [card["art"] for card in deck.cards] == [f"a{n}.png" for n in range(300)]
    assert len(tried) <= 2 * 300  # each card its own override (expansion, and the check of every variant)


def test_overrides_apply_in_order_each_seeing_what_the_ones_before_set(tmp_path):
    deck = expand(load_spec(write(tmp_path, """
game: g
name: G
groups:
  - name: n
    attrs: {tags: [a, b]}
    generate: {n: [1, 2, 3]}
    overrides:
      - {match: {n: 3}, attrs: {kind: big}}
      - {match: {kind: big}, attrs: {label: "3 is big"}}
      - {match: {n: "2"}, attrs: {label: two}}
      - {match: {tags: a}, attrs: {tagged: yes}}
      - {match: {n: [1, 2.0]}, attrs: {small: yes}}
""")))
    by_n = {card["n"]: card.attrs for card in deck.cards}
    assert by_n[3]["label"] == "3 is big" and by_n[2]["label"] == "two" and "label" not in by_n[1]
    assert all(attrs["tagged"] == "yes" for attrs in by_n.values())
    assert by_n[1]["small"] == by_n[2]["small"] == "yes" and "small" not in by_n[3]


def test_the_candidates_include_every_override_that_matches():
    overrides = [{"id": "A1"}, {"id": ["A2", 7]}, {"n": 7}, {"flag": True}, {}, {"id": 2.5}, {"tags": "x"}]
    index = MatchIndex(overrides)
    cards = [{"id": "A1"}, {"id": "A2", "n": "7"}, {"id": 7, "flag": True}, {"id": "7"}, {"id": 2.5},
             {"n": 7.0}, {"tags": ("x", "y")}, {"id": True}, {}]
    for attrs in cards:
        candidates = index.candidates(attrs)
        assert candidates == sorted(set(candidates))
        assert {i for i, match in enumerate(overrides) if matches(match, attrs)} <= set(candidates), attrs
    assert index.candidates({"id": "A1"}) == [0, 3, 4, 5]  # filed under id: only the first of those
