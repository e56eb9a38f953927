"""Clag rulebook content: the table of rounds and worked examples computed by the Clag engine.

The round table comes from the engine's round configuration; the dealer's bid, trick winners and
the wild two's rank are the engine's verdicts, so the book shows what the engine does.
"""

from __future__ import annotations

from typing import Sequence

from printkit.deck import Card, Deck
from printkit.errors import BuildError, DeckError
from printkit.games.clag.words import RANK_NAMES_EN, SUIT_NAMES
from printkit.layout.geometry import Box
from printkit.rulebook.content import CardParts, Example, Figure, Pile, Table, TableSetup, Zone, name_in, pick
from printkit.games.clag import engine as engine_module
from printkit.games.clag.engine import ENGINE, Bid, ClagState, Play, PlayingCard, Special

def suit_name(suit: str, lang: str) -> str:
    return name_in(SUIT_NAMES, suit, lang, "suit")


def card_name(suit: str, rank: int | str, lang: str) -> str:
    """A card as players say it: ``하트 K`` / ``king of hearts``."""
    if lang == "ko":
        return f"{suit_name(suit, lang)} {rank}"
    return f"{RANK_NAMES_EN.get(str(rank), str(rank))} of {suit_name(suit, lang)}"


def seat_name(seat: int, lang: str) -> str:
    """Seat numbers are 0-based in the engine and 1-based for players."""
    return pick(lang, f"{seat + 1}번 플레이어", f"Player {seat + 1}")


def playing_card_name(card: PlayingCard, lang: str) -> str:
    return card_name(card.suit, card.rank, lang)


def find_card(deck: Deck, card: PlayingCard) -> Card:
    """The deck's printed card for an engine card (so figures use the art players print)."""
    for printed in deck.cards:
        if printed.get("suit") == card.suit and str(printed.get("rank")) == str(card.rank):
            return printed
    raise BuildError(f"deck {deck.name!r} has no {card.rank} of {card.suit}")


# ---------------------------------------------------------------- the round table


def _contract_rule(rule: engine_module.RoundRule, lang: str) -> str:
    if rule.special is Special.ZERO_CONTRACTS:
        return pick(lang, "모두 0", "all 0")
    if not rule.has_bids:
        return pick(lang, "없음", "none")
    return pick(lang, "딜러 규칙", "dealer rule")


def rounds_table(deck: Deck, lang: str) -> Table:
    """Rounds 1-22 with hand size, special rule and bidding, from the engine's round table."""
    rows = tuple(
        (
            str(rule.number),
            str(rule.hand_size),
            pick(lang, rule.title_ko, rule.title_en),
            _contract_rule(rule, lang),
        )
        for rule in engine_module.ROUNDS
    )
    return Table(
        header=(pick(lang, "라운드", "Round"), pick(lang, "카드 수", "Cards"),
                pick(lang, "규칙", "Rule"), pick(lang, "계약", "Bidding")),
        rows=rows,
    )


def rounds(deck: Deck, lang: str) -> Example:
    """Figures about the round table that the text quotes."""
    largest = max(rule.hand_size for rule in engine_module.ROUNDS)
    return Example(values={
        "count": len(engine_module.ROUNDS),
        "max_hand": largest,
        "max_dealt": engine_module.MAX_PLAYERS * largest,
    })


# ---------------------------------------------------------------- hand-built rounds

PLAYERS = 4
DEALER = 3  # seat 0, on the dealer's left, bids first and leads


def _deck_cards(deck: Deck) -> list[PlayingCard]:
    return [PlayingCard.parse(f"{c['rank']}{engine_module.SUIT_LETTERS[c['suit']]}") for c in deck.cards]


def _position(deck: Deck, round_number: int, hands: Sequence[Sequence[str]] | None, trump: str | None,
              hook: bool = False) -> ClagState:
    """Round ``round_number`` dealt with these hands (or the deck's first cards in spec order)."""
    if hands is None:
        size = engine_module.round_rule(round_number).hand_size
        cards = _deck_cards(deck)
        hands = [[str(c) for c in cards[seat * size:(seat + 1) * size]] for seat in range(PLAYERS)]
        trump = str(cards[PLAYERS * size])
    try:
        return engine_module.start_round(hands, round_number, DEALER, trump, hook=hook, deck=deck)
    except DeckError as exc:
        raise BuildError(f"Clag rulebook example for round {round_number}: {exc}") from None


