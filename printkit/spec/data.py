"""Card data from a spreadsheet beside the spec: CSV, TSV, XLSX or ODS, one card per row.

The header row names the attributes; every following row that is not entirely empty is a card. A
``copies`` (or ``qty``) column sets the row's copies. Values are what the cell holds, never
guessed at: in CSV/TSV only a canonical decimal numeral (one that prints back exactly as typed:
``7``, ``-1``, ``2.5``) is a number, and ``007``, ``+3``, ``1e3``, ``1,000``, ``2.50``, ``TRUE``
and ``2024-01-02`` stay text. In a workbook a number cell is the number its General format shows
(:func:`sheet_number`), a text cell text, a true/false cell the text ``TRUE``/``FALSE`` and a date
cell its ISO text; a cell showing an error, or a formula saved without its value, is a mistake at
the cell. Surrounding whitespace is stripped from every cell; a cell left empty gives the card no
such attribute.

Workbooks are read with python-calamine. On a 10,000-row, 7-column XLSX (281 kB) it took 134 ms
(median of 5) where openpyxl took 2,076 ms in read-only mode (3,077 ms otherwise) and 0.58 s more
to import; calamine also reads ODS and tells dates from date-times. It builds a dense grid of each
sheet's used area and expands ODS's repeated cells, so a small file naming a far-away cell could
ask it for gigabytes: before handing it a workbook, printkit checks the zip (entries, unpacked
size, each entry unpacked for real) and every sheet's extent (:data:`MAX_SHEET_ROWS`,
:data:`MAX_COLUMNS`, :data:`MAX_SHEET_CELLS`) from the sheet XML itself.
"""

from __future__ import annotations

import datetime
import hashlib
import io
import math
import re
import threading
import zipfile
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from printkit.errors import MAX_ERRORS, DataFileError, Errors, SpecError
from printkit.safe_read import utf8_text
from printkit.spec.models import attribute_name_problem
from printkit.spec.sheet_xml import FAR, SheetXml, ods_sheets, xlsx_sheet, xlsx_sheet_parts

MAX_DATA_BYTES = 40_000_000       # the data file itself (100,000 rows of a few lines each)
MAX_COLUMNS = 200                 # columns a sheet may use
MAX_ROWS = 100_000                # card rows (the deck's card limit)
MAX_COPIES = 1_000
MAX_ZIP_ENTRIES = 1_000           # files inside a workbook
MAX_UNPACKED_BYTES = 100_000_000  # a workbook's files unpacked, all together
MAX_SHEET_ROWS = 200_000          # rows a sheet may reach (blank rows are allowed between cards)
MAX_SHEET_CELLS = 10_000_000      # rows x columns of a sheet's used area, from A1

_XLSX_RELS = "xl/_rels/workbook.xml.rels"  # the parts xl/workbook.xml's sheets lead to

KINDS = {".csv": "csv", ".tsv": "tsv", ".xlsx": "xlsx", ".ods": "ods"}
COPIES_COLUMNS = ("copies", "qty")

_INT = re.compile(r"^-?(?:0|[1-9][0-9]*)$")
_DECIMAL = re.compile(r"^-?(?:0|[1-9][0-9]*)\.[0-9]+$")
_MAX_NUMERAL = 30  # longer numerals stay text, as in YAML specs


@dataclass(frozen=True)
class DataRow:
    """One card's row: its attributes, its copies (None: the group's) and where it is.

    Kept between builds (:data:`_TABLES`), and a card may read ``attrs`` itself: never changed.
    """

    attrs: Mapping[str, Any]
    copies: int | None
    where: str  # "decks/cards.csv:14" or "cards.xlsx:Cards!14"


@dataclass(frozen=True)
class DataTable:
    """The cards of a data file: attribute columns (without copies/qty) and rows."""

    columns: tuple[str, ...]
    rows: tuple[DataRow, ...]


def data_kind(name: str) -> str | None:
    """``csv``, ``tsv``, ``xlsx`` or ``ods`` by the file name's extension; None for any other."""
    for suffix, kind in KINDS.items():
        if name.lower().endswith(suffix):
            return kind
    return None


