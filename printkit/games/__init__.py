"""The games printkit knows: one registry of :class:`Game` records.

A game is one folder: printkit's own are ``calc/``, ``clag/`` and ``stack/`` beside this module
(listed in :data:`BUILTIN`); a designer's is an installed package that names it in the entry-point
group ``printkit.games`` (see ``docs/adding-a-game.md``). A spec's ``game:`` only selects a game
registered here; a spec never runs code.

A :class:`Game` names the modules of its parts; each is imported when first asked for, so
importing this package (or asking for a game's record) loads no engine, faces or layout.
"""

from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any, Literal, Mapping

from printkit.errors import DeckError, GameError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from printkit.deck import Card
    from printkit.layout.icons import Icon
    from printkit.rules.base import Engine

# The entry-point group installed packages register their games in.
ENTRY_POINT_GROUP = "printkit.games"

Part = Literal["words", "engine", "faces", "rulebook", "report", "icons", "view"]
PARTS: tuple[Part, ...] = ("words", "engine", "faces", "rulebook", "report", "icons", "view")

# What an engine offers (the protocol in printkit.rules.base), checked on an installed game's.
_ENGINE_NAMES = ("name", "min_players", "max_players", "length_unit", "check_options", "validate_deck",
                 "new_game", "current_player", "legal_moves", "apply", "is_over", "outcome",
                 "check_invariants", "players")


@dataclass(frozen=True)
class Game:
    """One game: its name (what a spec's ``game:`` says) and the module of each of its parts.

    Every part is a dotted module name, or None when the game has no such part:

    - ``words``: the game's vocabulary as constants (read by the other parts; nothing asks for it);
    - ``engine``: a module whose ``ENGINE`` follows :class:`printkit.rules.base.Engine`
      (``check`` plays it, ``simulate`` and the rulebook examples use it);
    - ``faces``: ``front(card)``, optionally ``back(card)``, ``page(card, w, h)``,
      ``card_name(card)`` and ``COLOR_NAMES`` (see :mod:`printkit.layout.templates`); without it,
      cards are drawn by their spec's layouts or the generic face;
    - ``rulebook``: ``FIGURES``, ``EXAMPLES`` and ``TABLES`` (see :mod:`printkit.rulebook.content`);
    - ``report``: the game's numbers in balance reports, ``facts(done, a)``, ``paired(done, seats)``,
      ``first_round(result)`` (see :mod:`printkit.report.data`), and its ``plot``, ``findings``,
      ``SCORES`` and ``SCORE_AXIS`` (see :mod:`printkit.report.render`);
    - ``icons``: ``ICONS``, a mapping of icon name to icon (:class:`printkit.layout.icons.Icon`)
      that the specs of this game (every spec, for printkit's own) and their rule texts may name;
    - ``view``: ``VIEW``, a :class:`printkit.rules.observe.View`: what balance reports watch while
      a game is played (cards held and played, per-turn figures, where the turn order starts).

    ``package`` is who registered the game: ``printkit`` for its own, else the installed
    distribution, named in every error about it.
    """

    name: str
    words: str | None = None
    engine: str | None = None
    faces: str | None = None
    rulebook: str | None = None
    report: str | None = None
    icons: str | None = None
    view: str | None = None
    package: str = "printkit"

    def module(self, part: Part) -> ModuleType | None:
        """The module of ``part`` (imported now if it was not yet), or None when the game has none."""
        name = getattr(self, part)
        if name is None:
            return None
        if self.package == "printkit":  # printkit's own: a failing import is a bug, shown as one
            return importlib.import_module(name)
        try:
            return importlib.import_module(name)
        except Exception as exc:  # an installed package's code: whatever it raises is its problem
            raise GameError(f"game {self.name!r} from package {self.package!r}: cannot import its {part} "
                            f"module {name!r} ({type(exc).__name__}: {exc})") from None

    def load_engine(self) -> Engine:
        """The game's rule engine; DeckError when it has none."""
        module = self.module("engine")
        if module is None:
            raise DeckError(f"game {self.name!r} has no rule engine")
        engine = getattr(module, "ENGINE", None)
        if self.package != "printkit":
            missing = [n for n in _ENGINE_NAMES if not hasattr(engine, n)]
            if engine is None or missing:
                lacks = "" if engine is None else f" (it lacks: {', '.join(missing)})"
                raise GameError(f"game {self.name!r} from package {self.package!r}: module {self.engine!r} has "
                                f"no ENGINE following printkit's engine protocol{lacks}")
            if engine.name != self.name:
                raise GameError(f"game {self.name!r} from package {self.package!r}: its ENGINE is named "
                                f"{engine.name!r}; the engine's name must be the game's")
        return engine


