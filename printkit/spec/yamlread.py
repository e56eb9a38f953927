"""Safe YAML reading that remembers where every key and value came from.

Spec files are shared and downloaded, so reading one is bounded: file size, nesting depth and the
number of nodes after alias expansion are all limited, and only plain data (no tags, no merge keys)
is accepted. Every problem is a SpecError with the file, line and column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from printkit.errors import SpecError
from printkit.spec.fields import describe
from printkit.safe_read import UnsafeFileError, read_limited, utf8_text

MAX_SPEC_BYTES = 1_000_000
MAX_DEPTH = 32
MAX_NODES = 100_000

PathKey = tuple[str | int, ...]

# Characters YAML refuses (it allows tab, newlines and printable Unicode only).
_SURROGATE = re.compile("[\ud800-\udfff]")
_STR = "tag:yaml.org,2002:str"
_SCALAR_TAGS = frozenset({_STR, "tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool",
                          "tag:yaml.org,2002:null"})
_NON_PRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]")


@dataclass
class Located:
    """A YAML document as plain Python data, plus positions (1-based line, column) by key path."""

    data: Any
    path: Path
    values: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    keys: dict[PathKey, tuple[int, int]] = field(default_factory=dict)

    def position(self, key_path: PathKey, *, key: bool = False) -> tuple[int, int] | tuple[None, None]:
        """Position of the value (or, with ``key``, of the key) at ``key_path`` or its nearest parent."""
        table = self.keys if key else self.values
        if key_path in table:
            return table[key_path]
        for end in range(len(key_path), -1, -1):
            prefix = key_path[:end]
            if prefix in self.values:
                return self.values[prefix]
        return (None, None)

    def error(self, key_path: PathKey, message: str, *, key: bool = False) -> SpecError:
        line, column = self.position(key_path, key=key)
        return SpecError(self.path, line, column, message)


def _mark(node: yaml.Node) -> tuple[int, int]:
    return (node.start_mark.line + 1, node.start_mark.column + 1)


def read_yaml(path: Path) -> Located:
    """Read and parse a spec file into plain data with positions; raise SpecError on any problem."""
    return parse_yaml(read_spec_bytes(path), path)


def read_spec_bytes(path: Path) -> bytes:
    """The bytes of a spec file, refusing folders, devices, missing files and files over the limit."""
    try:
        return read_limited(path, MAX_SPEC_BYTES)
    except FileNotFoundError:
        raise SpecError(path, 1, 1, "spec file not found") from None
    except UnsafeFileError as exc:
        raise SpecError(path, 1, 1, f"spec file {exc}") from None
    except OSError as exc:
        raise SpecError(path, 1, 1, f"cannot read spec file: {exc.strerror or exc}") from None


def parse_yaml(raw: bytes, path: Path) -> Located:
    """Parse spec bytes (UTF-8) into a Located document."""
    text = utf8_text(raw, path, column=True)
    if not text.strip() or all(
        not line.strip() or line.lstrip().startswith("#") for line in text.splitlines()
    ):
        raise SpecError(path, 1, 1, "spec file is empty")

    bad = _NON_PRINTABLE.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        column = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        raise SpecError(path, line, column, f"control character U+{ord(bad.group()):04X} is not allowed")
    node, loader = _compose(text, path)
    if node is None:
        raise SpecError(path, 1, 1, "spec file is empty")

    located = Located(data=None, path=path)
    builder = _Builder(located, loader, text.splitlines())
    located.data = builder.build(node, (), 0)
    if not isinstance(located.data, dict):
        line, column = _mark(node)
        raise SpecError(path, line, column,
                        f"a spec must be a mapping of keys (game, name, groups …), not {describe(located.data)}")
    return located


def _compose(text: str, path: Path) -> tuple[yaml.Node | None, Any]:
    """The document's root node (None when it holds none) and the loader that composed it.

    libyaml composes it when PyYAML has it and the document is one that both parsers read alike
    (several times faster); any other document, including every one with an error, is read by
    PyYAML's own parser, whose messages and positions are the ones printkit reports.
    """
    if _CLoader is not None and _fast_safe(text):
        loader = _CLoader(text)
        try:
            node = loader.get_single_node()
        except Exception:  # whatever went wrong, PyYAML reads it again below and says what
            node = None
        finally:
            loader.dispose()
        if node is not None and not _has_empty_plain_scalar(node):
            return node, loader
    loader = _PureLoader(text)
    try:
        return loader.get_single_node(), loader
    except yaml.MarkedYAMLError as exc:
        mark, problem = _in_plain_words(exc)
        line, column = (mark.line + 1, mark.column + 1) if mark else (None, None)
        colour = _unquoted_colour(text.splitlines()[:line or None])
        if colour:  # '#' began a comment there, which is what broke the document
            raise SpecError(path, colour[0], colour[1], _colour_comment(colour[2])) from None
        raise SpecError(path, line, column, f"YAML syntax error: {problem}") from None
    except yaml.YAMLError as exc:
        raise SpecError(path, 1, 1, f"YAML error: {exc}") from None
    except ValueError:
        # PyYAML's scanner turns an escape such as "\U7FFFFFFF" into a character without checking it.
        mark = loader.get_mark()
        raise SpecError(path, mark.line + 1, mark.column + 1,
                        "YAML syntax error: escaped character beyond U+10FFFF") from None
    except RecursionError:
        # PyYAML's parser recurses a few times per level; the builder's limit is far below this.
        mark = loader.get_mark()
        raise SpecError(path, mark.line + 1, mark.column + 1, f"nesting deeper than {MAX_DEPTH} levels") from None
    finally:
        loader.dispose()


# Plain values are typed as YAML 1.2's core schema types them, not as PyYAML's YAML 1.1 does: only
# true/false are booleans (yes, no, on, off are text), 010 is ten, 12:30 and 2024-01-02 are text.
# Card attributes are printed as written, so a value must not change on its way to the card.
_CORE_TYPES = [
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:merge", r"^(?:<<)$", ["<"]),  # recognised only to be refused by name
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
    ("tag:yaml.org,2002:float",
     r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
     list("-+.0123456789")),
]


def _core_int(loader: Any, node: yaml.ScalarNode) -> int:
    text = loader.construct_scalar(node)
    if text.startswith(("0o", "0x")):
        return int(text[2:], 8 if text[1] == "o" else 16)
    return int(text, 10)  # no octal from a leading zero, no '_' or ':' forms


def _core_schema(loader_class: type) -> type:
    """``loader_class`` reading plain values with the YAML 1.2 core schema's types."""
    core = type(f"Core{loader_class.__name__}", (loader_class,), {})
    core.yaml_implicit_resolvers = {}
    for tag, pattern, first in _CORE_TYPES:
        core.add_implicit_resolver(tag, re.compile(pattern), first)
    core.add_constructor("tag:yaml.org,2002:int", _core_int)
    return core