class _Tables:
    """The last tables read, by the sha256 of their file's bytes and how it was asked for (the
    bytes themselves are not kept: a 10,000-row file would stay in memory for the whole build)."""

    def __init__(self, kept: int) -> None:
        self.kept = kept
        self._tables: OrderedDict[tuple, DataTable] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple) -> DataTable | None:
        with self._lock:
            table = self._tables.get(key)
            if table is not None:
                self._tables.move_to_end(key)
            return table

    def put(self, key: tuple, table: DataTable) -> None:
        with self._lock:
            self._tables[key] = table
            while len(self._tables) > self.kept:
                self._tables.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._tables.clear()


_TABLES = _Tables(32)


def read_table(raw: bytes, shown: str, written: str, kind: str, sheet: str | None) -> DataTable:
    """The cards in ``raw`` (a file of ``kind``): ``shown`` names it in a cell's position and a
    card's source, ``written`` (as the spec writes it) in problems with the whole file.

    Raises SpecError at a cell for a problem with a cell, DataFileError for the file as a whole.
    Parsed once per distinct content.
    """
    key = (hashlib.sha256(raw).digest(), shown, written, kind, sheet)
    table = _TABLES.get(key)
    if table is None:
        table = _read_table(raw, shown, written, kind, sheet)
        _TABLES.put(key, table)
    return table


def _read_table(raw: bytes, shown: str, written: str, kind: str, sheet: str | None) -> DataTable:
    if kind in ("csv", "tsv"):
        if sheet is not None:
            raise DataFileError(f"{kind.upper()} file {written!r} has no sheets: leave 'sheet' out", at_sheet=True)
        return _csv_table(raw, shown, written, "\t" if kind == "tsv" else ",")
    return _workbook_table(raw, shown, written, kind, sheet)


# --- CSV and TSV -------------------------------------------------------------------------------


def _csv_value(text: str) -> Any:
    """A CSV cell: None when empty, an int or float for a canonical numeral, else the text."""
    text = text.strip()
    if not text:
        return None
    if len(text) <= _MAX_NUMERAL:
        if _INT.match(text) and text != "-0":
            return int(text)
        if _DECIMAL.match(text):
            number = float(text)
            if repr(number) == text:  # 2.50 and 0.1000000000000000055 stay text: they print differently
                return number
    return text


def _csv_table(raw: bytes, shown: str, written: str, delimiter: str) -> DataTable:
    text = utf8_text(raw, shown)  # Excel writes a byte-order mark before UTF-8 CSV: left out
    import csv  # only a deck with a CSV file needs it

    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)

    def rows() -> Iterable[tuple[int, list[Any]]]:
        start = 1
        while True:
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                raise SpecError(shown, start, None, f"cannot read this row: {exc}") from None
            yield start, [_csv_value(c) for c in cells]
            start = reader.line_num + 1  # a quoted cell may span lines: the next row starts after it

    def cell_error(line: int, column: int, message: str) -> SpecError:
        return SpecError(shown, line, column + 1, message)

    return _table(rows(), cell_error, lambda line: f"{shown}:{line}", written,
                  lambda i: str(i + 1), _text_number_in_csv)


# --- workbooks ---------------------------------------------------------------------------------


def column_letters(index: int) -> str:
    """``A`` for 0, ``Z`` for 25, ``AA`` for 26."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


@dataclass(frozen=True)
class _Unread:
    """A workbook cell whose value the file does not hold as the spreadsheet shows it: a mistake at
    the cell, ``problem`` saying what it holds."""

    problem: str


# A spreadsheet's General format shows a number with at most 15 significant digits (0.1+0.2 as
# 0.3), a whole one under 10**15 in full, others from 0.0001 up as decimals, the rest in exponent
# form (1E+300, 1E-05).
_WHOLE_BELOW = 1e15
_DECIMAL_FROM = 1e-4


def sheet_number(value: float) -> int | float | str:
    """A workbook's number cell as its spreadsheet's General format shows it: an int for a whole
    number, a float for a decimal (printing as shown), else the exponent form's text (``1E+300``)."""
    shown = float(f"{value:.15g}")
    if shown == 0:
        return 0
    if _DECIMAL_FROM <= abs(shown) < _WHOLE_BELOW:
        return int(shown) if shown.is_integer() else shown
    mantissa, exponent = f"{shown:.14E}".split("E")
    mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}E{exponent}"


