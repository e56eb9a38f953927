"""Calc rulebook content: card figures, worked examples played through the rule engine, tables.

Every score and every legal/illegal verdict below comes from :mod:`printkit.games.calc.engine` and
:mod:`printkit.games.calc.score`; the text only explains them. Where an example states what the
engine must decide (e.g. "this play is refused"), the engine is asked and a disagreement fails
the build, so the book cannot teach a rule the engine does not follow.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from printkit.deck import Card, Deck
from printkit.errors import BuildError
from printkit.games.calc.words import SIGNS, SYMBOL_NAMES
from printkit.games.calc import engine
from printkit.games.calc.score import PayCard, format_decimal, pay_card, pay_value, score_pay
from printkit.layout.geometry import Box
from printkit.layout.ops import Ellipse
from printkit.rulebook.content import CardParts, Example, Figure, Pile, Table, TableSetup, Zone, name_in, pick
from printkit.decks import load_deck

# The two players of the examples.
# Korean names end in a vowel, so the particles 가/는/를 after them are always right.
PLAYERS = {"ko": ("지우", "도하"), "en": ("Ana", "Ben")}

CardSpec = tuple[str, int] | str  # (symbol, number) or "joker"


# ---------------------------------------------------------------- helpers


def number_text(value: int | Fraction) -> str:
    """A number with a typographic minus sign, fractions as ``a/b``."""
    value = Fraction(value)
    text = str(abs(value.numerator)) if value.denominator == 1 else f"{abs(value.numerator)}/{value.denominator}"
    return ("−" if value < 0 else "") + text


def card_text(card: Card | PayCard, lang: str) -> str:
    """A card in the book's notation: number then symbol (``9−``, ``5×``), or the joker's name."""
    pc = pay_card(card)
    if pc.is_joker:
        return pick(lang, "조커", "joker")
    return f"{number_text(pc.number)}{SIGNS[pc.symbol]}"


def find_cards(deck: Deck, specs: Sequence[CardSpec]) -> tuple[Card, ...]:
    """Distinct physical cards of ``deck`` matching ``specs`` (repeats take further copies)."""
    used: set[str] = set()
    found = []
    for spec in specs:
        for card in deck.cards:
            if card.uid in used:
                continue
            if spec == "joker":
                ok = card.get("kind") == "joker"
            else:
                ok = card.get("kind") == "number" and (card.get("symbol"), card.get("number")) == spec
            if ok:
                used.add(card.uid)
                found.append(card)
                break
        else:
            raise BuildError(f"deck {deck.name!r} (variant {deck.variant!r}) has no (further) card {spec!r}")
    return tuple(found)


def expert_deck(deck: Deck) -> Deck:
    """The variant with power cards (the book's deck is the spec's default variant)."""
    if any(card.get("symbol") == "power" for card in deck.cards):
        return deck
    return load_deck(deck.spec_path, "expert")


def _verdict(state: engine.CalcState, card: int, pay: int, expect_legal: bool, step: str) -> bool:
    legal = engine.why_not_playable(state, card, pay) is None
    if legal != expect_legal:
        reason = engine.why_not_playable(state, card, pay)
        raise BuildError(
            f"the rule engine {'allows' if legal else 'refuses'} {step} "
            f"({reason or 'legal'}), but the rulebook's example says the opposite"
        )
    return legal


def _step_rows(cards: Sequence[Card], lang: str) -> tuple[list[tuple[str, ...]], Fraction, list[str]]:
    """Table rows and per-card score labels for scoring a pay, from the engine's scoring steps."""
    rows, labels = [], []
    steps = score_pay(cards)
    for step in steps:
        card = card_text(cards[step.position], lang)
        if step.role == "ignored":
            how = pick(lang, "조커 아래: 세지 않음", "below the joker: not counted")
            labels.append(pick(lang, "무효", "void"))
        elif step.role == "joker":
            how = pick(lang, "조커: 0부터 다시", "joker: start again from 0")
            labels.append(number_text(step.after))
        elif step.role == "bottom":
            how = pick(lang, f"맨 아래 카드, 기호 무시: 0 + {number_text(step.card.number)} = {number_text(step.after)}",
                       f"bottom card, symbol ignored: 0 + {number_text(step.card.number)} = {number_text(step.after)}")
            labels.append(number_text(step.after))
        else:
            operand = number_text(step.card.number)
            if step.card.number < 0:
                operand = f"({operand})"
            how = f"{number_text(step.before)} {SIGNS[step.card.symbol]} {operand} = {number_text(step.after)}"
            labels.append(number_text(step.after))
        rows.append((str(step.position + 1), card, how, number_text(step.after)))
    final = steps[-1].after if steps else Fraction(0)
    return rows, final, labels


