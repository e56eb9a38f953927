"""Clag's vocabulary: suits and ranks in the rules' order, their names, and the table of 22 rounds."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

SUITS: tuple[str, ...] = ("spades", "hearts", "diamonds", "clubs")
SUIT_LETTERS = MappingProxyType({"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"})
SUIT_SYMBOLS = MappingProxyType({"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"})

# Lowest to highest (aces high); the spec writes 2-10 as numbers and the courts and ace as letters.
RANKS: tuple[int | str, ...] = (2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K", "A")
COURTS: tuple[str, ...] = ("J", "Q", "K")

# (Korean, English) names of the suits, and the English words for the letter ranks.
SUIT_NAMES = MappingProxyType({
    "spades": ("스페이드", "spades"),
    "hearts": ("하트", "hearts"),
    "diamonds": ("다이아몬드", "diamonds"),
    "clubs": ("클럽", "clubs"),
})
RANK_NAMES_EN = MappingProxyType({"J": "jack", "Q": "queen", "K": "king", "A": "ace"})


# The round table: hand size and special rule of rounds 1-22, read by the engine, the score sheet
# and the rulebooks.


class Special(str, Enum):
    """What makes a round special (rounds 8-15); ``NORMAL`` everywhere else."""

    NORMAL = "normal"
    NO_TRUMP = "no_trump"  # 8
    ZERO_CONTRACTS = "zero_contracts"  # 9
    TRUMP_AFTER_BIDS = "trump_after_bids"  # 10
    BIDS_BEFORE_DEAL = "bids_before_deal"  # 11
    WILD_TWOS = "wild_twos"  # 12
    ACE_LOW = "ace_low"  # 13
    DEALER_CHOOSES_TRUMP = "dealer_chooses_trump"  # 14
    NO_BIDS = "no_bids"  # 15


@dataclass(frozen=True)
class RoundRule:
    """One row of the round table: number (1-22), cards per player and the special rule."""

    number: int
    hand_size: int
    special: Special
    title_en: str
    title_ko: str
    text_en: str
    text_ko: str

    @property
    def has_bids(self) -> bool:
        """Players bid (and the dealer rule applies): every round but 9 and 15."""
        return self.special not in (Special.ZERO_CONTRACTS, Special.NO_BIDS)

    @property
    def turns_up_trump(self) -> bool:
        """A card is turned up for trump (before or, in round 10, after the bids)."""
        return self.special not in (Special.NO_TRUMP, Special.DEALER_CHOOSES_TRUMP)

    @property
    def ace_low(self) -> bool:
        return self.special is Special.ACE_LOW

    @property
    def wild_twos(self) -> bool:
        return self.special is Special.WILD_TWOS


_NORMAL_TEXT = (
    "Normal round",
    "일반 라운드",
    "A card is turned up for trump; everyone bids, the dealer last.",
    "카드 한 장을 뒤집어 트럼프를 정하고, 모두 계약을 부르며 딜러가 마지막에 부릅니다.",
)
_SPECIAL_TEXT = {
    Special.NO_TRUMP: (
        "No trump",
        "노 트럼프",
        "No card is turned up: there is no trump this round.",
        "카드를 뒤집지 않습니다. 이 라운드에는 트럼프가 없습니다.",
    ),
    Special.ZERO_CONTRACTS: (
        "Contracts are zero",
        "계약은 0",
        "Nobody bids: every contract is 0, so a player who takes no trick scores 10 more.",
        "아무도 계약을 부르지 않습니다. 모든 계약이 0이므로 트릭을 하나도 얻지 못한 플레이어가 10점을 더 얻습니다.",
    ),
    Special.TRUMP_AFTER_BIDS: (
        "Trump after bids",
        "계약 뒤 트럼프",
        "The trump card is turned up only after everyone has bid.",
        "모두 계약을 부른 뒤에야 트럼프 카드를 뒤집습니다.",
    ),
    Special.BIDS_BEFORE_DEAL: (
        "Bids before the deal",
        "딜 전에 계약",
        "Everyone bids before any card is dealt.",
        "카드를 나눠 주기 전에 모두 계약을 부릅니다.",
    ),
    Special.WILD_TWOS: (
        "Twos are wild",
        "2는 와일드",
        "A two is played as a named copy of any other card and ranks just above that card.",
        "2를 낼 때 2가 아닌 카드 하나의 이름을 대면 그 카드의 사본이 되며, 원래 카드 바로 위 순위가 됩니다.",
    ),
    Special.ACE_LOW: (
        "Aces low",
        "에이스가 가장 낮음",
        "Aces rank lowest: K Q J 10 9 8 7 6 5 4 3 2 A.",
        "에이스가 가장 낮습니다: K Q J 10 9 8 7 6 5 4 3 2 A.",
    ),
    Special.DEALER_CHOOSES_TRUMP: (
        "Dealer chooses trump",
        "딜러가 트럼프 선택",
        "Instead of turning a card, the dealer looks at their hand and names trump before the bids.",
        "카드를 뒤집는 대신, 딜러가 자기 패를 보고 계약 전에 트럼프 무늬를 정합니다.",
    ),
    Special.NO_BIDS: (
        "No contracts",
        "계약 없음",
        "Nobody bids; only the player who alone takes the most tricks scores, 10 points.",
        "아무도 계약을 부르지 않습니다. 트릭을 혼자 가장 많이 얻은 플레이어만 10점을 얻습니다(동점이면 아무도 없음).",
    ),
}
_HAND_SIZES = (1, 2, 3, 4, 5, 6, 7) + (7,) * 9 + (6, 5, 4, 3, 2, 1)
_SPECIAL_BY_ROUND = dict(zip(range(8, 16), list(_SPECIAL_TEXT)))

ROUNDS: tuple[RoundRule, ...] = tuple(
    RoundRule(
        number,
        hand_size,
        _SPECIAL_BY_ROUND.get(number, Special.NORMAL),
        *_SPECIAL_TEXT.get(_SPECIAL_BY_ROUND.get(number, Special.NORMAL), _NORMAL_TEXT),
    )
    for number, hand_size in enumerate(_HAND_SIZES, start=1)
)
