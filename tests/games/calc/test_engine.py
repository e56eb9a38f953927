"""The Calc engine: every rule and decision of GAMES.md as a small position, deals, decks, players,
golden game records and property tests of the invariants."""

from __future__ import annotations

import copy
import json
import os
import random
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from printkit.deck import Card, Deck
from printkit.errors import DeckError, IllegalMoveError
from printkit.games.calc import engine as calc
from printkit.errors import InvariantError
from printkit.games import engine_for
from printkit.games.calc.engine import DRAW, Draw, Play
from printkit.games.calc.score import format_value, parse_card
from printkit.games.calc.value import Big
from printkit.rules.play import bot_rng, play_game
from printkit.decks import load_deck

ENGINE = calc.ENGINE
GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden"


@pytest.fixture(scope="module")
def standard() -> Deck:
    return load_deck("calc", "standard")


@pytest.fixture(scope="module")
def expert() -> Deck:
    return load_deck("calc", "expert")


def position(hands: list[str], pays: list[str], deck: str = "1+ 2+", turn: int = 0) -> calc.CalcState:
    """A hand-made position; cards written as in ``printkit score`` (deck top last)."""
    cards = []

    def ids(text: str) -> list[int]:
        out = []
        for token in text.split():
            cards.append(parse_card(token))
            out.append(len(cards) - 1)
        return out

    hand_ids = [ids(h) for h in hands]
    pay_ids = [ids(p) for p in pays]
    deck_ids = ids(deck)
    return calc.from_position(cards, hand_ids, pay_ids, deck_ids, turn)


def card(state: calc.CalcState, seat: int, text: str) -> int:
    """The index of the first card written ``text`` in ``seat``'s hand."""
    return next(i for i in state.hands[seat] if state.cards[i].text == text)


def play(state: calc.CalcState, text: str, pay: int) -> None:
    ENGINE.apply(state, Play(card(state, state.turn, text), pay))


def assert_illegal(state: calc.CalcState, move, *words: str) -> None:
    before = state.snapshot()
    deep = copy.deepcopy(state)
    with pytest.raises(IllegalMoveError) as info:
        ENGINE.apply(state, move)
    assert repr(move) in str(info.value)
    for word in words:
        assert word in str(info.value)
    assert state.snapshot() == before
    assert state.snapshot() == deep.snapshot()


# ---------------------------------------------------------------- legal plays


def test_empty_pay_takes_any_card():
    state = position(["3x 4+", "5-"], ["", ""])
    play(state, "3x", 1)
    assert state.cards[state.pays[1][-1]].text == "3x"


def test_card_must_match_number_or_symbol():
    state = position(["3x 4+ 5x 3-", "6+"], ["", "3+"])
    assert calc.can_play(state, card(state, 0, "3x"), 1)  # same number
    assert calc.can_play(state, card(state, 0, "4+"), 1)  # same symbol
    assert not calc.can_play(state, card(state, 0, "5x"), 1)
    assert_illegal(state, Play(card(state, 0, "5x"), 1), "matches neither", "3+")


def test_play_on_any_pay_own_or_other():
    state = position(["3+ 4+", "6+"], ["1+", "2+"])
    play(state, "3+", 0)
    assert state.turn == 1
    play(state, "6+", 0)
    assert [state.cards[i].text for i in state.pays[0]] == ["1+", "3+", "6+"]


def test_seven_locks_a_pay_against_other_players():
    state = position(["7x 2+", "7+ 9+ 7-"], ["", ""], turn=1)
    play(state, "7+", 1)  # seat 1 locks its own pay
    assert_illegal(state, Play(card(state, 0, "7x"), 1), "7 on top", "only seat 1")
    assert_illegal(state, Play(card(state, 0, "2+"), 1), "7 on top")


def test_owner_of_a_locked_pay_still_has_to_match():
    state = position(["2+", "7+ 9x 7- 5+"], ["", "7+"], turn=1)
    assert_illegal(state, Play(card(state, 1, "9x"), 1), "matches neither")
    assert calc.can_play(state, card(state, 1, "7-"), 1)  # number 7
    assert calc.can_play(state, card(state, 1, "5+"), 1)  # symbol +


def test_lock_ends_when_a_non_seven_is_on_top():
    state = position(["2+ 3+", "5+ 4-"], ["", "7+"], turn=1)
    play(state, "5+", 1)
    assert calc.can_play(state, card(state, 0, "2+"), 1)


def test_seven_lock_holds_against_a_matching_seven():
    state = position(["7+ 1+", "2-"], ["", "7x"])
    assert not calc.can_play(state, card(state, 0, "7+"), 1)


