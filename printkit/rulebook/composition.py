"""How the book's flowables are placed on pages: a frame that may only lay out, figures kept whole
that wait for the next page while text fills this one, headings and lead-ins kept with what follows."""

from __future__ import annotations

import copy

from reportlab.platypus import CondPageBreak, Frame, KeepTogether, ListFlowable, PageBreak, Paragraph, Table
from reportlab.platypus.doctemplate import ActionFlowable

from printkit.rulebook.paragraphs import HeadingParagraph

MIN_SPLIT_ROWS = 3  # a table split over pages keeps at least this many rows on each


class LayoutFrame(Frame):
    """A frame that, with ``drawing`` off, places flowables without drawing them.

    Such a pass costs only the wrapping and splitting; it still reports headings (and their
    pages) to the table of contents, which is all a pass whose pages are thrown away is for.
    """

    drawing = True

    def add(self, flowable, canv, trySplit=0):
        if self.drawing:
            return self._add(flowable, canv, trySplit)
        own = vars(flowable).get("drawOn")
        flowable.drawOn = _no_draw  # on the instance, for this one call only
        try:
            return self._add(flowable, canv, trySplit)
        finally:
            if own is None:
                del flowable.drawOn
            else:
                flowable.drawOn = own


def _no_draw(*args, **kwargs) -> None:
    pass


def _not_postponed(flowable):
    """A copy of a flowable reportlab has put off once, not marked so (the original keeps its mark,
    which reportlab clears after the pass). A wrapper (a list item) is copied with its content."""
    fresh = copy.copy(flowable)
    inner = vars(flowable).get("_flowable")
    if inner is not None and hasattr(inner, "_postponed"):
        vars(fresh)["_flowable"] = _not_postponed(inner)  # around the wrapper's own __setattr__
    else:
        vars(fresh).pop("_postponed", None)
    return fresh


class FloatingFigure(KeepTogether):
    """A figure or worked example, kept whole. It stands where the text names it when it fits
    there; when it does not and moving it would leave more than FLOAT_GAP of the page empty, it
    waits for the top of the next page and the text after it fills this one (RulebookDoc)."""


def _shrunk_to_fit(group: KeepTogether, width: float, room: float) -> bool:
    """Hold a figure group's one drawing that may shrink (``max_height_pt`` and ``shrunk_ok``) to
    the room left on the page, if it then fits and still reads (its ``shrunk_ok``); else leave it."""
    parts = [p for p in group._content if hasattr(p, "max_height_pt") and hasattr(p, "shrunk_ok")]
    if len(parts) != 1:
        return False
    part = parts[0]
    saved = part.max_height_pt
    room -= group.getSpaceBefore() + 1  # the frame offers the group its room less the space before it
    over = _kept_height(group, width, room) - room
    part.max_height_pt = part.wrap(width, room)[1] - over - 1
    if part.max_height_pt > 0 and _kept_height(group, width, room) <= room and part.shrunk_ok():
        return True
    part.max_height_pt = saved
    part.wrap(width, room)
    return False


def _opens_section(flowable) -> bool:
    """Whether a flowable is a page break or a heading (alone or kept with what follows it)."""
    if isinstance(flowable, (PageBreak, HeadingParagraph)):
        return True
    content = getattr(flowable, "_content", None) if isinstance(flowable, KeepTogether) else None
    return bool(content) and isinstance(content[0], HeadingParagraph)


def _section_end(flowables: list) -> int:
    """Where the section the flow is in ends: before its next heading (and the break that asks
    room for it) or page break; the end of the flow if none comes."""
    stop = next((i for i, f in enumerate(flowables) if _opens_section(f)), len(flowables))
    if 0 < stop < len(flowables) and isinstance(flowables[stop - 1], CondPageBreak):
        stop -= 1
    return stop


def _kept_height(kept: KeepTogether, width: float, room: float) -> float:
    """The height of a KeepTogether's content: its wrap always answers "too tall" (0xffffff), to be
    split, and leaves what it measured in ``_H``."""
    kept.wrap(width, room)
    return kept._H


