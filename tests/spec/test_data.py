"""Card data from CSV, TSV, XLSX and ODS files: values, copies, errors at the cell, limits."""

from __future__ import annotations

import datetime
import importlib
import io
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from printkit.pipeline.build import build
from printkit.pipeline.context import BuildOptions
from printkit.cli import main
from printkit.errors import SpecError
from printkit.spec import data as data_module
from printkit.spec import load_spec
from printkit.spec.models import MAX_CARDS
from printkit.decks import load_deck

from cli_in import invoke_in

files_module = importlib.import_module("printkit.spec.files")  # where a spec's data files are read

openpyxl = pytest.importorskip("openpyxl")


@pytest.fixture(autouse=True)
def _fresh_cache():
    data_module._TABLES.clear()
    yield
    data_module._TABLES.clear()


def spec(folder: Path, group: str, extra: str = "", name: str = "deck.yaml") -> Path:
    """A spec with one group (YAML lines for its keys, indented under ``- name: cards``)."""
    path = folder / name
    body = "\n".join("    " + line for line in group.strip("\n").splitlines())
    path.write_text(f"game: orchard\nname: Orchard\n{extra}groups:\n  - name: cards\n{body}\n", encoding="utf-8")
    return path


def write_xlsx(path: Path, sheets: dict[str, list[list]]) -> Path:
    book = openpyxl.Workbook()
    book.remove(book.active)
    for title, rows in sheets.items():
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(row)
    book.save(path)
    return path


def write_ods(path: Path, sheets: dict[str, list[list]]) -> Path:
    odf = pytest.importorskip("odf")
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    for title, rows in sheets.items():
        table = Table(name=title)
        for row in rows:
            tr = TableRow()
            for value in row:
                if value is None:
                    cell = TableCell()
                elif isinstance(value, bool):
                    cell = TableCell(valuetype="boolean", booleanvalue=str(value).lower())
                elif isinstance(value, (int, float)):
                    cell = TableCell(valuetype="float", value=value)
                elif isinstance(value, datetime.date):
                    cell = TableCell(valuetype="date", datevalue=value.isoformat())
                else:
                    cell = TableCell(valuetype="string")
                if value is not None:
                    cell.addElement(P(text=str(value)))
                tr.addElement(cell)
            table.addElement(tr)
        doc.spreadsheet.addElement(table)
    doc.save(str(path))
    assert odf
    return path


def cli_error(spec_path: Path) -> str:
    """The one line `printkit check` prints for a bad spec (exit 1, no traceback)."""
    result = invoke_in(spec_path.parent, "check", spec_path.name, "--no-play")
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def attrs(path: Path) -> list[dict]:
    return [dict(c.attrs) for c in load_deck(path).cards]


ROWS = [
    ["name", "cost", "text"],
    ["Apple", 1, "Crisp and red."],
    ["Pear", 2, "Sweet."],
    ["Plum", 3, None],
]
YAML_CARDS = """cards:
  - {name: Apple, cost: 1, text: Crisp and red.}
  - {name: Pear, cost: 2, text: Sweet.}
  - {name: Plum, cost: 3}
"""


def csv_text(rows: list[list]) -> str:
    return "".join(",".join("" if v is None else str(v) for v in row) + "\n" for row in rows)


def built_pdfs(spec_path: Path, out: Path) -> dict[str, bytes]:
    build([load_deck(spec_path)], BuildOptions(out_dir=out, rulebooks=False))
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


# --- the same cards from YAML and from a data file -----------------------------------------------


@pytest.fixture(scope="module")
def yaml_pdfs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("yaml")
    return built_pdfs(spec(folder, YAML_CARDS), folder / "out")


def test_csv_rows_build_the_same_pdfs_as_yaml_cards(yaml_pdfs, tmp_path):
    (tmp_path / "cards.csv").write_text(csv_text(ROWS), encoding="utf-8")
    path = spec(tmp_path, "data: cards.csv")
    assert [c.source for c in load_deck(path).cards] == [f"{tmp_path}/cards.csv:{n}" for n in (2, 3, 4)]
    pdfs = built_pdfs(path, tmp_path / "out")
    assert yaml_pdfs and pdfs == yaml_pdfs


def test_xlsx_rows_build_the_same_pdfs_as_yaml_cards(yaml_pdfs, tmp_path):
    write_xlsx(tmp_path / "cards.xlsx", {"Cards": ROWS})
    path = spec(tmp_path, "data: cards.xlsx")
    assert [c.source for c in load_deck(path).cards] == [f"{tmp_path}/cards.xlsx:Cards!{n}" for n in (2, 3, 4)]
    assert built_pdfs(path, tmp_path / "out") == yaml_pdfs


def test_ods_rows_build_the_same_pdfs_as_yaml_cards(yaml_pdfs, tmp_path):
    write_ods(tmp_path / "cards.ods", {"Cards": ROWS})
    assert built_pdfs(spec(tmp_path, "data: cards.ods"), tmp_path / "out") == yaml_pdfs


# --- values ------------------------------------------------------------------------------------


