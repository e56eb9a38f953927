"""A layout's ``kind: table``: a ruled table of headed columns, rows and summary rows, in its box.

What a score sheet is: a few columns of its own (a round's number, its cards, its rule), then a
group of columns repeated once per player (bid, won, score) under each player's label, a row per
round and summary rows (totals) across the first columns. The rows' height is ``row_height`` or
less, so that they all fit the element's box; cells' text is set on one line in the middle 60 % of
its row, as large as fits up to its column's size. Lines: heavy (``stroke_width``) round the
table, under the headings, between groups and before the summary rows; light (a third of it)
inside. Mistakes in what a card gives (a count that is not a whole number) are LayoutErrors,
named at the card by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from printkit.errors import LayoutError
from printkit.layout.color import mix
from printkit.layout.geometry import Box
from printkit.layout.ops import Line, Op, Rect
from printkit.layout.text import fit_line

# A cell's text sits in the middle of its row: this share of the height above it, and this share for it.
_CELL_TOP, _CELL_HEIGHT = 0.2, 0.6
# Text sizes are never searched below this (a table's smallest cells stay legible).
_SMALLEST_MM = 1.2
# How far inside its box a heading, a repeated group's label and a summary row's label are set (mm).
_HEADING_INSET = (0.6, 0.5)
_LABEL_INSET = (0.8, 0.4)
_SUBHEADING_INSET = (0.3, 0.6)
_FOOTER_INSET = 1.0
# The most groups a repeat draws, and the most rows a table is given.
MAX_REPEAT = 20


@dataclass(frozen=True)
class Column:
    """A column: its width (mm, or a percentage of the width the columns share), heading and cells' style."""

    width_mm: float
    percent: bool
    header: str | None
    size_mm: float
    min_size_mm: float
    bold: bool
    color: Any  # a layout Template for the cells' colour, or None for ink
    align: str  # start, middle, end
    inset_mm: float
    same_size: bool

    def width(self, shared_mm: float) -> float:
        return self.width_mm * shared_mm / 100.0 if self.percent else self.width_mm


@dataclass(frozen=True)
class Row:
    cells: tuple[Any, ...]  # a Template per cell, the table's own columns left first
    fill: Any = None  # Template or None
    mark: str | None = None


@dataclass(frozen=True)
class Repeat:
    count: Any  # Template giving a whole number
    header: Any  # Template, ``{n}`` the group's number, or None
    fill: Any  # Template or None
    columns: tuple[Column, ...]


@dataclass(frozen=True)
class Table:
    columns: tuple[Column, ...]
    repeat: Repeat | None
    header_mm: float
    subheader_mm: float
    row_mm: float
    rows: tuple[Row, ...]
    rows_shown: Any  # Template giving a whole number, or None for every row
    footer: tuple[str, ...]
    footer_fill: Any
    mark_fill: Any
    header_size_mm: float = 3.0
    subheader_size_mm: float = 2.6
    label_size_mm: float = 1.9
    footer_size_mm: float = 3.4

    @property
    def colors(self) -> tuple[Any, ...]:
        """The table's colour templates: its fills and its columns' text colours."""
        return tuple(template for _, template in self.colors_at)

    @property
    def colors_at(self) -> tuple[tuple[tuple[str | int, ...], Any], ...]:
        """The table's colour templates, each with where its ``table:`` writes it (``("rows", 2, "fill")``)."""
        found: list[tuple[tuple[str | int, ...], Any]] = [(("footer_fill",), self.footer_fill),
                                                         (("mark_fill",), self.mark_fill)]
        found += [(("columns", i, "color"), c.color) for i, c in enumerate(self.columns)]
        found += [(("rows", i, "fill"), r.fill) for i, r in enumerate(self.rows)]
        if self.repeat is not None:
            found += [(("repeat", "fill"), self.repeat.fill)]
            found += [(("repeat", "columns", i, "color"), c.color) for i, c in enumerate(self.repeat.columns)]
        return tuple((at, t) for at, t in found if t is not None)

    @property
    def templates(self) -> tuple[Any, ...]:
        """Every template the table reads (its counts, colours and cells), for the attributes it needs;
        a repeat's label is not among them, its ``{n}`` being the table's own."""
        found = [self.rows_shown, self.footer_fill, self.mark_fill]
        if self.repeat is not None:
            found += [self.repeat.count, self.repeat.fill]
            found += [c.color for c in self.repeat.columns]
        found += [c.color for c in self.columns] + [r.fill for r in self.rows]
        found += [cell for r in self.rows for cell in r.cells]
        return tuple(t for t in found if t is not None)

    @property
    def label_reads(self) -> tuple[str, ...]:
        """The card's attributes a repeat's label reads (all its names but the table's own ``{n}``)."""
        if self.repeat is None or self.repeat.header is None:
            return ()
        return tuple(name for name in self.repeat.header.names if name != "n")


def _whole(template: Any, values: Mapping[str, Any], what: str, high: int) -> int:
    text = template.render(values).strip()
    try:
        number = int(text)
    except ValueError:
        number = 0
    if not 1 <= number <= high or str(number) != text:
        raise LayoutError(f"the table's {what} must be a whole number from 1 to {high}, not {text!r}")
    return number