def test_joker_goes_on_any_pay_even_a_locked_one():
    state = position(["J 3+", "4-"], ["", "7x"])
    play(state, "J", 1)
    assert state.values[1] == 0


def test_joker_on_top_counts_as_empty_and_a_seven_under_it_locks_nothing():
    state = position(["9x 3+", "4-"], ["", "7+ J"])
    assert calc.can_play(state, card(state, 0, "9x"), 1)
    play(state, "9x", 1)
    assert state.values[1] == 9  # first card above the joker is a bottom card


def test_joker_can_be_played_on_a_joker_and_on_an_empty_pay():
    state = position(["J J 2+", "4-"], ["", "J"])
    assert calc.can_play(state, card(state, 0, "J"), 0)
    assert calc.can_play(state, card(state, 0, "J"), 1)


def test_card_must_be_in_the_movers_hand():
    state = position(["3+", "4+"], ["", ""])
    assert_illegal(state, Play(card(state, 1, "4+"), 0), "not in seat 0's hand")


def test_nonexistent_pay_and_card_and_foreign_moves():
    state = position(["3+", "4+"], ["", ""])
    assert_illegal(state, Play(card(state, 0, "3+"), 2), "no pay 2")
    assert_illegal(state, Play(999, 0), "no card 999")
    assert_illegal(state, "draw", "not a Calc move")


# ---------------------------------------------------------------- drawing, turns, end


def test_draw_is_allowed_even_when_a_play_is_possible():
    state = position(["3+", "4+"], ["", ""], deck="1+ 2+ 5x")
    assert DRAW in ENGINE.legal_moves(state)
    ENGINE.apply(state, DRAW)
    assert [state.cards[i].text for i in state.hands[0]] == ["3+", "5x"]  # the top card
    assert state.turn == 1


def test_seat_zero_starts_and_order_is_seat_order(standard):
    state = ENGINE.new_game(standard, 3, seed=5)
    seen = []
    for _ in range(6):
        seen.append(ENGINE.current_player(state))
        ENGINE.apply(state, DRAW)
    assert seen == [0, 1, 2, 0, 1, 2]


def test_game_ends_when_a_hand_is_empty():
    state = position(["3+", "4+ 5+"], ["", ""], deck="1+ 2+")
    play(state, "3+", 0)
    assert ENGINE.is_over(state)
    assert state.ended == calc.HAND_EMPTY
    assert ENGINE.legal_moves(state) == []
    assert_illegal(state, DRAW, "game is over")


def test_game_ends_when_the_deck_is_empty():
    state = position(["3+ 1x", "4+ 5+"], ["", ""], deck="6+")
    ENGINE.apply(state, DRAW)
    assert ENGINE.is_over(state)
    assert state.ended == calc.DECK_EMPTY


def test_moves_listed_are_exactly_the_legal_ones():
    state = position(["3+ 7x J 2-", "4+ 5x", "9x"], ["3x", "7-", ""], deck="1+ 2+")
    listed = set(ENGINE.legal_moves(state))
    every = {Play(c, p) for c in range(len(state.cards)) for p in range(3)} | {DRAW}
    for move in every:
        assert (move in listed) == (calc.why_illegal(state, move) is None), move


# ---------------------------------------------------------------- scores and winners


def test_fewest_cards_get_five_and_ties_all_get_it():
    state = position(["3+", "4+ 5+", "6x"], ["9- 5x 2- 1+ 8+", "2+", "1+"], deck="1+")
    ENGINE.apply(state, Play(card(state, 0, "3+"), 0))  # seat 0's hand is now empty: game over
    out = ENGINE.outcome(state)
    assert out.scores == (55 + 5, 2, 1)
    assert out.winners == (0,)
    assert out.reason == calc.HAND_EMPTY
    state = position(["3+ 1+", "4+ 5+", "6x 2+"], ["", "", ""], deck="1+")
    ENGINE.apply(state, DRAW)
    assert ENGINE.outcome(state).scores == (0, 5, 5)


def test_shared_win_when_scores_are_equal():
    state = position(["1+ 2+", "1x 2x"], ["5+", "5x"], deck="9+")
    ENGINE.apply(state, Play(card(state, 0, "1+"), 0))  # seat 0: 6 with 1 card
    ENGINE.apply(state, DRAW)  # seat 1 draws the last card: 5, with 3 cards
    out = ENGINE.outcome(state)
    assert out.scores == (6 + 5, 5)
    state = position(["1+ 2+", "1x 2x"], ["6+", "6x"], deck="9+")
    ENGINE.apply(state, DRAW)
    out = ENGINE.outcome(state)
    assert out.scores == (6, 11)
    state = position(["1+ 2+", "1x 2x"], ["6+", "6x"], deck="9+ 8+")
    ENGINE.apply(state, DRAW)
    ENGINE.apply(state, DRAW)
    out = ENGINE.outcome(state)
    assert out.scores == (11, 11)
    assert out.winners == (0, 1)