@pytest.mark.parametrize("cell, value", [
    ("7", 7), ("-1", -1), ("0", 0), ("2.5", 2.5), ("-0.25", -0.25), ("1.0", 1.0),
    ("007", "007"), ("+3", "+3"), ("1e3", "1e3"), ('"1,000"', "1,000"), ("2.50", "2.50"), (".5", ".5"),
    ("5.", "5."), ("-0", "-0"), ("0x1F", "0x1F"), ("inf", "inf"), ("nan", "nan"),
    ("TRUE", "TRUE"), ("false", "false"), ("yes", "yes"), ("2024-01-02", "2024-01-02"), ("12:30", "12:30"),
    ("  spaced out  ", "spaced out"), ('"two\nlines"', "two\nlines"), ("1" * 31, "1" * 31),
])
def test_a_csv_cell_is_a_number_only_when_it_is_a_canonical_numeral(tmp_path, cell, value):
    (tmp_path / "cards.csv").write_text(f"name,v\nx,{cell}\n", encoding="utf-8")
    [card] = attrs(spec(tmp_path, "data: cards.csv"))
    assert card["v"] == value and type(card["v"]) is type(value)


def test_workbook_cells_keep_their_own_types(tmp_path):
    rows = [["name", "n", "f", "whole", "flag", "day", "moment", "code"],
            ["x", 3, 2.5, 4.0, True, datetime.date(2024, 1, 2), datetime.datetime(2024, 1, 2, 10, 30), "007"]]
    write_xlsx(tmp_path / "cards.xlsx", {"Cards": rows})
    [card] = attrs(spec(tmp_path, "data: cards.xlsx"))
    assert card == {"name": "x", "n": 3, "f": 2.5, "whole": 4, "flag": "TRUE", "day": "2024-01-02",
                    "moment": "2024-01-02 10:30:00", "code": "007"}
    assert type(card["whole"]) is int


def test_ods_cells_keep_their_own_types(tmp_path):
    write_ods(tmp_path / "cards.ods", {"Cards": [["name", "n", "flag", "day"],
                                                 ["x", 3, False, datetime.date(2024, 1, 2)]]})
    [card] = attrs(spec(tmp_path, "data: cards.ods"))
    assert card == {"name": "x", "n": 3, "flag": "FALSE", "day": "2024-01-02"}


def test_empty_cells_leave_the_attribute_out_and_group_attrs_fill_it(tmp_path):
    (tmp_path / "cards.csv").write_text("name,cost,kind\na,1,\nb,,rare\n,,\n\nc,3,\n", encoding="utf-8")
    cards = attrs(spec(tmp_path, "data: cards.csv\nattrs: {kind: common, set: base}"))
    assert cards == [{"kind": "common", "set": "base", "name": "a", "cost": 1},
                     {"kind": "rare", "set": "base", "name": "b"},
                     {"kind": "common", "set": "base", "name": "c", "cost": 3}]


def test_bom_tsv_and_header_whitespace(tmp_path):
    (tmp_path / "cards.tsv").write_bytes("\ufeff name \t cost\nA, b\t2\n".encode("utf-8"))
    assert attrs(spec(tmp_path, "data: cards.tsv")) == [{"name": "A, b", "cost": 2}]


@pytest.mark.parametrize("column", ["copies", "qty"])
def test_a_copies_or_qty_column_sets_copies_and_the_group_copies_fill_gaps(tmp_path, column):
    (tmp_path / "cards.csv").write_text(f"name,{column}\na,3\nb,\nc,0\n", encoding="utf-8")
    deck = load_deck(spec(tmp_path, "data: cards.csv\ncopies: 2"))
    assert [c["name"] for c in deck.cards] == ["a", "a", "a", "b", "b"]
    assert all(column not in c.attrs for c in deck.cards)


def test_sheet_picks_a_worksheet_and_the_first_is_the_default(tmp_path):
    write_xlsx(tmp_path / "cards.xlsx", {"Notes": [["note"], ["hello"]], "Cards": [["name"], ["a"], ["b"]]})
    assert attrs(spec(tmp_path, "data: cards.xlsx")) == [{"note": "hello"}]
    assert attrs(spec(tmp_path, "data: cards.xlsx\nsheet: Cards")) == [{"name": "a"}, {"name": "b"}]


def test_everything_a_group_does_works_on_a_data_group(tmp_path):
    (tmp_path / "cards.csv").write_text("fruit,value,copies\napple,1,2\npear,2,1\nplum,3,1\nfig,4,1\n",
                                        encoding="utf-8")
    extra = ("count_by: [fruit, value]\n"
             "variants:\n  small: {exclude: [{fruit: fig}], expect: {total: 5, by: {value: {'1': 4, '2': 1}}}}\n"
             "  full: {expect: {total: 6, groups: {cards: 6}, by: {fruit: {apple: 4, pear: 1, fig: 1}}}}\n")
    path = spec(tmp_path, """data: cards.csv
exclude: [{fruit: plum}]
overrides:
  - {match: {fruit: apple}, copies: 4, attrs: {ripe: true}, art: {colors: {background: "#ffeeee"}}}
art: {colors: {ink: "#112233"}}
""", extra)
    small, full = load_deck(path, "small"), load_deck(path, "full")
    assert [c["fruit"] for c in full.cards] == ["apple"] * 4 + ["pear", "fig"]
    assert [c["fruit"] for c in small.cards] == ["apple"] * 4 + ["pear"]
    assert full.cards[0]["ripe"] is True and full.cards[0].art.colors == {"ink": "#112233", "background": "#ffeeee"}
    assert full.cards[-1].art.colors == {"ink": "#112233"}
    result = CliRunner().invoke(main, ["check", str(path), "--no-play"])
    assert result.exit_code == 0, result.output
    assert "fruit:     apple 4  pear 1  fig 1" in result.output


