"""Where a build puts a deck's files: its folder (one spec's alone), its cards' keys, its print
runs and the name of each per-card file; how its PDFs name the deck and the card."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from printkit.deck import Card, Deck
from printkit.errors import BuildError
from printkit.suggest import close_matches
from printkit.layout import templates
from printkit.outputs import deck_part, safe_part
from printkit.pipeline.manifest import resolved_spec

if TYPE_CHECKING:
    from printkit.render.pdf import PdfInfo


def deck_folder(deck: Deck) -> str:
    """``calc/expert`` or ``clag``: where a deck's files go inside the output folder."""
    parts = [deck_part(deck.deck_id)] + ([safe_part(deck.variant)] if deck.variant else [])
    return "/".join(parts)


def deck_folders(decks: Sequence[Deck]) -> list[str]:
    """The folders the decks' files go in, each once (``calc`` for ``calc/expert`` and ``calc/standard``:
    their rulebooks go there)."""
    return list(dict.fromkeys(deck_part(deck.deck_id) for deck in decks))


def check_deck_folders(decks: Sequence[Deck]) -> None:
    """Refuse two specs whose decks would share an output folder (``my deck`` and ``my-deck``).

    Folders are compared ignoring case, as macOS and Windows do. The error names both specs.
    """
    owners: dict[str, tuple[Path, str]] = {}  # folder, casefolded -> first spec and its folder
    for deck in decks:
        folder = deck_part(deck.deck_id)
        spec = resolved_spec(Path(deck.spec_path))
        other, other_folder = owners.setdefault(folder.casefold(), (spec, folder))
        if other != spec:
            same = "" if folder == other_folder else f" (and {folder!r}, the same folder where case is ignored)"
            raise BuildError(f"specs {str(other)!r} and {str(spec)!r} would both write to the output "
                             f"folder {other_folder!r}{same}; rename one of them")


def deck_title(deck: Deck) -> str:
    """``Calc (expert)`` or ``Clag``: how a deck is named in PDF titles."""
    return deck.name + (f" ({deck.variant})" if deck.variant else "")


def pdf_info(deck: Deck, what: str, subject: str, lang: str | None = None) -> "PdfInfo":
    """What a PDF of ``deck`` says about itself: ``Calc (expert): duplex sheets``, the spec's author."""
    from printkit.render.pdf import PdfInfo

    return PdfInfo(f"{deck_title(deck)}: {what}", deck.author, subject, lang)


def card_info(deck: Deck, card: Card, side: str) -> "PdfInfo":
    """What one card's PDF says of itself: ``Calc (expert): card 7+ front``."""
    name = templates.card_name(card, deck)
    return pdf_info(deck, f"card {name} {side}", f"One card's {side} with its bleed, for print services")


def card_key(card: Card) -> bytes:
    """Identical for copies of one card (same group, attributes, art and size): :attr:`Card.key`."""
    return card.key


def print_runs(deck: Deck) -> list[tuple[str, tuple[Card, ...]]]:
    """The deck's cards, then each component, as (name, cards) in print order."""
    return [("cards", deck.cards)] + [(name, cards) for name, cards in deck.components.items()]


all_cards = Deck.all_cards  # the deck's cards, then each component's, in print order


IDENTITY_KEYS = ("id", "name", "title")  # the attributes that name a card, first found wins


def card_identity(card: Card) -> str | None:
    """What names the card whatever its text or art: its ``id``, else its ``name``, else ``title``."""
    for key in IDENTITY_KEYS:
        value = card.attrs.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
            return str(value)
    return None


def name_part(text: str, limit: int = 60) -> str:
    """``text`` as part of a file name: lower case; letters and digits of any script kept
    (``카드`` stays), every run of anything else (spaces, dots, slashes) one ``-``; never empty."""
    text = unicodedata.normalize("NFC", text).lower()
    text = "".join(ch if unicodedata.category(ch)[0] in "LNM" else "-" for ch in text)
    text = re.sub(r"-{2,}", "-", text).strip("-")[:limit].rstrip("-")
    return text or "card"


