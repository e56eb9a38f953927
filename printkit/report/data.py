"""The numbers of a balance report: seeded games played in batches, counted (no plotting here).

A :class:`Batch` is one setting (game, variant, players, bots, options) played over seeds
``seed … seed + games - 1``; :func:`analyse` counts what the report shows. Compared settings use
the same seeds, so a difference comes from the rules or the players, not from other deals.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from printkit.errors import DeckError
from printkit.report.cards import card_table, trajectories
from printkit.report.stats import wilson
from printkit.games import engine_for, module_of
from printkit.rules.observe import card_names, without_cards
from printkit.rules.play import GameResult, as_float, _quantile, bot_names, run_games, summarise, with_options
from printkit.decks import load_deck



@dataclass(frozen=True)
class Setting:
    """One way to play: what ``--compare`` varies (players, bot, variant or a game option)."""

    label: str
    players: int | None = None
    bot: str | None = None
    variant: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    typed: Mapping[str, str] = field(default_factory=dict)  # each option's value as the user wrote it
    remove: tuple[str, ...] = ()  # distinct cards taken out of the deck, every copy (--remove)


@dataclass(frozen=True)
class Batch:
    game: str
    variant: str | None
    players: int
    bot: str
    seed: int
    options: Mapping[str, Any]
    label: str
    length_unit: str
    results: tuple[GameResult, ...]
    options_text: Mapping[str, str] = field(default_factory=dict)  # options as written (true, not True)
    card_names: tuple[str, ...] = ()  # the deck's cards by distinct name (rules.observe.card_names)
    removed: tuple[str, ...] = ()  # distinct cards taken out of the deck


def parse_value(text: str) -> Any:
    """An option value as written on the command line: true/false, whole numbers, else text."""
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(low)
    except ValueError:
        return text.strip()


def parse_compare(text: str) -> list[Setting]:
    """``mode=quick,mode=long`` or ``players=3,6`` or ``hook=true+players=5,hook=false+players=5``.

    Settings are separated by commas; ``+`` joins several assignments in one setting; a bare value
    repeats the previous setting's key (``players=3,6``). Inside a setting, bare values after
    ``bot=`` (or ``bots=``) give the next seats' bots: ``bots=greedy+random+random+random``.
    ``remove=CARD`` takes every copy of a card out of the deck (``remove=5x+remove=J`` two cards);
    the card's name is taken whole up to the next ``+NAME=``, so it may hold ``+`` itself
    (``remove=ruby+gold``, ``remove=5+``).
    """
    settings: list[Setting] = []
    key = None
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        values: dict[str, Any] = {}
        typed: dict[str, str] = {}
        removed: list[str] = []
        for item in _assignments(part):
            name, eq, value = item.partition("=")
            if eq and name.strip() == "remove":
                if not value.strip():
                    raise DeckError(f"--compare {text!r}: setting {part!r}: {item!r} names no card (write remove=CARD)")
                removed.append(value.strip())
                key = None
                continue
            if not eq:
                if key is None:
                    raise DeckError(f"--compare {text!r}: {item!r} is not NAME=VALUE (e.g. mode=quick,mode=long)")
                name, value = key, item
            key = name.strip()
            if not key or not value.strip():
                raise DeckError(f"--compare {text!r}: {item!r} is not NAME=VALUE")
            values[key] = parse_value(value)
            typed[key] = value.strip()
        label = "+".join([f"{k}={v}" for k, v in typed.items()] + [f"remove={c}" for c in removed]) or "full deck"
        players = values.pop("players", None)
        if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
            raise DeckError(f"--compare: players must be a whole number, not {players!r}")
        bot = values.pop("bot", None)
        bots = values.pop("bots", None)
        bot = bot if bots is None else bots
        variant = values.pop("variant", None)
        settings.append(Setting(label, players, None if bot is None else str(bot),
                                None if variant is None else str(variant), values,
                                {k: v for k, v in typed.items() if k in values}, tuple(removed)))
    if len(settings) < 2:
        raise DeckError(f"--compare {text!r} names {len(settings)} setting(s); compare needs two or more")
    return settings


def _assignments(setting: str) -> list[str]:
    """A setting's ``NAME=VALUE`` parts: split at each ``+`` that starts another ``NAME=``, so a value
    keeps its own ``+`` (a card ``ruby+gold``, bots ``greedy+random``); a part without ``=`` (a bare
    value) is split off at each ``+`` as before."""
    out: list[str] = []
    for piece in re.split(r"\+(?=\s*[A-Za-z_][\w-]*\s*=)", setting):
        name, eq, _ = piece.partition("=")
        out.extend([piece] if eq else piece.split("+"))
    return out


def show_value(value: Any) -> str:
    """An option value as a spec or the command line writes it: ``true``, not Python's ``True``."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def setting_deck(game: str, setting: Setting, variant: str | None):
    """The deck a setting plays: its variant, options and removed cards (DeckError if unplayable)."""
    deck = load_deck(game, setting.variant or variant)
    deck = with_options(deck, dict(setting.options))
    if setting.remove:
        try:
            deck = without_cards(deck, setting.remove)
        except DeckError as exc:
            raise DeckError(f"setting {setting.label!r}: {exc}") from None
        try:
            engine_for(deck.game).validate_deck(deck)
        except DeckError as exc:
            raise DeckError(f"without {', '.join(setting.remove)} the {deck.game} deck cannot be played: {exc}") from None
    return deck


