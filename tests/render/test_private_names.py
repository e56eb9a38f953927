"""Every private reportlab (and svglib) name printkit uses still exists where printkit expects it:
a release that drops or renames one fails here, not in a user's build."""

from __future__ import annotations

import inspect
import io
from functools import lru_cache
from pathlib import Path

import pytest

from printkit.render.private_names import NAMES

PRINTKIT = Path(__file__).resolve().parents[2] / "printkit"


@lru_cache(maxsize=1)
def owners() -> dict:
    """An object of each kind the names belong to, in the state printkit meets it."""
    from reportlab.graphics import renderPDF
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.pdfbase import pdfdoc, pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas as pdfgen_canvas
    from reportlab.platypus import Frame, KeepTogether, Paragraph, Table
    from reportlab.platypus.tableofcontents import TableOfContents
    import svglib.svglib as svglib

    canvas = pdfgen_canvas.Canvas(io.BytesIO())
    font = TTFont("PrivateNamesProbe", str(PRINTKIT.parent / "fonts" / "Pretendard-Regular.ttf"))
    paragraph = Paragraph("probe", getSampleStyleSheet()["Normal"])
    paragraph.wrap(100, 100)
    table = Table([["a", "b"], ["c", "d"]])
    table.wrap(100, 100)
    together = KeepTogether([Paragraph("a", getSampleStyleSheet()["Normal"])])
    together.canv = canvas  # as a frame gives it, before it is wrapped
    together.wrap(100, 100)
    renderer = renderPDF._PDFRenderer()
    renderer._canvas = canvas  # set by draw(); printkit's renderer reads it while drawing
    return {
        "Canvas": canvas, "ExtGState": canvas._extgstate, "PDFDocument": canvas._doc,
        "PDFInfo": pdfdoc.PDFInfo, "pdfgen.canvas": pdfgen_canvas, "pdfmetrics": pdfmetrics,
        "TTFont": font, "TTFontFace": font.face, "renderPDF": renderPDF, "renderPDF._PDFRenderer": renderer,
        "svglib": svglib, "Frame": Frame(0, 0, 100, 100), "KeepTogether": together, "Paragraph": paragraph,
        "Table": table, "TableOfContents": TableOfContents(),
    }


@pytest.mark.parametrize("owner, name, users", NAMES, ids=[f"{o}.{n}" for o, n, _ in NAMES])
def test_the_private_name_is_still_there(owner, name, users):
    found = owners()[owner]
    # An attribute reportlab sets only later (PDFDocument._savedToFile, when saved) is looked
    # for in its class's code.
    there = hasattr(found, name) or f"self.{name}" in inspect.getsource(
        found if inspect.isclass(found) or inspect.ismodule(found) else type(found))
    assert there, f"reportlab's {owner}.{name} is gone; printkit's {users} use it"


def test_every_listed_name_is_still_used():
    text = "\n".join(path.read_text(encoding="utf-8") for path in PRINTKIT.rglob("*.py")
                     if path.name != "private_names.py")
    unused = [f"{owner}.{name}" for owner, name, _ in NAMES if f".{name}" not in text and f" {name}" not in text]
    assert unused == []
