"""Teaching figures of the built-in rulebooks: table set-ups, labelled cards, the Stack terrain
trigger and the Clag scoring example, worked out by the engines; card text at least 6 pt."""

from __future__ import annotations

import ctypes
import math

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from printkit.layout import templates
from printkit.rulebook import markdown as md
from printkit.games.clag import rulebook as clag
from printkit.games.clag import rules as clag_rules
from printkit.games.stack import rulebook as stack
from printkit.rulebook.content import CardParts, TableSetup
from printkit.rulebook.figures import MIN_CARD_TEXT_PT
from printkit.rulebook.producer import prepare, render_rulebook
from printkit.spec import DECKS_DIR
from printkit.decks import load_deck

GAMES = ("calc", "stack", "clag")
LANGS = ("en", "ko")


@pytest.fixture(scope="module", params=GAMES)
def deck(request):
    return load_deck(DECKS_DIR / f"{request.param}.yaml")


@pytest.mark.parametrize("lang", LANGS)
def test_every_book_shows_a_table_setup_and_a_labelled_card(deck, lang):
    doc, _, content = prepare(deck.spec_path, lang)
    figures = {b.name for b in doc.blocks if isinstance(b, md.Directive) and b.kind == "figure"}
    assert {"setup", "anatomy"} <= figures
    setup = content.figures["setup"](deck, lang)
    assert isinstance(setup, TableSetup) and len(setup.rows) >= 3
    piles = [p for row in setup.rows for zone in row for p in zone.piles]
    assert any(p.back and p.fan for p in piles), "hands are shown face down"
    assert all(p.card is None or p.card in deck.all_cards() for p in piles), "real cards of the deck"
    parts = content.figures["anatomy"](deck, lang)
    assert isinstance(parts, CardParts) and len(parts.parts) >= 3
    size = parts.card.size
    face = templates.front(parts.card, deck)
    for label, where in parts.parts:
        box = where(face) if callable(where) else where
        assert label and 0 <= box.x_mm and box.right_mm <= size.width_mm and box.bottom_mm <= size.height_mm, label


def test_the_terrain_trigger_is_worked_out_by_the_engine(monkeypatch):
    deck = load_deck(DECKS_DIR / "stack.yaml")
    example = stack.terrain_trigger(deck, "en")
    v = example.values
    assert (v["p1_set"], v["p2_set"]) == (2, 1)
    # Eldorado keeps the drawn cards holding gold and sends the rest to the deck's bottom.
    drawn = [tuple(c.split("+")) for c in stack.TRIGGER_DECK_TOP]
    assert v["kept_count"] == sum("gold" in c for c in drawn)
    assert v["hand_after"] - v["hand_before"] == v["kept_count"]
    assert [r[2].startswith("holds") for r in example.rows] == ["gold" in c for c in drawn]
    # Another deck top gives another outcome: the numbers are the engine's, not typed.
    monkeypatch.setattr(stack, "TRIGGER_DECK_TOP", ("ruby", "sapphire", "coal", "ruby+coal", "gold"))
    other = stack.terrain_trigger(deck, "ko")
    assert other.values["kept_count"] == 1 and other.values["hand_after"] == v["hand_before"] + 1
    # Equal investments: the engine refuses the trigger, and the book will not print it.
    monkeypatch.setattr(stack, "TRIGGER_INVESTED", ({"eldorado": ("gold",)}, {"eldorado": ("ruby+gold",)}))
    with pytest.raises(Exception, match="does not let player 1"):
        stack.terrain_trigger(deck, "en")


def test_the_clag_scoring_example_is_the_seeds_and_the_engines(monkeypatch):
    deck = load_deck(DECKS_DIR / "clag.yaml")
    example = clag.scoring(deck, "en")
    assert (example.values["bid"], example.values["tricks"], example.values["points"]) == (3, 3, 13)
    assert example.rows[0][-1] == "3 + 10 = 13"
    monkeypatch.setattr(clag, "SCORING_TRICKS", (2, 3, 2, 0))
    missed = clag.scoring(deck, "ko")
    assert missed.values["points"] == 2 and missed.rows[0][-1] == "2"
    # The points are the engine's: its contract bonus changed, the example follows.
    monkeypatch.setattr(clag, "SCORING_TRICKS", (3, 2, 2, 0))
    monkeypatch.setattr(clag_rules, "CONTRACT_BONUS", 5)
    assert clag.scoring(deck, "en").values["points"] == 8


@pytest.mark.parametrize("lang", LANGS)
def test_the_worked_examples_are_printed(lang):
    books = {g: render_rulebook(DECKS_DIR / f"{g}.yaml", lang, "a4").data for g in ("stack", "clag")}
    text = {g: "".join(p.get_textpage().get_text_range() for p in pdfium.PdfDocument(d)) for g, d in books.items()}
    trigger = stack.terrain_trigger(load_deck(DECKS_DIR / "stack.yaml"), lang)
    assert trigger.caption in " ".join(text["stack"].split())
    scoring = clag.scoring(load_deck(DECKS_DIR / "clag.yaml"), lang)
    assert "3 + 10 = 13" in text["clag"] and scoring.caption in " ".join(text["clag"].split())