@dataclass(frozen=True)
class PerCardFile:
    """One distinct card's per-card files: ``<stem>.pdf`` and ``<stem>.png``."""

    stem: str  # inside the output folder, without extension: "emberfall/cards/001-cards-ember-drake"
    name: str  # the file name without extension: "001-cards-ember-drake"
    identity: str  # what names the card in it: "ember-drake" (or its position in its group, "7")
    copies: tuple[Card, ...]  # the identical cards it stands for, in deck order

    @property
    def card(self) -> Card:
        return self.copies[0]


def per_card_files(deck: Deck) -> list[PerCardFile]:
    """The deck's distinct cards (copies share one file) in print order, each with its file name.

    A name is ``NNN-<group>-<identity>``: ``NNN`` the distinct card's place in the deck (so files
    sort as the sheets print), ``<identity>`` the card's ``id``, ``name`` or ``title``, else its
    place among its group's distinct cards. Editing a card's text or art keeps its name. Two cards
    that would share ``<group>-<identity>`` (the same id twice) get ``-2``, ``-3`` … in deck order.
    """
    distinct: dict[str, list[Card]] = {}
    for card in all_cards(deck):
        distinct.setdefault(card_key(card), []).append(card)
    folder = f"{deck_folder(deck)}/cards"
    in_group: Counter[str] = Counter()
    taken: Counter[str] = Counter()
    files = []
    for number, copies in enumerate(distinct.values(), start=1):
        card = copies[0]
        in_group[card.group] += 1
        identity = name_part(card_identity(card) or str(in_group[card.group]))
        base = f"{name_part(card.group, 30)}-{identity}"
        taken[base] += 1
        if taken[base] > 1:
            identity, base = f"{identity}-{taken[base]}", f"{base}-{taken[base]}"
            taken[base] += 1  # a later card whose own identity ends in -2 moves on to -2-2
        name = f"{number:03d}-{base}"
        files.append(PerCardFile(f"{folder}/{name}", name, identity, tuple(copies)))
    return files


def choose_cards(decks: Sequence[Deck], wanted: Sequence[str]) -> dict[int, set[str]]:
    """The per-card files ``--card`` asks for: by deck (its ``id()``), the stems chosen.

    A choice matches a card's ``id``, ``name`` or ``title``, or its per-card file's name (with or
    without the number in front, with or without ``.pdf``/``.png``), ignoring case. A choice that
    matches no card of any deck is an error naming the closest names.
    """
    chosen: dict[int, set[str]] = {}
    names: dict[str, None] = {}  # every name a choice could have meant, for the error
    matched = {w: False for w in wanted}
    for deck in decks:
        for file in per_card_files(deck):
            keys = {file.name, file.name.split("-", 1)[1], file.identity}
            keys |= {str(file.card.attrs[k]).strip() for k in IDENTITY_KEYS
                     if isinstance(file.card.attrs.get(k), (str, int)) and not isinstance(file.card.attrs[k], bool)}
            names.update(dict.fromkeys(sorted(keys - {file.name, file.name.split("-", 1)[1]})))
            names[file.name] = None
            folded = {k.casefold() for k in keys}
            for choice in wanted:
                plain = re.sub(r"\.(pdf|png)$", "", choice.strip(), flags=re.IGNORECASE).casefold()
                if plain in folded:
                    chosen.setdefault(id(deck), set()).add(file.stem)
                    matched[choice] = True
    missing = [w for w, found in matched.items() if not found]
    if missing:
        choice = missing[0]
        close = close_matches(choice, names, 3, cutoff=0.5)
        close += [n for n in names if choice.casefold() in n.casefold() and n not in close][:3 - len(close)]
        hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
        decks_named = ", ".join(dict.fromkeys(deck_folder(d) for d in decks))
        raise BuildError(f"no card {choice!r} in {decks_named}{hint}")
    return chosen

