"""`printkit schema` is a valid JSON Schema that editors can check specs with."""

from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from printkit.spec.models import json_schema
from printkit.spec.yamlread import parse_yaml

DECKS = Path(__file__).resolve().parents[2] / "decks"
VALIDATOR = Draft202012Validator(json_schema())


def test_schema_is_valid_draft_2020_12():
    Draft202012Validator.check_schema(json_schema())


@pytest.mark.parametrize("spec", sorted(DECKS.glob("*.yaml")), ids=lambda p: p.name)
def test_schema_accepts_the_shipped_decks(spec):
    data = parse_yaml(spec.read_bytes(), spec).data
    assert [e.message for e in VALIDATOR.iter_errors(data)] == []


@pytest.mark.parametrize("change", [
    {"colour": "red"},                                        # unknown key
    {"card": {"bleed": [3]}},                                 # a list for a length
    {"groups": []},                                           # no group
    {"art": {"colors": {"ink": "black"}}},                    # not a colour
    {"groups": [{"name": "a b", "cards": [{"n": 1}]}]},       # not a name
    {"groups": [{"name": "a", "cards": [{"n": 1}], "copies": True}]},  # true is not a number
    {"groups": [{"name": "a", "data": "cards.txt"}]},                 # not a data file printkit reads
    {"groups": [{"name": "a", "data": "cards.xlsx", "sheet": 3}]},    # a sheet is named by text
])
def test_schema_refuses_what_printkit_refuses(change):
    data = {"game": "g", "name": "N", "groups": [{"name": "a", "cards": [{"n": 1}]}], **change}
    assert list(VALIDATOR.iter_errors(data))


def test_schema_accepts_data_groups():
    data = {"game": "g", "name": "N", "groups": [{"name": "a", "data": "cards.csv"},
                                                   {"name": "b", "data": "more.XLSX", "sheet": "Cards"}]}
    assert [e.message for e in VALIDATOR.iter_errors(data)] == []


def test_every_pattern_the_schema_checks_text_with_is_a_valid_regular_expression():
    """A text field's pattern is compiled when a value first meets it, not on import: every one
    the schema holds compiles (a broken one would otherwise wait for the first spec using it)."""
    import re

    from printkit.spec.models import json_schema

    def patterns(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "pattern" and isinstance(value, str):
                    yield value
                else:
                    yield from patterns(value)
        elif isinstance(node, list):
            for item in node:
                yield from patterns(item)

    found = list(patterns(json_schema()))
    assert len(found) >= 10
    for pattern in found:
        re.compile(pattern)