def _apply(state: ClagState, seat: int, move) -> None:
    if ENGINE.current_player(state) != seat:
        raise BuildError(f"Clag example: seat {seat} was to play {move}, but seat {ENGINE.current_player(state)} moves")
    ENGINE.apply(state, move)


def _bid_round(state: ClagState, others: Sequence[int]) -> tuple[int, ...]:
    """The others bid ``others`` from the dealer's left; returns the dealer's legal bids."""
    for offset, bid in enumerate(others):
        _apply(state, (DEALER + 1 + offset) % PLAYERS, Bid(bid))
    return tuple(move.tricks for move in ENGINE.legal_moves(state))


# ---------------------------------------------------------------- examples

DEALER_BID_ROUND = 7  # the first round with seven cards, as in the seed's example
OTHER_BIDS = (1, 1, 1)


def dealer_bid(deck: Deck, lang: str) -> Example:
    """The seed's example: 7 cards, the others bid 1, 1, 1; the engine says the dealer must bid 5."""
    state = _position(deck, DEALER_BID_ROUND, None, None)
    allowed = _bid_round(state, OTHER_BIDS)
    hook_state = _position(deck, DEALER_BID_ROUND, None, None, hook=True)
    hook_allowed = _bid_round(hook_state, OTHER_BIDS)
    size = state.round.hand_size
    forbidden = [b for b in range(size + 1) if b not in hook_allowed]
    minimum = min(allowed)
    seats = [(DEALER + 1 + k) % PLAYERS for k in range(PLAYERS)]
    rows = tuple((seat_name(seat, lang), str(bid)) for seat, bid in zip(seats, OTHER_BIDS))
    rows += ((pick(lang, f"{seat_name(DEALER, lang)} (딜러)", f"{seat_name(DEALER, lang)} (dealer)"),
              ", ".join(str(b) for b in allowed)),)
    return Example(
        values={
            "hand_size": size,
            "others": ", ".join(str(b) for b in OTHER_BIDS),
            "others_total": sum(OTHER_BIDS),
            "minimum": minimum,
            "maximum": max(allowed),
            "allowed": ", ".join(str(b) for b in allowed),
            "total": sum(OTHER_BIDS) + minimum,
            "hook_forbidden": ", ".join(str(b) for b in forbidden),
        },
        header=(pick(lang, "플레이어", "Player"), pick(lang, "계약", "Bid")),
        rows=rows,
        caption=pick(lang, f"{size}장 라운드에서 딜러가 할 수 있는 계약", f"What the dealer may bid with {size} cards"),
    )


TRUMP_TRICK_ROUND = 1
TRUMP_TRICK_HANDS = (("KH",), ("AH",), ("3S",), ("5H",))  # seat 2 holds no heart and trumps
TRUMP_TRICK_TRUMP = "9S"


def _trick_notes(plays: Sequence[Play], trump: str | None, winner: int, lang: str) -> list[str]:
    led = (plays[0].names or plays[0].card).suit
    notes = []
    for i, play in enumerate(plays):
        card = play.names or play.card
        if i == 0:
            note = pick(lang, "선", "leads")
        elif card.suit == led:
            note = pick(lang, "선 무늬를 따름", "follows suit")
        elif card.suit == trump:
            note = pick(lang, "트럼프", "trumps")
        else:
            note = pick(lang, "선 무늬 없음", "cannot follow")
        if i == winner:
            note += pick(lang, ", 트릭을 땀", ", wins the trick")
        notes.append(note)
    return notes


def _play_trick(state: ClagState, plays: Sequence[Play]) -> int:
    """Play one trick from the leader; returns the winning index in playing order."""
    leader = ENGINE.current_player(state)
    before = list(state.tricks_won) if state.tricks_won else [0] * PLAYERS
    rounds_before = len(state.history)
    for offset, play in enumerate(plays):
        _apply(state, (leader + offset) % PLAYERS, play)
    won = state.history[rounds_before].tricks if len(state.history) > rounds_before else state.tricks_won
    gained = [seat for seat in range(PLAYERS) if won[seat] > before[seat]]
    if len(gained) != 1:
        raise BuildError(f"Clag example: the trick was won by {gained}, expected one seat")
    return (gained[0] - leader) % PLAYERS


