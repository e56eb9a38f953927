"""Form XObjects made with reportlab, with complete resources.

reportlab gives a form its XObjects but not the shadings (SVG gradients) or graphics states
(transparency, soft masks) it uses, as a page would have; a viewer then skips a gradient or
draws a translucent shape opaque. :func:`end_form` ends a form with those it names.
"""

from __future__ import annotations

from contextvars import ContextVar

# Where a build keeps SVG forms between builds (:func:`printkit.render.svg.kept_form`): an object
# with get(name) -> bytes | None and put(name, data); None keeps them for the process only. Here,
# not in the SVG module, so that a build lends it without importing what only SVG art needs.
svg_form_store: ContextVar[object | None] = ContextVar("svg_form_store", default=None)


def extra_states(canvas) -> dict:
    """Graphics states printkit adds to ``canvas``'s document beside reportlab's (soft masks),
    by name; a form naming one lists it (:func:`end_form`)."""
    states = getattr(canvas, "_printkit_states", None)
    if states is None:
        states = canvas._printkit_states = {}
    return states


def end_form(canvas) -> None:
    """``canvas.endForm()``, with the shadings and graphics states the form names in its own
    resources."""
    name = canvas._formData[0]
    shadings = dict(canvas._shadingUsed)
    colors = dict(canvas._colorsUsed)
    used = {line[1:-3] for line in canvas._code if line.endswith(" gs") and line.startswith("/")}
    known = canvas._extgstate.getState()  # a PDFDictionary of every state the canvas made, or None
    states = {key: value for key, value in (known.dict if known is not None else {}).items() if key in used}
    states.update((key, value) for key, value in extra_states(canvas).items() if key in used)
    canvas.endForm()
    if not (shadings or states or colors):
        return
    from reportlab.pdfbase.pdfdoc import PDFResourceDictionary

    form = canvas._doc.idToObject[canvas._doc.getXObjectName(name)]
    resources = PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()  # as reportlab's own form resources
    if form.XObjects:
        resources.XObject = form.XObjects
    resources.ExtGState = states
    resources.setShading(shadings)
    resources.setColorSpace(colors)
    form.Resources = resources
