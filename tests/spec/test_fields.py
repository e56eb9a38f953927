from dataclasses import dataclass

import pytest

from printkit.spec.fields import (
    INVALID,
    ListOf,
    MapOf,
    Model,
    Number,
    OneOf,
    Optional,
    Problem,
    Scalar,
    Text,
    Whole,
    first_problem,
    no_attribute,
    spec_field,
)
from printkit.spec.models import COLOR, NAME, json_schema, validate


def check(kind, value):
    problems: list[Problem] = []
    return kind.check(value, ("x",), problems), [(p.at, p.message, p.key) for p in problems]


@pytest.mark.parametrize("kind, value, message", [
    (Whole(), True, "x: expected a whole number, got True"),
    (Whole(), "3", "x: expected a whole number, got '3'"),
    (Whole(), 1.0, "x: expected a whole number, got 1.0"),
    (Whole(ge=0), -1, "x: must be at least 0, got -1"),
    (Whole(le=9), 10, "x: must be at most 9, got 10"),
    (Number(), False, "x: expected a number, got False"),
    (Text(), 3, "x: expected text, got 3"),
    (Text(), None, "x: expected text, got an empty value"),
    (Text(max_length=3), "abcd", "x: may have at most 3 characters, got 4"),
    (NAME, "1a", "x: '1a' is not a valid name: use ASCII letters, digits, '_' and '-', starting with a letter"),
    (Scalar(), [1], "x: expected text, a number or true/false, got a list"),
    (ListOf(Whole(), min_length=1), [], "x: needs at least 1 item(s), got 0"),
    (ListOf(Whole(), max_length=1), [1, 2], "x: may have at most 1 items, got 2"),
    (MapOf(Whole()), [], "x: expected a mapping of keys, got a list"),
    (OneOf(Text(), ListOf(Text())), {}, "x: expected text or a list, got a mapping"),
])
def test_wrong_values_are_named_with_their_path(kind, value, message):
    result, problems = check(kind, value)
    assert result is INVALID
    assert problems == [(("x",), message, False)]


@pytest.mark.parametrize("kind, value", [
    (Whole(ge=0, le=9), 9), (Number(), 2.5), (Number(), 2), (Scalar(), True), (Scalar(), "a"),
    (Optional(Whole()), None), (OneOf(Whole(), ListOf(Whole())), [1, 2]), (MapOf(Whole(), key=NAME), {"a_b": 1}),
])
def test_right_values_pass_unchanged(kind, value):
    assert check(kind, value) == (value, [])


def test_one_of_checks_the_branch_the_value_is_shaped_for():
    # A list goes to the list branch, whose item problem is the one reported.
    result, problems = check(OneOf(Whole(), ListOf(Whole())), [1, "two"])
    assert result is INVALID
    assert problems == [(("x", 1), "x[1]: expected a whole number, got 'two'", False)]


def test_a_bad_key_is_reported_at_the_key_and_its_value_is_not_checked():
    _, problems = check(MapOf(Whole(), key=NAME), {"ok": 1, "bad key": "not a number"})
    assert problems == [(("x", "bad key"),
                         "'bad key' is not a valid name: use ASCII letters, digits, '_' and '-', starting with a letter",
                         True)]


@dataclass(frozen=True, kw_only=True)
class Pair:
    left: int = spec_field(Whole())
    right: int = spec_field(Whole(), 0)

    def validate(self):
        return "left must not exceed right" if self.left > self.right else None


def test_model_builds_its_dataclass_with_defaults():
    assert check(Model(Pair), {"left": -1}) == (Pair(left=-1, right=0), [])


def test_model_reports_unknown_and_missing_keys():
    _, problems = check(Model(Pair), {"rigth": 1})
    assert problems == [
        (("x", "rigth"), "unknown key 'rigth' (did you mean 'right'?)", True),
        (("x", "left"), "missing required key 'left' in x", False),
    ]


def test_a_misspelt_required_key_is_reported_as_the_misspelling_only():
    # Not also "missing required key 'left'" at the mapping, which would come first in the file.
    assert check(Model(Pair), {"lefft": 1})[1] == [(("x", "lefft"), "unknown key 'lefft' (did you mean 'left'?)", True)]