def card_text_sizes(data: bytes) -> list[tuple[int, str, float]]:
    """(page, character, size in points on the page) of the text drawn inside card faces.

    Card faces are drawn in a frame of millimetres scaled to the figure, so their characters carry
    a scaled matrix; the book's own text is set in points, unscaled."""
    out = []
    for number, page in enumerate(pdfium.PdfDocument(data), start=1):
        textpage = page.get_textpage()
        for i in range(textpage.count_chars()):
            ch = textpage.get_text_range(i, 1)
            if not ch or ch.isspace():
                continue
            m = pdfium_c.FS_MATRIX()
            pdfium_c.FPDFText_GetMatrix(textpage.raw, i, ctypes.byref(m))
            scale = math.sqrt(abs(m.a * m.d - m.b * m.c))
            if abs(scale - 1) > 1e-3:
                out.append((number, ch, pdfium_c.FPDFText_GetFontSize(textpage.raw, i) * scale))
    return out


@pytest.mark.parametrize("paper", ["a4", "a5"])
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", [*GAMES, "emberfall"])
def test_card_text_in_figures_prints_at_6_pt_or_more(game, lang, paper):
    deck = load_deck(DECKS_DIR / f"{game}.yaml")
    sizes = card_text_sizes(render_rulebook(deck.spec_path, lang, paper).data)
    assert len(sizes) > 20, "the figures' card text is found"
    small = sorted({(page, ch, round(pt, 2)) for page, ch, pt in sizes if pt < MIN_CARD_TEXT_PT - 0.01})
    assert small == []
    if deck.game == "stack":  # the smallest text of a mineral card, its English name, is there
        assert {"R", "U", "B", "Y"} <= {ch for _, ch, _ in sizes}


def _crosses(p, q, r, s) -> bool:
    """Whether segments p–q and r–s cross (touching at an end does not count)."""
    def turn(a, b, c):
        v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return 0 if abs(v) < 1e-9 else (1 if v > 0 else -1)
    return turn(p, q, r) * turn(p, q, s) < 0 and turn(r, s, p) * turn(r, s, q) < 0


def _meets_box(p, q, box, margin: float = 0.2) -> bool:
    """Whether a horizontal segment p–q passes through ``box`` (shrunk by ``margin``)."""
    x0, x1 = sorted((p[0], q[0]))
    return box[1] + margin < p[1] < box[3] - margin and x0 < box[2] - margin and x1 > box[0] + margin


@pytest.mark.parametrize("width_mm", [170.0, 120.0])  # the text width of A4 and of A5
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", [*GAMES, "emberfall"])
def test_leader_lines_of_a_labelled_card_cross_neither_each_other_nor_its_text(game, lang, width_mm):
    from printkit.rulebook import designed
    from printkit.units import mm_to_pt

    deck = load_deck(DECKS_DIR / f"{game}.yaml")
    parts = designed.anatomy_figure(deck, "ember-drake") if game == "emberfall" else \
        prepare(deck.spec_path, lang)[2].figures["anatomy"](deck, lang)
    flowable = designed.AnatomyFlowable(parts, deck)
    flowable.wrap(mm_to_pt(width_mm), 10_000)
    layout = flowable.layout
    s, top = layout.scale, (layout.height - parts.card.size.height_mm * layout.scale) / 2
    texts = [(layout.card_x + b.x_mm * s, top + b.y_mm * s, layout.card_x + b.right_mm * s, top + b.bottom_mm * s)
             for b in designed.face_text_boxes(flowable.face)]
    assert len(layout.leaders) == len(parts.parts) >= 3
    for leader in layout.leaders:
        assert leader.dot[1] == leader.elbow[1], "each line leaves its part straight out"
        hit = [t for t in texts if _meets_box(leader.dot, leader.elbow, t)]
        assert hit == [], f"{leader.label!r} runs over the card's text"
    segments = [(l.label, a, b) for l in layout.leaders for a, b in ((l.dot, l.elbow), (l.elbow, l.end))]
    for i, (la, p, q) in enumerate(segments):
        for lb, r, t in segments[i + 1:]:
            assert la == lb or not _crosses(p, q, r, t), f"the lines of {la!r} and {lb!r} cross"
    sides = {l.side for l in layout.leaders}
    for side in sides:  # labels keep the order of their parts' heights
        mine = [l for l in layout.leaders if l.side == side]
        assert sorted(mine, key=lambda l: l.dot[1]) == sorted(mine, key=lambda l: l.label_y)