_PureLoader = _core_schema(yaml.SafeLoader)
# None when PyYAML was built without libyaml.
_CLoader = _core_schema(yaml.CSafeLoader) if getattr(yaml, "CSafeLoader", None) else None

# Where libyaml and PyYAML part ways, the document is left to PyYAML: tabs and directives
# (libyaml accepts tabs that PyYAML refuses), byte-order marks inside the text (libyaml counts
# them in columns), '?' (PyYAML ends a plain scalar at it inside [] and {}), '!' (tags, an empty
# one included), a '|' or '>' with a '#' after its indicators (libyaml lets a comment touch a block
# scalar's header; PyYAML refuses it). Other block scalars, which layouts' texts are written as,
# both read alike.
_NOT_FAST = re.compile("[\t\ufeff?!]|[|>][-+0-9]*#|^%", re.MULTILINE)
# libyaml's composer recurses in C, once per nesting level: tens of thousands of levels would
# overflow the C stack and end the process. A document that cannot nest deeper than this is safe.
_FAST_NESTING_LIMIT = 2_000


def _fast_safe(text: str) -> bool:
    """Whether libyaml reads ``text`` exactly as PyYAML does (empty values aside, checked after)
    and cannot nest deeply enough to overflow its stack."""
    return _NOT_FAST.search(text) is None and _nesting_bound(text) <= _FAST_NESTING_LIMIT


def _nesting_bound(text: str) -> int:
    """An upper bound on the document's nesting depth, in one pass over its text.

    A flow collection opens with '[' or '{' (counted whatever quotes they stand in: more, never
    fewer); a block collection nested inside another is indented further, except a sequence
    directly under a key and the collections opened on one line ("- - a", "a: b:"), which the
    '-' and ':' of that line count. So the depth is at most twice the deepest indentation, plus the
    most '-' and ':' on one line, plus the deepest run of open brackets.
    """
    indent = marks = brackets = open_now = 0
    for line in text.split("\n"):
        stripped = line.lstrip(" ")
        indent = max(indent, len(line) - len(stripped))
        marks = max(marks, stripped.count("-") + stripped.count(":"))
    for bracket in _BRACKETS.findall(text):  # the brackets alone, found by the regex engine's scan
        if bracket in "[{":
            open_now += 1
            brackets = max(brackets, open_now)
        elif open_now:
            open_now -= 1
    return 2 * indent + marks + brackets


