"""Icons inside the lines of a rulebook's text, drawn as the cards draw them (vectors).

reportlab sets a paragraph's inline ``<img>`` as a box of its own width and height, breaking
lines around it and placing it on the baseline; it then asks the canvas to ``drawImage`` it. An
icon is written into paragraph markup (:func:`icon_markup`) as a zero-width ``<onDraw>`` naming
the icon and its colour, glued to such an image of a blank placeholder picture
(``inline-icon.png`` beside this module). The book's canvas, through :func:`draw_icons_on`,
notes each named icon as its line is drawn and draws it, as vectors, in the placeholder's box in
place of the picture; any other picture is drawn as before.

The icon's box is as the card text's (:mod:`printkit.layout.richmeasure`): a square a little taller
than the capitals, centred on their middle, with a small space either side.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any, Callable, Mapping

from printkit.layout.icons import Icon, takes_text_color
from printkit.layout.richmeasure import ICON_CAP_HEIGHTS, ICON_SIDE_GAP_EM
from printkit.layout.text import font_metrics
from printkit.units import MM_PER_POINT

PLACEHOLDER = Path(__file__).with_name("inline-icon.png")
_CALLBACK = "printkit_icon"


def icon_markup(name: str, color: str | None, font: Path, size_pt: float) -> str:
    """Paragraph markup for the icon ``name`` (letters, digits, ``_``, ``-``) in text of ``font``
    at ``size_pt`` (``color``: ``#rrggbb`` to draw it in, None for its own colours)."""
    cap = font_metrics(font).cap_height * size_pt
    side = ICON_CAP_HEIGHTS * cap
    width = side + 2 * ICON_SIDE_GAP_EM * size_pt
    bottom = cap / 2 - side / 2  # from the baseline: centred on the capitals' middle
    source = str(PLACEHOLDER).replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
    return (f'<onDraw name="{_CALLBACK}" label="{name} {color or "none"}"/>'
            f'<img src="{source}" width="{width:.4f}" height="{side:.4f}" valign="{bottom:.4f}"/>')


def icon_color(icon: Icon, span_color: str | None, text_color: str) -> str | None:
    """The colour an inline icon is drawn in: the span's, else the text's for an icon with no
    colour of its own, else None (its own colours)."""
    return span_color or (text_color if takes_text_color(icon) else None)


def draw_icons_on(canvas: Any, icons: Callable[[], Mapping[str, Icon]]) -> None:
    """Make ``canvas`` draw the icons of :func:`icon_markup` (``icons()`` gives the book's icons)."""
    plain = canvas.drawImage
    noted: deque[str] = deque()  # icons whose line is being drawn, in order
    placeholder = str(PLACEHOLDER)

    def note(_canvas, _kind, label) -> None:
        noted.append(label)

    def draw_image(image, x, y, width=None, height=None, *args, **kwargs):
        if getattr(image, "fileName", image) != placeholder:
            return plain(image, x, y, width, height, *args, **kwargs)
        if not noted:  # cannot happen: each placeholder follows its note
            return width, height
        from printkit.render.canvas import draw_ops

        name, color = noted.popleft().split(" ")
        icon = icons()[name]
        side_mm = height * MM_PER_POINT
        left_mm = (x + (width - height) / 2) * MM_PER_POINT
        # draw_ops measures y down from a page top: a top at 0 puts the frame at the box's top.
        draw_ops(canvas, icon.ops(0.0, 0.0, side_mm, None if color == "none" else color), left_mm,
                 -(y + height) * MM_PER_POINT, 0.0)
        return width, height

    canvas.setNamedCB(_CALLBACK, note)
    canvas.drawImage = draw_image


__all__ = ["PLACEHOLDER", "icon_markup", "icon_color", "draw_icons_on"]
