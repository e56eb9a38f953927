"""Clag rulebook: the round table and examples computed by the engine, and texts that resolve and match."""

from __future__ import annotations

import dataclasses

import pytest

from printkit import fonts
from printkit.errors import BuildError
from printkit.rulebook import markdown as md
from printkit.games.clag import rulebook as content
from printkit.games.clag import engine
from printkit.spec import DECKS_DIR
from printkit.decks import load_deck

from ._books import (assert_chapters_numbered, assert_drawable_by_bundled_fonts, built_book, coloured_pixels,
                     parse_text, resolved_text, shape)

LANGS = ("ko", "en")


@pytest.fixture(scope="module")
def deck():
    return load_deck("clag")


# ---------------------------------------------------------------- content from the engine


def test_round_table_is_the_engines(deck):
    table = content.rounds_table(deck, "en")
    assert len(table.rows) == len(engine.ROUNDS) == 22
    assert [int(row[1]) for row in table.rows] == [1, 2, 3, 4, 5, 6, 7] + [7] * 9 + [6, 5, 4, 3, 2, 1]
    assert [row[2] for row in table.rows] == [rule.title_en for rule in engine.ROUNDS]
    bidding = {int(row[0]): row[3] for row in table.rows}
    assert bidding[9] == "all 0" and bidding[15] == "none"
    assert {bidding[n] for n in range(1, 23) if n not in (9, 15)} == {"dealer rule"}
    ko = content.rounds_table(deck, "ko")
    assert [row[2] for row in ko.rows] == [rule.title_ko for rule in engine.ROUNDS]
    assert ko.header == ("라운드", "카드 수", "규칙", "계약")


def test_round_figures(deck):
    assert content.rounds(deck, "en").values == {"count": 22, "max_hand": 7, "max_dealt": 49}


def test_dealer_must_bid_five_after_three_ones(deck):
    example = content.dealer_bid(deck, "ko")
    values = example.values
    assert values["hand_size"] == 7
    assert values["others"] == "1, 1, 1" and values["others_total"] == 3
    assert values["minimum"] == 5 and values["maximum"] == 7
    assert values["allowed"] == "5, 6, 7"
    assert values["total"] == 8  # one more than the hand size
    assert values["allowed"] == ", ".join(map(str, engine.dealer_bid_range(7, [1, 1, 1])))
    assert example.rows[-1] == ("4번 플레이어 (딜러)", "5, 6, 7")


def test_hook_variant_forbids_only_the_exact_total(deck):
    values = content.dealer_bid(deck, "en").values
    assert values["hook_forbidden"] == "4"
    assert 4 not in engine.dealer_bid_range(7, [1, 1, 1], hook=True)


def test_trump_wins_the_trick(deck):
    example = content.trump_trick(deck, "en")
    values = example.values
    assert values["trump"] == "spades" and values["led"] == "hearts"
    assert values["winning_card"] == "3 of spades"
    assert values["winner"] == "Player 3"
    assert values["best_led"] == "ace of hearts"
    # the engine's pure helper agrees with the played-out trick
    plays = [engine.PlayingCard.parse(hand[0]) for hand in content.TRUMP_TRICK_HANDS]
    assert engine.trick_winner(plays, "spades", content.TRUMP_TRICK_ROUND) == 2
    assert [row[2] for row in example.rows] == ["leads", "follows suit", "trumps, wins the trick", "follows suit"]
    ko = content.trump_trick(deck, "ko").values
    assert (ko["winner"], ko["winning_card"], ko["trump"]) == ("3번 플레이어", "스페이드 3", "스페이드")


def test_wild_two_ranks_just_above_the_card_it_names(deck):
    example = content.wild_two(deck, "en")
    values = example.values
    assert values["two"] == "2 of hearts"
    assert values["named"] == "ace of clubs"
    assert values["winner"] == values["player"] == "Player 3"
    assert values["held"] == "4 of clubs"
    assert values["refused"] == "ace of diamonds"
    assert [row[2] for row in example.rows] == ["queen of clubs", "ace of clubs", "ace of clubs", "3 of clubs"]
    assert example.rows[2][3] == "wins the trick"
    assert [card.get("rank") for card in example.cards] == ["Q", "A", 2, 3]
    assert example.card_labels[2] == "Player 3 = ace of clubs"