def _sheet_value(value: Any) -> Any:
    """A workbook cell as a card value: no guessing, the cell's own type."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"  # as the spreadsheet shows it, and as its CSV export reads
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            return _Unread(f"holds {value}, which no spreadsheet shows as a number")
        return sheet_number(value)
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, datetime.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):  # a duration cell, as [h]:mm:ss
        seconds = int(value.total_seconds())
        sign, seconds = ("-", -seconds) if seconds < 0 else ("", seconds)
        return f"{sign}{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    return str(value)


def _unread_grid(grid: list[list[Any]], unread: dict[tuple[int, int], str]) -> None:
    """Mark in ``grid`` the cells that are errors or formulas saved without a value
    (:attr:`printkit.spec.sheet_xml.SheetXml.unread`): the reader gives them as empty text, or
    leaves them out at the sheet's edge, and a card would silently lack them."""
    for (row, column), problem in unread.items():
        if not (0 <= row < MAX_SHEET_ROWS and 0 <= column < MAX_COLUMNS):
            continue  # a reference no reader places (A0), or past the sheet's checked extent
        while len(grid) <= row:
            grid.append([])
        cells = grid[row]
        cells.extend([""] * (column + 1 - len(cells)))
        if cells[column] == "":
            cells[column] = _Unread(problem)


def _workbook_table(raw: bytes, shown: str, written: str, kind: str, sheet: str | None) -> DataTable:
    unread = _check_workbook_zip(raw, written, kind)
    from python_calamine import CalamineWorkbook  # imported only when a workbook is read

    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(raw))
        names = list(book.sheet_names)
        if not names:
            raise DataFileError(f"workbook {written!r} has no sheets")
        name = names[0] if sheet is None else sheet
        if name not in names:
            raise DataFileError(f"workbook {written!r} has no sheet {sheet!r} (sheets: {', '.join(map(repr, names))})",
                                at_sheet=True)
        grid = book.get_sheet_by_name(name).to_python(skip_empty_area=False)
    except DataFileError:
        raise
    except Exception as exc:  # python-calamine's errors (CalamineError, XmlError, ZipError ...)
        raise DataFileError(f"workbook {written!r} cannot be read: {exc}") from None
    except BaseException as exc:  # a panic inside the Rust reader arrives as a BaseException
        if type(exc).__name__ != "PanicException":
            raise
        raise DataFileError(f"workbook {written!r} cannot be read: {exc}") from None

    _unread_grid(grid, unread.get(name, {}))
    where = f"{shown}:{name}!"

    def rows() -> Iterable[tuple[int, list[Any]]]:
        for index, cells in enumerate(grid):
            yield index + 1, [v if isinstance(v, _Unread) else _sheet_value(v) for v in cells]

    def cell_error(row: int, column: int, message: str) -> SpecError:
        return SpecError(f"{where}{column_letters(column)}{row}", None, None, message)

    return _table(rows(), cell_error, lambda row: f"{where}{row}", written, column_letters,
                  _text_number_in_sheet)


def _check_workbook_zip(raw: bytes, shown: str, kind: str) -> dict[str, dict[tuple[int, int], str]]:
    """Refuse a workbook that is not a zip of the right kind, unpacks too far, or whose sheets
    reach further than printkit reads: the checks run on the zip and the sheet XML, before the
    reader sees the file. Gives each sheet's unread cells by sheet name, from the same reading."""
    label = kind.upper()
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
    except (zipfile.BadZipFile, ValueError, OSError):
        raise DataFileError(f"{shown!r} is not an {label} workbook (it is not a zip file)") from None
    with archive:
        infos = archive.infolist()
        if len(infos) > MAX_ZIP_ENTRIES:
            raise DataFileError(f"workbook {shown!r} holds {len(infos)} files; the limit is {MAX_ZIP_ENTRIES}")
        declared = sum(info.file_size for info in infos)
        if declared > MAX_UNPACKED_BYTES:
            raise DataFileError(f"workbook {shown!r} unpacks to {declared} bytes; the limit is {MAX_UNPACKED_BYTES} "
                                "(a zip bomb?)")
        names = {info.filename for info in infos}
        wanted = "xl/workbook.xml" if kind == "xlsx" else "content.xml"
        if wanted not in names:
            raise DataFileError(f"{shown!r} is not an {label} workbook (it has no {wanted})")
        parts: dict[str, str] = {}  # XLSX: each sheet's part, by sheet name
        done: set[zipfile.ZipInfo] = set()
        if kind == "xlsx":
            # The reader follows the relationships to each sheet's part, wherever it lies: read first.
            book = archive.getinfo(wanted)
            rels = archive.getinfo(_XLSX_RELS) if _XLSX_RELS in names else None
            parts = xlsx_sheet_parts(_unpacked(archive, book, shown, keep=True),
                                     _unpacked(archive, rels, shown, keep=True) if rels else b"")
            done = {info for info in (book, rels) if info}
        sheet_parts = set(parts.values())
        sheets: dict[str, list[SheetXml]] = {}  # by the file holding them
        for info in infos:
            if info in done:
                continue
            name = info.filename
            if kind == "xlsx":
                sheet_xml = (name.startswith("xl/worksheets/") and name.endswith(".xml")) or name in sheet_parts
            else:
                sheet_xml = name == wanted
            data = _unpacked(archive, info, shown, keep=sheet_xml)
            if sheet_xml:
                sheets[name] = [xlsx_sheet(data, MAX_ERRORS)] if kind == "xlsx" else ods_sheets(data, MAX_ERRORS)
                for sheet in sheets[name]:
                    _check_extent(shown, sheet.name or name, *sheet.reach)
    if kind == "xlsx":
        return {sheet: sheets[part][0].unread for sheet, part in parts.items() if part in sheets}
    unread: dict[str, dict[tuple[int, int], str]] = {}
    for sheet in sheets[wanted]:
        if sheet.name is not None:
            unread.setdefault(sheet.name, sheet.unread)  # the first table of a name, as the reader takes it
    return unread