def trump_trick(deck: Deck, lang: str) -> Example:
    """A trick where a player out of the led suit trumps the led ace; the engine names the winner."""
    state = _position(deck, TRUMP_TRICK_ROUND, TRUMP_TRICK_HANDS, TRUMP_TRICK_TRUMP)
    dealer_bids = _bid_round(state, (0,) * (PLAYERS - 1))
    _apply(state, DEALER, Bid(dealer_bids[0]))
    trump = state.trump
    plays = tuple(Play(PlayingCard.parse(hand[0])) for hand in TRUMP_TRICK_HANDS)
    winner = _play_trick(state, plays)
    led = plays[0].card.suit
    led_plays = [p for p in plays if p.card.suit == led]
    best_led = led_plays[engine_module.trick_winner(led_plays, None, TRUMP_TRICK_ROUND)].card
    seats = [(DEALER + 1 + k) % PLAYERS for k in range(PLAYERS)]
    notes = _trick_notes(plays, trump, winner, lang)
    return Example(
        values={
            "trump": suit_name(trump, lang),
            "trump_card": playing_card_name(PlayingCard.parse(TRUMP_TRICK_TRUMP), lang),
            "led": suit_name(led, lang),
            "best_led": playing_card_name(best_led, lang),
            "winning_card": playing_card_name(plays[winner].card, lang),
            "winner": seat_name(seats[winner], lang),
        },
        header=(pick(lang, "플레이어", "Player"), pick(lang, "낸 카드", "Card"), pick(lang, "설명", "Note")),
        rows=tuple((seat_name(seat, lang), playing_card_name(p.card, lang), note)
                   for seat, p, note in zip(seats, plays, notes)),
        caption=pick(lang, f"트럼프: {suit_name(trump, lang)}", f"Trump: {suit_name(trump, lang)}"),
    )


WILD_ROUND = 12
WILD_HANDS = (
    ("QC", "4S", "5S", "6S", "7S", "8S", "9S"),
    ("AC", "4H", "5H", "6H", "7H", "8H", "9H"),
    ("2H", "4C", "10S", "JS", "QS", "KS", "AS"),  # holds a club, so the two must name a club
    ("3C", "10H", "JH", "QH", "KH", "AH", "3S"),
)
WILD_TRUMP = "9D"
WILD_PLAYS = ("QC", "AC", "2H=AC", "3C")
WILD_REFUSED = "2H=AD"  # naming a trump while holding a club: the engine refuses it


def _wild_trick(deck: Deck) -> tuple[ClagState, tuple[Play, ...], int, str | None]:
    state = _position(deck, WILD_ROUND, WILD_HANDS, WILD_TRUMP)
    others = (1,) * (PLAYERS - 1)
    _apply(state, DEALER, Bid(_bid_round(state, others)[0]))
    plays = engine_module.parse_trick(" ".join(WILD_PLAYS))
    refused_play = engine_module.parse_trick(WILD_REFUSED)[0]
    refused_at = next(i for i, p in enumerate(plays) if p.card == refused_play.card)
    for offset, play in enumerate(plays[:refused_at]):
        _apply(state, offset % PLAYERS, play)
    why = engine_module.why_illegal(state, refused_play)
    if why is None:
        raise BuildError(f"the Clag engine allowed {refused_play} while the player holds the led suit")
    for offset in range(refused_at, len(plays)):
        _apply(state, offset % PLAYERS, plays[offset])
    winner = next(seat for seat in range(PLAYERS) if state.tricks_won[seat])
    return state, plays, winner, why


def _held_led_card(seat: int, led: str) -> PlayingCard:
    """The non-two of the led suit that obliges ``seat``'s two to name a card of that suit."""
    for text in WILD_HANDS[seat]:
        card = PlayingCard.parse(text)
        if card.suit == led and card.value != engine_module.TWO:
            return card
    raise BuildError(f"Clag example: seat {seat} holds no card of the led suit {led}")