def draw_table(table: Table, box: Box, values: Mapping[str, Any], color: Callable[[Any], str], ink: str,
               stroke: str, heavy_mm: float, chains: tuple[Sequence[Path], Sequence[Path]],
               where: object) -> tuple[list[Op], list[str]]:
    """The table's ops in ``box`` for a card whose placeholders read ``values``, and its warnings.

    ``color(template)`` is a colour template's ``#rrggbb`` for the card; ``chains`` the (regular,
    bold) fonts its text may use, preferred first.
    """
    ops: list[Op] = []
    warnings: list[str] = []

    def put(text: str, cell: Box, size: float, bold: bool = True, align: str = "middle", fill: str = ink,
            min_size: float = 1.6) -> None:
        chain = chains[1] if bold else chains[0]
        fitted = fit_line(text, chain[0], cell, max_size_mm=size, min_size_mm=min(min_size, size),
                          where=f"{where} {text!r}", color=fill, align=align, fallbacks=chain)
        ops.extend(fitted.ops)
        warnings.extend(fitted.warnings)

    def fitting(text: str, width: float, height: float, size: float, bold: bool = True) -> float:
        chain = chains[1] if bold else chains[0]
        return fit_line(text, chain[0], Box(0, 0, width, height), max_size_mm=size, min_size_mm=_SMALLEST_MM,
                        where="", fallbacks=chain).size_mm

    shown = len(table.rows) if table.rows_shown is None else \
        _whole(table.rows_shown, values, "number of rows shown", len(table.rows))
    rows = table.rows[:shown]
    cells = [tuple(cell.render(values) for cell in row.cells) for row in rows]
    groups = 0 if table.repeat is None else _whole(table.repeat.count, values, "repeat count", MAX_REPEAT)
    x0, x1, y = box.x_mm, box.right_mm, box.y_mm
    fixed_w = [c.width(box.w_mm) for c in table.columns]
    group_w = (box.w_mm - sum(fixed_w)) / groups if groups else 0.0
    sub_w = [c.width(group_w) for c in table.repeat.columns] if groups else []
    header_h = (table.header_mm, table.subheader_mm) if groups else (table.header_mm,)
    body_rows = len(rows) + len(table.footer)
    row_h = min(table.row_mm, (box.h_mm - sum(header_h)) / max(body_rows, 1))
    _check_room(table, box, fixed_w, groups, group_w, sub_w, sum(header_h), row_h)
    top, bottom = y, y + sum(header_h) + body_rows * row_h

    # One size for each same_size column, and one for the repeated columns' headings, so rows look alike.
    sizes = {}
    for i, column in enumerate(table.columns):
        if column.same_size:
            texts = [r[i] for r in cells if i < len(r) and r[i]]
            sizes[i] = min([fitting(t, fixed_w[i] - 2 * column.inset_mm, row_h * _CELL_HEIGHT, column.size_mm,
                                    column.bold) for t in texts] or [column.size_mm])
    if groups:
        labels = [c.header or "" for c in table.repeat.columns]
        sub_size = min(fitting(label, sw - 2 * _SUBHEADING_INSET[0], header_h[1] - 2 * _SUBHEADING_INSET[1],
                               table.subheader_size_mm) for label, sw in zip(labels, sub_w) if label) \
            if any(labels) else table.subheader_size_mm

    # Headings: the columns' own across every heading row, then a labelled band and headings per group.
    x = x0
    for column, cw in zip(table.columns, fixed_w):
        if column.header:
            put(str(column.header), Box(x + _HEADING_INSET[0], y + _HEADING_INSET[1], cw - 2 * _HEADING_INSET[0],
                                        sum(header_h) - 2 * _HEADING_INSET[1]), table.header_size_mm)
        x += cw
    for g in range(groups):
        gx = x + g * group_w
        if table.repeat.fill is not None:
            ops.append(Rect(gx, y, group_w, header_h[0], fill=color(table.repeat.fill)))
        if table.repeat.header is not None:
            label = table.repeat.header.render({**values, "n": g + 1})
            put(label, Box(gx + _LABEL_INSET[0], y + _LABEL_INSET[1], group_w - 2 * _LABEL_INSET[0],
                           table.label_size_mm + 0.3), table.label_size_mm, bold=False, align="start",
                fill=mix(ink, "#ffffff", 0.45), min_size=_SMALLEST_MM)
        sx = gx
        for label, sw in zip(labels, sub_w):
            if label:
                put(str(label), Box(sx + _SUBHEADING_INSET[0], y + header_h[0] + _SUBHEADING_INSET[1],
                                    sw - 2 * _SUBHEADING_INSET[0], header_h[1] - 2 * _SUBHEADING_INSET[1]),
                    sub_size, min_size=_SMALLEST_MM)
            sx += sw
    y += sum(header_h)

    # Rows: a fill across the table, the cells' texts, and a repeat's first cells marked and greyed.
    for row, texts in zip(rows, cells):
        if row.fill is not None:
            ops.append(Rect(x0, y, x1 - x0, row_h, fill=color(row.fill)))
        cx = x0
        for i, (column, cw) in enumerate(zip(table.columns, fixed_w)):
            text = texts[i] if i < len(texts) else ""
            if text:
                fill = color(column.color) if column.color is not None else ink
                put(text, Box(cx + column.inset_mm, y + row_h * _CELL_TOP, cw - 2 * column.inset_mm,
                              row_h * _CELL_HEIGHT), sizes.get(i, column.size_mm), bold=column.bold,
                    align=column.align, fill=fill, min_size=column.min_size_mm)
            cx += cw
        if row.mark is not None and groups:
            first = table.repeat.columns[0]
            fill = color(first.color) if first.color is not None else ink
            for g in range(groups):
                bx = x0 + sum(fixed_w) + g * group_w
                ops.append(Rect(bx, y, sub_w[0], row_h, fill=color(table.mark_fill)))
                put(row.mark, Box(bx + first.inset_mm, y + row_h * _CELL_TOP, sub_w[0] - 2 * first.inset_mm,
                                  row_h * _CELL_HEIGHT), first.size_mm, bold=first.bold, fill=fill,
                    min_size=first.min_size_mm)
        y += row_h
    for label in table.footer:
        if table.footer_fill is not None:
            ops.append(Rect(x0, y, x1 - x0, row_h, fill=color(table.footer_fill)))
        put(str(label), Box(x0 + _FOOTER_INSET, y + row_h * _CELL_TOP, sum(fixed_w) - 2 * _FOOTER_INSET,
                            row_h * _CELL_HEIGHT), table.footer_size_mm, align="start")
        y += row_h

    ops.extend(table_ruling(x0, x1, top, bottom, header_h, row_h, body_rows, len(table.footer), fixed_w, groups,
                            group_w, sub_w, stroke, heavy_mm))
    return ops, warnings


