"""Clag's game state and rules: dealing, legal moves, applying a move, scoring, invariants
and the facts and records of a finished game.

A game is a :class:`ClagState` (mutable, owned by the caller); seats are numbered clockwise and
"left" is the next seat.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from printkit.deck import Deck
from printkit.errors import DeckError, IllegalMoveError, InvariantError
from printkit.games.clag.cards import (
    BIDS, Bid, CARDS, ChooseTrump, LAST_ROUND, MAX_PLAYERS, MIN_PLAYERS, Move, NAMEABLE, NAMEABLE_BY_SUIT, Play,
    PlayingCard, TWO, _ACE_LOW_ROUND, _BIDS_BEFORE_DEAL, _HAS_BIDS_ROUND, _INDEX, _NORMAL, _NO_BIDS_ROUND, _PLAYS,
    _RANK2, _SUIT_INDEX, _VALUE_OF_RANK, _WILD, _WILD_ROUND, dealer_bid_range, round_rule,
)
from printkit.games.clag.words import ROUNDS, SUITS, RoundRule, Special
from printkit.rules.base import Outcome

CONTRACT_BONUS = 10  # points for a completed contract, and for the sole top taker in round 15


# --------------------------------------------------------------------------------------------
# Game state


PHASE_CHOOSE_TRUMP = "choose_trump"
PHASE_BID = "bid"
PHASE_PLAY = "play"
PHASE_OVER = "over"


@dataclass(frozen=True)
class RoundRecord:
    """What one finished round leaves on the score sheet."""

    number: int
    dealer: int
    trump: str | None
    bids: tuple[int, ...] | None  # None in round 15; all 0 in round 9
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    completed: tuple[bool, ...]


@dataclass(eq=False, slots=True)
class ClagState:
    """A game in progress. Mutated only by :meth:`ClagEngine.apply` (and round set-up)."""

    players: int
    deck: tuple[PlayingCard, ...]  # the game's cards in canonical order
    hook: bool
    seed: int
    rng: random.Random
    first_dealer: int
    round_index: int = 0  # 0-based; ROUNDS[round_index] is the current round
    phase: str = PHASE_BID
    to_move: int = 0
    stock: list[PlayingCard] = field(default_factory=list)  # undealt cards, next card first
    hands: list[list[PlayingCard]] = field(default_factory=list)
    trump_card: PlayingCard | None = None
    trump: str | None = None
    bids: list[int | None] = field(default_factory=list)
    trick: list[Play] = field(default_factory=list)
    trick_seats: list[int] = field(default_factory=list)
    led_suit: str | None = None
    best_key: int = -1
    best_seat: int = -1
    tricks_won: list[int] = field(default_factory=list)
    taken: list[list[PlayingCard]] = field(default_factory=list)  # cards of won tricks, per seat
    tricks_played: int = 0
    scores: list[int] = field(default_factory=list)
    contracts: list[int] = field(default_factory=list)  # completed contracts per seat
    initial_scores: tuple[int, ...] = ()
    initial_contracts: tuple[int, ...] = ()
    history: list[RoundRecord] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)

    @property
    def round(self) -> RoundRule:
        index = self.round_index
        return ROUNDS[index] if index < LAST_ROUND else ROUNDS[-1]

    @property
    def dealer(self) -> int:
        return (self.first_dealer + self.round_index) % self.players

    @property
    def leader(self) -> int:
        """The seat that led the current trick (or leads the next one)."""
        return self.trick_seats[0] if self.trick_seats else self.to_move

    def snapshot(self) -> tuple:
        """Everything observable about the state, as a comparable value (for before/after tests)."""
        return (
            self.round_index, self.phase, self.to_move, tuple(self.stock),
            tuple(tuple(h) for h in self.hands), self.trump_card, self.trump, tuple(self.bids),
            tuple(self.trick), tuple(self.trick_seats), self.led_suit, self.best_key, self.best_seat,
            tuple(self.tricks_won), tuple(tuple(t) for t in self.taken), self.tricks_played,
            tuple(self.scores), tuple(self.contracts), tuple(self.history), tuple(self.moves),
            self.rng.getstate(),
        )


def _canonical_deck(deck: Deck) -> tuple[PlayingCard, ...]:
    """The deck's cards as PlayingCards in canonical order (so shuffles ignore spec order)."""
    return tuple(sorted((_card_of(c.attrs, c.label) for c in deck.cards), key=lambda c: c.index))


