"""Balance reports: seeded games counted (``data``) and drawn as HTML or PDF (``render``).

``render`` needs matplotlib (the ``report`` extra) and imports it only when a report is drawn.
"""
