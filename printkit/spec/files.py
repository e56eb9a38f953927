"""The files a spec names, read inside its folder: its data tables, fonts and pictures, and the
rule texts beside it (``<stem>.rules.<lang>.md``).

Below :mod:`printkit.spec.expand` and the layout compiler above the spec, which both resolve files
through it, and above :mod:`printkit.spec.load`, which only parses: loading a spec is parsing it,
then reading its data files (:func:`load_spec`).
"""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path
from typing import Iterable

from printkit import draft, fonts
from printkit.errors import BuildError, DataFileError, Errors, PathRefused, SpecError, UnsafeFileError, error_line
from printkit.safe_read import read_limited
from printkit.spec.layout_names import check_layout_names
from printkit.spec.load import LoadedSpec, parse_spec
from printkit.spec.models import LANG_TAG, GroupSpec
from printkit.spec.paths import inside_folder
from printkit.spec.yamlread import PathKey


def load_spec(path: str | Path) -> LoadedSpec:
    """Read, parse and validate one spec file, and read its data files.

    The file is read on every call; parsing and validation happen once per distinct content,
    so a build that loads the same spec for its sheets and its rulebooks parses it once. The data
    files of its groups (``data: cards.csv``) are read once per call, and parsed once per content.
    """
    loaded = parse_spec(path)
    errors = Errors()  # a layout the spec lacks and a bad cell are independent mistakes: one run says both
    with errors.collecting():
        check_layout_names(loaded)
    with errors.collecting():
        loaded = attach_data(loaded)
    errors.raise_any()
    return loaded


def attach_data(loaded: LoadedSpec) -> LoadedSpec:
    """``loaded`` with the rows of every ``data:`` file read into its group's ``table``.

    Each file is read once (groups naming one workbook share its bytes) and parsed once per
    content; a problem with a file is one error at the group's ``data`` (or ``sheet``) key, a
    problem with a cell one error at the cell. Every file's and cell's problems are said together
    (a ManyErrors of up to MAX_ERRORS).
    """
    spec = loaded.spec
    if not any(g.data is not None for g in [*spec.groups, *spec.components]):
        return loaded
    from printkit.spec.data import MAX_DATA_BYTES, data_kind, read_table  # a deck of data files' alone

    read: dict[Path, bytes] = {}
    errors = Errors()  # each data file's mistakes are independent of the others'

    def with_table(section: str, index: int, group: GroupSpec) -> GroupSpec:
        if group.data is None:
            return group
        with errors.collecting():
            return read_group_table(section, index, group)
        return group  # its mistakes are said with the others'

    def read_group_table(section: str, index: int, group: GroupSpec) -> GroupSpec:
        assert group.data is not None
        path: PathKey = (section, index, "data")
        resolved = inside_spec_folder(loaded, group.data, path, "data")
        if resolved not in read:
            try:
                read[resolved] = read_limited(resolved, MAX_DATA_BYTES)
            except UnsafeFileError as exc:
                raise loaded.source.error(path, f"data file {group.data!r} {exc}") from None
            except OSError as exc:
                raise loaded.source.error(path, f"data file {group.data!r} cannot be read: "
                                                f"{exc.strerror or exc}") from None
        shown = str(loaded.path.parent / group.data)
        kind = data_kind(group.data)
        assert kind is not None  # the spec's pattern allows only these extensions
        try:
            table = read_table(read[resolved], shown, group.data, kind, group.sheet)
        except DataFileError as exc:
            raise loaded.source.error((section, index, "sheet") if exc.at_sheet else path, str(exc)) from None
        return dataclasses.replace(group, table=table)

    groups = [with_table("groups", i, g) for i, g in enumerate(spec.groups)]
    components = [with_table("components", i, g) for i, g in enumerate(spec.components)]
    errors.raise_any()
    return LoadedSpec(dataclasses.replace(spec, groups=groups, components=components), loaded.source)


def card_attributes(groups: Iterable[GroupSpec]) -> set[str]:
    """Every attribute a card of ``groups`` can have, whatever the variant."""
    names: set[str] = set()
    for group in groups:
        names.update(group.attrs)
        names.update(group.generate or ())
        if group.combine is not None:
            names.add(group.combine.attr)
        for card in group.cards or ():
            names.update(card)
        if group.table is not None:
            names.update(group.table.columns)
        for override in group.overrides:
            names.update(override.attrs)
    return names


def inside_spec_folder(loaded: LoadedSpec, value: str, path: PathKey, what: str) -> Path:
    try:
        return inside_folder(loaded.path.parent, value, what)
    except PathRefused as exc:
        raise loaded.source.error(path, str(exc)) from None


