"""A deck's faces, laid out once per distinct card and shared by everything a build writes."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from printkit.deck import Card, Deck
from printkit.draft import refused_pictures, tolerated
from printkit.layout.draft import with_placeholders
from printkit.errors import BuildError, PrintkitError
from printkit.layout import templates
from printkit.layout.geometry import Size
from printkit.layout.ops import Face, Image
from printkit.pipeline.names import deck_folder
from printkit.preflight import check_svg, new_svgs

if TYPE_CHECKING:
    from printkit.pipeline.context import BuildContext


class Faces:
    """Fronts and backs of one deck's cards, laid out once per distinct card and reused."""

    def __init__(self, deck: Deck, ctx: "BuildContext", draft: bool = False, proving: bool = False) -> None:
        # proving (a check, which draws nothing): texts that provably fit are not set, plain shapes
        # not drawn; the faces say the same errors and warnings but lack those ops.
        self.deck, self.ctx, self.draft, self.proving = deck, ctx, draft, proving
        self._cache: dict[tuple, Face] = {}
        self._distinct: dict[Face, Face] = {}  # equal faces (every card's same back) kept once
        self._arts: dict[int, tuple] = {}  # id of a card's art -> (the art, its repr)
        self._drawable: set[Path] = set()  # in a draft: SVG art found drawable (or a placeholder)
        self.placeholders: set[Path] = set()  # in a draft: the pictures this deck drew as placeholders

    def _get(self, side: str, card: Card, make: Callable[[Card, Deck], Face], key: tuple | None = None) -> Face:
        if key is None:
            key = (side, card.key)
        face = self._cache.get(key)
        if face is None:
            face = self._located(side, card, make)
            for warning in face.warnings:
                self.ctx.warn(self.deck, warning, card)
            if self.draft:
                face = self._drafted(face, card)
            face = self._cache[key] = self._distinct.setdefault(face, face)
        return face

    def _located(self, side: str, card: Card, make: Callable[[Card, Deck], Any]) -> Any:
        """``make(card, deck)``, a mistake it raises named with where the card came from."""
        try:
            return make(card, self.deck)
        except PrintkitError as exc:  # already says which card and why; add where it came from
            if card.source is None:
                raise
            raise BuildError(f"{card.source}: {exc}") from None
        except Exception as exc:  # a template bug must still name the card it failed on
            where = card.source or deck_folder(self.deck)
            raise BuildError(f"{where}: cannot lay out the {side} of {card.label}: "
                             f"{type(exc).__name__}: {exc}") from exc

    def _drafted(self, face: Face, card: Card) -> Face:
        """In a draft, ``face`` with placeholders for the pictures refused (SVG art that cannot be
        drawn is found here, before the face is kept), each said once as a warning."""
        for path in new_svgs(face, self._drawable):
            try:
                check_svg(self.deck, card, path)
            except BuildError as exc:
                if not tolerated(path, str(exc)):
                    raise
        refused = refused_pictures()
        drafted = with_placeholders(face, refused, Path(self.deck.spec_path).parent)
        if drafted is not face:
            for op in face.ops:
                why = refused.get(Path(op.path).absolute()) if isinstance(op, Image) else None
                if why is not None:
                    self.placeholders.add(Path(op.path).absolute())
                    self.ctx.warn(self.deck, f"draft: drawn as a placeholder: {why}")
        return drafted

    def front(self, card: Card) -> Face:
        return self._get("front", card, lambda c, d: templates.front(c, d, proving=self.proving))

    def back(self, card: Card) -> Face:
        key = self._located("back", card, templates.back_key)
        if key is not None:
            # A back drawn by a layout that reads nothing of a card but its art: cards alike there
            # share one, unless it warns (its warnings name a card: each card's own back says its own).
            shared = self._get("back", card, lambda c, d: templates.back(c, d, proving=self.proving),
                               ("shared back", key, self._art(card), card.size))
            if not shared.warnings:
                return shared
        return self._get("back", card, lambda c, d: templates.back(c, d, proving=self.proving))

    def _art(self, card: Card) -> str:
        """``card``'s art as a key (cards of a group share one art, described once)."""
        art = self._arts.get(id(card.art))
        if art is None or art[0] is not card.art:
            art = self._arts[id(card.art)] = (card.art, repr(card.art))
        return art[1]

    def page(self, card: Card, paper: Size) -> Face:
        return self._get(f"page {paper}", card,
                         lambda c, d: templates.page(c, d, paper.width_mm, paper.height_mm))
