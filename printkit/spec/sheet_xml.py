"""What a workbook's sheet XML says that printkit needs before, or beyond, its reader.

Read once per sheet (:func:`xlsx_sheet`, :func:`ods_sheets`), in one walk over its cells: where the
sheet reaches, from the XML itself before python-calamine builds its grid; and the cells calamine
cannot give as the spreadsheet shows them: it reads an error cell (``#DIV/0!``, ``#N/A``) and a
formula saved without its value (as openpyxl, pandas and other scripts write formulas) as an empty
string, the same as a cell holding no text, so a card would silently lack the attribute.

Each walk is one pass of regular expressions over the tags, linear in the XML, which
:mod:`printkit.spec.data` has checked for size first: a tag's pattern stops at the next ``<`` (no
well-formed tag holds one), so a file of unclosed tags is not scanned again from each of them.
"""

from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass

MAX_SHOWN = 40  # characters of a formula or error quoted in a message
FAR = 10**15  # a row, column or repeat count read as at least this is past every limit: longer numerals are not read


@dataclass(frozen=True)
class SheetXml:
    """One sheet as its XML says: its name (an ODS table's; None for an XLSX part), the last row and
    column (1-based) it reaches, and its unread cells: what each holds and what to do, by (row,
    column) counted from 0 at A1 (``the cell shows the error #DIV/0! (its formula =1/0): ...``)."""

    name: str | None
    reach: tuple[int, int]
    unread: dict[tuple[int, int], str]


def _column_index(letters: bytes) -> int:
    index = 0
    for ch in letters:
        index = index * 26 + (ch - ord("A") + 1)
        if index >= FAR:
            return FAR
    return index  # 1-based


def _count(digits: bytes) -> int:
    """A row number or repeat count; :data:`FAR` for one of more digits than any limit needs."""
    digits = digits.lstrip(b"0")
    return int(digits or b"0") if len(digits) < len(str(FAR)) else FAR


def _problem(error: str | None, formula: str | None) -> str:
    """What the cell holds and what to do, said at the cell."""
    named = f"formula ={_shown(formula)}" if formula else "formula"
    if error is None:
        return (f"{named} has no saved value (the program that wrote the file did not calculate it): open the "
                "file in a spreadsheet app (Excel, LibreOffice, Numbers) and save it there, or type the value "
                "instead")
    if formula is None:
        return f"the cell shows the error {_shown(error)}: type the value it should hold, or clear the cell"
    return (f"the cell shows the error {_shown(error)} (its {named}): correct the formula or the cells it "
            "uses, save, and run again; or clear the cell")


def _shown(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 1] + "…"


def _text(xml: bytes, start: int, end: int) -> str:
    """The text between two tags, markup left out and entities read."""
    return html.unescape(_MARKUP.sub(b"", xml[start:end]).decode("utf-8", "replace"))


def _attr(pattern: re.Pattern[bytes], attrs: bytes) -> str | None:
    found = pattern.search(attrs)
    if found is None:
        return None
    return html.unescape((found.group(1) or found.group(2) or b"").decode("utf-8", "replace"))


def _quoted(name: bytes) -> re.Pattern[bytes]:
    """The attribute ``name`` (not the tail of a longer or prefixed name) and its quoted value."""
    return re.compile(rb"(?<![\w.:-])" + name + rb"""\s*=\s*(?:"([^"]*)"|'([^']*)')""")


_MARKUP = re.compile(rb"<[^<>]*>")


# --- XLSX: xl/workbook.xml names the sheets and their relationship ids, xl/_rels/workbook.xml.rels
# the parts those lead to; each worksheet part is one sheet.

_WORKBOOK_SHEET = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?sheet(?=[\s/>])([^<>]*)>")
_RELATIONSHIP = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?Relationship(?=[\s/>])([^<>]*)>")
_NAME, _RID = _quoted(rb"name"), _quoted(rb"(?:[A-Za-z_][\w.-]*:)id")
_ID, _TARGET = _quoted(rb"Id"), _quoted(rb"Target")