_BRACKETS = re.compile(r"[\[\]{}]")


def _has_empty_plain_scalar(root: yaml.Node) -> bool:
    """Whether the tree holds an empty unquoted value (``a:`` or ``{a: }``).

    libyaml places such a value at the token after it, PyYAML right after the ':'.
    """
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if not node.value and not node.style:
                return True
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack += (key, value)
        else:
            stack += node.value
    return False


def _in_plain_words(exc: yaml.MarkedYAMLError) -> tuple[Any, str]:
    """Where a YAML syntax error is best shown, and what it means for someone writing a spec."""
    context, problem = exc.context or "", exc.problem or exc.context or "invalid YAML"
    if "\t" in problem or "\\t" in problem:
        return exc.problem_mark or exc.context_mark, "tab character where YAML allows only spaces for indentation"
    if context == "while scanning a quoted scalar" and exc.context_mark:
        return exc.context_mark, "this quoted value is never closed: add its closing quote"
    if context == "while scanning a simple key" and exc.context_mark:
        return exc.context_mark, "this line has no ':' after its key (write 'key: value')"
    if context in ("while parsing a flow sequence", "while parsing a flow mapping") and exc.context_mark:
        what, close = ("list", "]") if "sequence" in context else ("mapping", "}")
        return exc.context_mark, f"the {what} opened here is not closed with '{close}', or an item in it lacks a comma"
    if problem == "mapping values are not allowed here":
        return exc.problem_mark, ("a ':' is not allowed here: check this line's indentation, "
                                  "or put a value containing ': ' in quotes")
    if problem.startswith("expected <block end>") and exc.problem_mark:
        return exc.problem_mark, ("this line does not line up with the lines above it: check its indentation "
                                  "(list items start with '- ', keys end with ':')")
    return exc.problem_mark or exc.context_mark, problem


# A colour written without quotes after ':', '-', ',', '[' or '{': YAML reads '#' there as the
# start of a comment, so the value is lost.
_HEX = r"(#(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{3}))(?![0-9A-Za-z_])"
# {ink:#000}: a key glued to a colour by a ':' with no space after it.
_GLUED = re.compile(r"([^\s:#]+):" + _HEX)
# After ':', '-' or ',' a comment needs a space before it; right after '[' or '{' PyYAML takes none.
_COLOUR_COMMENT = re.compile(r"(?:(?<=[:\-,])[ \t]+|(?<=[\[{])[ \t]*)" + _HEX)


def _colour_key(key_path: PathKey) -> bool:
    """Whether the value at ``key_path`` is a colour: ``...color`` or a name under ``...colors``.

    Elsewhere an empty value followed by a comment (``description: #add later``) is plain YAML.
    """
    return bool(key_path) and (key_path[-1] == "color" or (len(key_path) > 1 and key_path[-2] == "colors"))


def _colour_comment(colour: str) -> str:
    return f"{colour} is read as a YAML comment, so the value is empty: write colours in quotes, \"{colour}\""


def _unquoted_colour(lines: list[str]) -> tuple[int, int, str] | None:
    """The first unquoted colour in ``lines`` (1-based line and column of its '#'), if any."""
    for number, line in enumerate(lines, start=1):
        quoted = _quoted_spans(line)
        for match in _COLOUR_COMMENT.finditer(line):
            if not any(start <= match.start(1) < end for start, end in quoted):
                return number, match.start(1) + 1, match.group(1)
    return None


def _quoted_spans(line: str) -> list[tuple[int, int]]:
    """Where ``line`` has quoted text ('...' or "..."), up to the comment that ends it, if any."""
    spans, i = [], 0
    while i < len(line):
        ch = line[i]
        if ch in "'\"":
            end = line.find(ch, i + 1)
            end = len(line) if end < 0 else end + 1
            spans.append((i, end))
            i = end
        elif ch == "#" and (i == 0 or line[i - 1] in " \t") and not _COLOUR_COMMENT.match(line, i - 1):
            spans.append((i, len(line)))  # a real comment: nothing after it is a value
            break
        else:
            i += 1
    return spans