def _shipped(name: str) -> Game:
    parts = {part: f"{__name__}.{name}.{part}" for part in PARTS}
    return Game(name, **parts)


# printkit's own games, in the order their icons are offered. Adding one: a folder beside this
# module with the parts above, and a line here.
BUILTIN: Mapping[str, Game] = MappingProxyType({game.name: game for game in (
    _shipped("calc"),
    _shipped("stack"),
    _shipped("clag"),
)})


@dataclass(frozen=True)
class _Registered:
    """The installed packages' game entry points, read once per process (none is loaded)."""

    points: Mapping[str, EntryPoint]  # by game name: the ones a spec may select
    refused: Mapping[str, str]  # by game name: why selecting it is an error
    warnings: tuple[str, ...]  # every entry point skipped, said by ``check``


@lru_cache(maxsize=1)
def _registered() -> _Registered:
    """The entry points of group ``printkit.games``, sorted by name.

    One that takes a name of printkit's own is skipped (the spec selects printkit's game); two
    packages giving one name make that name refused. Either is only a warning until a spec selects
    the name: one broken package must not stop the decks of other games.
    """
    from importlib.metadata import entry_points

    by_name: dict[str, list[EntryPoint]] = {}
    warnings: list[str] = []
    for point in entry_points(group=ENTRY_POINT_GROUP):
        if point.name in BUILTIN:
            warnings.append(f"package {_package(point)!r} registers a game named {point.name!r}, which is one of "
                            f"printkit's own, and is ignored; give it another name in its {ENTRY_POINT_GROUP!r} "
                            f"entry point")
            continue
        same = by_name.setdefault(point.name, [])
        if all(_package(other) != _package(point) for other in same):
            same.append(point)
    points: dict[str, EntryPoint] = {}
    refused: dict[str, str] = {}
    for name, found in sorted(by_name.items()):
        if len(found) == 1:
            points[name] = found[0]
            continue
        packages = " and ".join(repr(_package(point)) for point in found)
        refused[name] = f"packages {packages} both register a game named {name!r}; uninstall one of them"
        warnings.append(refused[name] + f" (game {name!r} is not offered)")
    return _Registered(MappingProxyType(points), MappingProxyType(refused), tuple(warnings))


def _entry_points() -> Mapping[str, EntryPoint]:
    """The installed games' entry points a spec may select, by name (none is loaded)."""
    return _registered().points


def registry_warnings() -> tuple[str, ...]:
    """What is wrong with the installed packages' game entry points that no spec has met yet
    (a game taking a name of printkit's own, one name given by two packages)."""
    return _registered().warnings


def installed_code() -> tuple[str, ...]:
    """Where the code of the installed games lies: the top-level package (folder or file) of
    each entry point's module, found without importing anything, sorted."""
    import importlib.util

    found = set()
    for point in _entry_points().values():
        top = point.module.partition(".")[0]
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            continue
        if spec.submodule_search_locations:
            found.update(spec.submodule_search_locations)
        elif spec.has_location and spec.origin:
            found.add(spec.origin)
    return tuple(sorted(found))


def _package(point: EntryPoint) -> str:
    dist = getattr(point, "dist", None)
    return dist.name if dist is not None else point.value