def _card_of(attrs: Mapping[str, Any], label: str) -> PlayingCard:
    suit, rank = attrs.get("suit"), attrs.get("rank")
    if suit is None:
        raise DeckError(f"card {label} has no suit (Clag needs {', '.join(SUITS)})")
    if rank is None:
        raise DeckError(f"card {label} has no rank (Clag needs 2-10, J, Q, K, A)")
    if suit not in _SUIT_INDEX:
        raise DeckError(f"card {label}: unknown suit {suit!r} (Clag needs {', '.join(SUITS)})")
    if isinstance(rank, str) and rank.isdigit():
        rank = int(rank)
    if isinstance(rank, bool) or rank not in _VALUE_OF_RANK:
        raise DeckError(f"card {label}: unknown rank {rank!r} (Clag needs 2-10, J, Q, K, A)")
    return CARDS[_SUIT_INDEX[suit] * 13 + _VALUE_OF_RANK[rank] - TWO]


def _new_state(cards: tuple[PlayingCard, ...], players: int, seed: int, hook: bool) -> ClagState:
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise DeckError(f"Clag is played by {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players!r}")
    rng = random.Random(seed)
    return ClagState(
        players=players, deck=cards, hook=bool(hook), seed=seed, rng=rng,
        first_dealer=rng.randrange(players),
        scores=[0] * players, contracts=[0] * players,
        initial_scores=(0,) * players, initial_contracts=(0,) * players,
    )


def shuffled(cards: Sequence[PlayingCard], rng: random.Random) -> list[PlayingCard]:
    """A list of ``cards`` shuffled exactly as ``rng.shuffle`` does it (the same draws from ``rng``,
    the same order), written out because a game shuffles 23 times and the method calls add up."""
    order = list(cards)
    getrandbits = rng.getrandbits
    # Random._randbelow(i + 1): draw as many bits as i + 1 has until the number is at most i.
    for i, k in _SHUFFLE_STEPS[len(order)]:
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        order[i], order[j] = order[j], order[i]
    return order


# _SHUFFLE_STEPS[length]: (i, bits of i + 1) for i from length - 1 down to 1.
_SHUFFLE_STEPS = tuple(tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1)) for n in range(len(CARDS) + 1))


def _start_round(state: ClagState, order: Sequence[PlayingCard]) -> None:
    """Begin the current round with the shuffled cards ``order`` (next card to deal first)."""
    n = state.players
    special = ROUNDS[state.round_index].special
    state.stock = list(order)
    state.hands = [[] for _ in range(n)]
    state.taken = [[] for _ in range(n)]
    state.tricks_won = [0] * n
    state.tricks_played = 0
    state.trick, state.trick_seats = [], []
    state.led_suit, state.best_key, state.best_seat = None, -1, -1
    state.trump_card = state.trump = None
    state.bids = [None] * n
    first = (state.dealer + 1) % n
    if special is _BIDS_BEFORE_DEAL:
        state.phase, state.to_move = PHASE_BID, first
        return
    _deal(state)
    # Special's members are read once here: each Special.NAME costs an enum lookup.
    if special is _NORMAL:
        _turn_up_trump(state)
        state.phase, state.to_move = PHASE_BID, first
        return
    rule = ROUNDS[state.round_index]
    if rule.turns_up_trump and special is not Special.TRUMP_AFTER_BIDS:
        _turn_up_trump(state)
    if special is Special.DEALER_CHOOSES_TRUMP:
        state.phase, state.to_move = PHASE_CHOOSE_TRUMP, state.dealer
    elif rule.has_bids:
        state.phase, state.to_move = PHASE_BID, first
    else:
        if special is Special.ZERO_CONTRACTS:
            state.bids = [0] * n
        state.phase, state.to_move = PHASE_PLAY, first