def xlsx_sheet_parts(workbook: bytes, relationships: bytes) -> dict[str, str]:
    """The worksheet part each sheet leads to, by sheet name (the first sheet of a name), from
    xl/workbook.xml and xl/_rels/workbook.xml.rels."""
    targets: dict[str, str] = {}
    for match in _RELATIONSHIP.finditer(relationships):
        rid, target = _attr(_ID, match.group(1)), _attr(_TARGET, match.group(1))
        if rid is not None and target and rid not in targets:
            targets[rid] = target.lstrip("/") if target.startswith("/") else posixpath.normpath("xl/" + target)
    rids: dict[str, str | None] = {}
    for match in _WORKBOOK_SHEET.finditer(workbook):
        name = _attr(_NAME, match.group(1))
        if name is not None:
            rids.setdefault(name, _attr(_RID, match.group(1)))
    return {name: targets[rid] for name, rid in rids.items() if rid in targets}


# The openings of rows and cells (where each cell is), and, where a sheet has a formula or an error,
# every tag the cells' contents need: the same groups (closing, tag, attributes) in both.
_XLSX_POSITIONS = re.compile(rb"<()(?:[A-Za-z_][\w.-]*:)?(row|c)(?=[\s/>])([^<>]*)>")
_XLSX_PARTS = re.compile(rb"<(/?)(?:[A-Za-z_][\w.-]*:)?(row|c|f|v)(?=[\s/>])([^<>]*)>")
_XLSX_REF = re.compile(rb"""\sr\s*=\s*["']([A-Z]*)([0-9]*)["']""")
_XLSX_TYPE = _quoted(rb"t")
_XLSX_ANY = re.compile(rb"""<(?:[A-Za-z_][\w.-]*:)?f(?=[\s/>])|\st\s*=\s*["']e["']""")  # a formula or an error


def xlsx_sheet(xml: bytes, limit: int) -> SheetXml:
    """A worksheet part: the last row and column any cell names, empty cells included, and at most
    ``limit`` unread cells: error cells (``t="e"``) and formulas without a value (no ``<v>``, or an
    empty one where the result is not text). A cell without a reference follows the one before it,
    as readers place it."""
    found: dict[tuple[int, int], str] = {}
    look = _XLSX_ANY.search(xml) is not None  # most sheets: no cell to look at closer
    row = column = max_row = max_column = 0
    cell: dict[str, str | None] | None = None  # the open cell: its type, formula and value as far as read
    opened: int | None = None  # where the open <f> or <v> element's text starts (None: neither is open)

    def close() -> None:  # the open cell's end
        if cell is None or len(found) >= limit:
            return
        value, kind, formula = cell["v"], cell["t"], cell["f"]
        if kind == "e":
            found[(row - 1, column - 1)] = _problem(value or "#VALUE!", formula)
        elif formula is not None and (value is None or (not value.strip() and kind not in ("str", "inlineStr"))):
            found[(row - 1, column - 1)] = _problem(None, formula)

    for match in (_XLSX_PARTS if look else _XLSX_POSITIONS).finditer(xml):
        closing, tag, attrs = match.groups()
        if tag in (b"f", b"v"):
            if cell is not None:
                name = tag.decode()
                if not closing:
                    cell[name], opened = "", None if attrs.endswith(b"/") else match.end()
                elif opened is not None:  # a closing tag with nothing open (in a comment, say) reads nothing
                    cell[name], opened = _text(xml, opened, match.start()), None
            continue
        if cell is not None:
            close()
            cell, opened = None, None
        if closing:
            continue
        ref = _XLSX_REF.search(attrs)
        if tag == b"row":
            row = _count(ref.group(2)) if ref and ref.group(2) else row + 1
            column = 0
            continue
        if ref and ref.group(1):
            column = _column_index(ref.group(1))
            if ref.group(2):
                row = _count(ref.group(2))
        else:
            column += 1
        max_row, max_column = max(max_row, row), max(max_column, column)
        if look and not attrs.endswith(b"/") and len(found) < limit:
            cell = {"t": _attr(_XLSX_TYPE, attrs) or "n", "f": None, "v": None}
    close()
    return SheetXml(None, (max_row, max_column), found)