def font_file(loaded: LoadedSpec, value: str, path: PathKey) -> Path:
    bundled = fonts.bundled_font(value)
    if bundled is not None:
        resolved = bundled
    else:
        resolved = inside_spec_folder(loaded, value, path, "font")
    try:
        fonts.glyph_set(resolved)
    except fonts.FontError as exc:
        raise loaded.source.error(path, f"font {value!r} cannot be used: {exc}") from None
    return resolved


def image_file(loaded: LoadedSpec, value: str, path: PathKey) -> Path:
    """The picture ``value`` names, checked; in a draft a missing or refused picture inside the
    spec's folder becomes a placeholder there. A name leading outside the folder is refused in
    a draft too: nothing outside the folder is ever read."""
    from printkit.images import check_image  # a deck of no picture never loads the pictures' checks

    where = loaded.path.parent / value  # a draft draws a placeholder here (printkit.draft)
    try:
        resolved = inside_folder(loaded.path.parent, value, "image")
    except PathRefused as exc:
        refused = loaded.source.error(path, str(exc))
        if exc.missing and draft.tolerated(where, error_line(refused)):
            return where
        raise refused from None
    try:
        check_image(resolved, lambda message: loaded.source.error(path, message), shown=value)
    except SpecError as exc:
        if draft.tolerated(where, error_line(exc)):
            return where
        raise
    return resolved


# --- rule texts -------------------------------------------------------------------------------

LANGS = ("ko", "en")  # the languages printkit's own words come in: their texts are listed first


def rule_texts(spec_path: Path, game: str | None = None) -> dict[str, Path]:
    """The rule texts of a spec, by language: Korean and English first (as LANGS), then the
    others in the order of their language tags.

    These are ``<spec stem>.rules.<lang>.md`` beside the spec, ``lang`` a BCP 47 language tag
    (``fr``, ``de``, ``pt-BR``, ``zh-Hant``). When there is none and ``game`` is
    given, printkit's own texts for that game (``decks/<game>.rules.<lang>.md``) stand in, so a
    copied or edited spec still gets a rulebook; a spec with any text of its own gets only those.
    """
    spec_path = Path(spec_path)
    found = _texts(spec_path.parent, spec_path.stem)
    if not found and game is not None:
        found = bundled_rule_texts(game)
    return found


def bundled_rule_texts(game: str) -> dict[str, Path]:
    """printkit's own rule texts for ``game``, by language (empty for a game it has none for)."""
    from printkit.locate import DECKS_DIR

    return _texts(DECKS_DIR, game)


# A BCP 47 language tag as rule texts name them: a language, then subtags (script, region …).
_LANG_TAG = re.compile(LANG_TAG)
MAX_RULE_TEXTS = 64  # languages one spec may have texts in


def _texts(folder: Path, stem: str) -> dict[str, Path]:
    head, tail = f"{stem}.rules.", ".md"
    try:
        names = [n for n in os.listdir(folder) if n.startswith(head) and n.endswith(tail)
                 and len(n) > len(head) + len(tail)]
    except OSError:
        return {}
    tags = {}
    for name in names:
        tag = name[len(head):-len(tail)]
        if not _LANG_TAG.fullmatch(tag):
            raise BuildError(f"{shown_path(folder / name)}: {tag!r} is not a language tag; name a rule text "
                             f"{stem}.rules.<lang>.md with lang such as en, ko, fr, de, pt-BR or zh-Hant")
        tags[tag] = name
    if len(tags) > MAX_RULE_TEXTS:
        raise BuildError(f"{shown_path(folder)}: {len(tags)} rule texts for {stem}; at most {MAX_RULE_TEXTS}")
    order = [lang for lang in LANGS if lang in tags] + sorted(t for t in tags if t not in LANGS)
    found = {}
    for lang in order:
        path = folder / tags[lang]
        checked_rule_text(path)  # a text that is there but may not be read is an error, not "no text"
        found[lang] = path
    return found


# A rule text is a few pages of Markdown (printkit's own are under 15 KB); far more is a mistake.
MAX_RULE_TEXT_BYTES = 1_000_000


def checked_rule_text(path: Path) -> Path:
    """``path`` resolved inside its own folder (a link out of it is refused), as every spec file is."""
    try:
        return inside_folder(path.parent, path.name, "rule text")
    except PathRefused as exc:
        raise BuildError(f"{shown_path(path)}: {exc}") from None


def shown_path(path: Path) -> str:
    """The path as the user knows it: relative to the working folder, links not followed."""
    try:
        return str(Path(os.path.abspath(path)).relative_to(Path.cwd()))
    except (ValueError, OSError):
        return str(path)
