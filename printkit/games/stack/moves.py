"""Stack Original: mineral cards as values, the moves of the game and their text notation.

A card type is a set of one to three minerals, stored as a 4-bit mask (ruby 1, gold 2, sapphire 4,
coal 8). A card made by synthesis or decomposition is *generated*: it carries bit 16 on top of its
mask, so a hand can hold a deck card and a generated card of the same type apart. :class:`Gem`
wraps that code for display and for moves.

Every move is a small frozen dataclass whose ``str`` is its notation (``swap1 ruby+gold``,
``invest eldorado gold*``); :func:`parse_move` reads that notation back. A ``*`` after a card marks a
generated card. A move naming several cards lists them in code order (deck cards by mask, then
generated ones), so each legal move has exactly one spelling: ``synth ruby+gold coal``, not
``synth coal ruby+gold``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Union

from printkit.errors import IllegalMoveError, InvalidMoveError
from printkit.games.stack.words import MINERALS, TERRAINS

MINERAL_BIT = {name: 1 << i for i, name in enumerate(MINERALS)}
# terrain i belongs to mineral i
TERRAIN_INDEX = {name: i for i, name in enumerate(TERRAINS)}
GENERATED = 16
RUBY, GOLD, SAPPHIRE, COAL = 1, 2, 4, 8
MAX_MINERALS = 3

POPCOUNT = tuple(bin(m).count("1") for m in range(16))
# every code a card can have: 14 deck types and their 14 generated twins
CODES = tuple(c for c in range(32) if 1 <= POPCOUNT[c & 15] <= MAX_MINERALS)


def mask_of(minerals: Iterable[str]) -> int:
    """The mask of a set of mineral names; raises IllegalMoveError for an unknown name."""
    mask = 0
    for name in minerals:
        try:
            mask |= MINERAL_BIT[name]
        except KeyError:
            raise IllegalMoveError(f"unknown mineral {name!r} (known: {', '.join(MINERALS)})") from None
    return mask


def minerals_of(mask: int) -> tuple[str, ...]:
    """Mineral names of a mask, in the canonical order ruby, gold, sapphire, coal."""
    return tuple(name for i, name in enumerate(MINERALS) if mask & (1 << i))


def type_name(mask: int) -> str:
    return "+".join(minerals_of(mask))


@dataclass(frozen=True, slots=True)
class Gem:
    """One card as the rules see it: its minerals and whether it was generated."""

    code: int

    @classmethod
    def of(cls, *minerals: str, generated: bool = False) -> "Gem":
        mask = mask_of(minerals)
        if not 1 <= POPCOUNT[mask] <= MAX_MINERALS:
            raise IllegalMoveError(f"a card holds 1 to 3 minerals, not {minerals!r}")
        return GEMS[mask | (GENERATED if generated else 0)]

    @classmethod
    def parse(cls, text: str) -> "Gem":
        """``ruby+gold`` (deck card) or ``ruby+gold*`` (generated card)."""
        raw = text.strip()
        generated = raw.endswith("*")
        names = raw.rstrip("*").split("+")
        try:
            return cls.of(*names, generated=generated)
        except IllegalMoveError as exc:
            raise InvalidMoveError(f"bad card {text!r}: {exc}") from None

    @property
    def mask(self) -> int:
        return self.code & 15

    @property
    def minerals(self) -> tuple[str, ...]:
        return minerals_of(self.code & 15)

    @property
    def generated(self) -> bool:
        return bool(self.code & GENERATED)

    @property
    def cost(self) -> int:
        return POPCOUNT[self.code & 15]

    def __str__(self) -> str:
        return type_name(self.code & 15) + ("*" if self.code & GENERATED else "")

    def __repr__(self) -> str:
        # A code outside CODES (only ever hand-made) shows as such, never as the card it resembles.
        valid = type(self.code) is int and self.code in CODES
        return f"Gem({str(self)!r})" if valid else f"Gem(code={self.code!r})"


GEMS = tuple(Gem(c) if c in CODES else None for c in range(32))


def _cards(cards: tuple[Gem, ...]) -> str:
    return " ".join(str(c) for c in cards)


# --- moves -------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Done:
    """Say "done": take no more actions this turn."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class Match:
    """Place ``card`` on the identical field card."""

    card: Gem

    def __str__(self) -> str:
        return f"match {self.card}"


@dataclass(frozen=True, slots=True)
class SwapOne:
    """Swap one card (once per turn)."""

    card: Gem

    def __str__(self) -> str:
        return f"swap1 {self.card}"


@dataclass(frozen=True, slots=True)
class SwapTwo:
    """Swap two identical cards (once per turn)."""

    cards: tuple[Gem, Gem]

    def __str__(self) -> str:
        return f"swap2 {_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class SwapThree:
    """Swap three identical cards and gain a stack (any number of times)."""

    cards: tuple[Gem, Gem, Gem]

    def __str__(self) -> str:
        return f"swap3 {_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class Synthesize:
    """Spend a stack: two cards become one generated card holding the union of their minerals."""

    first: Gem
    second: Gem

    def __str__(self) -> str:
        return f"synth {self.first} {self.second}"