def test_fractional_scores_are_exact():
    state = position(["1+ 2+", "2x 1x"], ["3+ -1^ 7x", ""], deck="9+")
    ENGINE.apply(state, DRAW)
    out = ENGINE.outcome(state)
    assert out.scores[0] == Fraction(7, 3)


def test_bonus_decides_between_two_equal_astronomic_pays():
    # Both pays are 9^(9^6) = 3^1062882 (half a million digits: past the Fraction range, exact
    # nonetheless); seat 1 holds the fewest cards, so 3^1062882 + 5 wins alone.
    tower = "9+ 9^ 9^ 9^ 9^ 9^ 9^"
    state = position(["1x 2x", "3x"], [tower, tower], deck="5+")
    ENGINE.apply(state, DRAW)
    out = ENGINE.outcome(state)
    assert isinstance(out.scores[0], Big) and isinstance(out.scores[1], Big)
    assert out.scores[1] > out.scores[0] and out.scores[1] - out.scores[0] == 5
    assert out.winners == (1,)
    # Without the bonus difference the same pays share the win.
    state = position(["1x", "3x 4x"], [tower, tower], deck="5+")  # 2 cards each after the draw
    ENGINE.apply(state, DRAW)
    assert ENGINE.outcome(state).winners == (0, 1)


def test_no_cap_on_large_scores():
    # 3^1458 (696 digits) doubled is a different, larger score; a negative one stays below.
    state = position(["1x 2x", "3x"], ["9+ 9^ 9^ 9^", "9+ 9^ 9^ 9^ 2x"], deck="5+")
    ENGINE.apply(state, DRAW)
    out = ENGINE.outcome(state)
    assert out.scores == (3**1458, 2 * 3**1458 + 5)
    assert out.winners == (1,)
    state = position(["1x 2x", "3x"], ["", "-1x 9x 9^ 9^ 9^"], deck="5+")
    ENGINE.apply(state, DRAW)
    assert ENGINE.outcome(state).scores == (0, -(9**729) + 5)


def test_outcome_refused_before_the_end(standard):
    with pytest.raises(IllegalMoveError):
        ENGINE.outcome(ENGINE.new_game(standard, 2, 0))


# ---------------------------------------------------------------- deal and decks


def test_deal_gives_seven_each_and_is_seeded(standard):
    a = ENGINE.new_game(standard, 4, seed=3)
    b = ENGINE.new_game(standard, 4, seed=3)
    c = ENGINE.new_game(standard, 4, seed=4)
    assert [len(h) for h in a.hands] == [7, 7, 7, 7]
    assert len(a.deck) == 133 - 28
    assert a.snapshot() == b.snapshot()
    assert a.snapshot() != c.snapshot()
    ENGINE.check_invariants(a)


def test_real_decks_are_valid(standard, expert):
    assert len(standard) == 133 and len(expert) == 177
    assert not any(c.get("symbol") == "power" for c in standard.cards)
    ENGINE.validate_deck(standard)
    ENGINE.validate_deck(expert)
    assert engine_for("calc") is ENGINE


@pytest.mark.parametrize("players", [1, 9, 0, "4"])
def test_player_count_out_of_range(standard, players):
    with pytest.raises(DeckError, match="2 to 8 players"):
        ENGINE.new_game(standard, players, 0)


def test_calc_takes_no_options_from_the_spec_or_keywords(standard):
    with_option = replace(standard, options={"hook": True})
    for call in (lambda: ENGINE.validate_deck(with_option), lambda: ENGINE.new_game(with_option, 2, 0),
                 lambda: ENGINE.new_game(standard, 2, 0, jokers=2)):
        with pytest.raises(DeckError, match="unknown Calc option.*Calc takes no options"):
            call()
    with pytest.raises(DeckError, match="'hook'"):
        ENGINE.validate_deck(with_option)


def test_outcome_turns_count_turns_of_one_move_each():
    assert ENGINE.length_unit == "turns"


