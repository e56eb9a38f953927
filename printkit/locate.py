"""Where the specs a command names are, found without reading them (a rebuild with nothing to
do asks this before it imports the spec reader)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from printkit.errors import PrintkitError, SpecError
from printkit.resources import bundled_dir
from printkit.safe_read import read_limited

_REPO_DECKS = bundled_dir("decks")


def decks_dir() -> Path:
    """``./decks`` when run inside a project folder, else the decks shipped with printkit."""
    local = Path.cwd() / "decks"
    return local if local.is_dir() else _REPO_DECKS


DECKS_DIR = _REPO_DECKS


def find_spec(name_or_path: str | Path) -> Path:
    """A path to a spec file, or a deck name looked for where commands find decks by default:
    ``./decks/`` when there is one, else the working folder (a file :func:`is_spec` takes for a
    spec), else the decks printkit ships (``calc``)."""
    text = str(name_or_path)
    candidate = Path(text)
    if candidate.suffix in (".yaml", ".yml") or "/" in text or "\\" in text:
        return candidate
    local = Path.cwd() / "decks"
    folders = [local] if local.is_dir() else [Path("."), _REPO_DECKS]
    for folder in folders:
        for suffix in (".yaml", ".yml"):
            path = folder / f"{text}{suffix}"
            if path.is_file() and (folder != Path(".") or is_spec(path)):
                return path
    known = ", ".join(p.stem for p in all_spec_paths()) or "none"
    here = [f"./{text}{suffix}" for suffix in (".yaml", ".yml") if (Path.cwd() / f"{text}{suffix}").is_file()]
    hint = f"; did you mean {here[0]}?" if here and local.is_dir() else ""
    raise SpecError(text, None, None, f"no deck named {text!r} in {decks_dir()} (known: {known}){hint}")


def all_spec_paths() -> list[Path]:
    """Every spec in the decks folder, sorted by name."""
    return _yaml_files(decks_dir())


@dataclass(frozen=True)
class DefaultSpecs:
    """The specs a command with no deck named works on: the folder they are in, the spec files
    (sorted by name; as a command names them), and how that folder is said in messages."""

    folder: Path
    paths: list[Path]
    where: str

    @property
    def bundled(self) -> bool:
        """Whether these are printkit's own decks, taken because the working folder holds no YAML file."""
        return self.folder == _REPO_DECKS

    def listed_again(self) -> list[Path]:
        """The specs in the same folder now, by the rule that found them (``printkit watch``'s later
        rebuilds): never another folder's, so a spec missing for a moment (an editor's save by
        rename, ``git checkout``) leaves the list short instead of switching to printkit's decks."""
        if self.folder == Path("."):
            return [Path(p.name) for p in _yaml_files(Path.cwd()) if is_spec(p)]
        return _yaml_files(self.folder)


def default_specs() -> DefaultSpecs:
    """Where commands with no deck named find their specs (check, build and watch alike).

    ``./decks/`` when it exists (every YAML file in it but hidden ones); else the specs in the working folder (its
    YAML files :func:`is_spec` takes for one); else, only when the working folder holds no YAML
    file at all, the decks printkit ships. A folder whose YAML files are all some other tool's is
    an error, not a reason to build printkit's decks there.
    """
    local = Path.cwd() / "decks"
    if local.is_dir():
        return DefaultSpecs(local, _yaml_files(local), "./decks")
    here = _yaml_files(Path.cwd())
    if not here:
        return DefaultSpecs(_REPO_DECKS, _yaml_files(_REPO_DECKS), "printkit's own decks")
    specs = [Path(p.name) for p in here if is_spec(p)]
    if not specs:
        keys = ", ".join(f"{key}:" for key in SPEC_KEYS)
        raise SpecError(here[0].name, None, None,
                        f"not a deck spec (a list, or none of {keys} at its top level), nor is any other YAML file here: "
                        "name the spec file or deck to work on (calc is one of printkit's own)")
    return DefaultSpecs(Path("."), specs, "this folder")


def default_spec_paths() -> tuple[list[Path], str]:
    """:func:`default_specs`' spec files and how their folder is said."""
    found = default_specs()
    return found.paths, found.where


def _yaml_files(folder: Path) -> list[Path]:
    """The ``.yaml`` and ``.yml`` files in ``folder``, sorted, less hidden ones (as a shell's ``*.yaml``):
    a hidden file is no spec a designer wrote (an editor's or another tool's, or macOS's ``._name.yaml``
    beside each file copied to a foreign disk), in ``./decks`` as in the working folder."""
    return sorted(p for p in folder.glob("*.y*ml") if p.suffix in (".yaml", ".yml") and not p.name.startswith("."))


# A spec's own keys: a YAML file in the working folder with top-level keys, none of them one of
# these, is some other tool's file (compose.yaml, mkdocs.yml); a spec has game: and groups:, and
# a spec with a misspelt one still has the others, so its mistake is reported rather than skipped.
SPEC_KEYS = ("game", "groups", "card", "art", "layouts")
# A block mapping's key at the start of a line (plain or quoted); linear: no part can match twice.
_TOP_KEY = re.compile(rb"""^(?:"([^"\n]*)"[ \t]*|'([^'\n]*)'[ \t]*|([^\s#:'"\-?{}\[\]%&*!|>@`,][^:\n]*)):(?:[ \t\r]|$)""",
                      re.M)
_PEEK_BYTES = 1_000_000  # a bigger file is left to the spec reader, which refuses it at its size limit


def is_spec(path: Path) -> bool:
    """Whether a YAML file in the working folder is taken for a deck spec: yes unless its top-level
    keys can be read and none is one of :data:`SPEC_KEYS`, or it is a list. An empty or unreadable
    file, or one with no ``key:`` line, is a spec, so the spec reader says what is wrong with it."""
    try:
        head = read_limited(path, _PEEK_BYTES)
    except (OSError, PrintkitError):
        return True
    if _is_list(head):
        return False  # a top-level list (a playtest log, another tool's file) is no spec's shape
    keys = {(m[1] or m[2] or m[3]).decode("utf-8", "replace").strip() for m in _TOP_KEY.finditer(head)}
    return not keys or not keys.isdisjoint(SPEC_KEYS)


def _is_list(head: bytes) -> bool:
    """Whether the YAML ``head``'s first content (past blank lines, comments, ``---`` and
    directives) is a block sequence's item (``- …``) or a flow sequence (``[…``)."""
    for line in head.splitlines():
        text = line.strip()
        if not text or text.startswith((b"#", b"%")) or text == b"---":
            continue
        if text.startswith(b"--- "):
            text = text[4:].lstrip()
        return text == b"-" or text.startswith((b"- ", b"-\t", b"["))
    return False


def spec_paths(names: Sequence[str], found: DefaultSpecs | None = None) -> list[Path]:
    """The specs a command works on: each named one (none: those of ``found``, else of
    :func:`default_specs`), once each, where first named (``calc calc`` and ``calc decks/calc.yaml``
    name one spec)."""
    return distinct_specs([find_spec(n) for n in names] if names else (found or default_specs()).paths)


def distinct_specs(paths: Sequence[Path]) -> list[Path]:
    """``paths`` with each spec file once, by the first name it has there: a link to a spec beside
    it is the spec, built once (as are ``calc`` and ``decks/calc.yaml``)."""
    by_file: dict[Path, Path] = {}
    for path in paths:
        try:
            resolved = path.resolve()
        except OSError:  # a loop of links: left for load_spec to report
            resolved = path
        by_file.setdefault(resolved, path)
    return list(by_file.values())
