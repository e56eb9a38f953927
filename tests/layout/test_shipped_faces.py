"""The shipped games' faces drawn by their designs' YAML layouts look as the Python templates drew them.

Each face a shipped spec draws with a layout (cards, components and their backs, and pages such
as Clag's score sheet on A4 and Letter) is rendered at 300 DPI (its per-card or per-page PDF
through pdfium), reduced to 100 DPI by averaging 3 x 3 pixels, and compared with the picture under
``tests/data/shipped_faces/<game>/``: the same face as the Python template drew it before the
game's faces became layouts, rendered and reduced alike. Only rounding may differ: coordinates
written as percentages of the card (so the design fits any card size) to six places move an
antialiased edge by a fraction of a pixel.

Measured when the layouts replaced the templates, over every face of every variant, the largest
difference of one channel of one pixel (0-255) was:

=====  ==============================  ==========  ==========
game   faces                           at 300 DPI  at 100 DPI
=====  ==============================  ==========  ==========
calc   number cards, joker, backs      25          9
calc   player aids (fronts)            67          25
calc   player aids' backs              5           2
clag   playing cards, backs            2           1
clag   player aids (fronts)            2           1
clag   player aids' backs              6           2
clag   score sheet (A4, Letter)        0           0
stack  every card and component       44          14
plain  generic back, page              1           1
plain  role backs (components)         5           2
calc,  terrains' and references'       6           2
clag   backs (components)
=====  ==============================  ==========  ==========

The plain faces are those of a game with no design (``tests/data/generic_faces``): the generic
front, back (with a label, over a picture, without a label) and page (A4, Letter), and the light
backs of a designer's components by role. The page differs by one step of grey at a
letter's edge. The role backs, drawn by the layouts ``<role>_back`` of ``generic.yaml`` since the
Python that drew them went, differ where the names are set as every layout's text is (rich text)
where the template fitted plain lines: an antialiased letter edge moves by a fraction of a pixel. Calc's and Clag's terrains and references (``*_components`` there) have the player
aids' light back naming them.

Stack's faces are its deck cards, markers, terrains, tokens, reference cards, player aids and
their backs. Its figure is a gem's edge: the gem's halo moved by 1e-7 mm turns an edge pixel's
cover by a fifth.

The player aids' text is set as every layout's text is (rich text) where the template fitted
plain lines: one colon of Calc's turn aid lands a pixel over at 300 DPI.

The tolerance below is the 100 DPI figure: a face that moves by a pixel, changes colour or
loses a shape differs by far more.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from printkit.deck import CardSize
from printkit.layout import templates
from printkit.layout.geometry import Size
from printkit.layout.imposition import full_page
from printkit.paper import PAPER_SIZES_MM
from printkit.render.pdf import render_pages
from printkit.render.png import rasterise, render_face
from printkit.decks import load_all_variants
from printkit.spec import DECKS_DIR

DATA = Path(__file__).resolve().parent.parent / "data" / "shipped_faces"
# The largest difference measured at 100 DPI, per game and group, or one for all the game's
# faces (see the table above).
TOLERANCE = {"calc": {"numbers": 9, "joker": 9, "player_aids": 25},
             "clag": {"standard": 1, "player_aids": 2, "score_sheet": 0},
             "stack": 14, "generic": 2, "calc_components": 2, "clag_components": 2}
# The spec each set of faces comes from: a shipped deck, or (generic) a spec of a game with no design
# of its own, whose components have roles, beside its pictures' folder.
SPECS = {game: DECKS_DIR / f"{game}.yaml" for game in ("calc", "clag", "stack")}
SPECS.update({name: DATA.parent / "generic_faces" / f"{name}.yaml"
              for name in ("generic", "calc_components", "clag_components")})
REDUCE = 3  # 300 DPI -> 100 DPI


def face_key(group: str, attrs: dict, side: str) -> str:
    """A face's file name: its group, its attribute values and its side (``numbers-plus-7-front``)."""
    values = "-".join("+".join(map(str, v)) if isinstance(v, (list, tuple)) else str(v)
                      for v in (attrs[k] for k in sorted(attrs)))
    return re.sub(r"[^A-Za-z0-9_-]", "_", f"{group}-{values}-{side}")


def layout_faces(game: str):
    """(name, card, deck, side) of every face the game's design draws: each card's and component's
    front, each back under its group's name (a group's cards share their back), and each page
    (a score sheet) on A4 and on Letter (side ``page_a4``, ``page_letter``)."""
    seen = set()
    for deck in load_all_variants(SPECS[game]):
        for card in deck.all_cards():
            sides = ("page_a4", "page_letter") if templates.is_page(card) else ("front", "back")
            for side in sides:
                name = face_key(card.group, dict(card.attrs) if side != "back" else {}, side)
                key = (name, repr(sorted(card.attrs.items())) if side != "back" else "")
                if key not in seen:
                    seen.add(key)
                    yield name, card, deck, side