def test_a_data_group_can_be_a_component_and_limited_to_variants(tmp_path):
    (tmp_path / "tokens.csv").write_text("token\nsun\nmoon\n", encoding="utf-8")
    path = spec(tmp_path, "cards: [{n: 1}]", name="deck.yaml")
    path.write_text(path.read_text() + "components:\n  - {name: tokens, data: tokens.csv, variants: [b]}\n"
                    "variants: {a: {}, b: {}}\n")
    assert "tokens" not in load_deck(path, "a").components or not load_deck(path, "a").components["tokens"]
    assert [c["token"] for c in load_deck(path, "b").components["tokens"]] == ["sun", "moon"]


def test_a_workbook_is_read_once_per_load_even_for_two_sheets(tmp_path, monkeypatch):
    write_xlsx(tmp_path / "cards.xlsx", {"A": [["name"], ["a"]], "B": [["name"], ["b"]]})
    path = spec(tmp_path, "data: cards.xlsx\nsheet: A")
    path.write_text(path.read_text() + "  - {name: more, data: cards.xlsx, sheet: B}\n")
    reads = []
    real = files_module.read_limited
    monkeypatch.setattr(files_module, "read_limited", lambda p, n: reads.append(p) or real(p, n))
    loaded = load_spec(path)
    assert len(reads) == 1
    assert [c["name"] for c in load_deck(path).cards] == ["a", "b"]
    assert loaded.spec.groups[1].table.rows[0].where == f"{tmp_path}/cards.xlsx:B!2"


def test_a_table_is_kept_by_its_bytes_digest_not_its_bytes():
    raw = "name,cost\nAsh,1\nBirch,2\n".encode()
    held = sys.getrefcount(raw)
    table = data_module.read_table(raw, "cards.csv", "cards.csv", "csv", None)
    assert sys.getrefcount(raw) == held  # a 10,000-row file is not kept for the whole build
    again = data_module.read_table(bytes(bytearray(raw)), "cards.csv", "cards.csv", "csv", None)
    assert again is table  # the same bytes are parsed once
    other = data_module.read_table(raw.replace(b"Ash", b"Oak"), "cards.csv", "cards.csv", "csv", None)
    assert other is not table and other.rows[0].attrs["name"] == "Oak"


def test_a_changed_data_file_is_read_again(tmp_path):
    (tmp_path / "cards.csv").write_text("name\na\n", encoding="utf-8")
    path = spec(tmp_path, "data: cards.csv")
    assert attrs(path) == [{"name": "a"}]
    (tmp_path / "cards.csv").write_text("name\nb\n", encoding="utf-8")
    assert attrs(path) == [{"name": "b"}]


# --- errors: one line naming the data file and the cell ---------------------------------------


CSV_ERRORS = [
    ("name,cost,copies\na,1,1\nb,2,two\n", "cards.csv:3:3: copies must be a whole number 0..1000, not 'two'"),
    ("name,qty\na,1001\n", "cards.csv:2:2: qty must be a whole number 0..1000, not 1001"),
    ("name,qty\na,1.5\n", "cards.csv:2:2: qty must be a whole number 0..1000, not 1.5"),
    ("name,copies,qty\na,1,1\n", "cards.csv:1:3: both 'copies' and 'qty' columns set copies: keep one"),
    ("name,,cost\na,x,1\n", "cards.csv:1:2: column 2 has values (first on row 2) but no name in the header row"),
    ("name,cost\na,1,extra\n", "cards.csv:1:3: column 3 has values (first on row 2) but no name in the header row"),
    ("name,cost,name\n", "cards.csv:1:3: duplicate column 'name' (also column 1)"),
    ("name,my cost\n", "cards.csv:1:2: column name 'my cost' is not a valid name: use ASCII letters, digits, '_' "
                       "and '-', starting with a letter"),
    ('name,text\na,"one\ntwo\nthree"\nb,ok\nc,"bad"x\n', "cards.csv:6: cannot read this row: ',' expected after '\"'"),
    ('name,text,copies\na,"one\ntwo",1\nb,x,-1\n', "cards.csv:4:3: copies must be a whole number 0..1000, not -1"),
    (b"name\na\n\xe9t\xe9\n", "cards.csv:3: not valid UTF-8 (byte 0xe9); save the file as UTF-8"),
]


@pytest.mark.parametrize("content, message", CSV_ERRORS, ids=[m.split(": ", 1)[1][:30] for _, m in CSV_ERRORS])
def test_a_bad_csv_cell_is_one_line_naming_the_file_and_cell(tmp_path, content, message):
    target = tmp_path / "cards.csv"
    target.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    assert cli_error(spec(tmp_path, "data: cards.csv")) == message


def test_a_bad_workbook_cell_names_the_sheet_and_cell(tmp_path):
    write_xlsx(tmp_path / "cards.xlsx", {"Notes": [["x"]],
                                         "Cards": [["name", "cost", "copies"], ["a", 1, 2], [], ["b", 2, "two"]]})
    assert cli_error(spec(tmp_path, "data: cards.xlsx\nsheet: Cards")) == \
        "cards.xlsx:Cards!C4: copies must be a whole number 0..1000, not 'two'"
    write_xlsx(tmp_path / "cards.xlsx", {"Cards": [["name", None, "name"]]})
    assert cli_error(spec(tmp_path, "data: cards.xlsx")) == "cards.xlsx:Cards!C1: duplicate column 'name' (also column A)"


