"""The rulebook's document: its page templates and footer, its passes (the first may only lay out),
headings to the contents and outline, and figures that wait for the next page."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from reportlab.lib import colors
from reportlab.platypus import BaseDocTemplate, CondPageBreak, PageBreak, PageTemplate, Spacer
from reportlab.platypus.doctemplate import ActionFlowable, FrameBreak
from reportlab.platypus.flowables import Flowable

from printkit import fonts
from printkit.layout.icons import Icon
from printkit.render.page_boxes import set_page_boxes
from printkit.rulebook.composition import (
    FLOAT_GAP,
    FigureGroup,
    FloatingFigure,
    LayoutFrame,
    _height_pt,
    _kept_height,
    _not_postponed,
    _section_end,
    _shrunk_to_fit,
    keep_with_next,
    split_between_rows,
)
from printkit.rulebook.contents import BookContents, _ContentsRows
from printkit.rulebook.inline_icons import draw_icons_on
from printkit.rulebook.paragraphs import HeadingParagraph
from printkit.rulebook.styles import Paper, Styles
from printkit.units import mm_to_pt


class RulebookDoc(BaseDocTemplate):
    """Two page templates (cover without page number, body with it) and TOC bookkeeping.

    With ``sketch_first`` the first pass of ``multiBuild`` only lays the book out: its pages are
    never saved, and the table of contents it feeds (page numbers of the headings) is set in the
    second pass, which draws. A book without headings needs ``sketch_first`` off: its first pass
    is already the last. The second pass only lays out too once its contents run past their first
    page: the first pass's one-page placeholder then put every heading on another page, so the
    second pass cannot be the last (a pass that does not draw never is). That pass stops once the
    contents are laid out: the body after them falls as in the pass before, only shifted by the
    pages the contents gained, so its headings are listed shifted without setting it again.
    """

    def __init__(self, buffer, p: Paper, styles: Styles, title: str, links: bool,
                 icons: Callable[[], Mapping[str, Icon]], sketch_first: bool = False, compact: bool = False, **kw: Any):
        margin = mm_to_pt(p.margin_mm)
        size = (mm_to_pt(p.width_mm), mm_to_pt(p.height_mm))
        super().__init__(buffer, pagesize=size, leftMargin=margin, rightMargin=margin, topMargin=margin,
                         bottomMargin=margin * 1.2, title=title, invariant=1,
                         # reportlab's default initial font is Helvetica, which is never embedded
                         initialFontName=fonts.font_name(fonts.KOREAN), **kw)
        frame = LayoutFrame(margin, margin * 1.2, size[0] - 2 * margin, size[1] - margin * 2.2, id="text",
                            leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        templates = [PageTemplate("cover", frames=[frame]), PageTemplate("body", frames=[frame], onPage=self._footer)]
        # A compact book starts on a numbered body page: its title heads the first page of text.
        self.addPageTemplates(templates[::-1] if compact else templates)
        self.styles = styles
        self._page_mm = (p.width_mm, p.height_mm)
        self._icons = icons  # the icons ``:name:`` draws in the book being set
        self.links = links
        self._margin = margin
        self._text_frame = frame
        self._sketch_first = sketch_first
        self.passes = 0
        self._waiting: list[tuple[int, Any]] = []  # (page it could not fit on, figure) in story order
        self._contents: BookContents | None = None
        self._contents_end: Flowable | None = None
        self._contents_last_page: dict[int, int] = {}  # the page the contents end on, by pass

    def beforeDocument(self) -> None:
        # Called as each pass of multiBuild starts.
        self.passes += 1
        self._text_frame.drawing = not (self._sketch_first and self.passes == 1)
        self._waiting = []

    def handle_flowable(self, flowables) -> None:
        first = flowables[0] if flowables else None
        if isinstance(first, BookContents) and len(flowables) > 1:
            self._contents, self._contents_end = first, flowables[1]  # the contents, and the break after them
        elif first is not None and first is self._contents_end:
            self._contents_last_page[self.passes] = self.page
            if self.passes > 1 and not self._text_frame.drawing:
                # A pass that only lays out, after the first, is for the contents' length: the body
                # after them (from a new page) falls as it did in the pass before, only shifted by
                # the pages the contents gained, so its headings are listed shifted and the pass ends.
                shift = self.page - self._contents_last_page[self.passes - 1]
                self._contents._entries = [(level, text, page + shift, key)
                                           for level, text, page, key in self._contents._lastEntries]
                del flowables[:]
                return
        super().handle_flowable(flowables)
        if (isinstance(first, BookContents) and self._sketch_first and self.passes == 2 and flowables
                and isinstance(flowables[0], _ContentsRows)):
            self._text_frame.drawing = False

    def _allSatisfied(self) -> bool:  # noqa: N802 (reportlab's name)
        return bool(super()._allSatisfied()) and self._text_frame.drawing

    def filterFlowables(self, flowables) -> None:  # noqa: N802 (reportlab's name)
        """Let a figure that does not fit wait for the next page while text fills this one.

        A waiting figure opens the next page (before whatever text reached it). It never passes a
        ``::: pagebreak``; a figure with no text after it to fill the page does not wait.
        """
        frame = getattr(self, "frame", None)
        if frame is None or not flowables:
            return
        if any(flowables[0] is waiting for _, waiting in self._waiting):
            # reached by the flow itself (before a page break, or at the end): placed as it comes,
            # its first rows of cards here if it does not fit whole and would leave much empty
            self._waiting = [w for w in self._waiting if w[1] is not flowables[0]]
            room, width = frame._y - frame._y1p, frame._getAvailableWidth()
            flowables[0].canv = self.canv  # a KeepTogether measures its parts on the canvas
            if room > FLOAT_GAP * frame._aH and _kept_height(flowables[0], width, room) > room:
                split_between_rows(flowables, width, room, frame._aH)
            return
        if self._waiting and frame._atTop and self.page > self._waiting[0][0]:
            self._pull_waiting(flowables)  # a new page opens with the figures that waited for it
            return
        first = flowables[0]
        room = frame._y - frame._y1p
        if isinstance(first, HeadingParagraph) and not frame._atTop:
            # the last word on keeping a heading with what follows: room for it and two lines
            need = _height_pt(first, frame._getAvailableWidth(), frame._aH) + 2 * self.styles.body.leading
            if room < need:
                flowables.insert(0, FrameBreak())
            return
        if not isinstance(first, (FloatingFigure, FigureGroup)):
            return
        height = frame._aH  # the text frame's full height
        first.canv = self.canv  # a KeepTogether measures its parts on the canvas
        if not self._waiting and (room <= FLOAT_GAP * height or _kept_height(first, frame._getAvailableWidth(), room) <= room):
            return  # it fits, or moving it on leaves little empty
        if not self._waiting and _shrunk_to_fit(first, frame._getAvailableWidth(), room):
            return  # held a little smaller, it fits where the text names it
        # It waits (behind any figure already waiting: figures keep their order) if text follows
        # that can fill the page, its lead-in paragraph staying with that text. A figure under a
        # heading keeps with the heading: both move on.
        figure = first.figure if isinstance(first, FigureGroup) else first
        after = 1 + (len(flowables) > 1 and type(flowables[1]) is Spacer)  # the gap after the figure
        rest = flowables[after:]
        run = first.run if isinstance(first, FigureGroup) else []
        placed = None
        if rest and type(rest[0]) is not Spacer and not any(isinstance(f, HeadingParagraph) for f in run) and \
                not isinstance(rest[0], (FloatingFigure, FigureGroup, PageBreak, ActionFlowable)) and \
                not (run and isinstance(rest[0], CondPageBreak)):
            for f in run:
                f.keepWithNext = True  # bound to the text now, not to the figure
            placed = keep_with_next([*run, rest[0]], frame._getAvailableWidth(), height, self.styles.body.leading)
            if run and isinstance(placed[0], CondPageBreak) and placed[0].height > room:
                placed = None  # the heading would not keep with the text after the figure here either
        if placed is None:
            if self._waiting:
                self._pull_waiting(flowables)  # nothing to fill the page: the waiting figures go now
            else:
                # nothing can fill the page: the figure's first rows of cards do, if they fit
                split_between_rows(flowables, frame._getAvailableWidth(), room, height)
            return
        # The figure (with the gap after it) goes before the next heading or page break, or at
        # the end, so it stays in the section that names it; it is pulled forward when the next
        # page starts.
        moved = [figure, *flowables[1:after]]
        del flowables[:after + 1]
        flowables[_section_end(flowables):_section_end(flowables)] = moved
        flowables[0:0] = placed
        self._waiting.append((self.page, figure))

    def _pull_waiting(self, flowables) -> None:
        first = flowables[0] if flowables else None
        if first is not None and hasattr(first, "_postponed"):
            # Put off from the last page, it now follows the figures and may be put off once more:
            # reportlab fails a flowable put off twice, so the page gets a fresh copy of it.
            flowables[0] = _not_postponed(first)
        for _, waiting in reversed(self._waiting):
            at = next(i for i, f in enumerate(flowables) if f is waiting)
            # the gap after the figure comes with it, so the text it now stands above keeps clear
            end = at + 1 + (at + 1 < len(flowables) and type(flowables[at + 1]) is Spacer)
            flowables[0:0] = [flowables.pop(at) for _ in range(end - at)]
        self._waiting = []

    def handle_documentBegin(self) -> None:  # noqa: N802 (reportlab's name)
        # Called once per pass with the pass's new canvas.
        from printkit.render.pdf import add_output_intent

        super().handle_documentBegin()
        add_output_intent(self.canv)  # the book's colours are sRGB, as the cards'
        # A book page has no bleed, its paper is its finished size: TrimBox and BleedBox are the
        # page itself, named on every page as on the cards' (a print shop's preflight wants both).
        set_page_boxes(self.canv, *self._page_mm)
        draw_icons_on(self.canv, self._icons)

    def _footer(self, canvas, doc) -> None:
        canvas.saveState()
        canvas.setFont(fonts.font_name(fonts.KOREAN), self.styles.footer_pt)
        canvas.setFillColor(colors.HexColor("#555555"))
        canvas.drawCentredString(self.pagesize[0] / 2, self._margin * 0.6, str(doc.page))
        canvas.restoreState()

    def afterFlowable(self, flowable) -> None:
        if isinstance(flowable, HeadingParagraph):
            key = flowable.key if self.links else None
            self.notify("TOCEntry", (flowable.toc_level, flowable.toc_markup, self.page, key))
            if self.links:
                self.canv.bookmarkPage(flowable.key)
                self.canv.addOutlineEntry(flowable.outline, flowable.key, level=flowable.toc_level)
