"""Clag's simulation players: random, greedy (high cards and trumps) and strong (bids from
Monte-Carlo rollouts).
"""

from __future__ import annotations

import random

from printkit.games.clag.cards import (
    ACE, BIDS, Bid, ChooseTrump, Move, _ACE_LOW_ROUND, _HIGH_CARDS, _KEYS, _NO_BIDS_ROUND, _PLAYS, _SLOT,
    _WEIGHTS, _WILD_ROUND, _ranking_value, _strength, dealer_bid_range,
)
from printkit.games.clag.rules import PHASE_BID, PHASE_PLAY, ClagState, legal_moves
from printkit.games.clag.words import ROUNDS, Special


def random_player(state: ClagState, rng: random.Random) -> Move:
    """A uniformly random legal move."""
    moves = legal_moves(state)
    return moves[rng.randrange(len(moves))]


def greedy_player(state: ClagState, rng: random.Random) -> Move:
    """A simple heuristic: bid the high cards and trumps held, then play to meet the contract."""
    phase = state.phase
    if phase == PHASE_PLAY and not _WILD_ROUND[state.round_index]:
        # Most moves: a plain card, chosen as for the wild round below but from the legal cards (the
        # hand or its cards of the led suit), with strengths and weights from tables. Ties go to the
        # earliest legal card there by min/max over indices, here by list.index (the first of equals).
        seat = state.to_move
        cards = state.hands[seat]
        led = state.led_suit
        if led is not None:
            cards = [c for c in cards if c.suit == led] or cards
        if len(cards) == 1:
            return _PLAYS[cards[0].index]
        index = state.round_index
        low = _ACE_LOW_ROUND[index]
        trump = _SLOT[state.trump]
        want = _NO_BIDS_ROUND[index] or state.tricks_won[seat] < (state.bids[seat] or 0)
        if state.trick:
            table = _KEYS[low][trump][_SLOT[led]]
            keys = [table[c.index] for c in cards]
            best = state.best_key
            if want:
                winning = [k for k in keys if k > best]
                if winning:
                    return _PLAYS[cards[keys.index(min(winning))].index]
            else:
                table = _WEIGHTS[low][trump]
                # The most valuable card that loses; weights are at least 2, so -1 marks a winner.
                losing = [table[c.index] if k <= best else -1 for c, k in zip(cards, keys)]
                top = max(losing)
                return _PLAYS[cards[losing.index(top) if top >= 0 else keys.index(min(keys))].index]
        elif want:
            table = _KEYS[low][trump][4]
            keys = [table[c.index] for c in cards]
            return _PLAYS[cards[keys.index(max(keys))].index]
        table = _WEIGHTS[low][trump]
        weights = [table[c.index] for c in cards]
        return _PLAYS[cards[weights.index(min(weights))].index]
    if phase == PHASE_BID:
        return _greedy_bid(state)
    moves = legal_moves(state)
    first = moves[0]
    seat = state.to_move
    hand = state.hands[seat]
    rule = state.round
    if isinstance(first, ChooseTrump):
        # The longest suit, strongest on ties.
        def suit_weight(suit: str) -> tuple[int, int]:
            held = [c.value for c in hand if c.suit == suit]
            return len(held), sum(held)

        return max(moves, key=lambda m: suit_weight(m.suit))  # type: ignore[union-attr]
    if len(moves) == 1:
        return first  # every rule below picks one of the legal plays
    want = rule.special is Special.NO_BIDS or state.tricks_won[seat] < (state.bids[seat] or 0)
    led = state.led_suit
    trump, ace_low = state.trump, rule.ace_low
    # Round 12's plays: each play's strength in this trick (_strength, inlined) and, for discards,
    # how valuable its card is to keep. Picks go by index so that ties go to the earliest legal
    # play, as min and max over the plays do.
    keys, weights = [], []
    for move in moves:
        card, wild = (move.names, True) if move.names is not None else (move.card, False)  # type: ignore[union-attr]
        value = card.value
        if ace_low and value == ACE:
            value = 1
        suit = card.suit
        if suit == trump:
            keys.append(200 + 2 * value + wild)
            weights.append(100 + 2 * value)
        else:
            keys.append(100 + 2 * value + wild if led is None or suit == led else 0)
            weights.append(2 * value)
    indices = range(len(moves))
    if not state.trick:
        return moves[max(indices, key=keys.__getitem__) if want else min(indices, key=weights.__getitem__)]
    best = state.best_key
    winning = [i for i in indices if keys[i] > best]
    if want:
        return moves[min(winning, key=keys.__getitem__) if winning else min(indices, key=weights.__getitem__)]
    losing = [i for i in indices if keys[i] <= best]
    return moves[max(losing, key=weights.__getitem__) if losing else min(winning, key=keys.__getitem__)]