@pytest.mark.parametrize("group, setup, message", [
    ("data: missing.csv", None, "deck.yaml:5:11: data file 'missing.csv' not found"),
    ("data: cards.txt", None, "deck.yaml:5:11: groups[0].data: data file 'cards.txt' must be a .csv, .tsv, .xlsx or "
                              ".ods file"),
    ("data: ../outside.csv", None, "deck.yaml:5:11: data path '../outside.csv' leads outside the spec's folder; copy the file beside the spec"),
    ("data: /etc/passwd.csv", None, "deck.yaml:5:11: data path '/etc/passwd.csv' must be relative to the spec's folder"),
    ("data: link.csv", "symlink", "deck.yaml:5:11: data path 'link.csv' leads outside the spec's folder; copy the file beside the spec"),
    ("data: sub.csv", "folder", "deck.yaml:5:11: data path 'sub.csv' is a folder, not a file"),
    ("data: cards.csv", "empty", "deck.yaml:5:11: data file 'cards.csv' is empty: it needs a header row naming "
                                 "the attributes"),
    ("data: cards.csv\nsheet: Cards", "csv", "deck.yaml:6:12: CSV file 'cards.csv' has no sheets: leave 'sheet' out"),
    ("data: cards.xlsx\nsheet: Kards", "xlsx", "deck.yaml:6:12: workbook 'cards.xlsx' has no sheet 'Kards' "
                                               "(sheets: 'Notes', 'Cards')"),
    ("data: cards.xlsx", "not-zip", "deck.yaml:5:11: 'cards.xlsx' is not an XLSX workbook (it is not a zip file)"),
    ("data: cards.ods", "xlsx-as-ods", "deck.yaml:5:11: 'cards.ods' is not an ODS workbook (it has no content.xml)"),
    ("sheet: Cards\ncards: [{a: 1}]", None, "deck.yaml:4:5: groups[0]: group 'cards' has a 'sheet' but no 'data' "
                                           "workbook to read it from"),
    ("data: cards.csv\ncards: [{a: 1}]", "csv", "deck.yaml:4:5: groups[0]: group 'cards' needs exactly one of "
                                               "generate, combine, cards, data (found: cards, data)"),
])
def test_a_bad_data_file_is_one_line_at_the_spec_key(tmp_path, group, setup, message):
    folder = tmp_path / "deck"
    folder.mkdir()
    (tmp_path / "outside.csv").write_text("name\na\n")
    if setup == "symlink":
        (folder / "link.csv").symlink_to(tmp_path / "outside.csv")
    elif setup == "folder":
        (folder / "sub.csv").mkdir()
    elif setup == "empty":
        (folder / "cards.csv").write_text("\n\n,,\n")
    elif setup == "csv":
        (folder / "cards.csv").write_text("name\na\n")
    elif setup == "xlsx":
        write_xlsx(folder / "cards.xlsx", {"Notes": [["x"]], "Cards": [["name"], ["a"]]})
    elif setup == "not-zip":
        (folder / "cards.xlsx").write_text("name\na\n")
    elif setup == "xlsx-as-ods":
        write_xlsx(folder / "cards.ods", {"Cards": [["name"], ["a"]]})
    assert cli_error(spec(folder, group)) == message


# --- limits ------------------------------------------------------------------------------------


def test_a_data_file_over_the_size_limit_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr("printkit.spec.data.MAX_DATA_BYTES", 100)  # read by spec.files when a deck has data
    (tmp_path / "cards.csv").write_text("name\n" + "a\n" * 60)
    assert cli_error(spec(tmp_path, "data: cards.csv")) == "deck.yaml:5:11: data file 'cards.csv' is 125 bytes; the limit is 100"


def test_too_many_columns_and_rows_are_refused_at_the_cell(tmp_path, monkeypatch):
    header = ",".join(f"c{i}" for i in range(201))
    (tmp_path / "cards.csv").write_text(header + "\n")
    assert cli_error(spec(tmp_path, "data: cards.csv")) == \
        "cards.csv:1:201: more than 200 columns; printkit reads at most 200"
    monkeypatch.setattr(data_module, "MAX_ROWS", 3)
    (tmp_path / "cards.csv").write_text("name\na\nb\n\nc\nd\n")
    assert cli_error(spec(tmp_path, "data: cards.csv")) == "cards.csv:6:1: more than 3 rows of cards; the limit is 3"


def test_rows_times_copies_over_the_card_limit_are_refused(tmp_path):
    rows = MAX_CARDS // 1000 + 1
    (tmp_path / "cards.csv").write_text("name,copies\n" + "".join(f"c{i},1000\n" for i in range(rows)))
    assert cli_error(spec(tmp_path, "data: cards.csv")) == \
        f"deck.yaml:5:11: 'cards.csv' makes {rows * 1000} cards; the limit is {MAX_CARDS}"


def test_a_deck_of_thirty_thousand_cards_is_taken(tmp_path):
    # The limit was 10,000 cards a deck; a build of 100,000 takes about 0.7 GB (docs/performance.md).
    (tmp_path / "cards.csv").write_text("name,copies\n" + "".join(f"c{i},1000\n" for i in range(30)))
    deck = load_deck(spec(tmp_path, "data: cards.csv"))
    assert len(deck.all_cards()) == 30_000 and MAX_CARDS >= 100_000


