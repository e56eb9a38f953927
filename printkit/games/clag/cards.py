"""Clag's cards and moves: the 52 playing cards, bids, plays and trump choices with their
notation, the round table's lookups and the pure trick rules (which card wins a trick).

Card notation is ``QH``, ``10S``, ``2C=KH`` (a wild two naming the king of hearts, round 12 only).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from types import MappingProxyType
from typing import Iterable, Sequence

from printkit.errors import DeckError, IllegalMoveError, InvalidMoveError
from printkit.games.clag.words import RANKS, ROUNDS, SUIT_LETTERS, SUIT_SYMBOLS, SUITS, RoundRule, Special

LAST_ROUND = len(ROUNDS) - 1  # the index of round 22
MIN_PLAYERS = 4
MAX_PLAYERS = 7

_VALUE_OF_RANK = MappingProxyType({rank: value for value, rank in enumerate(RANKS, start=2)})
_RANK_OF_VALUE = MappingProxyType({value: rank for rank, value in _VALUE_OF_RANK.items()})
_SUIT_OF_LETTER = MappingProxyType({letter: suit for suit, letter in SUIT_LETTERS.items()})
_SUIT_INDEX = MappingProxyType({suit: i for i, suit in enumerate(SUITS)})
ACE = 14
TWO = 2


# --------------------------------------------------------------------------------------------
# Cards and moves


@dataclass(frozen=True, slots=True)
class PlayingCard:
    """A card of the standard deck: ``suit`` and ``value`` 2..14 (J=11, Q=12, K=13, A=14)."""

    suit: str
    value: int
    # 0..51, suit-major; lets the engine index lookup tables instead of hashing.
    index: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.suit not in _SUIT_INDEX:
            raise InvalidMoveError(f"unknown suit {self.suit!r} (known: {', '.join(SUITS)})")
        if type(self.value) is not int or not TWO <= self.value <= ACE:
            raise InvalidMoveError(f"card value {self.value!r} is not an integer 2..14")
        object.__setattr__(self, "index", _SUIT_INDEX[self.suit] * 13 + self.value - TWO)

    @property
    def rank(self) -> int | str:
        """The rank as the deck spec writes it: 2..10, ``J``, ``Q``, ``K`` or ``A``."""
        return _RANK_OF_VALUE[self.value]

    def __str__(self) -> str:
        return f"{self.rank}{SUIT_LETTERS[self.suit]}"

    def pretty(self) -> str:
        """The card with its suit symbol, e.g. ``Q♥`` (needs a font with ♠♥♦♣)."""
        return f"{self.rank}{SUIT_SYMBOLS[self.suit]}"

    @classmethod
    def parse(cls, text: str) -> PlayingCard:
        """``QH``, ``10s``, ``A♠`` -> the card; InvalidMoveError for anything else."""
        raw = text.strip()
        if len(raw) < 2:
            raise InvalidMoveError(f"cannot read card {text!r}: expected rank then suit, e.g. 'QH'")
        rank_text, suit_text = raw[:-1].upper(), raw[-1]
        suit = _SUIT_OF_LETTER.get(suit_text.upper()) or next(
            (s for s, sym in SUIT_SYMBOLS.items() if sym == suit_text), None
        )
        rank: int | str | None = int(rank_text) if rank_text.isdigit() else rank_text
        if suit is None or rank not in _VALUE_OF_RANK:
            raise InvalidMoveError(f"cannot read card {text!r}: expected rank then suit, e.g. 'QH', '10S'")
        return CARDS[_SUIT_INDEX[suit] * 13 + _VALUE_OF_RANK[rank] - TWO]


_INDEX = attrgetter("index")
_NORMAL, _BIDS_BEFORE_DEAL = Special.NORMAL, Special.BIDS_BEFORE_DEAL
# The 52 cards in canonical order (spades 2..A, hearts, diamonds, clubs); index == card.index.
CARDS: tuple[PlayingCard, ...] = tuple(PlayingCard(s, v) for s in SUITS for v in range(TWO, ACE + 1))
# Cards a wild two may name: every card that is not a two, all suits, and per suit.
NAMEABLE: tuple[PlayingCard, ...] = tuple(c for c in CARDS if c.value != TWO)
NAMEABLE_BY_SUIT = MappingProxyType({s: tuple(c for c in NAMEABLE if c.suit == s) for s in SUITS})


@dataclass(frozen=True, slots=True)
class Bid:
    """Contract to take exactly ``tricks`` tricks this round."""

    tricks: int

    def __str__(self) -> str:
        return f"bid {self.tricks}"


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card``; in round 12 a two also ``names`` the non-two card it copies."""

    card: PlayingCard
    names: PlayingCard | None = None

    def __str__(self) -> str:
        return f"play {self.card}" + (f"={self.names}" if self.names is not None else "")


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    """Round 14: the dealer names the trump suit after seeing their hand."""

    suit: str

    def __str__(self) -> str:
        return f"trump {self.suit}"


