"""A spec's engine options (``options:``), refused at their place when the game's rule engine does
not take them: what ``printkit check`` and ``printkit build`` both refuse, without the check's
machinery (counts, seeded games)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from printkit.errors import DeckError

if TYPE_CHECKING:
    from printkit.spec import LoadedSpec


def check_engine_options(loaded: LoadedSpec) -> None:
    """Refuse engine options the game's rule engine does not know, at their place in the spec.

    The error is placed at the first option that fails on its own (an unknown name, a bad value)
    and says why that one fails; only a refused combination is placed at the ``options:`` mapping.
    """
    spec = loaded.spec
    if not spec.options and not any(v.options for v in spec.variants.values()):
        return  # no engine takes an empty mapping amiss: a build without options loads no engine
    from printkit.games import engine_for, has_engine

    if not has_engine(spec.game):
        return
    engine = engine_for(spec.game)
    places = [(("options",), {}, dict(spec.options))]
    places += [(("variants", name, "options"), dict(spec.options), dict(v.options)) for name, v in spec.variants.items()]
    for path, inherited, own in places:
        try:
            engine.check_options({**inherited, **own})
        except DeckError as whole:
            for key, value in own.items():  # which option is it? (options that only work together pass)
                try:
                    engine.check_options({**inherited, key: value})
                except DeckError as exc:
                    raise loaded.source.error(path + (key,), str(exc), key=True) from None
            raise loaded.source.error(path, str(whole), key=True) from None