def _score_header(lang: str) -> tuple[str, ...]:
    return (pick(lang, "순서", "Order"), pick(lang, "카드", "Card"), pick(lang, "계산", "Calculation"),
            pick(lang, "점수", "Score"))


# ---------------------------------------------------------------- figures


def cover(deck: Deck, lang: str) -> Figure:
    return Figure(find_cards(deck, [("plus", 7), ("minus", 2), ("times", 5), "joker"]), scale=0.75)


def symbols(deck: Deck, lang: str) -> Figure:
    """One card of each symbol (power from the expert game) and the joker."""
    expert = expert_deck(deck)
    cards = find_cards(expert, [("plus", 3), ("minus", 8), ("times", -1), ("power", 2), "joker"])
    labels = tuple(
        name_in(SYMBOL_NAMES, c["symbol"], lang, "symbol") if c.get("symbol") else pick(lang, "조커", "joker")
        for c in cards
    )
    return Figure(cards, caption=pick(
        lang, "왼쪽부터 덧셈, 뺄셈, 곱셈, 거듭제곱(전문가용) 카드와 조커. 숫자는 오른쪽 위에 있습니다.",
        "From the left: plus, minus, times, power (expert game only) and the joker. The number sits in the top-right corner."),
        labels=labels, scale=0.5)


SETUP_PLAYERS = 4
ANATOMY_CARD: CardSpec = ("minus", 9)  # the bottom card of the seed's pay


def anatomy(deck: Deck, lang: str) -> CardParts:
    """A number card with its parts named: the number, the small and the large symbol."""
    from printkit.rulebook.figures import located, text_box, turned

    (card,) = find_cards(deck, [ANATOMY_CARD])
    w, h = card.size.width_mm, card.size.height_mm

    def places(face) -> tuple[Box, ...]:
        number = text_box(face, number_text(card["number"]))
        # The small symbol is the disc under the number; the large one fills the middle.
        badge = next(op for op in face.ops if isinstance(op, Ellipse) and op.cy_mm < h / 2)
        small = Box(badge.cx_mm - badge.rx_mm, badge.cy_mm - badge.ry_mm, 2 * badge.rx_mm, 2 * badge.ry_mm)
        r = min(w, h) * 0.25
        return number, small, Box(w / 2 - r, h / 2 - r, 2 * r, 2 * r), turned(number, card)

    symbol = name_in(SYMBOL_NAMES, card["symbol"], lang, "symbol")
    return CardParts(card, located(places, (
        pick(lang, "숫자 (−1~9)", "number (−1 to 9)"),
        pick(lang, "기호 (작게)", "symbol (small)"),
        pick(lang, f"기호: {symbol}", f"symbol: {symbol}"),
        pick(lang, "거꾸로 놓인 숫자", "number, upside down"),
    )), caption=pick(lang, f"{card_text(card, lang)} 카드. 낼 때는 숫자나 기호가 맞아야 하고, 점수를 셀 때는 "
                          "기호가 연산자, 숫자가 값입니다.",
                    f"The {card_text(card, lang)} card. To play it, its number or symbol must match; "
                    "when scoring, the symbol is the operator and the number the value."))


def setup(deck: Deck, lang: str) -> TableSetup:
    """Four players round the deck, each with a hidden hand of 7 and an empty place for a pay."""
    hand = engine.HAND_SIZE
    card = deck.cards[0]
    left = len(deck.cards) - SETUP_PLAYERS * hand
    if left < 1:
        raise BuildError(f"deck {deck.name!r} has too few cards to deal {hand} to {SETUP_PLAYERS} players")

    def seat(n: int) -> Zone:
        return Zone(pick(lang, f"{n}번 플레이어: 손패와 페이", f"Player {n}: hand and pay"),
                    (Pile(card, back=True, count=hand, fan=True), Pile(None)))

    middle = Zone(pick(lang, "덱 (뒷면이 위로)", "Deck (face down)"), (Pile(card, back=True, count=left),))
    return TableSetup(
        rows=((seat(3),), (seat(2), middle, seat(4)), (seat(1),)),
        caption=pick(lang, f"{SETUP_PLAYERS}명의 시작 모습. 각자 {hand}장을 남에게 보이지 않게 들고, 자기 앞에 "
                           f"빈 페이 자리(점선)를 둡니다. 남은 {left}장이 덱입니다.",
                     f"{SETUP_PLAYERS} players ready to start. Each holds {hand} cards hidden in hand and keeps an "
                     f"empty place in front of them for a pay (dashed). The other {left} cards are the deck."))


