"""Export targets as data: ``profiles.yaml`` read into typed, checked :class:`Profile` records.

A profile says what one print service (or Tabletop Simulator) takes: file format, the card sizes
it offers with their bleed and pixel size, colour, and what to do with backs, copies and
full-page components. The numbers and the pages they come from are in docs/print-services.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

import yaml

from printkit.deck import CARD_SIZES_MM, CardSize
from printkit.errors import BuildError
from printkit.render.cmyk import Press
from printkit.units import parse_length_mm

PROFILES_FILE = Path(__file__).with_name("profiles.yaml")
# Two card sizes are the same when every side differs by less than this (63 x 88 mm is poker).
SIZE_TOLERANCE_MM = 1.0

KINDS = ("images", "pdf", "tts")
BACKS = ("files", "interleaved", "after-fronts")
COPIES = ("count-in-name", "repeat", "readme")
PAGES = ("omit", "separate-pdf")
OTHER_SIZES = ("omit", "include")


@dataclass(frozen=True)
class ServiceSize:
    """One card size a service offers: trim and bleed in mm; pixels of one image (or None)."""

    name: str
    width_mm: float
    height_mm: float
    bleed_mm: float
    pixels: tuple[int, int] | None = None

    def matches(self, size: CardSize) -> bool:
        return (abs(self.width_mm - size.width_mm) < SIZE_TOLERANCE_MM
                and abs(self.height_mm - size.height_mm) < SIZE_TOLERANCE_MM)

    def describe(self) -> str:
        return f"{self.name} ({self.width_mm:g} x {self.height_mm:g} mm)"


@dataclass(frozen=True)
class Profile:
    """What one export target takes (see the keys documented in profiles.yaml)."""

    key: str
    name: str
    kind: str
    sizes: tuple[ServiceSize, ...] | None  # None: any size (the deck's own, with its own bleed)
    colour: str = "srgb"
    format: str = "png"
    dpi: int = 300
    stated_dpi: int | None = None  # the profile's own dpi key: the least a picture should print at there
    backs: str = "files"
    copies: str = "repeat"
    pages: str = "omit"
    other_sizes: str = "omit"
    verified: bool = True
    upload: str = ""
    asks: str = ""
    max_columns: int = 10
    max_rows: int = 7
    max_pixels: int = 4096
    press: Press = Press()  # how its CMYK files take ink (ink limit, rich black, PDF/X by default)
    order_sizes: tuple[int, ...] = ()  # the deck sizes the service sells, smallest first (none: any)
    rulebook: bool = False  # the deck's rulebooks go into the export too

    def size_for(self, size: CardSize) -> ServiceSize | None:
        """The service's size matching a card's trim, or None (always a match for ``sizes: any``)."""
        if self.sizes is None:
            return ServiceSize(size.name or "card", size.width_mm, size.height_mm, size.bleed_mm)
        return next((s for s in self.sizes if s.matches(size)), None)

    def offered(self) -> str:
        return ", ".join(s.describe() for s in self.sizes or ())


@lru_cache(maxsize=1)
def profiles() -> Mapping[str, Profile]:
    """Every export target by its key (``tgc``, ``mpc``, ``drivethrucards``, ``print-shop``, ``tts``)."""
    data = yaml.safe_load(PROFILES_FILE.read_text(encoding="utf-8"))
    return {key: _profile(key, value) for key, value in data.items()}


def profile(target: str) -> Profile:
    """The profile named ``target``; a BuildError listing the targets otherwise."""
    known = profiles()
    if target not in known:
        raise BuildError(f"unknown export target {target!r} (expected one of: {', '.join(known)})")
    return known[target]


def _profile(key: str, raw: Mapping[str, Any]) -> Profile:
    """One profile checked: a mistake in profiles.yaml names the profile and the key."""
    where = f"{PROFILES_FILE.name}: {key}"

    def choice(name: str, options: tuple[str, ...], default: str) -> str:
        value = raw.get(name, default)
        if value not in options:
            raise BuildError(f"{where}: {name} {value!r} is not one of: {', '.join(options)}")
        return value

    sizes_raw = raw.get("sizes")
    sizes: tuple[ServiceSize, ...] | None
    if sizes_raw == "any":
        sizes = None
    elif isinstance(sizes_raw, dict) and sizes_raw:
        sizes = tuple(_size(where, name, value) for name, value in sizes_raw.items())
    else:
        raise BuildError(f"{where}: sizes must be 'any' or a map of sizes")
    kind = choice("kind", KINDS, "images")
    if kind == "images" and sizes is not None and any(s.pixels is None for s in sizes):
        raise BuildError(f"{where}: an images profile needs pixels for every size")
    return Profile(
        key=key, name=str(raw["name"]), kind=kind, sizes=sizes, colour=str(raw.get("colour", "srgb")),
        format=str(raw.get("format", "png")), dpi=int(raw.get("dpi", 300)),
        stated_dpi=int(raw["dpi"]) if "dpi" in raw else None,
        backs=choice("backs", BACKS, "files"), copies=choice("copies", COPIES, "repeat"),
        pages=choice("pages", PAGES, "omit"), other_sizes=choice("other_sizes", OTHER_SIZES, "omit"),
        verified=bool(raw.get("verified", True)), upload=str(raw.get("upload", "")).strip(),
        asks=str(raw.get("asks", "") or "").strip(), max_columns=int(raw.get("max_columns", 10)),
        max_rows=int(raw.get("max_rows", 7)), max_pixels=int(raw.get("max_pixels", 4096)),
        press=_press(where, raw),
        order_sizes=_order_sizes(where, raw.get("order_sizes", [])), rulebook=bool(raw.get("rulebook", False)),
    )


def _press(where: str, raw: Mapping[str, Any]) -> Press:
    """The ``ink_limit``, ``rich_black``, ``rich_black_from`` and ``pdfx`` keys of a profile."""
    default = Press()

    def percent(value: Any, name: str) -> float:
        try:
            number = float(str(value).strip().removesuffix("%"))
        except ValueError:
            raise BuildError(f"{where}: {name} {value!r} is not a percentage (e.g. 300%)") from None
        if not 0 <= number <= 400:
            raise BuildError(f"{where}: {name} {value!r} is not between 0% and 400%")
        return number / 100

    limit = percent(raw.get("ink_limit", "300%"), "ink_limit")
    black = raw.get("rich_black", [round(v * 100) for v in default.rich_black])
    if black in (None, "none"):
        rich = None
    elif isinstance(black, list) and len(black) == 4:
        rich = tuple(percent(v, "rich_black") for v in black)
    else:
        raise BuildError(f"{where}: rich_black {black!r} must be 'none' or four percentages [C, M, Y, K]")
    try:
        large = parse_length_mm(raw.get("rich_black_from", f"{default.rich_black_from_mm:g}mm"))
    except (TypeError, ValueError) as exc:
        raise BuildError(f"{where}: rich_black_from: {exc}") from None
    pdfx = raw.get("pdfx", False)
    if not isinstance(pdfx, bool):
        raise BuildError(f"{where}: pdfx {pdfx!r} must be true or false")
    return Press(ink_limit=limit, rich_black=rich, rich_black_from_mm=large, pdfx=pdfx)


def _order_sizes(where: str, raw: Any) -> tuple[int, ...]:
    if not isinstance(raw, list) or not all(isinstance(n, int) and n > 0 for n in raw) or raw != sorted(set(raw)):
        raise BuildError(f"{where}: order_sizes must be a list of card counts, smallest first")
    return tuple(raw)


def _size(where: str, name: str, raw: Mapping[str, Any]) -> ServiceSize:
    try:
        pixels = raw.get("pixels")
        return ServiceSize(name, parse_length_mm(raw["width"]), parse_length_mm(raw["height"]),
                           parse_length_mm(raw["bleed"]), tuple(int(p) for p in pixels) if pixels else None)
    except (KeyError, TypeError, ValueError) as exc:
        raise BuildError(f"{where}: size {name!r}: {exc}") from None


def size_name(size: CardSize) -> str:
    """``poker (63.5 x 88.9 mm)`` or ``20 x 20 mm``: a deck's card size in a message."""
    named = size.name or next((n for n, (w, h) in CARD_SIZES_MM.items()
                               if abs(w - size.width_mm) < 0.01 and abs(h - size.height_mm) < 0.01), None)
    dims = f"{size.width_mm:g} x {size.height_mm:g} mm"
    return f"{named} ({dims})" if named else dims