def test_model_checks_the_whole_after_its_fields():
    assert check(Model(Pair), {"left": 2, "right": 1}) == (INVALID, [(("x",), "x: left must not exceed right", False)])
    # The whole is not judged while a field is wrong.
    assert check(Model(Pair), {"left": "2", "right": 1})[1] == [(("x", "left"), "x.left: expected a whole number, got '2'", False)]


def test_first_problem_is_first_in_file_order():
    positions = {("a",): (2, 1), ("b",): (1, 9), ("c",): (1, 3)}
    problems = [Problem(("a",), "a"), Problem(("b",), "b"), Problem(("c",), "c")]
    assert first_problem(problems, lambda p: positions[p.at]).message == "c"


@pytest.mark.parametrize("kind, value", [(NAME, "g\n"), (NAME, "\ng"), (COLOR, "#abc\n")])
def test_a_pattern_must_match_the_whole_value_even_before_a_final_newline(kind, value):
    assert check(kind, value)[0] is INVALID


def test_validate_collects_every_problem():
    spec, problems = validate({"game": "g", "name": 3, "groups": [{"name": "a", "cards": [{"n": 1}], "copies": -1}]})
    assert spec is None
    assert sorted(p.message for p in problems) == ["groups[0].copies: must be at least 0, got -1",
                                                   "name: expected text, got 3"]


@pytest.mark.parametrize("bleed, message", [
    ("-1mm", "card.bleed: a length cannot be negative, got '-1mm'"),
    ("2000mm", "card.bleed: length '2000mm' is more than 1000 mm"),
    ("3 parsecs", "card.bleed: expected a length such as '3mm' or '0.125in', got '3 parsecs'"),
    (True, "card.bleed: expected a length such as '3mm' or '0.125in', got True"),
])
def test_lengths_are_checked_with_plain_messages(bleed, message):
    _, problems = validate({"game": "g", "name": "N", "groups": [{"name": "a", "cards": [{}]}], "card": {"bleed": bleed}})
    assert [p.message for p in problems] == [message]


def test_validate_gives_a_typed_spec():
    spec, problems = validate({"game": "g", "name": "N", "groups": [{"name": "a", "generate": {"n": [1, 2]}}],
                               "card": {"size": {"width": "2in", "height": 60}}})
    assert problems == []
    assert spec.groups[0].generate == {"n": [1, 2]} and spec.groups[0].copies == 1
    assert (spec.card.size.width, spec.card.size.height, spec.card.bleed) == ("2in", 60, "3mm")


def test_schema_describes_models_fields_and_limits():
    schema = json_schema()
    group = schema["$defs"]["GroupSpec"]
    assert group["required"] == ["name"] and group["additionalProperties"] is False
    assert group["properties"]["copies"] == {"type": "integer", "minimum": 0, "maximum": 1000, "default": 1}
    assert schema["properties"]["groups"]["items"] == {"$ref": "#/$defs/GroupSpec"}
    assert schema["properties"]["groups"]["minItems"] == 1
    assert set(schema["$defs"]) == {"ArtSpec", "BackArt", "CardFormatSpec", "SizeSpec", "CombineSpec",
                                    "ExpectSpec", "OwnExpectSpec", "Override", "GroupSpec", "VariantSpec", "LayoutSpec",
                                    "ElementSpec", "AnchorSpec", "ExportSpec", "TableSpec", "TableColumnSpec",
                                    "TableRepeatSpec", "TableRowSpec"}
    element = schema["$defs"]["ElementSpec"]
    assert "from" not in element["properties"] and element["properties"]["frame"]["default"] == "trim"
    assert element["properties"]["kind"]["pattern"] == "^(?:text|image|rect|ellipse|line|icon|lattice|hatch|table)$"
    assert schema["properties"]["layouts"]["additionalProperties"] == {"$ref": "#/$defs/LayoutSpec"}


def test_no_attribute_lists_the_cards_attributes_then_the_likeliest_meant():
    assert no_attribute("valeu", {"value", "fruit", "_group"}) == \
        "no card has attribute 'valeu' (cards have: fruit, value); did you mean 'value'?"  # printkit's own hidden
    assert no_attribute("zz", {"_group"}) == "no card has attribute 'zz' (cards have no attributes)"
    many = {f"a{i:02}" for i in range(25)}
    assert no_attribute("zz", many) == \
        f"no card has attribute 'zz' (cards have: {', '.join(sorted(many)[:20])}, …)"