@pytest.mark.parametrize("move", [
    None, 0, "draw", (0, 0), [0, 0], {"card": 0}, object(), Play, Draw, Play(None, None), Play("0", 0),
    Play(0, "0"), Play([0], 0), Play(0, [0]), Play(1.0, 0), Play(True, 0), Play(0, False), Play(-1, 0), Play(0, 9),
])
def test_malformed_moves_are_refused_without_change(move):
    state = position(["1+ 2+", "1x 2x"], ["5+", ""], deck="9+")
    assert_illegal(state, move)


def _with_cards(deck: Deck, cards) -> Deck:
    return replace(deck, cards=tuple(cards))


def test_deck_without_a_joker_is_refused(standard):
    deck = _with_cards(standard, [c for c in standard.cards if c.get("kind") != "joker"])
    with pytest.raises(DeckError, match="no joker"):
        ENGINE.validate_deck(deck)


def test_deck_with_numbers_outside_the_range_is_refused(standard):
    bad = Card("numbers-999", "numbers", {"kind": "number", "symbol": "plus", "number": 10}, standard.art, standard.size)
    with pytest.raises(DeckError, match="number 10, outside -1..9"):
        ENGINE.validate_deck(_with_cards(standard, [*standard.cards, bad]))


def test_deck_with_unknown_symbols_is_refused(standard):
    bad = Card("numbers-999", "numbers", {"kind": "number", "symbol": "divide", "number": 3}, standard.art, standard.size)
    with pytest.raises(DeckError, match="unknown symbol 'divide'"):
        ENGINE.validate_deck(_with_cards(standard, [*standard.cards, bad]))


def test_deck_too_small_to_deal_is_refused(standard):
    small = _with_cards(standard, standard.cards[-10:])
    with pytest.raises(DeckError, match="at least 15"):
        ENGINE.validate_deck(small)
    for_two = _with_cards(standard, standard.cards[-20:])
    ENGINE.validate_deck(for_two)
    ENGINE.new_game(for_two, 2, 0)
    with pytest.raises(DeckError, match="too few to deal"):
        ENGINE.new_game(for_two, 3, 0)


# ---------------------------------------------------------------- players


def test_random_player_uses_only_the_rng_it_is_given(standard):
    state = ENGINE.new_game(standard, 4, 1)
    moves_a = [calc.random_player(state, random.Random(9)) for _ in range(3)]
    random.seed(12345)
    moves_b = [calc.random_player(state, random.Random(9)) for _ in range(3)]
    assert moves_a == moves_b
    assert all(m in ENGINE.legal_moves(state) for m in moves_a)


def test_greedy_raises_its_own_score_first():
    state = position(["9x 1+ 2-", "4+"], ["5x", "8+"])
    assert greedy(state) == Play(card(state, 0, "9x"), 0)  # 5 x 9 = 45 on its own pay


def test_greedy_hurts_the_leader_when_it_cannot_gain():
    state = position(["J 0x", "4+"], ["", "8+ 1+"])
    move = greedy(state)
    assert move.pay == 1 and state.cards[move.card].text in ("J", "0x")


def test_greedy_draws_otherwise():
    state = position(["5-", "4+"], ["9+", "1+"])
    assert greedy(state) == DRAW


def greedy(state):
    return calc.greedy_player(state, random.Random(0))


# ---------------------------------------------------------------- invariants


def test_invariants_catch_a_lost_card(standard):
    state = ENGINE.new_game(standard, 2, 0)
    state.hands[0].pop()
    with pytest.raises(InvariantError, match="card conservation"):
        ENGINE.check_invariants(state)


def test_invariants_catch_a_wrong_cached_score():
    state = position(["3+", "4+"], ["2+", ""])
    state.values[0] = Fraction(7)
    with pytest.raises(InvariantError, match="pay score"):
        ENGINE.check_invariants(state)


def test_invariants_catch_an_unmatched_pay():
    state = position(["3+", "4+"], ["2+ 5x", ""])
    with pytest.raises(InvariantError, match="pay order"):
        ENGINE.check_invariants(state)


def independent_scores(deck: Deck, players: int, seed: int, moves) -> tuple:
    """Final scores rebuilt from the record alone: deal, follow the moves, score textbook-style."""
    state = ENGINE.new_game(deck, players, seed)
    hands = [list(h) for h in state.hands]
    pile = list(state.deck)
    pays: list[list[int]] = [[] for _ in range(players)]
    for i, move in enumerate(moves):
        seat = i % players
        if isinstance(move, Draw):
            hands[seat].append(pile.pop())
        else:
            hands[seat].remove(move.card)
            pays[move.pay].append(move.card)
    fewest = min(map(len, hands))
    scores = []
    for seat in range(players):
        cards = [deck.cards[i] for i in pays[seat]]
        top = max((k for k, c in enumerate(cards) if c["kind"] == "joker"), default=-1)
        counted = cards[top + 1 :]
        total = Fraction(counted[0]["number"]) if counted else Fraction(0)
        for c in counted[1:]:
            n = c["number"]
            total = {"plus": total + n, "minus": total - n, "times": total * n}[c["symbol"]]
        scores.append(total + (5 if len(hands[seat]) == fewest else 0))
    return tuple(scores)