def test_trick_figure_shows_the_printed_cards(deck):
    figure = content.trick_figure(deck, "ko")
    assert all(card in deck.cards for card in figure.cards)
    assert [(c["suit"], c["rank"]) for c in figure.cards] == [
        ("hearts", "K"), ("hearts", "A"), ("spades", 3), ("hearts", 5)]
    assert figure.labels == ("1번 플레이어", "2번 플레이어", "3번 플레이어", "4번 플레이어")


def test_a_deck_without_the_cards_cannot_show_them(deck):
    no_hearts = dataclasses.replace(deck, cards=tuple(c for c in deck.cards if c["suit"] != "hearts"))
    with pytest.raises(BuildError):
        content.trick_figure(no_hearts, "en")


# ---------------------------------------------------------------- the rule texts


@pytest.mark.parametrize("lang", LANGS)
def test_every_value_and_directive_resolves(deck, lang):
    text = resolved_text(deck, lang, {
        ("table", "rounds"), ("example", "dealer_bid"), ("example", "trump_trick"), ("example", "wild_two"),
        ("figure", "trick")})
    # the engine's verdicts reach the prose
    assert "5" in text and content.trump_trick(deck, lang).values["winner"] in text
    assert content.wild_two(deck, lang).values["named"] in text


def test_player_counts_come_from_the_engine(deck):
    ko = " ".join(b.text for b in parse_text(deck, "ko").blocks if isinstance(b, md.Paragraph))
    en = " ".join(b.text for b in parse_text(deck, "en").blocks if isinstance(b, md.Paragraph))
    assert f"{engine.MIN_PLAYERS}명에서 {engine.MAX_PLAYERS}명이" in ko
    assert f"for {engine.MIN_PLAYERS} to {engine.MAX_PLAYERS} players" in en


def test_both_languages_have_the_same_structure(deck):
    ko, en = parse_text(deck, "ko"), parse_text(deck, "en")
    assert shape(ko) == shape(en)
    assert ko.title == en.title == deck.name == "Clag"  # the spec's name, in both books
    assert "클래그" in ko.subtitle


@pytest.mark.parametrize("lang", LANGS)
def test_every_character_is_in_the_bundled_fonts(deck, lang):
    text = assert_drawable_by_bundled_fonts(deck, lang)
    if lang == "ko":
        # suits are written as words, and the minus signs and quotes are in the family:
        # the Korean book needs no fallback glyphs
        assert fonts.missing_glyphs(text, fonts.KOREAN) == ""


@pytest.mark.parametrize("lang", LANGS)
def test_the_dealers_minimum_bid_is_set_with_a_minus_sign(deck, lang):
    dealer_rule = next(b.text for b in parse_text(deck, lang).blocks
                       if isinstance(b, md.Paragraph) and ("딜러 규칙" in b.text or "Dealer rule" in b.text))
    set_ = md.plain(dealer_rule)
    assert "+ 1 \u2212 " in set_ and " - " not in set_


# ---------------------------------------------------------------- the built books


@pytest.fixture(scope="module", params=LANGS)
def book(request, deck):
    pdf, texts = built_book(DECKS_DIR / "clag.yaml", request.param)
    return request.param, pdf, texts


def test_book_has_the_chapters_and_the_engine_values(book, deck):
    lang, _, texts = book
    body = " ".join(texts[2:])
    assert_chapters_numbered(deck, lang, body)
    dealer = content.dealer_bid(deck, lang)
    assert dealer.rows[-1][1] == "5, 6, 7" and "5, 6, 7" in body
    trick = content.trump_trick(deck, lang)
    assert trick.rows[2][2] in body  # "trumps, wins the trick"
    for rule in engine.ROUNDS:
        assert (rule.title_ko if lang == "ko" else rule.title_en) in body


def test_book_draws_cards_where_figures_are_promised(book, deck):
    lang, pdf, texts = book
    assert coloured_pixels(pdf, 0) > 800, "the title page shows the aces"
    caption = content.trick_figure(deck, lang).caption[:12]
    page = next(i for i, text in enumerate(texts) if caption in text)
    assert coloured_pixels(pdf, page) > 800