# ---------------------------------------------------------------- examples


def _scored_pay(cards: Sequence[Card], lang: str, values: dict, caption: str) -> Example:
    """A pay scored card by card: the engine's steps as the table, each card labelled with the running score."""
    rows, _, labels = _step_rows(cards, lang)
    return Example(values=values, header=_score_header(lang), rows=tuple(rows), cards=tuple(cards),
                   card_labels=tuple(labels), caption=caption)


def seed(deck: Deck, lang: str) -> Example:
    """The scoring example of the original rules: 9−, 5×, 2−, 1+, 8+ scores 52."""
    cards = find_cards(deck, [("minus", 9), ("times", 5), ("minus", 2), ("plus", 1), ("plus", 8)])
    score = number_text(pay_value(cards))
    return _scored_pay(cards, lang, values={"score": score, "cards": len(cards)},
                       caption=pick(lang, f"맨 아래(왼쪽)부터 계산합니다. 최종 점수 {score}점.",
                                    f"Scored from the bottom (left) card up. Final score: {score}."))


def matching(deck: Deck, lang: str) -> Example:
    """Which cards may go on a pay showing 4+: the engine decides each one."""
    me, other = PLAYERS[lang]
    top = ("plus", 4)
    tries: list[tuple[CardSpec, bool, str, str]] = [
        (("times", 4), True, "숫자가 같습니다 (4)", "same number (4)"),
        (("plus", 9), True, "기호가 같습니다 (+)", "same symbol (+)"),
        (("minus", 6), False, "숫자도 기호도 다릅니다", "neither number nor symbol matches"),
        ("joker", True, "조커는 어디에나 낼 수 있습니다", "a joker goes on any pay"),
    ]
    cards = find_cards(deck, [top] + [t[0] for t in tries] + [("minus", 1), ("plus", 6)])
    pcs = [pay_card(c) for c in cards]
    hand = list(range(1, len(tries) + 1))
    # Only legality is asked in this position; nothing is played.
    state = engine.from_position(pcs, hands=[[len(tries) + 1], hand], pays=[[0], []], deck=[len(tries) + 2], turn=1)
    rows = []
    legal_count = 0
    for i, (spec, expect, why_ko, why_en) in enumerate(tries, start=1):
        legal = _verdict(state, i, 0, expect, f"{card_text(pcs[i], 'en')} on 4+")
        legal_count += legal
        rows.append((card_text(pcs[i], lang), pick(lang, "낼 수 있음", "allowed") if legal else pick(lang, "낼 수 없음", "not allowed"),
                     pick(lang, why_ko, why_en)))
    return Example(
        values={"top": card_text(pcs[0], lang), "allowed": legal_count, "tried": len(tries)},
        header=(pick(lang, "낼 카드", "Card"), pick(lang, "판정", "Verdict"), pick(lang, "이유", "Why")),
        rows=tuple(rows),
        cards=cards[: len(tries) + 1],
        card_labels=(pick(lang, "페이 맨 위", "top of the pay"),) + tuple(r[1] for r in rows),
        caption=pick(lang, f"{me}의 페이 맨 위에 {card_text(pcs[0], lang)} 카드가 있을 때 {other}가 낼 수 있는 카드.",
                     f"What {other} may play on {me}'s pay when {card_text(pcs[0], lang)} is on top."),
    )