def play_batch(
    game: str,
    setting: Setting,
    *,
    games: int,
    players: int | None,
    seed: int,
    bot: str,
    variant: str | None,
    jobs: int = 1,
    check: bool = False,
    watch: bool = True,
    progress: Callable[[int], None] | None = None,
) -> Batch:
    """Play one setting's games (facts and what a Watcher sees included) and keep their results."""
    from printkit.rules.play import default_players

    deck = setting_deck(game, setting, variant)
    engine = engine_for(deck.game)
    count = setting.players or players or default_players(engine)
    bots = setting.bot or bot
    results = run_games(deck, games, count, seed, bots, jobs, check=check, facts=True, watch=watch,
                        progress=progress)
    shown = {k: setting.typed.get(k, show_value(v)) for k, v in deck.options.items()}
    return Batch(engine.name, deck.variant, count, bots, seed, dict(deck.options), setting.label,
                 engine.length_unit, tuple(results), shown, tuple(card_names(deck)), tuple(setting.remove))


def _first_round(game: str, r: GameResult) -> bool:
    """The game ended in its first round (the game's report module says what that means)."""
    module = module_of(game, "report")
    return module.first_round(r) if module is not None else False


def analyse(batch: Batch) -> dict[str, Any]:
    """Everything the report shows about one batch, counted directly from the game results."""
    done = [r for r in batch.results if r.failure is None]
    seats = batch.players
    summary = summarise(batch.game, batch.variant, seats, batch.bot, batch.seed, batch.results, batch.length_unit)
    n, wins = summary.finished, list(summary.wins)
    lengths = [r.turns for r in done]
    ordered = sorted(lengths)
    length = summary.length
    scores = [[as_float(r.scores[seat]) for r in done] for seat in range(seats)]
    a: dict[str, Any] = {
        "label": batch.label,
        "game": batch.game,
        "variant": batch.variant,
        "players": seats,
        "bot": "+".join(bot_names(batch.bot, seats)) if len(set(bot_names(batch.bot, seats))) > 1 else batch.bot,
        "bots": bot_names(batch.bot, seats),
        "seed": batch.seed,
        "options": dict(batch.options),
        "options_text": dict(batch.options_text),
        "length_unit": batch.length_unit,
        "games": summary.games,
        "finished": n,
        "failures": list(summary.failures),
        "lengths": lengths,
        "length": {
            "median": length.get("median", 0),
            "mean": length.get("mean", 0.0),
            "p25": _quantile(ordered, 0.25) if ordered else 0,
            "p75": _quantile(ordered, 0.75) if ordered else 0,
            "min": length.get("min", 0),
            "max": length.get("max", 0),
        },
        "first_round": sum(1 for r in done if _first_round(batch.game, r)),
        "wins": wins,
        "win_rate": [w / n if n else 0.0 for w in wins],
        "win_ci": [wilson(w, n) for w in wins],
        "shared": summary.shared_wins,
        "no_winner": sum(1 for r in done if not r.winners),
        "endings": summary.endings,
        "scores": scores,
        "score_mean": [statistics.fmean(s) if s else 0.0 for s in scores],
        "removed": list(batch.removed),
        # wins by turn order: 0 is the first player (Clag: the first dealer), 1 the next seat …
        "position_from": summary.position_from,
        "wins_by_turn_order": list(summary.wins_by_position),
        "win_rate_by_turn_order": [w / n if n else 0.0 for w in summary.wins_by_position],
        "win_ci_by_turn_order": [wilson(w, n) for w in summary.wins_by_position],
        "cards": card_table(batch.results, seats, batch.card_names),
        "trajectories": trajectories(batch.results),
    }
    module = module_of(batch.game, "report")
    if module is not None:  # the game's own numbers: facts(done, a), paired(done, seats), first_round(result)
        a.update(module.facts(done, a))
    a["paired"] = paired_values(batch.game, done, seats)
    a["equal_share"] = sum(wins) / (seats * n) if n else 0.0
    return a


def paired_values(game: str, done: Sequence[GameResult], seats: int) -> dict[str, Any]:
    """Each game's own numbers, by seed, for the paired tests of ``--compare``.

    ``rates``: yes/no per game (a win of each seat, a shared win, each way of ending, …);
    ``samples``: a number per game (length, each seat's score, …). Lists follow ``seeds``.
    """
    rates: dict[str, list[bool]] = {f"win rate, seat {s}": [s in r.winners for r in done] for s in range(seats)}
    rates["shared win"] = [len(r.winners) > 1 for r in done]
    rates["no winner (draw)"] = [not r.winners for r in done]
    rates["ended in the first round"] = [_first_round(game, r) for r in done]
    samples: dict[str, list[float]] = {"game length": [float(r.turns) for r in done]}
    module = module_of(game, "report")
    if module is not None:
        game_rates, game_samples = module.paired(done, seats)
        rates.update(game_rates)
        samples.update(game_samples)
    return {"seeds": [r.seed for r in done], "reasons": [r.reason for r in done], "rates": rates,
            "samples": samples}