def _unpacked(archive: zipfile.ZipFile, info: zipfile.ZipInfo, shown: str, keep: bool) -> bytes:
    """The entry unpacked for real, never past the size the zip declares (a mismatch fails its CRC);
    its bytes if ``keep``, else nothing."""
    try:
        with archive.open(info) as member:
            if keep:
                return member.read(info.file_size + 1)
            while member.read(1 << 20):
                pass
            return b""
    except (zipfile.BadZipFile, zipfile.LargeZipFile, RuntimeError, NotImplementedError, OSError,
            EOFError, ValueError) as exc:
        raise DataFileError(f"workbook {shown!r} is damaged or encrypted ({info.filename}: {exc})") from None


def _check_extent(shown: str, sheet: str, rows: int, columns: int) -> None:
    reach = f"sheet {sheet!r} of {shown!r} reaches cell {column_letters(max(columns, 1) - 1)}{rows}"
    if max(rows, columns) >= FAR:  # a numeral too long to read: the cell is that far at least
        reach += " or further"
    if columns > MAX_COLUMNS:
        raise DataFileError(f"{reach}; printkit reads at most {MAX_COLUMNS} columns (to "
                            f"{column_letters(MAX_COLUMNS - 1)})")
    if rows > MAX_SHEET_ROWS:
        raise DataFileError(f"{reach}; printkit reads at most {MAX_SHEET_ROWS} rows")
    if rows * columns > MAX_SHEET_CELLS:
        raise DataFileError(f"{reach}; printkit reads at most {MAX_SHEET_CELLS} cells from A1")


# --- rows into cards ---------------------------------------------------------------------------


# A copies cell's text that means a whole number copies may be (``+3``, ``007``, ``2.0``): a longer
# numeral is out of range, and is not read (Python refuses to read one of thousands of digits).
_WHOLE_TEXT = re.compile(rf"\+?0*([0-9]{{1,{len(str(MAX_COPIES))}}})(?:\.0*)?")


def _copies_text(value: Any) -> int | None:
    """The copies a cell's text means, when a hint can say how to write it: 0..MAX_COPIES, else None."""
    found = _WHOLE_TEXT.fullmatch(value) if isinstance(value, str) else None
    return int(found.group(1)) if found and int(found.group(1)) <= MAX_COPIES else None


def _text_number_in_sheet(number: int) -> str:
    return ("it is a number stored as text: make the cell a number (in Excel, the cell's warning offers "
            "Convert to Number; or set its format to Number and type the value again)")


def _text_number_in_csv(number: int) -> str:
    return f"write it as a plain whole number: {number}"