class _Builder:
    """Turns composed YAML nodes into plain data, checking duplicates, depth and alias expansion."""

    def __init__(self, located: Located, loader: Any, lines: list[str]):
        self.located = located
        self.loader = loader
        self.lines = lines
        self.nodes = 0

    def fail(self, node: yaml.Node, message: str) -> SpecError:
        line, column = _mark(node)
        return SpecError(self.located.path, line, column, message)

    def build(self, node: yaml.Node, key_path: PathKey, depth: int) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self.fail(node, f"document expands to more than {MAX_NODES} values (an alias bomb?)")
        if depth > MAX_DEPTH:
            raise self.fail(node, f"nesting deeper than {MAX_DEPTH} levels")
        self.located.values.setdefault(key_path, _mark(node))
        if isinstance(node, yaml.ScalarNode):
            if not node.value and not node.style and _colour_key(key_path):
                self.check_colour_comment(node)
            return self.scalar(node)
        if isinstance(node, yaml.SequenceNode):
            self.check_tag(node, "tag:yaml.org,2002:seq")
            return [self.build(item, key_path + (i,), depth + 1) for i, item in enumerate(node.value)]
        if isinstance(node, yaml.MappingNode):
            self.check_tag(node, "tag:yaml.org,2002:map")
            result: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise self.fail(key_node, "merge keys ('<<') are not supported; write the keys out")
                if not isinstance(key_node, yaml.ScalarNode):
                    raise self.fail(key_node, "a key must be a plain value, not a list or mapping")
                key = self.scalar(key_node)
                glued = isinstance(key, str) and _GLUED.fullmatch(key)
                if glued:  # {ink:#000}: with no space after ':' YAML reads one key and no value
                    raise self.fail(key_node, f"{key!r} is read as one key with no value: write "
                                              f"{glued.group(1)}: \"{glued.group(2)}\" (a space after ':', the colour in quotes)")
                if isinstance(key, (int, float, bool)) or key is None:
                    key = key_node.value  # '7:' or 'yes:' as keys mean the text the user typed
                if key in result:
                    first = self.located.keys[key_path + (key,)]
                    raise self.fail(key_node, f"duplicate key {key!r} (first defined on line {first[0]})")
                self.located.keys[key_path + (key,)] = _mark(key_node)
                result[key] = self.build(value_node, key_path + (key,), depth + 1)
            return result
        raise self.fail(node, "unsupported YAML node")

    def check_colour_comment(self, node: yaml.ScalarNode) -> None:
        """Refuse an empty value whose line goes on with a colour YAML took for a comment."""
        mark = node.start_mark
        if mark.line < len(self.lines):
            rest = self.lines[mark.line][mark.column:]
            found = re.match(r"[ \t]*" + _HEX, rest)
            if found:
                raise SpecError(self.located.path, mark.line + 1, mark.column + found.start(1) + 1,
                                _colour_comment(found.group(1)))

    def check_tag(self, node: yaml.Node, expected: str) -> None:
        if node.tag != expected:
            raise self.fail(node, f"YAML tag {node.tag!r} is not allowed in a spec")

    def scalar(self, node: yaml.ScalarNode) -> Any:
        if node.tag not in _SCALAR_TAGS:
            raise self.fail(node, f"YAML tag {node.tag!r} is not allowed in a spec")
        if node.tag == "tag:yaml.org,2002:int" and len(node.value) > 30:
            raise self.fail(node, f"number {node.value[:20]}… is too long")
        try:
            # A text is its node's value, as PyYAML's constructor would give it (most of a spec's
            # scalars: the constructor's bookkeeping for each cost a layouts file milliseconds).
            value = node.value if node.tag == _STR else self.loader.construct_object(node)
        except (yaml.YAMLError, ValueError, OverflowError) as exc:
            raise self.fail(node, f"bad value {node.value!r}: {exc}") from None
        except KeyError:  # PyYAML looks an explicit '!!bool' value up in its table of words
            raise self.fail(node, f"bad value {node.value!r}: not a boolean") from None
        if isinstance(value, str) and _SURROGATE.search(value):
            # "\ud800" escaped in a quoted value: no character, and no file can hold it.
            found = _SURROGATE.search(value).group()
            raise self.fail(node, f"escaped U+{ord(found):04X} is half of a UTF-16 pair, not a character: "
                                  "write the character itself")
        return value
