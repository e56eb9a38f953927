"""The workbook cells whose value python-calamine cannot give as the spreadsheet shows it.

calamine reads an error cell (``#DIV/0!``, ``#N/A``) and a formula saved without its value (as
openpyxl, pandas and other scripts write formulas) as an empty string, the same as a cell holding
no text: a card would silently lack the attribute. These are found in the sheet's own XML, which
:mod:`printkit.spec.data` has already checked for size, in one pass over its tags.
"""

from __future__ import annotations

import html
import io
import posixpath
import re
import zipfile

MAX_SHOWN = 40  # characters of a formula or error quoted in a message

_ATTR = re.compile(rb"""([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


def unread_cells(raw: bytes, kind: str, sheet: str, limit: int) -> dict[tuple[int, int], str]:
    """What each such cell of ``sheet`` holds and what to do, by (row, column) counted from 0 at A1
    (``the cell shows the error #DIV/0! (its formula =1/0): ...``, ``formula =1+2 has no saved
    value ...``); at most ``limit`` cells. Empty when the sheet's XML cannot be found (the
    reader's view is kept then)."""
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            if kind == "ods":
                return _ods_cells(archive.read("content.xml"), sheet, limit)
            part = _xlsx_part(archive, sheet)
            return _xlsx_cells(archive.read(part), limit) if part else {}
    except (KeyError, zipfile.BadZipFile, OSError, ValueError, RuntimeError, EOFError):
        return {}


def _attrs(text: bytes) -> dict[str, str]:
    """A tag's attributes by their name without its namespace prefix (the last one wins)."""
    out = {}
    for name, double, single in _ATTR.findall(text):
        local = name.rsplit(b":", 1)[-1].decode("ascii", "replace")
        out[local] = html.unescape((double or single).decode("utf-8", "replace"))
    return out


def _prefixed(text: bytes) -> dict[bytes, str]:
    """A tag's attributes by their full name (``calcext:value-type`` apart from ``office:value-type``)."""
    return {name: html.unescape((double or single).decode("utf-8", "replace"))
            for name, double, single in _ATTR.findall(text)}


def _shown(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 1] + "…"


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


def _mark(found: dict, rows: range, columns: range, problem: str, limit: int) -> None:
    """``problem`` for each cell of ``rows`` x ``columns`` (an ODS cell may repeat), up to ``limit``."""
    for r in rows:
        for c in columns:
            if len(found) >= limit:
                return
            found[(r, c)] = problem


# --- XLSX --------------------------------------------------------------------------------------

_REL_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(sheet|Relationship)(?=[\s/>])([^>]*)>")


def _xlsx_part(archive: zipfile.ZipFile, sheet: str) -> str | None:
    """The worksheet part of the sheet named ``sheet``, as xl/workbook.xml and its rels name it."""
    rid = None
    for match in _REL_TAG.finditer(archive.read("xl/workbook.xml")):
        if match.group(1) == b"sheet":
            attrs = _attrs(match.group(2))
            if attrs.get("name") == sheet:
                rid = attrs.get("id")
                break
    if rid is None:
        return None
    for match in _REL_TAG.finditer(archive.read("xl/_rels/workbook.xml.rels")):
        attrs = _attrs(match.group(2))
        if match.group(1) == b"Relationship" and attrs.get("Id") == rid and "Target" in attrs:
            target = attrs["Target"]
            return target.lstrip("/") if target.startswith("/") else posixpath.normpath("xl/" + target)
    return None


_XLSX_TAG = re.compile(rb"<(/?)(?:[A-Za-z_][\w.-]*:)?(row|c|f|v)(?=[\s/>])([^>]*)>")
_REF = re.compile(r"^([A-Z]*)([0-9]*)$")


def _column(letters: str) -> int:
    index = 0
    for ch in letters:
        index = index * 26 + (ord(ch) - ord("A") + 1)
    return index - 1


def _xlsx_cells(xml: bytes, limit: int) -> dict[tuple[int, int], str]:
    """Error cells (``t="e"``) and formulas without a value (no ``<v>``, or an empty one where the
    result is not text) of a worksheet part; cells without a reference follow the one before."""
    found: dict[tuple[int, int], str] = {}
    row, column = -1, -1
    cell: dict | None = None  # the open cell: its type, formula and value as far as read
    text_from = None  # where the open <f> or <v> element's text starts, and which it is

    def close() -> None:
        if cell is None:
            return
        value, kind = cell["v"], cell["t"]
        if kind == "e":
            found[(row, column)] = _problem(value or "#VALUE!", cell["f"])
        elif cell["f"] is not None and (value is None or (not value.strip() and kind not in ("str", "s", "inlineStr"))):
            found[(row, column)] = _problem(None, cell["f"])

    for match in _XLSX_TAG.finditer(xml):
        closing, tag, attrs = match.group(1), match.group(2), match.group(3)
        empty = attrs.endswith(b"/")
        if tag in (b"f", b"v"):
            if cell is None:
                continue
            if closing:
                if text_from is not None and text_from[1] == tag:
                    text = xml[text_from[0]:match.start()].decode("utf-8", "replace")
                    cell[tag.decode()] = html.unescape(text)
                text_from = None
            else:
                cell[tag.decode()] = ""
                text_from = None if empty else (match.end(), tag)
            continue
        if tag == b"c" and closing:
            close()
            cell = None
            if len(found) >= limit:
                break
            continue
        close()
        cell = None
        if closing:
            continue
        ref = _REF.match(_attrs(attrs).get("r", "").strip())
        if tag == b"row":
            row = int(ref.group(2)) - 1 if ref and ref.group(2) else row + 1
            column = -1
            continue
        if ref and ref.group(1):
            column = _column(ref.group(1))
            if ref.group(2):
                row = int(ref.group(2)) - 1
        else:
            column += 1
        if not empty:
            cell = {"t": _attrs(attrs).get("t", "n"), "f": None, "v": None}
        if len(found) >= limit:
            break
    close()
    return dict(list(found.items())[:limit])


# --- ODS ---------------------------------------------------------------------------------------

_ODS_TAG = re.compile(rb"<(/?)table:(table|table-row|table-cell|covered-table-cell)(?=[\s/>])([^>]*?)(/?)>")
_MARKUP = re.compile(r"<[^>]*>")
_NAMESPACE = re.compile(r"^[A-Za-z][\w.-]*:=")  # "of:=1+2": the formula's language, then the formula


def _ods_formula(formula: str | None) -> str | None:
    if formula is None:
        return None
    found = _NAMESPACE.match(formula)
    return (formula[found.end():] if found else formula.lstrip("=")) or None


def _ods_cells(xml: bytes, sheet: str, limit: int) -> dict[tuple[int, int], str]:
    """Error cells (``calcext:value-type="error"``, as LibreOffice saves them) and formulas with
    no value type of the table named ``sheet`` in content.xml, repeated rows and cells counted."""
    found: dict[tuple[int, int], str] = {}
    inside = False
    row = column = 0
    row_repeat = 1
    pending: tuple[int, int, int, dict[bytes, str], int] | None = None  # an error cell waiting for its shown text

    def settle(end: int) -> None:
        nonlocal pending
        if pending is not None:
            at_row, at_column, repeat, attrs, start = pending
            shown = html.unescape(_MARKUP.sub("", xml[start:end].decode("utf-8", "replace"))).strip()
            _mark(found, range(at_row, at_row + row_repeat), range(at_column, at_column + repeat),
                  _problem(shown or "#VALUE!", _ods_formula(attrs.get(b"table:formula"))), limit)
            pending = None

    for match in _ODS_TAG.finditer(xml):
        settle(match.start())
        closing, tag, raw_attrs, empty = match.groups()
        if tag == b"table":
            if closing:
                if inside:
                    break
            else:
                inside = _prefixed(raw_attrs).get(b"table:name") == sheet
                row = 0
            continue
        if not inside:
            continue
        if tag == b"table-row":
            if not closing:
                repeated = _prefixed(raw_attrs).get(b"table:number-rows-repeated", "1")
                row_repeat, column = (int(repeated) if repeated.isdigit() else 1), 0
            if closing or empty:
                row += row_repeat
            continue
        if closing:
            continue
        attrs = _prefixed(raw_attrs)
        repeated = attrs.get(b"table:number-columns-repeated", "1")
        repeat = int(repeated) if repeated.isdigit() else 1
        if tag == b"table-cell":
            is_error = any(name.endswith(b":value-type") and value == "error" for name, value in attrs.items())
            formula = attrs.get(b"table:formula")
            if is_error:
                pending = (row, column, repeat, attrs, match.end())
            elif formula is not None and b"office:value-type" not in attrs:
                _mark(found, range(row, row + row_repeat), range(column, column + repeat),
                      _problem(None, _ods_formula(formula)), limit)
        column += repeat
        if len(found) >= limit:
            break
    settle(len(xml))
    return found
