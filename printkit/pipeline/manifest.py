"""The manifest's entries (one per file written) and the warnings a build says once each."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from printkit.deck import Card
from printkit.ownership import Written


@dataclass(frozen=True)
class ManifestEntry:
    """One written file as listed in ``manifest.json``."""

    path: str
    kind: str
    sha256: str
    deck: str | None = None
    variant: str | None = None
    paper: str | None = None
    pages: int | None = None
    cards: int | None = None
    lang: str | None = None  # rulebooks: "ko" or "en"
    back: str | None = None  # per-card fronts: the path of the back printed behind it
    draft: bool | None = None  # True: written by a draft build (placeholders, marked DRAFT)
    # The file as printkit put it in place, with its proof (printkit.ownership); None: not proven
    # printkit's (an older manifest), so never removed.
    written: Written | None = None


@dataclass
class WarningLog:
    """Warnings, each said once: the same warning about many distinct cards (copies of a card are
    laid out once) is one line naming the first of them and how many more share it."""

    # (folder, warning without the card's label) -> the cards' labels, in the order met
    _said: dict[tuple[str, str], dict[str, None]] = field(default_factory=dict)

    def add(self, message: str, card: Card | None = None, folder: str = "") -> None:
        label, text = card.said_of(message) if card is not None else ("", message)
        labels = self._said.setdefault((folder, text), {})
        if label:
            labels.setdefault(label)

    def of_folder(self, folder: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The warnings said of one deck folder's cards: (warning, the cards' labels), in order."""
        return tuple((text, tuple(labels)) for (where, text), labels in self._said.items() if where == folder)

    def restore(self, folder: str, text: str, labels: Sequence[str]) -> None:
        """Say again a warning :meth:`of_folder` gave (a deck not built again has the same ones)."""
        said = self._said.setdefault((folder, text), {})
        for label in labels:
            said.setdefault(label)

    def lines(self) -> list[str]:
        """``folder: card field: problem (and N more distinct cards)``, the folder when there is one."""
        out = []
        for (folder, text), labels in self._said.items():
            more = len(labels) - 1
            also = f" (and {more} more distinct card{'s' if more > 1 else ''})" if more > 0 else ""
            out.append(f"{folder + ': ' if folder else ''}{next(iter(labels), '')}{text}{also}")
        return out


def scope(entry: ManifestEntry) -> tuple:
    """What a file is one of: its deck, variant, kind and paper. A build that writes files of a
    scope writes all of them, so an earlier file of that scope it does not write is stale."""
    return (entry.deck, entry.variant, entry.kind, entry.paper)
