"""The layouts a spec's variants, groups and overrides name (``layout:``, ``back_layout:``) must be
layouts the spec defines. Checked when the spec is loaded, beside its data files (see
:func:`printkit.spec.files.load_spec`), so one run says a misspelt layout and a bad cell alike."""

from __future__ import annotations

from printkit.errors import Errors
from printkit.spec.fields import unknown_name
from printkit.spec.load import LoadedSpec
from printkit.spec.yamlread import PathKey

KEYS = ("layout", "back_layout")


def check_layout_names(loaded: LoadedSpec) -> None:
    """Refuse every ``layout:`` or ``back_layout:`` naming no layout of the spec, each at its value."""
    spec = loaded.spec
    errors = Errors()

    def check(owner, path: PathKey) -> None:
        for key in KEYS:
            name = getattr(owner, key)
            if name is not None and name not in spec.layouts:
                errors.add(loaded.source.error(path + (key,), unknown_name("layout", name, spec.layouts)))

    for vname, vspec in spec.variants.items():
        check(vspec, ("variants", vname))
    for section, groups in (("groups", spec.groups), ("components", spec.components)):
        for i, group in enumerate(groups):
            check(group, (section, i))
            for oi, override in enumerate(group.overrides):
                check(override, (section, i, "overrides", oi))
    errors.raise_any()