def wild_two(deck: Deck, lang: str) -> Example:
    """Round 12: a two named as the led ace ranks just above the real ace and wins."""
    _, plays, winner, _ = _wild_trick(deck)
    two_at = next(i for i, p in enumerate(plays) if p.names is not None)
    two = plays[two_at]
    refused = engine_module.parse_trick(WILD_REFUSED)[0]
    led = plays[0].card.suit
    rows = []
    for seat, play in enumerate(plays):
        counts_as = playing_card_name(play.names or play.card, lang)
        note = pick(lang, "트릭을 땀", "wins the trick") if seat == winner else ""
        rows.append((seat_name(seat, lang), playing_card_name(play.card, lang), counts_as, note))
    return Example(
        values={
            "player": seat_name(two_at, lang),
            "two": playing_card_name(two.card, lang),
            "named": playing_card_name(two.names, lang),
            "winner": seat_name(winner, lang),
            "led": suit_name(led, lang),
            "refused": playing_card_name(refused.names, lang),
            "held": playing_card_name(_held_led_card(two_at, led), lang),
        },
        header=(pick(lang, "플레이어", "Player"), pick(lang, "낸 카드", "Card"),
                pick(lang, "취급", "Counts as"), pick(lang, "결과", "Result")),
        rows=tuple(rows),
        cards=tuple(find_card(deck, p.card) for p in plays),
        card_labels=tuple(
            seat_name(seat, lang) + (f" = {playing_card_name(p.names, lang)}" if p.names else "")
            for seat, p in enumerate(plays)
        ),
        caption=pick(lang, f"12라운드, 트럼프: {suit_name(engine_module.PlayingCard.parse(WILD_TRUMP).suit, lang)}",
                     f"Round 12, trump: {suit_name(engine_module.PlayingCard.parse(WILD_TRUMP).suit, lang)}"),
    )


SCORING_ROUND = 7  # a normal round of seven cards
# Bids and tricks in seat order from the dealer's left; the first is the seed's player: bid 3, took 3.
SCORING_BIDS = (3, 1, 2, 2)
SCORING_TRICKS = (3, 2, 2, 0)


def scoring(deck: Deck, lang: str) -> Example:
    """A round scored by the engine's scoring: the seed's bid 3, took 3 (13 points) and three others."""
    rule = engine_module.round_rule(SCORING_ROUND)
    dealer_bids = engine_module.dealer_bid_range(rule.hand_size, SCORING_BIDS[:-1])
    if SCORING_BIDS[-1] not in dealer_bids:
        raise BuildError(f"Clag scoring example: the dealer may not bid {SCORING_BIDS[-1]} (allowed: {dealer_bids})")
    if sum(SCORING_TRICKS) != rule.hand_size:
        raise BuildError(f"Clag scoring example: {sum(SCORING_TRICKS)} tricks in a round of {rule.hand_size}")
    points, completed = engine_module.round_points(rule, SCORING_BIDS, SCORING_TRICKS)
    seats = [(DEALER + 1 + k) % PLAYERS for k in range(PLAYERS)]
    rows = []
    for seat, bid, took, made, score in zip(seats, SCORING_BIDS, SCORING_TRICKS, completed, points):
        bonus = score - took
        how = f"{took} + {bonus}" if bonus else str(took)
        name = seat_name(seat, lang) + (pick(lang, " (딜러)", " (dealer)") if seat == DEALER else "")
        rows.append((name, str(bid), str(took), pick(lang, "성공", "yes") if made else pick(lang, "실패", "no"),
                     f"{how} = {score}" if bonus else str(score)))
    return Example(
        values={
            "bid": SCORING_BIDS[0],
            "tricks": SCORING_TRICKS[0],
            "points": points[0],
            "bonus": points[0] - SCORING_TRICKS[0],
            "player": seat_name(seats[0], lang),
            "missed": seat_name(seats[1], lang),
            "missed_points": points[1],
            "zero": seat_name(seats[3], lang),
            "zero_points": points[3],
            "hand_size": rule.hand_size,
        },
        header=(pick(lang, "플레이어", "Player"), pick(lang, "계약", "Bid"), pick(lang, "딴 트릭", "Tricks"),
                pick(lang, "계약 성공", "Contract made"), pick(lang, "점수", "Points")),
        rows=tuple(rows),
        caption=pick(lang, f"{SCORING_ROUND}라운드 ({rule.hand_size}장)의 점수", f"Scores of round {SCORING_ROUND} "
                                                                             f"({rule.hand_size} cards)"),
    )


# ---------------------------------------------------------------- figures


ANATOMY_CARD = "7H"