def _deal(state: ClagState) -> None:
    """One card at a time, clockwise from the dealer's left."""
    n, size = state.players, ROUNDS[state.round_index].hand_size
    dealt, state.stock = state.stock[: n * size], state.stock[n * size :]
    first = state.dealer + 1
    for offset in range(n):
        state.hands[(first + offset) % n] = sorted(dealt[offset::n], key=_INDEX)


def _turn_up_trump(state: ClagState) -> None:
    state.trump_card = state.stock.pop(0)
    state.trump = state.trump_card.suit


def _finish_bidding(state: ClagState) -> None:
    special = ROUNDS[state.round_index].special
    if special is _BIDS_BEFORE_DEAL:
        _deal(state)
        _turn_up_trump(state)
    elif special is Special.TRUMP_AFTER_BIDS:
        _turn_up_trump(state)
    state.phase, state.to_move = PHASE_PLAY, (state.dealer + 1) % state.players


def round_points(rule: RoundRule, bids: Sequence[int] | None, tricks: Sequence[int]) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """Each seat's points and whether it completed its contract, from the bids and tricks of a round.

    A trick scores 1 and a completed contract (tricks equal to the bid) 10 more; round 15 (no
    bids) gives 10 to the sole top trick-taker only. ``bids`` is None in round 15.
    """
    tricks = tuple(tricks)
    if rule.special is Special.NO_BIDS:
        top = max(tricks)
        sole = tricks.count(top) == 1
        completed = tuple(sole and t == top for t in tricks)
        return tuple(CONTRACT_BONUS if c else 0 for c in completed), completed
    if bids is None or len(bids) != len(tricks):
        raise IllegalMoveError(f"round {rule.number} needs one bid per player, got {bids!r} for {len(tricks)} players")
    completed = tuple(t == b for t, b in zip(tricks, bids))
    return tuple(t + (CONTRACT_BONUS if c else 0) for t, c in zip(tricks, completed)), completed


def _finish_round(state: ClagState) -> None:
    rule = ROUNDS[state.round_index]
    tricks = tuple(state.tricks_won)
    bids = None if _NO_BIDS_ROUND[state.round_index] else tuple(state.bids)  # type: ignore[arg-type]
    points, completed = round_points(rule, bids, tricks)
    scores, contracts = state.scores, state.contracts
    for seat in range(state.players):
        scores[seat] += points[seat]
        contracts[seat] += completed[seat]
    state.history.append(RoundRecord(rule.number, state.dealer, state.trump, bids, tricks, points, completed))
    if state.round_index + 1 == len(ROUNDS):
        # Game over: the last round's cards stay where they are, so every card is still accounted for.
        state.phase, state.to_move = PHASE_OVER, -1
        return
    state.round_index += 1
    _start_round(state, shuffled(state.deck, state.rng))