def lock_joker(deck: Deck, lang: str) -> Example:
    """A 7 locks a pay, a joker breaks the lock, and the cards under the joker stop counting."""
    a, b = PLAYERS[lang]
    specs: list[CardSpec] = [
        ("plus", 3), ("times", 3), ("times", 7),  # 0-2: a's pay, 7 on top
        ("minus", 4), ("minus", 8), ("plus", 2),  # 3-5: a's hand
        ("times", 2), "joker", ("plus", 5),       # 6-8: b's hand
        ("plus", 6), ("minus", 1), ("times", 9),  # 9-11: the deck (top last)
    ]
    cards = find_cards(deck, specs)
    pcs = [pay_card(c) for c in cards]
    state = engine.from_position(pcs, hands=[[3, 4, 5], [6, 7, 8]], pays=[[0, 1, 2], []], deck=[9, 10, 11], turn=1)
    locked_score = state.values[0]
    rows = []

    def row(who: str, what_ko: str, what_en: str, legal: bool) -> None:
        rows.append((str(len(rows) + 1), who, pick(lang, what_ko, what_en),
                     pick(lang, "가능", "allowed") if legal else pick(lang, "불가", "refused"),
                     number_text(state.values[0])))

    two, joker, four, eight = 6, 7, 3, 4
    t2, tj, t4, t8 = (card_text(pcs[i], lang) for i in (two, joker, four, eight))
    legal = _verdict(state, two, 0, False, "2x on a pay locked by a 7")
    row(b, f"{a}의 페이에 {t2} 카드를 내려 함: 맨 위가 7이라 주인만 낼 수 있음",
        f"tries {t2} on {a}'s pay: a 7 on top, only its owner may play there", legal)
    legal = _verdict(state, joker, 0, True, "the joker on a locked pay")
    engine.apply(state, engine.Play(joker, 0))
    after_joker = state.values[0]
    row(b, f"{a}의 페이에 조커를 냄: 잠금을 무시하고, 아래 카드는 더 이상 세지 않음",
        f"plays the {tj} on {a}'s pay: it ignores the lock; the cards below stop counting", legal)
    legal = _verdict(state, four, 0, True, "4- on a pay with a joker on top")
    engine.apply(state, engine.Play(four, 0))
    row(a, f"자기 페이에 {t4} 카드를 냄: 조커가 맨 위면 빈 페이와 같음",
        f"plays {t4} on their own pay: a joker on top counts as empty", legal)
    engine.apply(state, engine.DRAW)
    row(b, "덱에서 카드를 한 장 가져옴", "draws a card from the deck", True)
    legal = _verdict(state, eight, 0, True, "8- on 4-")
    engine.apply(state, engine.Play(eight, 0))
    row(a, f"자기 페이에 {t8} 카드를 냄: 기호가 같음", f"plays {t8} on their own pay: same symbol", legal)
    engine.check_invariants(state)

    pile = [cards[i] for i in state.pays[0]]
    _, final, labels = _step_rows(pile, lang)
    if final != state.values[0] or final != pay_value(pile):
        raise BuildError(f"the engine's cached score {state.values[0]} differs from the pay's score {final}")
    return Example(
        values={"locked": number_text(locked_score), "after_joker": number_text(after_joker),
                "final": number_text(final), "owner": a, "opponent": b},
        header=(pick(lang, "차례", "Turn"), pick(lang, "플레이어", "Player"), pick(lang, "행동", "Action"),
                pick(lang, "판정", "Verdict"), pick(lang, f"{a}의 페이 점수", f"{a}'s pay")),
        rows=tuple(rows),
        cards=tuple(pile),
        card_labels=tuple(labels),
        caption=pick(lang, f"끝난 뒤 {a}의 페이(왼쪽이 맨 아래). 조커 아래의 카드는 점수에 들어가지 않습니다.",
                     f"{a}'s pay afterwards (bottom card on the left). Cards below the joker do not count."),
    )


def power(deck: Deck, lang: str) -> Example:
    """Expert game: powers, a fraction, and 0 ^ −1."""
    expert = expert_deck(deck)
    cards = find_cards(expert, [("power", 3), ("power", 2), ("power", -1)])
    final = pay_value(cards)
    zero = pay_value(find_cards(expert, [("power", 0), ("power", -1)]))
    return _scored_pay(
        cards, lang,
        values={"score": number_text(final), "decimal": format_decimal(final, 6), "zero_inverse": number_text(zero)},
        caption=pick(lang, f"전문가용 게임의 페이. 점수는 분수 {number_text(final)}(약 {format_decimal(final, 6)})입니다.",
                     f"An expert-game pay. It scores the fraction {number_text(final)} (about {format_decimal(final, 6)})."),
    )


