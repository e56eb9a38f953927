"""Load a spec file into a validated Spec, turning every problem into one located SpecError."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from printkit.errors import SpecError
from printkit.memo import Memo
from printkit.spec.fields import Problem, first_problem
from printkit.spec.models import Spec, validate
from printkit.spec.yamlread import Located, parse_yaml, read_spec_bytes


@dataclass(frozen=True)
class LoadedSpec:
    """A validated spec with its source positions (for errors found later, e.g. in expansion)."""

    spec: Spec
    source: Located

    @property
    def path(self) -> Path:
        return self.source.path


def parse_spec(path: str | Path) -> LoadedSpec:
    """Read, parse and validate one spec file (its data files are read by
    :func:`printkit.spec.files.load_spec`). Parsed once per distinct content."""
    path = Path(path)
    return _parse_and_validate(path, path.absolute(), read_spec_bytes(path))


# Keyed by the path as given (it appears in error messages), where it is, and the file's bytes;
# LoadedSpec and what it holds are only read after loading, so callers can share one. ``where``
# keeps apart a spec named alike in another folder (a process that changed its working folder):
# the pictures its layouts name are its own.
def _parse_and_validate(path: Path, where: Path, raw: bytes) -> LoadedSpec:
    return _LOADED.get_or_make((path, where, raw), lambda: _parse(path, raw))


_LOADED = Memo("specs read", entries=16)


def _parse(path: Path, raw: bytes) -> LoadedSpec:
    source = parse_yaml(raw, path)
    spec, problems = validate(source.data)
    if spec is None:
        raise _first_error(problems, source)
    return LoadedSpec(spec, source)


def _first_error(problems: list[Problem], source: Located) -> SpecError:
    """The first problem in file order, as a located SpecError."""
    problem = first_problem(problems, lambda p: source.position(p.at, key=p.key))
    return source.error(problem.at, problem.message, key=problem.key)