def rendered(card, deck, side: str, reduce: int = REDUCE) -> np.ndarray:
    if side.startswith("page_"):
        width, height = PAPER_SIZES_MM[side.removeprefix("page_")]
        face = templates.page(card, deck, width, height)
        pdf = render_pages([full_page(face, Size(width, height))])
        image = rasterise(pdf, CardSize(width, height, bleed_mm=0.0), 300)
    else:
        face = templates.front(card, deck) if side == "front" else templates.back(card, deck)
        image = render_face(face, card.size, 300)
    return np.asarray(image.convert("RGB").reduce(reduce), dtype=np.int16)


@pytest.mark.parametrize("game", sorted(TOLERANCE))
def test_layout_faces_match_the_templates_they_replaced(game):
    faces = list(layout_faces(game))
    assert faces, f"{game}: no face is drawn by the design"
    stored = {p.stem for p in (DATA / game).glob("*.png")}
    assert {name for name, *_ in faces} == stored
    worst: dict[str, tuple[int, str]] = {}
    for name, card, deck, side in faces:
        reference = np.asarray(Image.open(DATA / game / f"{name}.png").convert("RGB"), dtype=np.int16)
        image = rendered(card, deck, side)
        assert image.shape == reference.shape, name
        worst[card.group] = max(worst.get(card.group, (0, "")), (int(np.abs(image - reference).max()), name))
    tolerance = TOLERANCE[game]
    if isinstance(tolerance, dict):
        assert set(worst) == set(tolerance)
    for group, (difference, name) in worst.items():
        allowed = tolerance[group] if isinstance(tolerance, dict) else tolerance
        assert difference <= allowed, f"{game}: {name} differs by {difference} (tolerance {allowed})"


def test_a_spec_naming_no_layout_draws_with_the_games_design_and_its_colours(tmp_path):
    # A designer's own Calc deck with no layouts and no symbol colours: its 7+ is the shipped deck's
    # 7+ (the design draws it, the game's colours fill in), not a plain generic face.
    spec = tmp_path / "mine.yaml"
    spec.write_text("game: calc\nname: Mine\ncard: {size: poker, bleed: 0.125in, safe: 3mm}\n"
                    'art: {font: Pretendard-Bold.ttf, colors: {background: "#fbf8f1", ink: "#1d1d1f"}, '
                    'back: {color: "#1f3b5a", label: CALC}}\n'
                    "groups:\n  - name: numbers\n    attrs: {kind: number}\n"
                    "    generate: {symbol: [plus], number: [7]}\n", encoding="utf-8")
    [mine] = load_all_variants(spec)
    shipped = next(d for d in load_all_variants(DECKS_DIR / "calc.yaml") if d.variant == "standard")
    ours = next(c for c in shipped.cards if c.get("symbol") == "plus" and c.get("number") == 7)
    for side in ("front", "back"):
        assert np.array_equal(rendered(mine.cards[0], mine, side), rendered(ours, shipped, side)), side


def test_a_background_picture_shows_where_calcs_tint_would_be(tmp_path):
    # The design's tint steps aside (when_lacks: _background_image): the picture is what shows
    # beside the symbol, where the plain card is the symbol's pale tint.
    (tmp_path / "art").mkdir()
    Image.new("RGB", (60, 84), (255, 0, 255)).save(tmp_path / "art" / "paper.png")
    base = ("game: calc\nname: Mine\ncard: {size: poker, bleed: 0.125in, safe: 3mm}\n"
            "groups:\n  - name: numbers\n    attrs: {kind: number}\n    generate: {symbol: [plus], number: [7]}\n")
    spec = tmp_path / "mine.yaml"
    spec.write_text(base, encoding="utf-8")
    [plain] = load_all_variants(spec)
    spec.write_text(base.replace("groups:", "art: {background_image: art/paper.png}\ngroups:"), encoding="utf-8")
    [pictured] = load_all_variants(spec)
    for deck, magenta in ((plain, False), (pictured, True)):
        pixel = rendered(deck.cards[0], deck, "front")[20, 137]  # top middle, clear of symbol and index
        assert (tuple(pixel) == (255, 0, 255)) is magenta, tuple(pixel)


if __name__ == "__main__":
    # Draw a game's reference pictures as it draws its faces now, before a change that must keep
    # them: python3 tests/layout/test_shipped_faces.py GAME [FOLDER_FOR_300_DPI_COPIES]
    import sys

    game = sys.argv[1]
    (DATA / game).mkdir(parents=True, exist_ok=True)
    for name, card, deck, side in layout_faces(game):
        Image.fromarray(rendered(card, deck, side).astype(np.uint8)).save(DATA / game / f"{name}.png", optimize=True)
        if len(sys.argv) > 2:
            Image.fromarray(rendered(card, deck, side, 1).astype(np.uint8)).save(Path(sys.argv[2]) / f"{name}.png")