# --- ODS: content.xml holds every sheet (table). LibreOffice saves an error as
# calcext:value-type="error" (its office:value-type "string", its text what the cell shows); a
# formula no program calculated has no office:value-type.

_ODS_TAG = re.compile(rb"<(/?)table:(table|table-row|table-cell|covered-table-cell)(?=[\s/>])([^<>]*?)(/?)>")
_ODS_ROWS = re.compile(rb"""table:number-rows-repeated\s*=\s*["']([0-9]+)["']""")
_ODS_COLUMNS = re.compile(rb"""table:number-columns-repeated\s*=\s*["']([0-9]+)["']""")
_ODS_ERROR = re.compile(rb"""(?<![\w.-])[\w.-]+:value-type\s*=\s*["']error["']""")
_ODS_FORMULA = _quoted(rb"table:formula")
_ODS_TABLE_NAME = _quoted(rb"table:name")
_ODS_LANGUAGE = re.compile(r"^[A-Za-z][\w.-]*:=")  # "of:=1+2": the formula's language, then the formula


def _ods_formula(attrs: bytes) -> str | None:
    formula = _attr(_ODS_FORMULA, attrs)
    if formula is None:
        return None
    language = _ODS_LANGUAGE.match(formula)
    return (formula[language.end():] if language else formula.lstrip("=")) or None


def ods_sheets(xml: bytes, limit: int) -> list[SheetXml]:
    """Each table of an ODS content.xml: the last row and column holding a value or a formula, and
    at most ``limit`` unread cells (error cells, formulas without a value); repeated rows and cells
    count as often as they repeat (empty ones are not kept by readers)."""
    out: list[SheetXml] = []
    look = b"table:formula" in xml or _ODS_ERROR.search(xml) is not None  # most files: no cell to look at closer
    name: str | None = None
    found: dict[tuple[int, int], str] = {}
    row = column = max_row = max_column = 0
    row_repeat, row_valued = 1, False
    error_at: tuple[range, range, str | None, int] | None = None  # an error cell, until its text is read

    def mark(rows: range, columns: range, problem: str) -> None:
        if not columns:
            return  # no cell, however many rows
        for r in rows:
            for c in columns:
                if len(found) >= limit:
                    return
                found[(r, c)] = problem

    for match in _ODS_TAG.finditer(xml):
        if error_at is not None:
            rows, columns, formula, start = error_at
            mark(rows, columns, _problem(_text(xml, start, match.start()).strip() or "#VALUE!", formula))
            error_at = None
        closing, tag, attrs, empty = match.groups()
        if tag == b"table":
            if closing:
                out.append(SheetXml(name, (max_row, max_column), found))
            else:
                name = _attr(_ODS_TABLE_NAME, attrs)
                row = max_row = max_column = 0
            found = {}
        elif tag == b"table-row":
            if not closing:
                repeated = _ODS_ROWS.search(attrs)
                row_repeat, row_valued, column = (_count(repeated.group(1)) if repeated else 1), False, 0
            if closing or empty:
                if row_valued:
                    max_row = max(max_row, row + row_repeat)
                row += row_repeat
        elif not closing:
            repeated = _ODS_COLUMNS.search(attrs)
            repeat = _count(repeated.group(1)) if repeated else 1
            if b"value-type" in attrs or b"table:formula" in attrs or not empty:  # a formula is read too
                row_valued = True
                max_column = max(max_column, column + repeat)
            if look and tag == b"table-cell" and len(found) < limit:
                cells = (range(row, row + row_repeat), range(column, column + repeat))
                if _ODS_ERROR.search(attrs):
                    error_at = (*cells, _ods_formula(attrs), match.end())
                elif b"office:value-type" not in attrs and _ods_formula(attrs):
                    mark(*cells, _problem(None, _ods_formula(attrs)))
            column += repeat
    return out