def start_round(
    hands: Sequence[Sequence[PlayingCard | str]],
    round_number: int,
    dealer: int,
    trump_card: PlayingCard | str | None = None,
    *,
    hook: bool = False,
    seed: int = 0,
    deck: Deck | None = None,
) -> ClagState:
    """A hand-made position: round ``round_number`` begins with these ``hands`` (one per seat).

    The cards are stacked so that the real deal (one at a time from the dealer's left, then the
    trump card, if the round turns one up) produces exactly these hands; round 11 bids first and
    round 10 turns ``trump_card`` up after the bids. Later rounds are shuffled from ``seed``.
    """
    cards = _canonical_deck(deck) if deck is not None else CARDS
    rule = round_rule(round_number)
    n = len(hands)
    state = _new_state(cards, n, seed, hook)
    parsed = [[PlayingCard.parse(c) if isinstance(c, str) else c for c in h] for h in hands]
    trump = PlayingCard.parse(trump_card) if isinstance(trump_card, str) else trump_card
    for seat, hand in enumerate(parsed):
        if len(hand) != rule.hand_size:
            raise DeckError(f"round {round_number} deals {rule.hand_size} cards; seat {seat} has {len(hand)}")
    if (trump is not None) != rule.turns_up_trump:
        raise DeckError(f"round {round_number} {'needs' if rule.turns_up_trump else 'has no'} trump card")
    used = [c for h in parsed for c in h] + ([trump] if trump is not None else [])
    if len(set(used)) != len(used) or not set(used) <= set(cards):
        raise DeckError(f"position uses a card twice or one the deck lacks: {[str(c) for c in used]}")
    dealt = [parsed[(dealer + 1 + k % n) % n][k // n] for k in range(n * rule.hand_size)]
    used_set = set(used)
    rest = [c for c in cards if c not in used_set]
    state.first_dealer = (dealer - (round_number - 1)) % n
    state.round_index = round_number - 1
    _start_round(state, dealt + ([trump] if trump is not None else []) + rest)
    return state


# --------------------------------------------------------------------------------------------
# Moves: legality and application


def _holds_led_non_two(hand: list[PlayingCard], led: str) -> bool:
    for c in hand:
        if c.suit == led and c.value != TWO:
            return True
    return False


def legal_moves(state: ClagState) -> list[Move]:
    """Every legal move for the seat to move; empty when the game is over."""
    phase = state.phase
    if phase == PHASE_PLAY:
        hand = state.hands[state.to_move]
        if _WILD_ROUND[state.round_index]:
            return _wild_round_moves(state, hand)
        led = state.led_suit
        if led is not None:
            follow = [_PLAYS[c.index] for c in hand if c.suit == led]
            if follow:
                return follow
        return [_PLAYS[c.index] for c in hand]
    if phase == PHASE_BID:
        size = ROUNDS[state.round_index].hand_size
        dealer = state.dealer
        if state.to_move != dealer:
            return list(BIDS[: size + 1])
        others = [b for seat, b in enumerate(state.bids) if seat != dealer]
        return [BIDS[b] for b in dealer_bid_range(size, others, state.hook)]  # type: ignore[arg-type]
    if phase == PHASE_CHOOSE_TRUMP:
        return [ChooseTrump(s) for s in SUITS]
    return []


def _wild_round_moves(state: ClagState, hand: list[PlayingCard]) -> list[Move]:
    led = state.led_suit
    named = {p.names for p in state.trick if p.names is not None}
    must_follow = led is not None and _holds_led_non_two(hand, led)
    pool = NAMEABLE_BY_SUIT[led] if must_follow else NAMEABLE  # type: ignore[index]
    moves: list[Move] = []
    for c in hand:
        if c.value != TWO:
            if not must_follow or c.suit == led:
                moves.append(_PLAYS[c.index])
    for c in hand:
        if c.value == TWO:
            row = _WILD[_SUIT_INDEX[c.suit]]
            moves.extend(row[n.index] for n in pool if n not in named)  # type: ignore[misc]
    return moves


def why_illegal(state: ClagState, move: Any) -> str | None:
    """Why ``move`` is not legal now, or None if it is."""
    phase = state.phase
    seat = state.to_move
    if phase == PHASE_OVER:
        return f"{move!r}: the game is over"
    if phase == PHASE_PLAY:
        if not isinstance(move, Play):
            return f"{move!r}: seat {seat} must play a card now"
        return _why_illegal_play(state, seat, move)
    if phase == PHASE_BID:
        if not isinstance(move, Bid):
            return f"{move!r}: seat {seat} must bid now"
        size = ROUNDS[state.round_index].hand_size
        if type(move.tricks) is not int or not 0 <= move.tricks <= size:
            return f"{move!r}: a bid is 0-{size} tricks in round {state.round.number}"
        if seat == state.dealer:
            others = [b for s, b in enumerate(state.bids) if s != seat]
            allowed = dealer_bid_range(size, others, state.hook)  # type: ignore[arg-type]
            if move.tricks not in allowed:
                rule = "the total of bids may not equal" if state.hook else "the total of bids must exceed"
                return (f"{move!r}: {rule} the hand size {size} (others bid {sum(others)}); "  # type: ignore
                        f"the dealer may bid {', '.join(map(str, allowed))}")
        return None
    if phase == PHASE_CHOOSE_TRUMP:
        if not isinstance(move, ChooseTrump):
            return f"{move!r}: the dealer (seat {seat}) must choose trump now"
        if not isinstance(move.suit, str) or move.suit not in _SUIT_INDEX:
            return f"{move!r}: unknown suit (choose one of {', '.join(SUITS)})"
        return None
    return f"{move!r}: unknown phase {phase!r}"


def _why_illegal_play(state: ClagState, seat: int, move: Play) -> str | None:
    card, names = move.card, move.names
    hand = state.hands[seat]
    if not isinstance(card, PlayingCard):
        return f"{move!r}: a play names a card, e.g. Play(PlayingCard.parse('QH'))"
    if card not in hand:
        return f"{move!r}: seat {seat} does not hold {card}"
    if names is not None and not isinstance(names, PlayingCard):
        return f"{move!r}: a two names a card, e.g. Play(two, names=PlayingCard.parse('KH'))"
    led = state.led_suit
    if state.round.wild_twos:
        must_follow = led is not None and _holds_led_non_two(hand, led)
        if card.value == TWO:
            if names is None:
                return f"{move!r}: in round 12 a two must name the card it copies"
            if names.value == TWO:
                return f"{move!r}: a two must name a card that is not a two"
            if any(p.names == names for p in state.trick):
                return f"{move!r}: another two in this trick already names {names}"
            if must_follow and names.suit != led:
                return f"{move!r}: holding a {led} card, a two must name a {led} card"
            return None
        if names is not None:
            return f"{move!r}: only a two can name another card"
        if must_follow and card.suit != led:
            return f"{move!r}: seat {seat} holds {led} and must follow suit"
        return None
    if names is not None:
        return f"{move!r}: only in round 12 may a two name another card"
    if led is not None and card.suit != led:
        for c in hand:
            if c.suit == led:
                return f"{move!r}: seat {seat} holds {led} and must follow suit"
    return None


def apply(state: ClagState, move: Move) -> None:
    """Play ``move`` for the seat to move; IllegalMoveError (state untouched) if not legal."""
    seat = state.to_move
    played = False
    if type(move) is Play and move.names is None and state.phase == PHASE_PLAY and not _WILD_ROUND[state.round_index]:
        # Most moves are plain plays: checked here, by card index; every other move and every
        # refusal (with its reason) goes to why_illegal.
        card = move.card
        if type(card) is PlayingCard:
            hand = state.hands[seat]
            index, at = card.index, 0
            for held in hand:
                if held.index == index:
                    break
                at += 1
            else:
                at = -1
            led = state.led_suit
            if at >= 0 and (led is None or card.suit == led or not _holds_suit(hand, led)):
                del hand[at]
                wild = False
                played = True
    if not played:
        reason = why_illegal(state, move)
        if reason is not None:
            raise IllegalMoveError(reason)
        if not isinstance(move, Play):
            state.moves.append(move)
            _apply_bid_or_trump(state, seat, move)
            return
        state.hands[seat].remove(move.card)
        card, wild = (move.names, True) if move.names is not None else (move.card, False)
    state.moves.append(move)
    # The card (a wild two's named card) goes on the trick; the trick and the round may end.
    trick = state.trick
    suit = card.suit
    if trick:
        led = state.led_suit
    else:
        state.led_suit = led = suit
    trick.append(move)
    state.trick_seats.append(seat)
    # _strength, inlined: this runs for most moves of a game.
    if suit == state.trump:
        key = 200 + _RANK2[_ACE_LOW_ROUND[state.round_index]][card.index] + wild
    elif suit == led:
        key = 100 + _RANK2[_ACE_LOW_ROUND[state.round_index]][card.index] + wild
    else:
        key = 0
    if key > state.best_key:
        state.best_key, state.best_seat = key, seat
    n = state.players
    if len(trick) < n:
        state.to_move = (seat + 1) % n
        return
    winner = state.best_seat
    state.tricks_won[winner] += 1
    state.taken[winner].extend([p.card for p in trick])
    state.trick, state.trick_seats = [], []
    state.led_suit, state.best_key, state.best_seat = None, -1, -1
    state.tricks_played += 1
    state.to_move = winner
    if state.tricks_played == ROUNDS[state.round_index].hand_size:
        _finish_round(state)


def _apply_bid_or_trump(state: ClagState, seat: int, move: Bid | ChooseTrump) -> None:
    n = state.players
    if isinstance(move, Bid):
        state.bids[seat] = move.tricks
        if seat == state.dealer:
            _finish_bidding(state)
        else:
            state.to_move = (seat + 1) % n
    else:
        state.trump = move.suit
        state.phase, state.to_move = PHASE_BID, (state.dealer + 1) % n


def _holds_suit(hand: list[PlayingCard], suit: str) -> bool:
    for held in hand:
        if held.suit == suit:
            return True
    return False


# --------------------------------------------------------------------------------------------
# Outcome, invariants, records


def winners(scores: Sequence[int], contracts: Sequence[int]) -> tuple[int, ...]:
    """Highest score wins; a tie goes to more completed contracts; still tied, the win is shared."""
    best = max(zip(scores, contracts))
    return tuple(seat for seat, pair in enumerate(zip(scores, contracts)) if pair == best)


def outcome(state: ClagState) -> Outcome:
    if state.phase != PHASE_OVER:
        raise IllegalMoveError(f"the game is not over (round {state.round.number}, {state.phase})")
    return Outcome(
        scores=tuple(state.scores),
        winners=winners(state.scores, state.contracts),
        reason="22 rounds played",
        turns=len(state.moves),
    )


def recompute_scores(history: Sequence[RoundRecord], players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Scores and completed contracts from the recorded bids and tricks alone (a second opinion)."""
    scores, contracts = [0] * players, [0] * players
    for record in history:
        special = ROUNDS[record.number - 1].special
        for seat in range(players):
            took = record.tricks[seat]
            if special is Special.NO_BIDS:
                made = took == max(record.tricks) and record.tricks.count(took) == 1
                scores[seat] += CONTRACT_BONUS * made
            else:
                contract = 0 if special is Special.ZERO_CONTRACTS else record.bids[seat]  # type: ignore
                made = took == contract
                scores[seat] += took + CONTRACT_BONUS * made
            contracts[seat] += made
    return tuple(scores), tuple(contracts)


def check_invariants(state: ClagState) -> None:
    """Raise InvariantError naming the broken invariant."""
    n = state.players
    rule = state.round
    # 1. no card created or lost
    places = list(state.stock)
    for hand in state.hands:
        places.extend(hand)
    places.extend(p.card for p in state.trick)
    for pile in state.taken:
        places.extend(pile)
    if state.trump_card is not None:
        places.append(state.trump_card)
    # Compare card indices, not cards: this runs after every move in checked games.
    if sorted(c.index for c in places) != [c.index for c in state.deck]:
        extra = Counter(places) - Counter(state.deck)
        missing = Counter(state.deck) - Counter(places)
        raise InvariantError(
            f"cards: stock+hands+trick+won+trump hold {len(places)} cards for a {len(state.deck)}-card deck"
            f" (extra {[str(c) for c in extra.elements()]}, missing {[str(c) for c in missing.elements()]})"
        )
    # 2. hand sizes as the round says
    dealt = not (rule.special is Special.BIDS_BEFORE_DEAL and state.phase == PHASE_BID)
    for seat, hand in enumerate(state.hands):
        expected = rule.hand_size - state.tricks_played - (seat in state.trick_seats) if dealt else 0
        if state.phase == PHASE_OVER:
            expected = 0
        if len(hand) != expected:
            raise InvariantError(f"hand size: seat {seat} holds {len(hand)} cards, round {rule.number} expects {expected}")
    # 3. trick counts sum to tricks played
    if state.phase != PHASE_OVER and sum(state.tricks_won) != state.tricks_played:
        raise InvariantError(f"tricks: won {state.tricks_won} do not sum to {state.tricks_played} played")
    for seat, pile in enumerate(state.taken):
        if len(pile) != n * state.tricks_won[seat]:
            raise InvariantError(f"tricks: seat {seat} holds {len(pile)} cards for {state.tricks_won[seat]} tricks")
    # 4. trump as the round says
    if rule.special is Special.NO_TRUMP and state.trump is not None:
        raise InvariantError(f"trump: round 8 has no trump, found {state.trump!r}")
    if state.phase == PHASE_PLAY and rule.special is not Special.NO_TRUMP and state.trump is None:
        raise InvariantError(f"trump: round {rule.number} is being played without trump")
    # 5. bids: the dealer rule held in every finished round
    for record in state.history:
        if ROUNDS[record.number - 1].has_bids:
            size = ROUNDS[record.number - 1].hand_size
            others = [b for s, b in enumerate(record.bids) if s != record.dealer]  # type: ignore[arg-type]
            if record.bids[record.dealer] not in dealer_bid_range(size, others, state.hook):  # type: ignore
                raise InvariantError(f"bids: round {record.number} dealer bid breaks the dealer rule: {record.bids}")
    # 6. scores equal an independent recomputation from the record
    scores, contracts = recompute_scores(state.history, n)
    scores = tuple(a + b for a, b in zip(scores, state.initial_scores))
    contracts = tuple(a + b for a, b in zip(contracts, state.initial_contracts))
    if scores != tuple(state.scores) or contracts != tuple(state.contracts):
        raise InvariantError(
            f"scores: kept {state.scores}/{state.contracts}, recomputed {list(scores)}/{list(contracts)}"
        )


def facts(start: ClagState | None, final: ClagState, moves: Sequence[Move], seats: Sequence[int]) -> dict[str, Any]:
    """What a balance report counts in a finished game, per round 1-22 (pure: reads the final
    state's record only, so ``start`` may be None and ``seats`` empty).

    ``made``: seats that completed their contract; ``points``: points scored by all seats;
    ``overbid``: the total of bids minus the hand size (None in rounds 9 and 15, which have no bids);
    ``dealer_made``: the dealer completed a contract; ``first_dealer``: the seat that dealt round 1
    (seats take turns from it, so a seat's place relative to it is its place in the game).
    """
    made, points, overbid, dealer_made = [], [], [], []
    for r in final.history:
        made.append(sum(r.completed))
        points.append(sum(r.points))
        overbid.append(sum(r.bids) - ROUNDS[r.number - 1].hand_size  # type: ignore[arg-type]
                       if _HAS_BIDS_ROUND[r.number - 1] else None)
        dealer_made.append(r.completed[r.dealer])
    return {
        "made": tuple(made),
        "points": tuple(points),
        "overbid": tuple(overbid),
        "dealer_made": tuple(dealer_made),
        "contracts": tuple(final.contracts),
        "first_dealer": final.first_dealer,
    }


def record(state: ClagState) -> dict[str, Any]:
    """A game record (seed, options, moves in notation, scores) that :func:`replay` reproduces."""
    return {
        "game": "clag",
        "seed": state.seed,
        "players": state.players,
        "hook": state.hook,
        "rounds": [
            {"round": r.number, "dealer": r.dealer, "trump": r.trump,
             "bids": list(r.bids) if r.bids is not None else None,
             "tricks": list(r.tricks), "points": list(r.points)}
            for r in state.history
        ],
        "moves": [str(m) for m in state.moves],
        "scores": list(state.scores),
        "contracts": list(state.contracts),
        "winners": list(winners(state.scores, state.contracts)),
    }