def _check_room(table: Table, box: Box, fixed_w: Sequence[float], groups: int, group_w: float,
                sub_w: Sequence[float], headings_h: float, row_h: float) -> None:
    """A LayoutError when the columns, a repeat's group or the rows have no room in ``box`` (they
    would be drawn past its edges or with negative sizes)."""
    if sum(fixed_w) > box.w_mm + 1e-6 or (groups and group_w <= 0):
        raise LayoutError(f"the table's columns take {sum(fixed_w):.1f} mm of its {box.w_mm:.1f} mm"
                          + (f", leaving nothing for {groups} repeated groups" if groups else "")
                          + "; narrow the columns or widen the box")
    if groups and sum(sub_w) > group_w + 1e-6:
        raise LayoutError(f"the repeated columns take {sum(sub_w):.1f} mm of each group's {group_w:.1f} mm; "
                          "narrow them (their percentages share the group's width)")
    for column, width in [*zip(table.columns, fixed_w), *(zip(table.repeat.columns, sub_w) if groups else ())]:
        if width - 2 * column.inset_mm <= 0:
            raise LayoutError(f"column {column.header or ''!r} is {width:.1f} mm wide, no more than its "
                              f"inset twice ({column.inset_mm:g} mm a side); widen it or lower its inset")
    if row_h <= 0:
        raise LayoutError(f"the headings take {headings_h:.1f} mm of the table's {box.h_mm:.1f} mm, leaving no "
                          "room for its rows; lower header_height or make the box taller")


def table_ruling(x0: float, x1: float, top: float, bottom: float, header_h: Sequence[float], row_h: float,
                 rows: int, footer: int, fixed_w: Sequence[float], groups: int, group_w: float,
                 sub_w: Sequence[float], ink: str, heavy: float) -> list[Op]:
    """The table's lines: heavy round it, under the headings, between groups and before the summary
    rows; light (a third as thick) between rows and columns inside."""
    ops: list[Op] = []
    light = heavy / 3
    body_top = top + sum(header_h)
    ops.append(Rect(x0, top, x1 - x0, bottom - top, stroke=ink, stroke_mm=heavy))
    ops.append(Line(x0, body_top, x1, body_top, ink, heavy))
    for i in range(1, rows):
        y = body_top + i * row_h
        ops.append(Line(x0, y, x1, y, ink, heavy if footer and i == rows - footer else light))
    x = x0
    # Inside the first columns the summary rows' labels run across, so those lines stop above them.
    rows_bottom = body_top + (rows - footer) * row_h
    for i, cw in enumerate(fixed_w):
        x += cw
        last = i == len(fixed_w) - 1
        if last and not groups:
            break  # the table's own edge
        ops.append(Line(x, top, x, bottom if last else rows_bottom, ink, heavy if last else light))
    for g in range(groups):
        gx = x + g * group_w
        if g:
            ops.append(Line(gx, top, gx, bottom, ink, heavy))
        if len(header_h) > 1:
            ops.append(Line(gx, top + header_h[0], gx + group_w, top + header_h[0], ink, light))
        sx = gx
        for sw in sub_w[:-1]:
            sx += sw
            ops.append(Line(sx, top + header_h[0], sx, bottom, ink, light))
    return ops