def split_between_rows(flowables: list, width: float, room: float, frame_height: float) -> bool:
    """Part the figure (or figure group) opening ``flowables`` between its rows of cards when
    its first rows fit the ``room`` left on the page: they stand there (after the group's lead-in)
    and the rest, with the caption, opens the next page. Only a figure whose drawing comes first
    and alone may part (its drawing's ``split_rows``), and a drawing best seen whole (its
    ``parts_past`` share of the frame) only when moving it would leave more than that empty;
    returns whether it did."""
    first = flowables[0]
    figure = first.figure if isinstance(first, FigureGroup) else first
    parts = list(figure._content)
    if not parts or not hasattr(parts[0], "split_rows") or any(hasattr(p, "max_height_pt") for p in parts[1:]):
        return False
    if room <= getattr(parts[0], "parts_past", 0.0) * frame_height:
        return False
    run = first.run if isinstance(first, FigureGroup) else []
    above = first.getSpaceBefore() + 1 + sum(_height_pt(f, width, room) for f in run)
    halves = parts[0].split_rows(width, room - above)
    if halves is None:
        return False
    head = FloatingFigure([halves[0]])
    flowables[0:1] = [FigureGroup(run, head) if run else head, FloatingFigure([halves[1], *parts[1:]])]
    return True


class FigureGroup(KeepTogether):
    """A figure with the heading or lead-in paragraph that goes before it (``run``)."""

    def __init__(self, run: list, figure: FloatingFigure):
        super().__init__(run + list(figure._content))
        self.run = run
        self.figure = figure


FLOAT_GAP = 0.25  # the most of a page a figure moved to the next page may leave empty


class RoomBreak(CondPageBreak):
    """A CondPageBreak asking for ``height`` that settles for ``least`` when breaking would leave
    more than FLOAT_GAP of the frame empty (a table then splits instead of moving whole)."""

    def __init__(self, height: float, least: float):
        super().__init__(height)
        self.least = least

    def wrap(self, availWidth, availHeight):  # noqa: N803 (reportlab's names)
        frame = self._doctemplateAttr("frame")
        if frame is not None and availHeight < self.height and \
                availHeight >= self.least and availHeight > FLOAT_GAP * frame._aH:
            return availWidth, 0
        return super().wrap(availWidth, availHeight)


SHORT_TABLE_ROWS = 8  # a table of at most this many rows (header included) starts on the page of its heading
LEAD_LINES = 3  # lines of a paragraph or list that must fit under a heading on the same page


def keep_with_next(flow: list, width_pt: float, frame_height_pt: float, line_pt: float) -> list:
    """Bind every run of flowables marked keepWithNext (headings, lead-in paragraphs) to the next one.

    reportlab's own keepWithNext cannot bind to a KeepTogether (figures, examples and notes are
    kept whole that way), so the groups are made here: a KeepTogether takes the run in. Text,
    lists and tables that may split are not moved whole; a CondPageBreak before the run asks for
    room for the run and the start of what follows (a few lines, a table's header and first rows,
    or all of a short table).
    """
    out: list = []
    i = 0
    while i < len(flow):
        run: list = []
        while i < len(flow) and getattr(flow[i], "keepWithNext", False):
            run.append(flow[i])
            i += 1
        if not run:
            out.append(flow[i])
            i += 1
            continue
        following = flow[i] if i < len(flow) else None
        if following is None or isinstance(following, (PageBreak, CondPageBreak, ActionFlowable)):
            out += run  # nothing to keep with (the end, or a page break the text asked for)
            continue
        i += 1
        for f in run:
            f.keepWithNext = False  # the group below does the keeping
        if isinstance(following, FloatingFigure):
            out.append(FigureGroup(run, following))
            continue
        if isinstance(following, KeepTogether):
            out.append(KeepTogether(run + list(following._content)))
            continue
        needed = sum(_height_pt(f, width_pt, frame_height_pt) for f in run)
        least = needed
        if isinstance(following, Table):
            following.wrap(width_pt, frame_height_pt)
            rows = following._rowHeights
            least += sum(rows[:1 + MIN_SPLIT_ROWS])  # a table that can split keeps its header and 3 rows
            needed += sum(rows if len(rows) <= SHORT_TABLE_ROWS else rows[:4])
            if len(rows) < 1 + 2 * MIN_SPLIT_ROWS:
                least = needed  # too short to split
            out += [RoomBreak(needed, least), *run, following]
            continue
        elif isinstance(following, Paragraph):
            needed += min(_height_pt(following, width_pt, frame_height_pt), LEAD_LINES * line_pt)
        elif isinstance(following, ListFlowable):
            needed += LEAD_LINES * line_pt  # (a list measures itself only on a canvas)
        else:
            out.append(KeepTogether(run + [following]))
            continue
        out += [CondPageBreak(needed), *run, following]
    return out


def _height_pt(flowable, width_pt: float, frame_height_pt: float) -> float:
    """Height of a flowable set at the text width, with the space before and after it."""
    return flowable.wrap(width_pt, frame_height_pt)[1] + flowable.getSpaceBefore() + flowable.getSpaceAfter()
