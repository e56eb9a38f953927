"""The render cache's keys: a description given in parts is hashed as its joined text."""

from __future__ import annotations

from printkit.cache import RenderCache, pages_description
from printkit.layout.geometry import Size
from printkit.layout.imposition import Page, Placement
from printkit.layout.ops import Face, Rect


def _pages(colour: str) -> list[Page]:
    front = Face((Rect(0, 0, 63, 88, fill=colour),), ())
    placements = tuple(Placement(front, 10 + 70 * i, 10) for i in range(2))
    return [Page(Size(210, 297), placements, ()), Page(Size(210, 297), placements[:1], ())]


def test_a_description_in_parts_keys_as_its_joined_text(tmp_path):
    cache = RenderCache(tmp_path)
    parts = list(pages_description(_pages("#112233")))
    assert len(parts) > 2  # given in parts, not as one text
    assert cache.key("pdf", lambda: iter(parts)) == cache.key("pdf", lambda: "".join(parts))
    assert cache.key("pdf", lambda: iter(parts)) != cache.key("pdf", lambda: "".join(parts[:-1]))


def test_pages_are_described_a_line_each_then_each_kind_of_page_level_drawing():
    pages = _pages("#112233")
    lines = "".join(pages_description(pages)).split("\n")
    assert len(lines) == len(pages) + 1  # both pages' ops (none) are one kind
    assert lines[0] == repr((pages[0].size, pages[0].trim, pages[0].bleed, 0, [
        (p.face.digest, p.x_mm, p.y_mm, p.clip, p.clockwise_deg) for p in pages[0].placements]))
    assert lines[-1] == repr(())


def test_pages_that_draw_differently_are_described_differently():
    assert "".join(pages_description(_pages("#112233"))) != "".join(pages_description(_pages("#112234")))
    assert "".join(pages_description(_pages("#112233"))) == "".join(pages_description(_pages("#112233")))