Move = Bid | Play | ChooseTrump

BIDS: tuple[Bid, ...] = tuple(Bid(n) for n in range(8))
_PLAYS: tuple[Play, ...] = tuple(Play(c) for c in CARDS)
# _WILD[two's suit index][named card index] -> Play (None where the named card is a two).
_WILD: tuple[tuple[Play | None, ...], ...] = tuple(
    tuple(Play(CARDS[i * 13], c) if c.value != TWO else None for c in CARDS) for i in range(4)
)


def parse_move(text: str) -> Move:
    """``bid 3``, ``play QH``, ``play 2C=KH``, ``trump hearts`` (also bare ``QH``) -> a move."""
    words = text.strip().split()
    if len(words) == 1:
        words = ["play", words[0]]
    if len(words) != 2:
        raise InvalidMoveError(f"cannot read move {text!r}: expected e.g. 'bid 2', 'play QH', 'trump hearts'")
    verb, arg = words[0].lower(), words[1]
    if verb == "bid":
        if not arg.isdigit():
            raise InvalidMoveError(f"cannot read move {text!r}: a bid is a whole number of tricks")
        return Bid(int(arg))
    if verb == "trump":
        suit = _SUIT_OF_LETTER.get(arg.upper(), arg.lower())
        if suit not in _SUIT_INDEX:
            raise InvalidMoveError(f"cannot read move {text!r}: unknown suit {arg!r}")
        return ChooseTrump(suit)
    if verb == "play":
        card_text, _, named_text = arg.partition("=")
        card = PlayingCard.parse(card_text)
        return Play(card, PlayingCard.parse(named_text) if named_text else None)
    raise InvalidMoveError(f"cannot read move {text!r}: unknown verb {words[0]!r}")


# --------------------------------------------------------------------------------------------
# The round table


def round_rule(number: int) -> RoundRule:
    """The rule for round ``number`` (1-22)."""
    if not 1 <= number <= len(ROUNDS):
        raise DeckError(f"Clag has rounds 1-{len(ROUNDS)}, not {number!r}")
    return ROUNDS[number - 1]


# --------------------------------------------------------------------------------------------
# Pure rule helpers


def dealer_bid_range(hand_size: int, other_bids: Iterable[int], hook: bool = False) -> tuple[int, ...]:
    """The bids the dealer may make after the others bid ``other_bids``.

    Default rule: at least ``H + 1 - S`` and at most ``H`` (S = sum of the others' bids), so the
    total exceeds the hand size; when that minimum is above H the dealer bids H. With ``hook``
    (Oh Hell's rule) any bid 0..H except the one that would make the total exactly H.
    """
    total = sum(other_bids)
    if hook:
        return tuple(b for b in range(hand_size + 1) if total + b != hand_size)
    low = max(0, hand_size + 1 - total)
    if low > hand_size:
        return (hand_size,)
    return tuple(range(low, hand_size + 1))


def _ranking_value(value: int, ace_low: bool) -> int:
    return 1 if ace_low and value == ACE else value


def effective_card(play: Play | PlayingCard, round_number: int) -> tuple[PlayingCard, bool]:
    """The card a play counts as and whether it is a wild copy (a named two in round 12)."""
    if isinstance(play, PlayingCard):
        play = Play(play)
    wild = ROUNDS[round_number - 1].wild_twos
    if play.names is not None:
        if not wild:
            raise IllegalMoveError(f"{play!r}: only in round 12 may a two name another card")
        if play.card.value != TWO:
            raise IllegalMoveError(f"{play!r}: only a two can name another card")
        if play.names.value == TWO:
            raise IllegalMoveError(f"{play!r}: a two must name a card that is not a two")
        return play.names, True
    if wild and play.card.value == TWO:
        raise IllegalMoveError(f"{play!r}: in round 12 a two must name the card it copies")
    return play.card, False