def _greedy_bid(state: ClagState) -> Bid:
    """The greedy player's bid: the nearest legal bid to the count of its high cards and trumps
    (tens and up); the lower bid on ties. Round 11 (bids before the deal): its share of the tricks."""
    seat = state.to_move
    hand = state.hands[seat]
    index = state.round_index
    size = ROUNDS[index].hand_size
    if hand:
        table = _HIGH_CARDS[_ACE_LOW_ROUND[index]][_SLOT[state.trump]]
        estimate = sum([table[c.index] for c in hand])
    else:
        estimate = round(size / state.players)
    dealer = state.dealer
    if seat != dealer:
        return BIDS[estimate]  # any bid 0..size is legal, and 0 <= estimate <= size
    others = [b for s, b in enumerate(state.bids) if s != dealer]
    # The legal bids ascend: the first nearest one is the lower on ties.
    choice, distance = 0, 99
    for bid in dealer_bid_range(size, others, state.hook):  # type: ignore[arg-type]
        if abs(bid - estimate) < distance:
            choice, distance = bid, abs(bid - estimate)
    return BIDS[choice]


STRONG_SAMPLES = 6  # deals of the unseen cards the strong player tries for each bid


def strong_player(state: ClagState, rng: random.Random) -> Move:
    """The greedy player's card play, with bids from Monte-Carlo rollouts.

    To bid, the player deals the cards it cannot see to the other seats ``STRONG_SAMPLES`` times
    (from ``rng``) and plays each deal out with everybody trying to win every trick; it bids the
    legal bid nearest the mean number of tricks it took. Round 11 (bids before the deal) and every
    other decision are the greedy player's.
    """
    moves = legal_moves(state)
    seat = state.to_move
    if not isinstance(moves[0], Bid) or not state.hands[seat]:
        return greedy_player(state, rng)
    estimate = _rollout_tricks(state, seat, rng, STRONG_SAMPLES)
    return min(moves, key=lambda m: (abs(m.tricks - estimate), m.tricks))  # type: ignore[union-attr]


def _rollout_tricks(state: ClagState, seat: int, rng: random.Random, samples: int) -> float:
    rule = state.round
    n, size = state.players, rule.hand_size
    mine = list(state.hands[seat])
    seen = set(mine)
    if state.trump_card is not None:
        seen.add(state.trump_card)
    unseen = [c for c in state.deck if c not in seen]
    ace_low = rule.ace_low
    total = 0
    for _ in range(samples):
        rng.shuffle(unseen)
        if len(unseen) >= n * size:
            hands = [list(unseen[k * size:(k + 1) * size]) for k in range(n)]
        else:  # too few unseen cards to deal a slot for this seat too (seven players): skip it
            others = iter(range(n - 1))
            hands = [[] if k == seat else list(unseen[(j := next(others)) * size:(j + 1) * size]) for k in range(n)]
        hands[seat] = list(mine)
        trump = state.trump
        if trump is None and rule.special is Special.TRUMP_AFTER_BIDS:
            trump = unseen[n * size].suit if len(unseen) > n * size else None
        leader = (state.dealer + 1) % n
        for _trick in range(size):
            led = None
            best_key, best_seat = -1, leader
            for k in range(n):
                p = (leader + k) % n
                hand = hands[p]
                follow = [c for c in hand if c.suit == led] if led is not None else hand
                pool = follow or hand
                keys = [(_strength(c.suit, c.value, False, trump, led or c.suit, ace_low), c) for c in pool]
                beating = [kc for kc in keys if kc[0] > best_key]
                if beating:
                    key, card = min(beating, key=lambda kc: kc[0]) if led is not None else max(beating, key=lambda kc: kc[0])
                else:
                    key, card = min(keys, key=lambda kc: (kc[1].suit == trump, _ranking_value(kc[1].value, ace_low)))
                hand.remove(card)
                if led is None:
                    led = card.suit
                if key > best_key:
                    best_key, best_seat = key, p
            total += best_seat == seat
            leader = best_seat
    return total / samples