@dataclass(frozen=True, slots=True)
class Decompose:
    """Spend a stack: ``card`` becomes the two generated ``parts`` (a cost-1 card is copied)."""

    card: Gem
    parts: tuple[Gem, Gem]

    def __str__(self) -> str:
        return f"decompose {self.card} {self.parts[0]}|{self.parts[1]}"


@dataclass(frozen=True, slots=True)
class Cycle:
    """Spend a stack: swap three cards, then pick them one by one."""

    def __str__(self) -> str:
        return "cycle"


@dataclass(frozen=True, slots=True)
class OutputDraw:
    """Spend two stacks: draw five cards."""

    def __str__(self) -> str:
        return "draw5"


@dataclass(frozen=True, slots=True)
class OutputDiscard:
    """Spend two stacks: discard five cards, then pick them one by one."""

    def __str__(self) -> str:
        return "discard5"


@dataclass(frozen=True, slots=True)
class Invest:
    """Set ``card`` (it must hold the terrain's mineral) on ``terrain``."""

    terrain: str
    card: Gem

    def __str__(self) -> str:
        return f"invest {self.terrain} {self.card}"


@dataclass(frozen=True, slots=True)
class TakeBack:
    """Take a card set on an earlier turn back from ``terrain``."""

    terrain: str
    card: Gem

    def __str__(self) -> str:
        return f"takeback {self.terrain} {self.card}"


@dataclass(frozen=True, slots=True)
class Trigger:
    """Trigger the effect of ``terrain`` (once per turn, only with the larger investment)."""

    terrain: str

    def __str__(self) -> str:
        return f"trigger {self.terrain}"


@dataclass(frozen=True, slots=True)
class CoalDiscard:
    """After triggering the coal mine: discard two coal cards to gain a stack."""

    cards: tuple[Gem, Gem]

    def __str__(self) -> str:
        return f"coal {_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class Pick:
    """Choose a hand card for the pending cycle, discard-five or red-rye-field swap."""

    card: Gem

    def __str__(self) -> str:
        return f"pick {self.card}"


@dataclass(frozen=True, slots=True)
class Take:
    """Take one of the deck cards revealed by the pale blue dot."""

    card: Gem

    def __str__(self) -> str:
        return f"take {self.card}"


@dataclass(frozen=True, slots=True)
class Stop:
    """End an optional choice early (red rye field swaps, pale blue dot takes)."""

    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True, slots=True)
class SettleDiscard:
    """At settlement, discard one card to get down to 7: a loose card or one set on ``terrain``."""

    card: Gem
    terrain: str | None = None

    def __str__(self) -> str:
        return f"settle {self.card}" + (f" {self.terrain}" if self.terrain else "")


Move = Union[Done, Match, SwapOne, SwapTwo, SwapThree, Synthesize, Decompose, Cycle, OutputDraw,
             OutputDiscard, Invest, TakeBack, Trigger, CoalDiscard, Pick, Take, Stop, SettleDiscard]


def _terrain(text: str, move: str) -> str:
    if text not in TERRAIN_INDEX:
        raise InvalidMoveError(f"bad move {move!r}: unknown terrain {text!r} (known: {', '.join(TERRAINS)})")
    return text


def parse_move(text: str) -> Move:
    """Read a move from its notation, e.g. ``synth ruby gold+coal`` or ``decompose ruby+gold ruby|gold``."""
    words = text.split()
    if not words:
        raise InvalidMoveError(f"bad move {text!r}: empty")
    verb, args = words[0], words[1:]
    arity = {"done": 0, "cycle": 0, "draw5": 0, "discard5": 0, "stop": 0, "match": 1, "swap1": 1,
             "swap2": 2, "swap3": 3, "synth": 2, "decompose": 2, "invest": 2, "takeback": 2,
             "trigger": 1, "coal": 2, "pick": 1, "take": 1}
    if verb == "settle":
        if len(args) not in (1, 2):
            raise InvalidMoveError(f"bad move {text!r}: 'settle' takes a card and an optional terrain")
        return SettleDiscard(Gem.parse(args[0]), _terrain(args[1], text) if len(args) == 2 else None)
    if verb not in arity:
        raise InvalidMoveError(f"bad move {text!r}: unknown action {verb!r}")
    if len(args) != arity[verb]:
        raise InvalidMoveError(f"bad move {text!r}: {verb!r} takes {arity[verb]} argument(s)")
    simple = {"done": Done, "cycle": Cycle, "draw5": OutputDraw, "discard5": OutputDiscard, "stop": Stop}
    if verb in simple:
        return simple[verb]()
    if verb in ("invest", "takeback"):
        cls = Invest if verb == "invest" else TakeBack
        return cls(_terrain(args[0], text), Gem.parse(args[1]))
    if verb == "trigger":
        return Trigger(_terrain(args[0], text))
    if verb == "decompose":
        parts = args[1].split("|")
        if len(parts) != 2:
            raise InvalidMoveError(f"bad move {text!r}: parts are written 'a|b'")
        return Decompose(Gem.parse(args[0]), (Gem.parse(parts[0]), Gem.parse(parts[1])))
    gems = tuple(Gem.parse(a) for a in args)
    one = {"match": Match, "swap1": SwapOne, "pick": Pick, "take": Take}
    if verb in one:
        return one[verb](gems[0])
    if verb == "synth":
        return Synthesize(gems[0], gems[1])
    return {"swap2": SwapTwo, "swap3": SwapThree, "coal": CoalDiscard}[verb](gems)