@given(seed=st.integers(0, 10**6), players=st.integers(2, 8), bot=st.sampled_from(["random", "greedy"]))
def test_seeded_games_keep_every_invariant_and_scores_recompute(standard, seed, players, bot):
    record = play_game(ENGINE, standard, players, seed, bot)  # checks invariants after every move
    assert record.outcome.turns == len(record.moves)
    assert record.outcome.scores == independent_scores(standard, players, seed, record.moves)


@given(seed=st.integers(0, 10**6), players=st.integers(2, 8))
def test_expert_games_keep_every_invariant(expert, seed, players):
    record = play_game(ENGINE, expert, players, seed, "random")
    assert record.outcome.reason in (calc.HAND_EMPTY, calc.DECK_EMPTY)


@given(seed=st.integers(0, 10**6), tries=st.lists(st.tuples(st.integers(-2, 180), st.integers(-1, 8)), max_size=40))
def test_random_moves_are_applied_or_refused_without_change(expert, seed, tries):
    state = ENGINE.new_game(expert, 3, seed)
    for card_index, pay in tries:
        if ENGINE.is_over(state):
            break
        move = Play(card_index, pay)
        if move in ENGINE.legal_moves(state):
            ENGINE.apply(state, move)
        else:
            before = state.snapshot()
            with pytest.raises(IllegalMoveError):
                ENGINE.apply(state, move)
            assert state.snapshot() == before
        ENGINE.check_invariants(state)


# ---------------------------------------------------------------- golden records

GOLDEN_GAMES = [
    ("calc_standard_4p_random_seed1.json", "standard", 4, 1, "random"),
    ("calc_standard_2p_greedy_seed2.json", "standard", 2, 2, "greedy"),
    ("calc_expert_3p_greedy_seed7.json", "expert", 3, 7, "greedy"),
    ("calc_expert_8p_random_seed5.json", "expert", 8, 5, "random"),
]


def _record_json(variant, players, seed, bot) -> dict:
    deck = load_deck("calc", variant)
    record = play_game(ENGINE, deck, players, seed, bot)
    state = ENGINE.new_game(deck, players, seed)
    moves = []
    for move in record.moves:
        moves.append(ENGINE.encode_move(state, move))
        ENGINE.apply(state, move)
    return {
        "game": "calc",
        "variant": variant,
        "players": players,
        "seed": seed,
        "bot": bot,
        "moves": moves,
        "scores": [format_value(s) for s in record.outcome.scores],
        "winners": list(record.outcome.winners),
        "reason": record.outcome.reason,
        "turns": record.outcome.turns,
    }


@pytest.mark.parametrize("name, variant, players, seed, bot", GOLDEN_GAMES)
def test_golden_records_replay(name, variant, players, seed, bot):
    path = GOLDEN / name
    if os.environ.get("PRINTKIT_REGENERATE_GOLDEN"):
        path.write_text(json.dumps(_record_json(variant, players, seed, bot), indent=1) + "\n")
    data = json.loads(path.read_text())
    deck = load_deck("calc", data["variant"])
    state = ENGINE.new_game(deck, data["players"], data["seed"])
    for encoded in data["moves"]:
        move = ENGINE.decode_move(state, encoded)
        assert move in ENGINE.legal_moves(state), encoded
        ENGINE.apply(state, move)
        ENGINE.check_invariants(state)
    out = ENGINE.outcome(state)
    assert [format_value(s) for s in out.scores] == data["scores"]
    assert list(out.winners) == data["winners"]
    assert out.reason == data["reason"]
    assert out.turns == data["turns"]


@pytest.mark.parametrize("name, variant, players, seed, bot", GOLDEN_GAMES)
def test_bots_still_play_the_golden_games(name, variant, players, seed, bot):
    """The same seed and bot give the same game (determinism of deal, engine and players)."""
    assert _record_json(variant, players, seed, bot) == json.loads((GOLDEN / name).read_text())


def test_bot_rng_is_independent_of_the_global_rng():
    random.seed(1)
    a = bot_rng(5).random()
    random.seed(2)
    assert bot_rng(5).random() == a
