"""Small specs for the proof page and watch tests, written into a test's folder."""

from __future__ import annotations

from pathlib import Path

LAYOUT = """\
game: demo
name: {name}
card: {{size: poker}}
layouts:
  face:
    elements:
      - {{kind: text, text: "{{title}}", x: 0, y: 0, width: 100%, height: 8mm, frame: safe, size: 5mm,
         min_size: 4mm, bold: true}}
      - {{kind: text, text: "{{text}}", x: 0, y: 10mm, width: 100%, height: 20mm, frame: safe, size: 3.5mm,
         min_size: 3mm}}
expect: {{total: {expect}}}
groups:
  - name: spells
    layout: face
    cards:
{cards}
"""

CALM = '      - {id: calm, title: Calm, text: "A short rule."}'
LOUD = '      - {id: loud, title: "A title far too long to fit on one line of this little card at all", text: Fine.}'
EVIL = ('      - {id: evil, title: "<script>alert(1)</script>", '
        'text: "<img src=x onerror=alert(2)> & \\"quotes\\" </figure>"}')


def write_deck(folder: Path, name: str = "Proofing", cards: tuple[str, ...] = (CALM, LOUD, EVIL),
               expect: int = 3, stem: str = "proofing") -> Path:
    spec = folder / f"{stem}.yaml"
    spec.write_text(LAYOUT.format(name=name, cards="\n".join(cards), expect=expect), encoding="utf-8")
    return spec


def many_cards(count: int) -> tuple[str, ...]:
    return tuple(f'      - {{id: c{i}, title: "Card {i}", text: "Rule number {i}."}}' for i in range(count))