def _table(rows: Iterable[tuple[int, list[Any]]], cell_error: Callable[[int, int, str], SpecError],
           row_where: Callable[[int], str], shown: str,
           column_name: Callable[[int], str], text_number: Callable[[int], str]) -> DataTable:
    """Header and cards from ``(row number, cell values)`` pairs; ``cell_error(row, column index,
    message)`` locates a problem, ``row_where(row)`` names a card's row, ``column_name(index)`` a
    column in a message (``3`` in CSV, ``C`` in a workbook), ``text_number(number)`` what to do
    with a copies cell holding as text a whole number copies may be.

    Every bad cell is said (a SpecError, or a ManyErrors of up to MAX_ERRORS), each at its cell;
    a row that cannot be read, or past a limit, ends the reading.
    """
    errors = Errors()

    def bad(row: int, column: int, message: str) -> None:
        errors.add(cell_error(row, column, message))

    header: _Header | None = None
    out: list[DataRow] = []
    try:
        for number, cells in rows:
            last = max((i for i, v in enumerate(cells) if v is not None), default=-1)
            if last < 0:
                continue  # an entirely empty row
            if last >= MAX_COLUMNS:
                bad(number, MAX_COLUMNS, f"more than {MAX_COLUMNS} columns; printkit reads at most {MAX_COLUMNS}")
                break
            if header is None:
                header = _Header(number, cells[:last + 1], bad, column_name)
                continue
            attrs: dict[str, Any] = {}
            copies: int | None = None
            for i, value in enumerate(cells[:last + 1]):
                name = header.name(i, number, value, bad)
                if name is None:
                    continue
                if i != header.copies_at:
                    attrs[name] = value
                elif isinstance(value, int) and 0 <= value <= MAX_COPIES:
                    copies = value
                else:
                    whole = _copies_text(value)
                    hint = "" if whole is None else f": {text_number(whole)}"
                    bad(number, i, f"{name} must be a whole number 0..{MAX_COPIES}, not {value!r}{hint}")
            if len(out) >= MAX_ROWS:
                bad(number, 0, f"more than {MAX_ROWS} rows of cards; the limit is {MAX_ROWS}")
                break
            out.append(DataRow(attrs, copies, row_where(number)))
            if errors.full:
                break
    except SpecError as exc:  # a row that cannot be read (CSV quoting): the rows after it are not known
        errors.add(exc)
    errors.raise_any()
    if header is None:
        raise DataFileError(f"data file {shown!r} is empty: it needs a header row naming the attributes")
    return DataTable(header.columns(), tuple(out))


class _Header:
    """The header row: each column's attribute name (None where there is none to use) and the copies
    column; its bad cells are said through ``bad(row, column, message)``, each once."""

    def __init__(self, row: int, cells: list[Any], bad: Callable[[int, int, str], None],
                 column_name: Callable[[int], str]) -> None:
        self.row = row
        self.names: list[str | None] = []
        self.copies_at: int | None = None
        self.unnamed: set[int] = set()  # columns without a usable name: said once, at the header
        seen: dict[str, int] = {}
        self.column_name = column_name
        for i, value in enumerate(cells):
            name = None if value is None or isinstance(value, _Unread) else str(value).strip()
            problem = value.problem if isinstance(value, _Unread) else name and attribute_name_problem(name)
            if problem:
                bad(row, i, problem if isinstance(value, _Unread) else f"column name {problem}")
            elif name in seen:
                bad(row, i, f"duplicate column {name!r} (also column {column_name(seen[name])})")
            elif name in COPIES_COLUMNS and self.copies_at is not None:
                bad(row, i, f"both {self.names[self.copies_at]!r} and {name!r} columns set copies: keep one")
            elif name is not None:
                if name in COPIES_COLUMNS:
                    self.copies_at = i
                seen[name] = i
                self.names.append(name)
                continue
            self.names.append(None)
            if value is not None:
                self.unnamed.add(i)

    def name(self, i: int, row: int, value: Any, bad: Callable[[int, int, str], None]) -> str | None:
        """The name of column ``i`` for ``value`` on ``row``; None, with the mistake said, for a
        cell that cannot be read or a column without a name."""
        if value is None:
            return None
        if isinstance(value, _Unread):
            bad(row, i, value.problem)
            return None
        name = self.names[i] if i < len(self.names) else None
        if name is None and i not in self.unnamed:
            self.unnamed.add(i)
            bad(self.row, i, f"column {self.column_name(i)} has values (first on row {row}) but no name in the "
                             "header row")
        return name

    def columns(self) -> tuple[str, ...]:
        """The attribute columns, without copies."""
        return tuple(name for i, name in enumerate(self.names) if name is not None and i != self.copies_at)