@lru_cache(maxsize=None)
def _installed(name: str) -> Game:
    """The Game an entry point names: a module (the game's engine module) or a Game object."""
    point = _entry_points()[name]
    package = _package(point)
    if point.attr is None:  # ``name = "package.module"``: that module holds ENGINE
        return Game(name, engine=point.module, package=package)
    try:
        value: Any = point.load()
    except Exception as exc:
        raise GameError(f"game {name!r} from package {package!r}: cannot load its entry point {point.value!r} "
                        f"({type(exc).__name__}: {exc})") from None
    if isinstance(value, ModuleType):
        return Game(name, engine=value.__name__, package=package)
    if not isinstance(value, Game):
        raise GameError(f"game {name!r} from package {package!r}: its entry point {point.value!r} names an "
                        f"object of type {type(value).__name__}, not a module or a printkit.games.Game")
    if value.name != name:
        raise GameError(f"game {name!r} from package {package!r}: its entry point names a Game called "
                        f"{value.name!r}; the two names must be the same")
    bad = [part for part in PARTS if not isinstance(getattr(value, part), (str, type(None)))]
    if bad:
        raise GameError(f"game {name!r} from package {package!r}: {', '.join(bad)} must be module names "
                        f"(text) or None")
    return dataclasses.replace(value, package=package)


def get(name: str) -> Game | None:
    """The game a spec's ``game:`` selects: printkit's own, else an installed package's; None if
    no game has that name."""
    game = BUILTIN.get(name)
    if game is not None:
        return game
    refused = _registered().refused.get(name)
    if refused is not None:
        raise GameError(refused)
    if name not in _entry_points():
        return None
    return _installed(name)


def names() -> tuple[str, ...]:
    """Every registered game: printkit's own, then the installed ones by name (none is loaded)."""
    return (*BUILTIN, *_entry_points())


def engine_names() -> tuple[str, ...]:
    """The games that may have a rule engine, sorted: printkit's own that have one and every
    installed game (by its entry point's name: none is loaded, so a broken one stops nothing)."""
    return tuple(sorted((*(name for name, game in BUILTIN.items() if game.engine is not None), *_entry_points())))


def has_engine(name: str) -> bool:
    """Whether ``name`` is a registered game with a rule engine."""
    game = get(name)
    return game is not None and game.engine is not None


def engine_for(name: str) -> Engine:
    """The rule engine of the game a spec's ``game:`` names; DeckError naming the known ones if none."""
    game = get(name)
    if game is None or game.engine is None:
        raise DeckError(f"no rule engine for game {name!r} (known: {', '.join(engine_names())})")
    return game.load_engine()


def module_of(name: str, part: Part) -> ModuleType | None:
    """The ``part`` module of the game called ``name``; None when no such game or part."""
    game = get(name)
    return None if game is None else game.module(part)


def draws_front(name: str, card: Card) -> bool:
    """Whether the game called ``name`` draws ``card``'s front with faces of its own: it has a
    ``front``, and ``designs(card)`` when it says which cards it designs. Else (a card with no layout
    of its own) the generic face draws it."""
    module = module_of(name, "faces")
    designs = getattr(module, "designs", None)
    return hasattr(module, "front") and (designs is None or designs(card))


def icons(game: str | None = None) -> Mapping[str, Icon]:
    """The icons a spec of ``game`` (or, without one, any spec) or its rule texts may name: printkit's
    own games', the installed game's own when ``game`` is one, then the generic shapes.

    Another installed game's icons are not offered: only the selected game's code is loaded, so a
    broken package stops no other game's deck. An installed game's icon may not take a name
    already taken (GameError naming its package).
    """
    return _icons(None if game is None or game in BUILTIN else game)


@lru_cache(maxsize=None)
def _icons(installed: str | None) -> Mapping[str, Icon]:
    from printkit.layout.icons import GENERIC_ICONS

    chosen = get(installed) if installed is not None else None
    merged: dict[str, Icon] = {}
    owner: dict[str, str] = {}
    for game in (*BUILTIN.values(), *([chosen] if chosen is not None else [])):
        module = game.module("icons")
        for icon, value in getattr(module, "ICONS", {}).items():
            if icon in merged or icon in GENERIC_ICONS:
                taken = owner.get(icon, "printkit's generic icons")
                raise GameError(f"game {game.name!r} from package {game.package!r}: its icon {icon!r} is "
                                f"taken by {taken}; give it another name")
            merged[icon] = value
            owner[icon] = f"game {game.name!r}"
    merged.update(GENERIC_ICONS)
    return MappingProxyType(merged)
