"""PDF/X-1a:2001 (ISO 15930-1): what a CMYK document says of itself to be one, and what it may not hold.

The writer (:mod:`printkit.render.pdf`, with a :class:`~printkit.render.cmyk.Press` whose ``pdfx``
is set) already draws every colour and picture in CMYK, embeds every font, names the press
profile in a ``/GTS_PDFX`` OutputIntent and sets TrimBox and BleedBox on every page. Here: the
header's version (1.3, which has no transparency), the Info keys naming the standard
(``GTS_PDFXVersion``, ``GTS_PDFXConformance``, ``Trapped``), and the refusal of transparency:
a picture with an alpha channel, or SVG art using opacity or soft masks, is named in a
:class:`~printkit.errors.BuildError` rather than flattened behind the user's back.
"""

from __future__ import annotations

from reportlab.pdfbase import pdfdoc

from printkit.errors import BuildError
from printkit.render.forms import extra_states

VERSION = "PDF/X-1:2001"
CONFORMANCE = "PDF/X-1a:2001"
PDF_VERSION = (1, 3)  # what PDF/X-1a:2001 is based on: no transparency, no object streams


class _Info(pdfdoc.PDFInfo):
    """reportlab's document information with the PDF/X keys (reportlab has no call for them)."""

    def format(self, document) -> bytes:
        entries = {
            "Title": pdfdoc.PDFString(self.title), "Author": pdfdoc.PDFString(self.author),
            "Subject": pdfdoc.PDFString(self.subject), "Keywords": pdfdoc.PDFString(self.keywords),
            "Creator": pdfdoc.PDFString(self.creator), "Producer": pdfdoc.PDFString(self.producer),
            "Trapped": pdfdoc.PDFName("False"),  # printkit traps nothing: the press may
            "GTS_PDFXVersion": pdfdoc.PDFString(VERSION),
            "GTS_PDFXConformance": pdfdoc.PDFString(CONFORMANCE),
        }
        entries["CreationDate"] = entries["ModDate"] = pdfdoc.PDFDate(
            ts=document._timeStamp, dateFormatter=self._dateFormatter)
        return pdfdoc.PDFDictionary(entries).format(document)


def mark(canvas) -> None:
    """Make ``canvas``'s document say it is PDF/X-1a:2001 (call before anything is drawn)."""
    doc = canvas._doc
    info = _Info()
    info.__dict__.update(doc.info.__dict__)  # what the canvas was told already (title, author ...)
    doc.info = info
    doc._pdfVersion = PDF_VERSION


def refuse_transparency(picture: str, title: str) -> BuildError:
    """The error for a picture whose transparency PDF/X-1a cannot hold."""
    return BuildError(f"{picture}: this picture has transparency (an alpha channel, opacity or a soft "
                      f"mask), which PDF/X-1a cannot hold ({title or 'a PDF/X file'}); make it opaque "
                      "(an opaque PNG or JPEG, or SVG art without opacity), or export without --pdfx")


def transparent(canvas) -> bool:
    """Whether anything drawn into ``canvas`` so far is transparent: an opacity below 1, a soft
    mask (SVG gradients' stop opacity) or a picture's alpha channel (a soft-masked image)."""
    alpha = any(name in ("ca", "CA") and value < 1 for name, value in canvas._extgstate._c)
    return alpha or bool(extra_states(canvas)) or getattr(canvas, "_printkit_masked", False)


def finish(canvas, title: str) -> None:
    """The last guard of a drawn PDF/X-1a document: nothing transparent, and the PDF 1.3 header
    (reportlab asks for 1.4 whenever an opacity is set, even an opaque one)."""
    if transparent(canvas):
        raise BuildError(f"{title or 'a PDF/X file'}: something drawn is transparent, which PDF/X-1a "
                         "cannot hold; export without --pdfx")
    canvas._doc._pdfVersion = PDF_VERSION