def _strength(suit: str, value: int, wild: bool, trump: str | None, led: str, ace_low: bool) -> int:
    """Orders cards within one trick: trumps over the led suit over the rest (which never win)."""
    tier = 2 if suit == trump else 1 if suit == led else 0
    # A wild copy ranks just above the card it names: the doubled value leaves room for it.
    return tier * 100 + 2 * _ranking_value(value, ace_low) + wild if tier else 0


# Per round index (0-21), the round's flags that every move reads (RoundRule computes them).
_WILD_ROUND: tuple[bool, ...] = tuple(r.wild_twos for r in ROUNDS)
_ACE_LOW_ROUND: tuple[bool, ...] = tuple(r.ace_low for r in ROUNDS)
_NO_BIDS_ROUND: tuple[bool, ...] = tuple(r.special is Special.NO_BIDS for r in ROUNDS)
_HAS_BIDS_ROUND: tuple[bool, ...] = tuple(r.has_bids for r in ROUNDS)
# _RANK2[ace_low][card index]: twice the card's ranking value (see _strength).
_RANK2: tuple[tuple[int, ...], ...] = tuple(tuple(2 * _ranking_value(c.value, low) for c in CARDS) for low in (False, True))
# A suit (or None) as a slot 0-4 of the tables below.
_SLOT: dict[str | None, int] = {**{s: i for i, s in enumerate(SUITS)}, None: 4}
# _KEYS[ace_low][trump slot][led slot][card index]: _strength of a plain (not wild) card; with no
# led suit (leading) the card's own suit is led. _WEIGHTS[ace_low][trump slot][card index]: how
# valuable the greedy player finds a card to keep (trumps above all other cards).
_KEYS: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            tuple(_strength(c.suit, c.value, False, trump, c.suit if led is None else led, low) for c in CARDS)
            for led in (*SUITS, None)
        )
        for trump in (*SUITS, None)
    )
    for low in (False, True)
)
_WEIGHTS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(100 * (c.suit == trump) + 2 * _ranking_value(c.value, low) for c in CARDS) for trump in (*SUITS, None))
    for low in (False, True)
)

# _HIGH_CARDS[ace_low][trump slot][card index]: 1 for a card the greedy player counts on to take a
# trick when it bids (K and A, with aces low Q and K; trumps from the ten up), else 0.
_HIGH_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(int((c.suit == trump and c.value >= 10) or _ranking_value(c.value, low) >= (12 if low else 13))
              for c in CARDS)
        for trump in (*SUITS, None)
    )
    for low in (False, True)
)


def trick_winner(plays: Sequence[Play | PlayingCard], trump: str | None, round_number: int) -> int:
    """The index (in playing order) of the play that wins a hand-built trick.

    ``plays`` are :class:`Play` values or bare cards; ``trump`` is a suit or None. The round number
    decides ace-low (13) and wild twos (12, where two twos may not name the same card).
    """
    if not plays:
        raise IllegalMoveError("an empty trick has no winner")
    rule = round_rule(round_number)
    effective = [effective_card(p, round_number) for p in plays]
    named = [card for card, wild in effective if wild]
    if len(set(named)) != len(named):
        raise IllegalMoveError(f"two twos in one trick name the same card: {[str(c) for c in named]}")
    led = effective[0][0].suit
    keys = [_strength(c.suit, c.value, w, trump, led, rule.ace_low) for c, w in effective]
    return keys.index(max(keys))


def parse_trick(text: str) -> tuple[Play, ...]:
    """A hand-built trick from notation, e.g. ``"5H 2C=KH AH"`` (round 12: the two copies K♥)."""
    return tuple(Play(c, n) for c, n in (_parse_play(w) for w in text.split()))


def _parse_play(word: str) -> tuple[PlayingCard, PlayingCard | None]:
    card, _, named = word.partition("=")
    return PlayingCard.parse(card), (PlayingCard.parse(named) if named else None)
