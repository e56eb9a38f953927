"""The private names of reportlab (and svglib) that printkit uses, in one list.

reportlab has no public way to do some of what printkit needs: complete a form's resources, name
font subsets per document, keep pictures out of memory, turn a rulebook's pages with figures
beside their reference. Each name here is relied on somewhere in printkit (the module given);
``tests/render/test_private_names.py`` fails when a reportlab (or svglib) release drops or renames
one, which is why ``pyproject.toml`` pins reportlab to the major version tested.
"""

from __future__ import annotations

# (where the name lives, the name, the printkit modules that use it)
NAMES: tuple[tuple[str, str, str], ...] = (
    # a pdfgen Canvas (instance attributes and methods)
    ("Canvas", "_code", "render.canvas, render.pdf, render.forms, render.svg, render.subset_tags"),
    ("Canvas", "_doc", "render.canvas, render.pdf, render.pictures, render.forms, render.svg, render.pdfx, "
                       "render.subset_tags"),
    ("Canvas", "_formData", "render.forms"),
    ("Canvas", "_shadingUsed", "render.forms"),
    ("Canvas", "_colorsUsed", "render.forms"),
    ("Canvas", "_extgstate", "render.forms, render.pdfx"),
    ("Canvas", "_formsinuse", "render.pdf"),
    ("Canvas", "_currentPageHasImages", "render.pdf"),
    ("Canvas", "_fillMode", "render.canvas"),
    ("Canvas", "_escape", "render.canvas"),
    ("Canvas", "_setXObjects", "render.pictures"),
    ("Canvas", "_restartAccumulators", "rulebook.booklet"),
    ("Canvas", "_y", "rulebook.document"),
    ("ExtGState", "_c", "render.pdfx"),
    # the PDF document behind a Canvas
    ("PDFDocument", "_pdfVersion", "render.canvas, render.pdf, render.pdfx, render.svg"),
    ("PDFDocument", "_timeStamp", "render.pdfx"),
    ("PDFDocument", "_savedToFile", "render.pdf"),
    ("PDFInfo", "_dateFormatter", "render.pdfx"),
    ("pdfgen.canvas", "_digester", "render.pictures"),
    # fonts
    ("pdfmetrics", "_fonts", "render.canvas"),
    ("TTFont", "_asciiReadable", "fonts"),
    ("TTFontFace", "_ttf_data", "fonts"),
    ("TTFontFace", "_pdfScale", "fonts"),
    ("TTFontFace", "_pos", "fonts"),
    # drawings (SVG art)
    ("renderPDF", "_PDFRenderer", "render.canvas"),
    ("renderPDF._PDFRenderer", "_canvas", "render.canvas, render.svg"),
    ("svglib", "_shape_to_pdf_path", "render.svg"),
    # platypus (rulebooks)
    ("Frame", "_aH", "rulebook.composition, rulebook.document"),
    ("Frame", "_atTop", "rulebook.document"),
    ("Frame", "_y", "rulebook.document"),
    ("Frame", "_y1p", "rulebook.document"),
    ("Frame", "_getAvailableWidth", "rulebook.document"),
    ("KeepTogether", "_content", "rulebook.composition"),
    ("KeepTogether", "_H", "rulebook.composition"),
    ("Paragraph", "_wrapWidths", "rulebook.paragraphs"),
    ("Table", "_rowHeights", "rulebook.composition, rulebook.contents"),
    ("Table", "_rowSplitRange", "rulebook.book"),
    ("TableOfContents", "_lastEntries", "rulebook.contents, rulebook.document"),
    ("TableOfContents", "_entries", "rulebook.document"),
)
