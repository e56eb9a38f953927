"""Fonts: reading TrueType files, as reportlab reads them, and their glyph sets."""

import gc
import io
import shutil
import struct

import pytest

from printkit import fonts


def test_parsing_a_font_leaves_the_cycle_collector_as_it_was(tmp_path):
    copy = tmp_path / "Copy.ttf"
    shutil.copy(fonts.SYMBOLS, copy)
    broken = tmp_path / "Broken.ttf"
    broken.write_bytes(b"not a font")
    assert gc.isenabled()
    assert fonts.ttfont(copy).face.charToGlyph
    assert gc.isenabled()
    with pytest.raises(fonts.FontError, match="not a usable TrueType font"):
        fonts.ttfont(broken)
    assert gc.isenabled()
    gc.disable()
    try:
        other = tmp_path / "Other.ttf"
        shutil.copy(fonts.SYMBOLS, other)
        fonts.ttfont(other)
        assert not gc.isenabled()
    finally:
        gc.enable()


def _reportlab_face(data: bytes):
    from reportlab.pdfbase.ttfonts import TTFont

    return TTFont("ref", io.BytesIO(data)).face


def _same_as_reportlab(data: bytes, bulk: bool = True) -> None:
    """printkit's face for ``data`` holds exactly what reportlab's own parser reads (scale function aside),
    read by printkit's bulk reader (``bulk``) or, where it declines, by reportlab's."""
    assert fonts._read_glyph_tables(_reportlab_face(data)) is bulk  # else the comparison proves nothing
    face, theirs = fonts._reportlab_font("ref", data).face, vars(_reportlab_face(data))
    ours = {key: getattr(face, key) for key in theirs}  # glyphToChar: made when asked for
    assert set(vars(face)) - set(theirs) <= {"cmap_pairs"}
    for key in theirs:
        if key in ("hmetrics", "glyphPos"):  # kept compactly, read as reportlab's lists
            assert list(ours[key]) == theirs[key], key
            assert [ours[key][i] for i in (0, -1, len(theirs[key]) // 2)] == \
                [theirs[key][i] for i in (0, -1, len(theirs[key]) // 2)], key
        elif key != "_pdfScale":
            assert ours[key] == theirs[key], key
    for key in ("charToGlyph", "glyphToChar", "charWidths"):
        assert list(ours[key]) == list(theirs[key]), key  # the same order too
    # Embedding reads the compact tables: the same subset font, byte for byte.
    codes = sorted(theirs["charToGlyph"])
    subset = [0x20] + codes[:: max(len(codes) // 40, 1)] + codes[-3:]
    try:
        expected = _reportlab_face(data).makeSubset(subset)
    except Exception:  # a font made for a test whose glyph data no longer reads: refused alike
        with pytest.raises(fonts.FontError, match="cannot be embedded"):
            face.makeSubset(subset)
    else:
        assert face.makeSubset(subset) == expected


@pytest.mark.parametrize("font", [fonts.KOREAN, fonts.KOREAN_BOLD, fonts.SYMBOLS, fonts.SYMBOLS_BOLD],
                         ids=lambda p: p.name)
def test_glyph_tables_read_in_bulk_match_reportlabs_reading(font):
    _same_as_reportlab(font.read_bytes())


def test_the_font_is_built_as_reportlabs_constructor_builds_it():
    from reportlab.pdfbase.ttfonts import TTFont

    data = fonts.SYMBOLS.read_bytes()
    ours, theirs = fonts._reportlab_font("DejaVuSans", data), TTFont("DejaVuSans", io.BytesIO(data))
    assert sorted(vars(ours)) == sorted(vars(theirs))
    assert type(ours) is TTFont and isinstance(ours.face, type(theirs.face))
    for key in ("fontName", "_asciiReadable", "shapable"):
        assert getattr(ours, key) == getattr(theirs, key)
    assert type(ours.encoding) is type(theirs.encoding) and not ours.state


def _table(data: bytes, tag: bytes) -> int:
    count = struct.unpack_from(">H", data, 4)[0]
    return next(struct.unpack_from(">L", data, 12 + 16 * i + 8)[0] for i in range(count)
                if data[12 + 16 * i:16 + 16 * i] == tag)


def _with_cmap_platforms(data: bytes, keep) -> bytes:
    """The font with every cmap encoding record for which ``keep(platform, encoding)`` is false
    renamed to platform 2 (ISO), which reportlab never picks."""
    out = bytearray(data)
    cmap = _table(data, b"cmap")
    for i in range(struct.unpack_from(">H", data, cmap + 2)[0]):
        record = cmap + 4 + 8 * i
        if not keep(*struct.unpack_from(">HH", data, record)):
            struct.pack_into(">H", out, record, 2)
    return bytes(out)


def _bmp_map(data: bytes) -> tuple[int, int]:
    """Where the Windows BMP subtable (format 4) starts, and its segment count."""
    cmap = _table(data, b"cmap")
    for i in range(struct.unpack_from(">H", data, cmap + 2)[0]):
        platform, encoding, offset = struct.unpack_from(">HHL", data, cmap + 4 + 8 * i)
        if (platform, encoding) == (3, 1):
            return cmap + offset, struct.unpack_from(">H", data, cmap + offset + 6)[0] // 2
    raise AssertionError("no BMP map")


def _dejavu_bmp_only() -> bytes:
    return _with_cmap_platforms(fonts.SYMBOLS.read_bytes(), lambda platform, encoding: (platform, encoding) == (3, 1))


def test_a_16_bit_character_map_is_read_as_reportlab_reads_it():
    # DejaVu's Windows BMP map (format 4) has segments that index its glyph array.
    _same_as_reportlab(_dejavu_bmp_only())


def test_a_zero_in_the_glyph_array_stays_glyph_zero():
    data = bytearray(_dejavu_bmp_only())
    sub, segs = _bmp_map(data)
    range_at = sub + 16 + 6 * segs
    n = next(n for n in range(segs) if struct.unpack_from(">H", data, range_at + 2 * n)[0])
    struct.pack_into(">h", data, sub + 16 + 4 * segs + 2 * n, 7)  # this segment's delta
    struct.pack_into(">H", data, range_at + 2 * n + struct.unpack_from(">H", data, range_at + 2 * n)[0], 0)
    _same_as_reportlab(bytes(data))


def test_glyph_indexes_past_the_end_of_a_short_map_are_read_as_reportlab_reads_them():
    # A broken font whose format-4 map claims fewer bytes than its glyph array needs.
    data = bytearray(_dejavu_bmp_only())
    sub, segs = _bmp_map(data)
    range_at = sub + 16 + 6 * segs
    n = max(n for n in range(segs) if struct.unpack_from(">H", data, range_at + 2 * n)[0])
    first = range_at + 2 * n + struct.unpack_from(">H", data, range_at + 2 * n)[0]
    count = struct.unpack_from(">H", data, sub + 14 + 2 * n)[0] - struct.unpack_from(">H", data, sub + 16 + 2 * segs + 2 * n)[0] + 1
    assert count > 1
    struct.pack_into(">H", data, sub + 2, first - sub + 2)  # the map now ends after the segment's first index
    _same_as_reportlab(bytes(data))


def test_a_font_without_a_space_sets_it_with_its_no_break_space():
    data = bytearray(_dejavu_bmp_only())
    sub, segs = _bmp_map(data)
    n = next(n for n in range(segs) if struct.unpack_from(">H", data, sub + 16 + 2 * segs + 2 * n)[0] == 0x20)
    struct.pack_into(">H", data, sub + 16 + 2 * segs + 2 * n, 0x21)
    face = fonts._reportlab_font("ref", bytes(data)).face
    assert face.charToGlyph[0x20] == face.charToGlyph[0xA0]
    _same_as_reportlab(bytes(data))


def test_glyphs_past_the_last_advance_repeat_it():
    # With fewer horizontal metrics than glyphs, the rest share the last advance width.
    data = bytearray(fonts.SYMBOLS.read_bytes())
    struct.pack_into(">H", data, _table(data, b"hhea") + 34, 100)
    face = fonts._reportlab_font("ref", bytes(data)).face
    code = next(code for code, glyph in face.charToGlyph.items() if glyph >= 100)
    assert face.charWidths[code] == face.hmetrics[99][0] * 1000 / 2048 == face.hmetrics[-1][0]
    _same_as_reportlab(bytes(data))


def test_short_glyph_offsets_are_read_as_reportlab_reads_them():
    # Format 0 'loca' holds offsets halved in 16 bits; DejaVu's long table read as short is still a table.
    data = bytearray(fonts.SYMBOLS.read_bytes())
    struct.pack_into(">H", data, _table(data, b"head") + 50, 0)
    _same_as_reportlab(bytes(data))


def test_an_unknown_glyph_data_format_is_refused(tmp_path):
    data = bytearray(fonts.SYMBOLS.read_bytes())
    struct.pack_into(">H", data, _table(data, b"head") + 52, 1)
    odd = tmp_path / "Odd.ttf"
    odd.write_bytes(bytes(data))
    with pytest.raises(fonts.FontError, match="Odd.ttf is not a usable TrueType font .*glyph data format"):
        fonts.ttfont(odd)


def test_a_unicode_platform_map_is_read_in_bulk():
    data = _with_cmap_platforms(fonts.SYMBOLS.read_bytes(), lambda platform, encoding: platform == 0)  # format 12
    assert fonts._read_glyph_tables(fonts._reportlab_font("ref", data).face)
    _same_as_reportlab(data)


def test_other_character_map_formats_are_left_to_reportlab():
    data = _with_cmap_platforms(fonts.SYMBOLS.read_bytes(), lambda platform, encoding: platform == 1)  # format 6
    face = fonts._reportlab_font("ref", data).face
    assert not fonts._read_glyph_tables(face)
    assert face.charToGlyph and face.charWidths
    _same_as_reportlab(data, bulk=False)


def test_a_font_cut_short_is_refused_like_any_broken_font(tmp_path):
    data = fonts.SYMBOLS.read_bytes()
    cut = tmp_path / "Cut.ttf"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(fonts.FontError, match="Cut.ttf is not a usable TrueType font"):
        fonts.ttfont(cut)


@pytest.mark.parametrize("text", ["", "Score 12", "점수 − ♦ 🧩", "a\u00a0b  c", "7" * 50])
@pytest.mark.parametrize("font", [fonts.KOREAN_BOLD, fonts.SYMBOLS], ids=lambda p: p.name)
def test_text_width_is_reportlabs_string_width(font, text):
    for size_mm in (0.5, 2.35, 4.2, 12.0):
        # Exactly: text is placed by these widths, and reportlab draws by its own.
        assert fonts.text_width_mm(text, font, size_mm) == fonts.ttfont(font).stringWidth(text, size_mm)


# What cards, score sheets and rulebooks print in both languages, all of it in the one family.
TEXT_CHARACTERS = (
    "".join(map(chr, range(0x20, 0x7F)))  # ASCII
    + "".join(map(chr, range(0xAC00, 0xD7A4)))  # every Hangul syllable: players type any of them
    + "\u2212\u00d7\u00f7\u00b1\u201c\u201d\u2018\u2019\u2013\u2014\u2026\u00b7\u2192\u2460\u2461\u2462"
)


def _weight_class(path) -> int:
    data = path.read_bytes()
    return struct.unpack_from(">H", data, _table(data, b"OS/2") + 4)[0]


def test_one_type_family_draws_all_printed_text_in_two_weights():
    text_fonts = (fonts.KOREAN, fonts.KOREAN_BOLD)
    for font in text_fonts:
        assert fonts.missing_glyphs(TEXT_CHARACTERS, font) == "", font.name
        data = font.read_bytes()
        assert _table(data, b"glyf")  # TrueType outlines, which reportlab embeds
    assert len({font.name.split("-")[0] for font in text_fonts}) == 1  # one family
    assert _weight_class(fonts.KOREAN) == 400 and _weight_class(fonts.KOREAN_BOLD) == 700


def test_every_bundled_font_ships_with_its_licence():
    licences = {path.stem.removeprefix("LICENSE-"): path for path in fonts.FONTS_DIR.glob("LICENSE-*.txt")}
    for font in fonts.FONTS_DIR.glob("*.ttf"):
        (licence,) = [path for family, path in licences.items() if font.stem.startswith(family)]
        text = licence.read_text(encoding="utf-8")
        assert "SIL Open Font License" in text or "Bitstream Vera" in text, licence.name


def test_a_font_printkit_no_longer_bundles_names_its_successor():
    assert fonts.bundled_font("NanumGothic.ttf") == fonts.KOREAN
    assert fonts.bundled_font("NanumGothicBold.ttf") == fonts.KOREAN_BOLD
    assert fonts.font_path("NanumGothicBold.ttf") == fonts.KOREAN_BOLD
    assert fonts.bundled_font("Pretendard-Bold.ttf") == fonts.KOREAN_BOLD
    assert fonts.bundled_font("Missing.ttf") is None
    assert fonts.bundled_font("../fonts/DejaVuSans.ttf") is None  # a path is the spec's own file, not ours


def test_horizontal_metrics_read_like_reportlabs_list():
    data = bytearray(fonts.SYMBOLS.read_bytes())
    struct.pack_into(">H", data, _table(data, b"hhea") + 34, 100)  # glyphs past 100 repeat the last advance
    ours = fonts._reportlab_font("ref", bytes(data)).face.hmetrics
    theirs = _reportlab_face(bytes(data)).hmetrics
    assert isinstance(ours, fonts._HMetrics) and len(ours) == len(theirs) > 100
    for index in (0, 99, 100, -1, -len(theirs)):
        assert ours[index] == theirs[index]
    assert ours[95:105] == theirs[95:105] and ours[::500] == theirs[::500]
    for index in (len(theirs), -len(theirs) - 1):
        with pytest.raises(IndexError):
            ours[index]


def test_a_specs_font_rewritten_in_place_is_read_afresh_by_the_next_build_in_the_process(tmp_path):
    # What `printkit watch` does: build, the designer copies another font over the spec's, build
    # again in the same process. The second build's PDF embeds the new font, not the old one.
    import pypdf
    from click.testing import CliRunner

    from printkit.cli import main

    root = fonts.FONTS_DIR
    shutil.copy(root / "DejaVuSans.ttf", tmp_path / "face.ttf")
    (tmp_path / "deck.yaml").write_text(
        "game: orchard\nname: Orchard\nart: {font: face.ttf, font_bold: face.ttf}\n"
        "groups:\n  - name: fruit\n    cards:\n      - {title: Apple, text: Crisp and red}\n", encoding="utf-8")

    def embedded() -> set[str]:
        out = tmp_path / "out"
        result = CliRunner().invoke(main, ["build", str(tmp_path / "deck.yaml"), "--out", str(out),
                                           "--no-rulebooks", "--no-proof"])
        assert result.exit_code == 0, result.output
        reader = pypdf.PdfReader(out / "deck" / "sheets-a4.pdf")
        return {str(f.get_object()["/BaseFont"]).split("+")[-1] for page in reader.pages
                for f in page["/Resources"]["/Font"].values()}

    assert "DejaVuSans" in embedded()
    shutil.copy(root / "Pretendard-Regular.ttf", tmp_path / "face.ttf")
    assert "DejaVuSans" not in embedded()


@pytest.mark.parametrize("font", [fonts.KOREAN, fonts.KOREAN_BOLD, fonts.SYMBOLS, fonts.SYMBOLS_BOLD],
                         ids=lambda p: p.name)
def test_every_glyph_of_a_bundled_font_embeds(font):
    # A bundled font skips the trial subset made when a spec's own font is read: so every glyph
    # it maps must be readable (the subset of all of them, made here, reads each outline).
    face = fonts.ttfont(font).face
    assert fonts.is_bundled(font)
    codes = sorted(code for code, glyph in face.charToGlyph.items() if glyph)
    assert face.makeSubset(codes)


def test_only_a_font_of_the_specs_own_is_tried_by_a_subset_when_read(tmp_path, monkeypatch):
    tried = []
    face_class = fonts._face_class()
    monkeypatch.setattr(face_class, "makeSubset", lambda self, subset: tried.append(self.shown))
    own = tmp_path / "Own.ttf"
    shutil.copy(fonts.SYMBOLS, own)
    read = fonts._parsed_font.__wrapped__  # a fresh reading each, the process's cache left alone
    read(fonts.SYMBOLS)
    read(own)
    assert tried == ["Own.ttf"]


def test_a_link_to_a_bundled_font_is_the_bundled_font_to_fonts_and_to_the_book(tmp_path):
    # The book followed the link and the font reader did not: the book set its text in the bundled
    # cuts while the PDF registered the link as a font of its own, digest and trial subset included.
    from printkit.rulebook import book

    link = tmp_path / "Mine.ttf"
    link.symlink_to(fonts.KOREAN_BOLD)
    assert fonts.is_bundled(link)
    assert fonts.font_name(link) == "Pretendard-Bold"
    assert book.book_faces(link, None) == (book.REGULAR, book.BOLD)
    copy = tmp_path / "Copy.ttf"
    shutil.copy(fonts.KOREAN_BOLD, copy)
    assert not fonts.is_bundled(copy)
    assert book.book_faces(copy, None)[0].chain[0] == copy


def test_the_bundled_fonts_are_known_through_a_linked_fonts_folder(tmp_path, monkeypatch):
    # printkit installed under a linked prefix: its fonts folder is reached through a link
    linked = tmp_path / "fonts"
    linked.symlink_to(fonts.FONTS_DIR.resolve(), target_is_directory=True)
    monkeypatch.setattr(fonts, "FONTS_DIR", linked)
    assert fonts.is_bundled(linked / "Pretendard-Bold.ttf")
