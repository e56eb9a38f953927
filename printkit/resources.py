"""Where printkit's bundled fonts and decks live: beside the package in a source checkout
(``pip install -e .``), or under ``<prefix>/share/printkit`` after a plain ``pip install .``."""

from __future__ import annotations

import sys
import sysconfig
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent


def bundled_dir(name: str) -> Path:
    """The folder of bundled ``fonts`` or ``decks``."""
    beside = _CHECKOUT / name
    if beside.is_dir():
        return beside
    for prefix in (sysconfig.get_path("data"), sys.prefix, sys.base_prefix):
        installed = Path(prefix) / "share" / "printkit" / name
        if installed.is_dir():
            return installed
    return beside