def _zip(path: Path, parts: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return path


def _xlsx_parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _ods_with_rows(tmp_path: Path, rows: bytes) -> None:
    """``cards.ods``: a one-card sheet with ``rows`` (content.xml's own rows) added at its end."""
    write_ods(tmp_path / "real.ods", {"Cards": [["name"], ["a"]]})
    parts = _xlsx_parts(tmp_path / "real.ods")
    parts["content.xml"] = parts["content.xml"].replace(b"</table:table>", rows + b"</table:table>")
    _zip(tmp_path / "cards.ods", parts)


def test_a_zip_bomb_workbook_is_refused_before_it_is_read(tmp_path):
    parts = _xlsx_parts(write_xlsx(tmp_path / "real.xlsx", {"Cards": [["name"], ["a"]]}))
    _zip(tmp_path / "cards.xlsx", {**parts, "xl/media/zeros.bin": bytes(101_000_000)})
    assert (tmp_path / "cards.xlsx").stat().st_size < 200_000
    assert cli_error(spec(tmp_path, "data: cards.xlsx")) == (
        "deck.yaml:5:11: workbook 'cards.xlsx' unpacks to 101007404 bytes; the limit is 100000000 (a zip bomb?)"
        .replace("101007404", str(sum(len(v) for v in parts.values()) + 101_000_000)))


def test_a_workbook_with_too_many_entries_is_refused(tmp_path):
    parts = _xlsx_parts(write_xlsx(tmp_path / "real.xlsx", {"Cards": [["name"], ["a"]]}))
    _zip(tmp_path / "cards.xlsx", {**parts, **{f"xl/media/{i}.bin": b"" for i in range(1000)}})
    assert cli_error(spec(tmp_path, "data: cards.xlsx")).startswith(
        f"deck.yaml:5:11: workbook 'cards.xlsx' holds {len(parts) + 1000} files; the limit is 1000")


def test_a_workbook_whose_sheet_reaches_far_is_refused_before_the_reader_allocates_it(tmp_path):
    # The reader would build a dense grid of 2^34 cells for this 6 kB file (and abort the process).
    book = openpyxl.Workbook()
    book.active.title = "Cards"
    book.active["A1"], book.active["A2"], book.active["XFD1048576"] = "name", "a", "far"
    book.save(tmp_path / "cards.xlsx")
    assert cli_error(spec(tmp_path, "data: cards.xlsx")) == (
        "deck.yaml:5:11: sheet 'xl/worksheets/sheet1.xml' of 'cards.xlsx' reaches cell XFD1048576; "
        "printkit reads at most 200 columns (to GR)")
    book.active["XFD1048576"] = None
    far = data_module.MAX_SHEET_ROWS + 10_000
    book.active[f"C{far}"] = "far"
    book.save(tmp_path / "cards.xlsx")
    assert cli_error(spec(tmp_path, "data: cards.xlsx")).endswith(
        f"reaches cell C{far}; printkit reads at most {data_module.MAX_SHEET_ROWS} rows")


def test_an_ods_with_repeated_cells_beyond_the_limits_is_refused(tmp_path):
    cell = b'<table:table-cell office:value-type="float" office:value="1" table:number-columns-repeated="150"/>'
    rows = data_module.MAX_SHEET_CELLS // 150 + 1  # within the rows a sheet may reach, past its cells
    row = f'<table:table-row table:number-rows-repeated="{rows}">'.encode() + cell + b"</table:table-row>"
    _ods_with_rows(tmp_path, row)
    assert cli_error(spec(tmp_path, "data: cards.ods")) == (
        f"deck.yaml:5:11: sheet 'Cards' of 'cards.ods' reaches cell ET{rows + 2}; "
        f"printkit reads at most {data_module.MAX_SHEET_CELLS} cells from A1")


def test_a_row_number_of_thousands_of_digits_is_refused_at_the_data_key(tmp_path):
    write_xlsx(tmp_path / "real.xlsx", {"Cards": [["name"], ["a"]]})
    _with_sheet_xml(tmp_path / "real.xlsx", lambda xml: xml.replace('r="A2"', 'r="A' + "9" * 5000 + '"'))
    (tmp_path / "real.xlsx").rename(tmp_path / "cards.xlsx")
    assert cli_error(spec(tmp_path, "data: cards.xlsx")) == (
        "deck.yaml:5:11: sheet 'xl/worksheets/sheet1.xml' of 'cards.xlsx' reaches cell A1000000000000000 or further; "
        "printkit reads at most 200000 rows")


def test_a_sheet_stored_outside_the_worksheets_folder_is_checked_and_read_as_any(tmp_path):
    # The reader follows the workbook's relationships to the sheet's part, wherever it lies.
    parts = _xlsx_parts(write_xlsx(tmp_path / "real.xlsx", {"Cards": [["name", "cost"], ["a", "=1+2"]]}))
    parts["xl/elsewhere/cards.xml"] = parts.pop("xl/worksheets/sheet1.xml")
    parts["xl/_rels/workbook.xml.rels"] = parts["xl/_rels/workbook.xml.rels"].replace(
        b"/xl/worksheets/sheet1.xml", b"elsewhere/cards.xml")
    _zip(tmp_path / "cards.xlsx", parts)
    assert cli_error(spec(tmp_path, "data: cards.xlsx")) == f"cards.xlsx:Cards!B2: formula =1+2 {NO_SAVED_VALUE}"
    parts["xl/elsewhere/cards.xml"] = parts["xl/elsewhere/cards.xml"].replace(b'r="B2"', b'r="XFD1048576"')
    (tmp_path / "cards.xlsx").unlink()
    _zip(tmp_path / "cards.xlsx", parts)
    assert cli_error(spec(tmp_path, "data: cards.xlsx")) == (
        "deck.yaml:5:11: sheet 'xl/elsewhere/cards.xml' of 'cards.xlsx' reaches cell XFD1048576; "
        "printkit reads at most 200 columns (to GR)")


def test_an_ods_sheet_is_named_as_the_spreadsheet_shows_its_name(tmp_path):
    far = b'<table:table-row table:number-rows-repeated="300000"><table:table-cell table:formula="of:=1"/>' \
          b'</table:table-row>'
    _ods_with_rows(tmp_path, far)
    parts = _xlsx_parts(tmp_path / "cards.ods")
    parts["content.xml"] = parts["content.xml"].replace(b'table:name="Cards"', b'table:name="R&amp;D"')
    (tmp_path / "cards.ods").unlink()
    _zip(tmp_path / "cards.ods", parts)
    assert cli_error(spec(tmp_path, "data: cards.ods")) == (
        "deck.yaml:5:11: sheet 'R&D' of 'cards.ods' reaches cell A300002; printkit reads at most 200000 rows")


def test_empty_repeated_ods_rows_and_cells_as_spreadsheets_write_them_are_fine(tmp_path):
    filler = (b'<table:table-row table:number-rows-repeated="1048574">'
              b'<table:table-cell table:number-columns-repeated="16384"/></table:table-row>')
    _ods_with_rows(tmp_path, filler)
    assert attrs(spec(tmp_path, "data: cards.ods")) == [{"name": "a"}]


def test_reading_does_not_raise_anything_but_spec_errors_for_damaged_workbooks(tmp_path):
    parts = _xlsx_parts(write_xlsx(tmp_path / "real.xlsx", {"Cards": [["name"], ["a"]]}))
    parts["xl/worksheets/sheet1.xml"] = b"<worksheet><sheetData><row><c t='s'><v>99</v></c>"
    _zip(tmp_path / "cards.xlsx", parts)
    with pytest.raises(SpecError) as info:
        load_spec(spec(tmp_path, "data: cards.xlsx"))
    assert str(info.value).startswith(f"{tmp_path}/deck.yaml:5:11: workbook 'cards.xlsx' cannot be read")


def test_column_letters():
    assert [data_module.column_letters(i) for i in (0, 25, 26, 199, 16383)] == ["A", "Z", "AA", "GR", "XFD"]


def test_the_workbook_reader_is_fast_enough_for_the_row_limit(tmp_path):
    rows = [["name", "cost", "text", "copies"]] + [[f"c{i}", i % 7, "words " * 5, 1] for i in range(10_000)]
    write_xlsx(tmp_path / "cards.xlsx", {"Cards": rows})
    deck = load_deck(spec(tmp_path, "data: cards.xlsx"))
    assert len(deck.cards) == 10_000 and deck.cards[-1]["name"] == "c9999"
    assert io  # noqa: the module is used by helpers above


# --- workbook values as the spreadsheet shows them ---------------------------------------------


def cli_errors(spec_path: Path) -> list[str]:
    """Every line `printkit check` prints for a bad spec (exit 1, no traceback)."""
    result = invoke_in(spec_path.parent, "check", spec_path.name, "--no-play")
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    return result.stderr.strip().splitlines()


def _with_sheet_xml(path: Path, edit) -> Path:
    """``path`` (an XLSX) with its first worksheet's XML changed by ``edit`` (text to text)."""
    parts = _xlsx_parts(path)
    parts["xl/worksheets/sheet1.xml"] = edit(parts["xl/worksheets/sheet1.xml"].decode()).encode()
    path.unlink()
    return _zip(path, parts)


CALCEXT = "urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0"  # LibreOffice's error mark
NO_SAVED_VALUE = ("has no saved value (the program that wrote the file did not calculate it): open the file in a "
                  "spreadsheet app (Excel, LibreOffice, Numbers) and save it there, or type the value instead")


def test_a_formula_saved_without_its_value_is_an_error_at_its_cell(tmp_path):
    # openpyxl (and pandas through it) write a formula with an empty value: no spreadsheet computed it.
    write_xlsx(tmp_path / "cards.xlsx", {"Cards": [["id", "cost", "text"], ["a", "=1+2", "Costs three."],
                                                   ["b", 2, "Costs two."]]})
    assert cli_error(spec(tmp_path, "data: cards.xlsx")) == f"cards.xlsx:Cards!B2: formula =1+2 {NO_SAVED_VALUE}"


def test_a_formula_with_its_saved_value_gives_the_value(tmp_path):
    write_xlsx(tmp_path / "cards.xlsx", {"Cards": [["id", "cost", "label"], ["a", "=1+2", "=\"x\""]]})
    _with_sheet_xml(tmp_path / "cards.xlsx", lambda xml: xml.replace("<f>1+2</f><v></v>", "<f>1+2</f><v>3</v>")
                    .replace('<c r="C2"><f>"x"</f><v></v>', '<c r="C2" t="str"><f>"x"</f><v></v>'))
    # C2's formula gave the empty text: a value like any other empty cell, no attribute.
    assert attrs(spec(tmp_path, "data: cards.xlsx")) == [{"id": "a", "cost": 3}]


def test_an_error_cell_is_an_error_at_its_cell_saying_what_it_shows(tmp_path):
    write_xlsx(tmp_path / "cards.xlsx", {"Cards": [["id", "cost", "note"], ["c", "=1/0", "x"], ["d", 1, "x"]]})
    _with_sheet_xml(tmp_path / "cards.xlsx", lambda xml: xml.replace(
        '<c r="C3" t="inlineStr"><is><t>x</t></is></c>', '<c r="C3" t="e"><v>#N/A</v></c>').replace(
        '<c r="B2"><f>1/0</f><v></v></c>', '<c r="B2" t="e"><f>1/0</f><v>#DIV/0!</v></c>'))
    assert cli_errors(spec(tmp_path, "data: cards.xlsx")) == [
        "cards.xlsx:Cards!B2: the cell shows the error #DIV/0! (its formula =1/0): correct the formula or the cells "
        "it uses, save, and run again; or clear the cell",
        "cards.xlsx:Cards!C3: the cell shows the error #N/A: type the value it should hold, or clear the cell",
        "2 errors"]


def test_ods_error_cells_and_formulas_without_a_value_are_errors_at_their_cells(tmp_path):
    pytest.importorskip("odf")
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    def text(value: str, **kw) -> TableCell:
        cell = TableCell(valuetype="string", **kw)
        cell.addElement(P(text=value))
        return cell

    error = text("#DIV/0!", formula="of:=1/[.A2]", stringvalue="")
    error.setAttrNS(CALCEXT, "value-type", "error")
    doc = OpenDocumentSpreadsheet()
    table = Table(name="Cards")
    for cells in ([text("id"), text("cost")], [text("a"), TableCell(formula="of:=1+2")],
                  [text("b"), error], [text("c"), TableCell(valuetype="float", value="0.30000000000000004")]):
        row = TableRow()
        for cell in cells:
            row.addElement(cell)
        table.addElement(row)
    doc.spreadsheet.addElement(table)
    doc.save(str(tmp_path / "cards.ods"))
    assert cli_errors(spec(tmp_path, "data: cards.ods")) == [
        f"cards.ods:Cards!B2: formula =1+2 {NO_SAVED_VALUE}",
        "cards.ods:Cards!B3: the cell shows the error #DIV/0! (its formula =1/[.A2]): correct the formula or the "
        "cells it uses, save, and run again; or clear the cell",
        "2 errors"]


@pytest.mark.parametrize("cell, value", [
    (0.1 + 0.2, 0.3), (1 / 3, 0.333333333333333), (2.5, 2.5), (4.0, 4), (-0.0, 0), (0.0001, 0.0001),
    (123456789012345.0, 123456789012345), (1e15, "1E+15"), (1234567890123456.0, "1.23456789012346E+15"),
    (1e300, "1E+300"), (1e-5, "1E-05"), (-1.5e-10, "-1.5E-10"),
])
def test_a_workbook_number_is_what_the_spreadsheets_general_format_shows(tmp_path, cell, value):
    write_xlsx(tmp_path / "cards.xlsx", {"Cards": [["name", "v"], ["x", cell]]})
    [card] = attrs(spec(tmp_path, "data: cards.xlsx"))
    assert card["v"] == value and type(card["v"]) is type(value)
    write_ods(tmp_path / "cards.ods", {"Cards": [["name", "v"], ["x", cell]]})
    [card] = attrs(spec(tmp_path, "data: cards.ods"))
    assert card["v"] == value and type(card["v"]) is type(value)


def test_a_card_prints_a_workbook_number_as_the_spreadsheet_shows_it_and_a_csv_one_as_typed(tmp_path):
    from printkit.decks import load_all_variants
    from printkit.layout import templates
    from printkit.layout.ops import Text

    write_xlsx(tmp_path / "cards.xlsx", {"Cards": [["name", "big", "sum"], ["x", 1e300, 0.1 + 0.2]]})
    (tmp_path / "cards.csv").write_text("name,big,sum\ny,1e300,0.30000000000000004\n", encoding="utf-8")
    path = spec(tmp_path, "data: cards.xlsx")
    path.write_text(path.read_text() + "  - {name: more, data: cards.csv}\n")
    [deck] = load_all_variants(path)
    words = [[op.text for op in templates.front(card, deck).ops if isinstance(op, Text)] for card in deck.cards]
    assert words == [["x", "big: 1E+300", "sum: 0.3"], ["y", "big: 1e300", "sum: 0.30000000000000004"]]


def test_a_copies_cell_holding_a_number_as_text_says_so(tmp_path):
    write_xlsx(tmp_path / "cards.xlsx", {"Cards": [["name", "copies"], ["a", "3"]]})
    assert cli_error(spec(tmp_path, "data: cards.xlsx")) == (
        "cards.xlsx:Cards!B2: copies must be a whole number 0..1000, not '3': it is a number stored as text: make "
        "the cell a number (in Excel, the cell's warning offers Convert to Number; or set its format to Number and "
        "type the value again)")
    (tmp_path / "cards.csv").write_text("name,copies\na,007\n", encoding="utf-8")
    assert cli_error(spec(tmp_path, "data: cards.csv")) == \
        "cards.csv:2:2: copies must be a whole number 0..1000, not '007': write it as a plain whole number: 7"


def test_a_copies_cell_of_a_numeral_out_of_range_is_said_without_a_hint(tmp_path):
    # Python refuses to read a numeral of thousands of digits: no hint reads one, nor says to write 5000.
    nines = "9" * 5000
    (tmp_path / "cards.csv").write_text(f"name,copies\na,{nines}\nb,+5000\nc,+0012.00\n", encoding="utf-8")
    lines = cli_errors(spec(tmp_path, "data: cards.csv"))
    assert lines[0].startswith(f"cards.csv:2:2: copies must be a whole number 0..1000, not '{nines[:100]}")
    assert lines[1:] == ["cards.csv:3:2: copies must be a whole number 0..1000, not '+5000'",
                         "cards.csv:4:2: copies must be a whole number 0..1000, not '+0012.00': write it as a plain "
                         "whole number: 12", "3 errors"]
    write_xlsx(tmp_path / "cards.xlsx", {"Cards": [["name", "copies"], ["a", nines], ["b", "1001"]]})
    assert cli_errors(spec(tmp_path, "data: cards.xlsx"))[1:] == [
        "cards.xlsx:Cards!B3: copies must be a whole number 0..1000, not '1001'", "2 errors"]


# --- every data mistake in one run -------------------------------------------------------------


def test_every_bad_cell_is_said_in_one_run_each_at_its_cell(tmp_path):
    (tmp_path / "cards.csv").write_text("id,title,copies\na,Alpha,two\nb,Beta,1.5\nok,Fine,1\nc,Gamma,-1\n"
                                        "d,Delta,2000\n", encoding="utf-8")
    assert cli_errors(spec(tmp_path, "data: cards.csv")) == [
        "cards.csv:2:3: copies must be a whole number 0..1000, not 'two'",
        "cards.csv:3:3: copies must be a whole number 0..1000, not 1.5",
        "cards.csv:5:3: copies must be a whole number 0..1000, not -1",
        "cards.csv:6:3: copies must be a whole number 0..1000, not 2000",
        "4 errors"]


def test_every_bad_header_cell_and_unnamed_column_is_said_once(tmp_path):
    write_xlsx(tmp_path / "cards.xlsx", {"Cards": [["name", "my cost", "name", None], ["a", 1, "x", "y"],
                                                   ["b", 2, "z", "w"]]})
    assert cli_errors(spec(tmp_path, "data: cards.xlsx")) == [
        "cards.xlsx:Cards!B1: column name 'my cost' is not a valid name: use ASCII letters, digits, '_' and '-', "
        "starting with a letter",
        "cards.xlsx:Cards!C1: duplicate column 'name' (also column A)",
        "cards.xlsx:Cards!D1: column D has values (first on row 2) but no name in the header row",
        "3 errors"]


def test_every_data_file_is_read_and_each_ones_mistakes_said(tmp_path):
    (tmp_path / "cards.csv").write_text("name,copies\na,x\n", encoding="utf-8")
    path = spec(tmp_path, "data: missing.csv")
    path.write_text(path.read_text() + "  - {name: b, data: cards.csv}\n  - {name: c, data: gone.xlsx}\n")
    assert cli_errors(path) == [
        "deck.yaml:5:11: data file 'missing.csv' not found",
        "cards.csv:2:2: copies must be a whole number 0..1000, not 'x'",
        "deck.yaml:7:21: data file 'gone.xlsx' not found",
        "3 errors"]


def test_at_most_max_errors_mistakes_are_said(tmp_path):
    from printkit.errors import MAX_ERRORS

    (tmp_path / "cards.csv").write_text("name,copies\n" + "a,x\n" * (MAX_ERRORS + 10), encoding="utf-8")
    lines = cli_errors(spec(tmp_path, "data: cards.csv"))
    assert len(lines) == MAX_ERRORS + 1
    assert lines[-2] == f"cards.csv:{MAX_ERRORS + 1}:2: copies must be a whole number 0..1000, not 'x'"
    assert lines[-1] == f"{MAX_ERRORS} errors (the first {MAX_ERRORS}; fix them and run again)"


def test_the_unread_cells_of_the_sheet_named_are_said_not_another_sheets(tmp_path):
    # The sheet's part is found through the workbook's relationships: Cards is sheet2.xml here.
    write_xlsx(tmp_path / "cards.xlsx", {"Notes": [["x", "=2+2"]],
                                         "Cards": [["name", "cost"], ["a", 1], ["b", "=1+2"]]})
    assert cli_error(spec(tmp_path, "data: cards.xlsx\nsheet: Cards")) == \
        f"cards.xlsx:Cards!B3: formula =1+2 {NO_SAVED_VALUE}"
    assert cli_error(spec(tmp_path, "data: cards.xlsx")) == f"cards.xlsx:Notes!B1: formula =2+2 {NO_SAVED_VALUE}"


def test_an_ods_error_cell_repeated_across_cells_is_said_at_each(tmp_path):
    pytest.importorskip("odf")
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    table = Table(name="Cards")
    for values in (["id", "a", "b"], ["x"]):
        row = TableRow()
        for value in values:
            cell = TableCell(valuetype="string")
            cell.addElement(P(text=value))
            row.addElement(cell)
        if values == ["x"]:
            error = TableCell(valuetype="string", stringvalue="", numbercolumnsrepeated=2)
            error.setAttrNS(CALCEXT, "value-type", "error")
            error.addElement(P(text="#N/A"))
            row.addElement(error)
        table.addElement(row)
    doc.spreadsheet.addElement(table)
    doc.save(str(tmp_path / "cards.ods"))
    assert cli_errors(spec(tmp_path, "data: cards.ods")) == [
        "cards.ods:Cards!B2: the cell shows the error #N/A: type the value it should hold, or clear the cell",
        "cards.ods:Cards!C2: the cell shows the error #N/A: type the value it should hold, or clear the cell",
        "2 errors"]


def test_a_formula_far_past_the_ods_limits_is_refused_before_it_is_read(tmp_path):
    # A formula without a value is a cell printkit looks at: it counts in the sheet's reach.
    far = (b'<table:table-row table:number-rows-repeated="1000000"><table:table-cell/></table:table-row>'
           b'<table:table-row><table:table-cell table:formula="of:=1+2"/></table:table-row>')
    _ods_with_rows(tmp_path, far)
    assert cli_error(spec(tmp_path, "data: cards.ods")) == (
        f"deck.yaml:5:11: sheet 'Cards' of 'cards.ods' reaches cell A1000003; "
        f"printkit reads at most {data_module.MAX_SHEET_ROWS} rows")