def anatomy(deck: Deck, lang: str) -> CardParts:
    """A seven with its parts named: rank, suit, pips and the turned index."""
    from printkit.games.clag.faces import pip_centres
    from printkit.rulebook.figures import located, text_box, turned

    playing = PlayingCard.parse(ANATOMY_CARD)
    card = find_card(deck, playing)
    unit = min(card.size.width_mm, card.size.height_mm)
    x, y, _ = max(pip_centres(card, playing.value), key=lambda c: (c[0], -c[1]))
    size = unit * 0.155

    def places(face) -> tuple[Box, ...]:
        rank = text_box(face, str(playing.rank))
        # The small suit sits right under the rank, one column wide (the template's index).
        pip = unit * 0.1
        suit = Box(rank.cx_mm - pip / 2, rank.bottom_mm + 1.2, pip, pip)
        return rank, suit, Box(x - size / 2, y - size / 2, size, size), turned(rank, card)

    return CardParts(card, located(places, (
        pick(lang, "숫자 (A가 가장 높음)", "rank (ace high)"),
        pick(lang, "무늬", "suit"),
        pick(lang, f"무늬 {playing.rank}개", f"{playing.rank} suit signs"),
        pick(lang, "거꾸로 놓인 숫자와 무늬", "rank and suit, upside down"),
    )), caption=pick(lang, f"{card_name(playing.suit, playing.rank, lang)}. 클라그는 표준 카드 {len(deck.cards)}장을 씁니다.",
                    f"The {card_name(playing.suit, playing.rank, lang)}. Clag uses a standard deck of "
                    f"{len(deck.cards)} cards."))


SETUP_ROUND = 7


def setup(deck: Deck, lang: str) -> TableSetup:
    """Round 7 with four players after the deal: hands, the turned-up trump and the unused cards."""
    rule = engine_module.round_rule(SETUP_ROUND)
    state = _position(deck, SETUP_ROUND, None, None)
    trump = find_card(deck, PlayingCard.parse(str(_deck_cards(deck)[PLAYERS * rule.hand_size])))
    if state.trump != trump["suit"]:
        raise BuildError(f"Clag set-up figure: the engine turned up {state.trump}, not the {trump['suit']} shown")
    back = deck.cards[0]
    unused = len(deck.cards) - PLAYERS * rule.hand_size - 1

    def seat(n: int) -> Zone:
        dealer = pick(lang, " (딜러)", " (dealer)") if n == DEALER else ""
        return Zone(seat_name(n, lang) + dealer, (Pile(back, back=True, count=rule.hand_size, fan=True),))

    return TableSetup(
        rows=((seat(2),),
              (seat(1), Zone(pick(lang, "트럼프와 남은 카드", "Trump and unused cards"),
                             (Pile(trump), Pile(back, back=True, count=unused))), seat(3)),
              (seat(0),)),
        caption=pick(lang, f"{PLAYERS}명이 하는 {SETUP_ROUND}라운드: 딜러가 한 장씩 {rule.hand_size}장을 돌린 뒤 다음 "
                           f"카드를 펼칩니다. 그 무늬({suit_name(trump['suit'], lang)})가 트럼프이고, 남은 {unused}장은 "
                           "이번 라운드에 쓰지 않습니다.",
                     f"Round {SETUP_ROUND} with {PLAYERS} players: the dealer deals {rule.hand_size} cards each, one at "
                     f"a time, then turns up the next card. Its suit ({suit_name(trump['suit'], lang)}) is trump; the "
                     f"other {unused} cards are not used this round."),
    )


def trick_figure(deck: Deck, lang: str) -> Figure:
    """The four cards of the trump trick, as printed, with who played each."""
    example = trump_trick(deck, lang)
    plays = [PlayingCard.parse(hand[0]) for hand in TRUMP_TRICK_HANDS]
    return Figure(
        cards=tuple(find_card(deck, card) for card in plays),
        labels=tuple(row[0] for row in example.rows),
        caption=pick(lang, f"트럼프는 {example.values['trump']}: {example.values['winner']}가 트릭을 땁니다.",
                     f"Trump is {example.values['trump']}: {example.values['winner']} takes the trick."),
    )


def cover(deck: Deck, lang: str) -> Figure:
    """The title page: the four aces."""
    return Figure(tuple(find_card(deck, PlayingCard.parse(f"A{engine_module.SUIT_LETTERS[suit]}"))
                        for suit in engine_module.SUITS), scale=0.75)


FIGURES = {
    "cover": cover,
    "anatomy": anatomy,
    "setup": setup,
    "trick": trick_figure,
}
EXAMPLES = {
    "rounds": rounds,
    "dealer_bid": dealer_bid,
    "trump_trick": trump_trick,
    "wild_two": wild_two,
    "scoring": scoring,
}
TABLES = {
    "rounds": rounds_table,
}