def final(deck: Deck, lang: str) -> Example:
    """The end of a three-player game: pay scores plus the fewest-cards bonus, by the engine."""
    names = {"ko": ("지우", "도하", "수아"), "en": ("Ana", "Ben", "Cleo")}[lang]
    specs: list[CardSpec] = [
        ("plus", 3), ("times", 3), ("times", 3),   # 0-2 pay of seat 0
        ("plus", 8), ("plus", 8), ("plus", 8),     # 3-5 pay of seat 1
        ("minus", 5), ("minus", 2), ("plus", 2),   # 6-8 pay of seat 2
        ("times", 6), ("minus", 9),                # 9-10 hand of seat 0
        ("plus", 1), ("times", 1), ("minus", 4), ("plus", 0),  # 11-14 hand of seat 2
        ("minus", 7),                              # 15 the deck
    ]
    cards = find_cards(deck, specs)
    pcs = [pay_card(c) for c in cards]
    state = engine.from_position(pcs, hands=[[9, 10], [], [11, 12, 13, 14]], pays=[[0, 1, 2], [3, 4, 5], [6, 7, 8]],
                                 deck=[15], turn=1)
    engine.check_invariants(state)
    out = engine.outcome(state)
    rows = []
    for seat, name in enumerate(names):
        pay = state.values[seat]
        bonus = out.scores[seat] - pay
        rows.append((name, " ".join(card_text(pcs[i], lang) for i in state.pays[seat]), number_text(pay),
                     str(len(state.hands[seat])), f"+{number_text(bonus)}" if bonus else "—", number_text(out.scores[seat])))
    winners = [names[s] for s in out.winners]
    return Example(
        values={"winner": pick(lang, ", ".join(winners), " and ".join(winners)),
                "winner_score": number_text(max(out.scores)),
                "runner_up_score": number_text(sorted(out.scores)[-2]),
                "bonus": engine.FEWEST_CARDS_BONUS},
        header=(pick(lang, "플레이어", "Player"), pick(lang, "페이 (아래→위)", "Pay (bottom→top)"),
                pick(lang, "페이 점수", "Pay score"), pick(lang, "손패", "Hand"), pick(lang, "보너스", "Bonus"),
                pick(lang, "최종", "Total")),
        rows=tuple(rows),
        caption=pick(lang, f"{names[1]}가 마지막 카드를 내서 게임이 끝났습니다. 승자: {', '.join(winners)}.",
                     f"{names[1]} played their last card, which ended the game. Winner: {' and '.join(winners)}."),
    )


# ---------------------------------------------------------------- tables


def composition(deck: Deck, lang: str) -> Table:
    """Cards per symbol in each variant, counted from the spec."""
    from printkit.decks import load_all_variants

    variants = load_all_variants(deck.spec_path)
    header = (pick(lang, "카드", "Card"), pick(lang, "숫자", "Numbers"),
              *(f"{pick(lang, {'standard': '기본', 'expert': '전문가용'}.get(v.variant or '', v.variant or ''), (v.variant or '').capitalize())}" for v in variants))
    rows = []
    for symbol in ("plus", "minus", "times", "power"):
        numbers = sorted({c["number"] for v in variants for c in v.cards if c.get("symbol") == symbol})
        if not numbers:
            continue
        name = name_in(SYMBOL_NAMES, symbol, lang, "symbol")
        counts = [sum(1 for c in v.cards if c.get("symbol") == symbol) for v in variants]
        rows.append((f"{name} {SIGNS[symbol]}", f"{number_text(numbers[0])} … {number_text(numbers[-1])}",
                     *(str(n) if n else "—" for n in counts)))
    jokers = [sum(1 for c in v.cards if c.get("kind") == "joker") for v in variants]
    rows.append((pick(lang, "조커", "Joker"), "—", *(str(n) for n in jokers)))
    rows.append((pick(lang, "**합계**", "**Total**"), "", *(f"**{len(v.cards)}**" for v in variants)))
    return Table(header, tuple(rows))


FIGURES = {"cover": cover, "symbols": symbols, "anatomy": anatomy, "setup": setup}
EXAMPLES = {"seed": seed, "matching": matching, "lock_joker": lock_joker, "power": power, "final": final}
TABLES = {"composition": composition}
