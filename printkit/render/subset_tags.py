"""Font subset tags drawn from a document's content, so that two files never name different
subsets alike.

A PDF names an embedded font subset ``ABCDEF+FontName``: the six letters tell subsets of one font
apart. reportlab gives the first subset of a font ``AAAAAA+`` (``ttfonts.SUBSETN``) in every
document, so two files set in one font carry subsets of the same name with different glyphs; a
print shop that merges files may keep one of them for both and lose the other's characters. Here
each subset's tag is six letters of a digest of the document's pages, the characters of each of
its subsets and the subset's old name: another file gets other tags, the same file rebuilt the
same ones (and the same bytes).

reportlab has no setting for the tag, so :func:`embed_fonts` makes the subsets' objects
(``TTFont.addObjects``, which the document would call while writing itself) before the document
is written, and renames each subset in the three places its name stands. The reportlab names this
relies on, checked by ``tests/render/test_subset_tags.py``:

- ``Canvas._code`` and ``Canvas._doc``; ``PDFDocument.delayedFonts`` (the fonts whose objects are
  still to be made), ``PDFDocument.idToObject`` and ``PDFDocument.Pages.pages``, each page's
  ``Contents.content`` (compressed) or ``stream`` (not yet);
- ``TTFont.state[doc].subsets``: the code points of each subset;
- ``PDFTrueTypeFont.BaseFont``, ``.FontDescriptor`` and ``.ToUnicode`` (references, whose
  ``name`` finds the object in ``idToObject``), the descriptor's ``dict["FontName"]`` and the
  ToUnicode CMap stream's ``content`` (text that names the subset).
"""

from __future__ import annotations

import hashlib
import re

from reportlab.pdfbase import pdfdoc

_TAGGED = re.compile(r"^[A-Z]{6}\+")


def embed_fonts(canvas) -> None:
    """Make the objects of every font subset ``canvas``'s document uses, each named with a tag
    from the document's content. Call it once, when every page is drawn, before saving."""
    if canvas._code:
        canvas.showPage()
    doc = canvas._doc
    fonts = list(doc.delayedFonts)
    if not fonts:
        return
    digest = hashlib.sha256(b"printkit subset tags\n")
    for page in doc.Pages.pages:
        contents = getattr(page, "Contents", None)
        data = contents.content if contents is not None else getattr(page, "stream", "") or ""
        digest.update(data if isinstance(data, bytes) else data.encode("latin-1", "replace"))
        digest.update(b"\0")
    for font in fonts:
        state = font.state.get(doc)
        digest.update(repr((font.fontName, state.subsets if state is not None else None)).encode())
    for font in fonts:
        font.addObjects(doc)
    doc.delayedFonts = []
    _rename(doc, digest.digest())


def _rename(doc, seed: bytes) -> None:
    """Give every ``AAAAAA+Name`` subset of ``doc`` a tag from ``seed`` and its old name."""
    taken: set[str] = set()
    for obj in list(doc.idToObject.values()):
        if not isinstance(obj, pdfdoc.PDFTrueTypeFont) or not _TAGGED.match(str(obj.BaseFont)):
            continue
        old = str(obj.BaseFont)
        tag, salt = "", 0
        while not tag or tag in taken:  # two subsets of one document never share a tag
            tag = _letters(hashlib.sha256(seed + old.encode() + bytes([salt])).digest())
            salt += 1
        taken.add(tag)
        new = tag + old[6:]
        obj.BaseFont = new
        doc.idToObject[obj.FontDescriptor.name].dict["FontName"] = pdfdoc.PDFName(new)
        cmap = doc.idToObject[obj.ToUnicode.name]
        cmap.content = cmap.content.replace(old, new)


def _letters(digest: bytes) -> str:
    """Six capital letters from a digest, as a subset tag is written."""
    return "".join(chr(ord("A") + b % 26) for b in digest[:6])