# --- pure helpers (the rulebook computes its worked examples with them) -------------------------------------------------------------

def _mask(card: Gem | str | Iterable[str]) -> int:
    if isinstance(card, Gem):
        return card.mask
    if isinstance(card, str):
        return Gem.parse(card).mask
    return mask_of(card)


def synthesize(a: Gem | str | Iterable[str], b: Gem | str | Iterable[str]) -> tuple[str, ...]:
    """The minerals of the card synthesised from ``a`` and ``b``; IllegalMoveError past 3 minerals."""
    union = _mask(a) | _mask(b)
    if POPCOUNT[union] > MAX_MINERALS:
        raise IllegalMoveError(f"cannot synthesise {'+'.join(minerals_of(_mask(a)))} with "
                               f"{'+'.join(minerals_of(_mask(b)))}: the union {'+'.join(minerals_of(union))} "
                               f"holds more than {MAX_MINERALS} minerals")
    return minerals_of(union)


def _splits(mask: int) -> tuple[tuple[int, int], ...]:
    if POPCOUNT[mask] == 1:
        return ((mask, mask),)
    found = []
    sub = (mask - 1) & mask
    while sub:
        rest = mask ^ sub
        if sub < rest:
            found.append((sub, rest))
        sub = (sub - 1) & mask
    return tuple(sorted(found))


def decompositions(card: Gem | str | Iterable[str]) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """Every way to decompose ``card``: pairs of mineral sets (a cost-1 card gives itself twice)."""
    return tuple((minerals_of(a), minerals_of(b)) for a, b in _splits(_mask(card)))


# --- every move value, built once (read-only tables indexed by card code, or a * 32 + b) ---------------------------

DONE, CYCLE, DRAW5, DISCARD5, STOP = Done(), Cycle(), OutputDraw(), OutputDiscard(), Stop()
MATCH = tuple(Match(g) if g else None for g in GEMS)
SWAP1 = tuple(SwapOne(g) if g else None for g in GEMS)
PICK = tuple(Pick(g) if g else None for g in GEMS)
TAKE = tuple(Take(g) if g else None for g in GEMS)
SETTLE = tuple(tuple(SettleDiscard(g, t) if g else None for g in GEMS) for t in (None,) + TERRAINS)
INVEST = tuple(tuple(Invest(t, g) if g else None for g in GEMS) for t in TERRAINS)
TAKEBACK = tuple(tuple(TakeBack(t, g) if g else None for g in GEMS) for t in TERRAINS)
TRIGGER = tuple(Trigger(t) for t in TERRAINS)
SYNTH = tuple(Synthesize(GEMS[a], GEMS[b]) if GEMS[a] and GEMS[b] and a <= b
              and POPCOUNT[(a | b) & 15] <= MAX_MINERALS else None
              for a in range(32) for b in range(32))
COAL_PAIR = tuple(CoalDiscard((GEMS[a], GEMS[b])) if GEMS[a] and GEMS[b] and a <= b and a & b & COAL
                  else None for a in range(32) for b in range(32))
DECOMPOSE = tuple(tuple(Decompose(GEMS[c], (GEMS[x | GENERATED], GEMS[y | GENERATED]))
                        for x, y in _splits(c & 15)) if GEMS[c] else () for c in range(32))
SWAP2 = tuple(SwapTwo((GEMS[a], GEMS[b])) if GEMS[a] and GEMS[b] and a <= b and a & 15 == b & 15 else None
              for a in range(32) for b in range(32))


def _swap3_moves(mask: int) -> tuple[SwapThree, ...]:
    d, g = GEMS[mask], GEMS[mask | GENERATED]
    return (SwapThree((d, d, d)), SwapThree((d, d, g)), SwapThree((d, g, g)), SwapThree((g, g, g)))


SWAP3 = tuple(_swap3_moves(m) if GEMS[m] else None for m in range(16))
TERRAIN_BIT = (RUBY, GOLD, SAPPHIRE, COAL)  # terrain i takes cards holding mineral i
TERRAIN_CODES = tuple(tuple(c for c in CODES if c & bit) for bit in TERRAIN_BIT)
SWAP3_NEEDS = ((3, 0), (2, 1), (1, 2), (0, 3))  # (deck cards, generated cards) for each SWAP3 move
