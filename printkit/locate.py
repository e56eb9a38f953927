"""Where the specs a command names are, found without reading them (a rebuild with nothing to
do asks this before it imports the spec reader)."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from printkit.errors import SpecError
from printkit.resources import bundled_dir

_REPO_DECKS = bundled_dir("decks")


def decks_dir() -> Path:
    """``./decks`` when run inside a project folder, else the decks shipped with printkit."""
    local = Path.cwd() / "decks"
    return local if local.is_dir() else _REPO_DECKS


DECKS_DIR = _REPO_DECKS


def find_spec(name_or_path: str | Path) -> Path:
    """A path to a spec file, or a deck name looked for where commands find decks by default:
    ``./decks/`` when there is one, else the working folder (a spec with a top-level ``game:``),
    else the decks printkit ships (``calc``)."""
    text = str(name_or_path)
    candidate = Path(text)
    if candidate.suffix in (".yaml", ".yml") or "/" in text or "\\" in text:
        return candidate
    local = Path.cwd() / "decks"
    folders = [local] if local.is_dir() else [Path("."), _REPO_DECKS]
    for folder in folders:
        for suffix in (".yaml", ".yml"):
            path = folder / f"{text}{suffix}"
            if path.is_file() and (folder != Path(".") or _looks_like_spec(path)):
                return path
    known = ", ".join(p.stem for p in all_spec_paths()) or "none"
    here = [f"./{text}{suffix}" for suffix in (".yaml", ".yml") if (Path.cwd() / f"{text}{suffix}").is_file()]
    hint = f"; did you mean {here[0]}?" if here and local.is_dir() else ""
    raise SpecError(text, None, None, f"no deck named {text!r} in {decks_dir()} (known: {known}){hint}")


def all_spec_paths() -> list[Path]:
    """Every spec in the decks folder, sorted by name."""
    folder = decks_dir()
    return sorted(p for p in folder.glob("*.y*ml") if p.suffix in (".yaml", ".yml"))


def default_spec_paths() -> tuple[list[Path], str]:
    """The specs a command with no deck named works on, and where they were found.

    ``./decks/`` when it exists; else the specs in the working folder (YAML files with a
    top-level ``game:``); else the decks printkit ships.
    """
    local = Path.cwd() / "decks"
    if local.is_dir():
        return all_spec_paths(), "./decks"
    here = sorted(p for p in Path.cwd().glob("*.y*ml") if p.suffix in (".yaml", ".yml") and _looks_like_spec(p))
    if here:
        return [Path(p.name) for p in here], "this folder"
    return sorted(p for p in _REPO_DECKS.glob("*.y*ml") if p.suffix in (".yaml", ".yml")), "printkit's own decks"


def _looks_like_spec(path: Path) -> bool:
    """Whether a YAML file starts like a deck spec: a ``game:`` key at the top level, early on."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(8192)
    except OSError:
        return False
    return any(line.startswith(b"game:") for line in head.splitlines())


def spec_paths(names: Sequence[str]) -> list[Path]:
    """The specs a command works on: each named one (none: :func:`default_spec_paths`), once each,
    where first named (``calc calc`` and ``calc decks/calc.yaml`` name one spec)."""
    paths = [find_spec(n) for n in names] if names else default_spec_paths()[0]
    by_file: dict[Path, Path] = {}
    for path in paths:
        try:
            resolved = path.resolve()
        except OSError:  # a loop of links: left for load_spec to report
            resolved = path
        by_file.setdefault(resolved, path)
    return list(by_file.values())
