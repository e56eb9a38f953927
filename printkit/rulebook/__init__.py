"""Rulebooks: Markdown rule text plus figures and worked examples, set as PDF with platypus.

Pipeline: ``markdown.parse`` turns a rule text into blocks, ``values`` resolves ``{{ … }}``
placeholders from the deck spec, ``content`` supplies figures/examples/tables computed from the
deck and the rule engines, ``book`` sets everything as a PDF, ``booklet`` imposes it for
saddle-stitching, and ``producer`` hooks it into ``printkit build``.
"""
