"""Playing any engine: one seeded game, many games in parallel, and the playability check.

Everything here drives engines only through the Engine protocol of :mod:`printkit.rules.base`.
Game ``i`` of a simulation with seed ``S`` uses game seed ``S + i``, so any game can be replayed
alone (``--seed S+i --games 1``). Players get their own ``random.Random``, derived from the game
seed, so a game's moves depend only on (deck, players, game seed, bot).
"""

from __future__ import annotations

import math
import multiprocessing
import random
import statistics
from collections import Counter
from dataclasses import dataclass, field, replace as _replace
from typing import Any, Callable, Sequence

from printkit.deck import Deck
from printkit.errors import DeckError, InvariantError, PrintkitError
from printkit.games import engine_for
from printkit.rules.base import Engine, Outcome
from printkit.report.stats import wilson
from printkit.rules.observe import Watcher, view_for

DEFAULT_MAX_MOVES = 100_000
GAMES_PER_TASK = 25


@dataclass(frozen=True)
class GameRecord:
    """One finished game: enough to replay it (deck, seed, players, moves) and its outcome."""

    game: str
    variant: str | None
    players: int
    seed: int
    bots: tuple[str, ...]
    moves: tuple[Any, ...]
    outcome: Outcome
    # What the engine's ``facts`` tells about the game (only when play_game is asked for facts).
    facts: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    # The seat positions count from (the first to move; Clag: the first dealer).
    origin: int = field(default=0, compare=False)
    # What a Watcher saw (cards held, drawn, played; per-turn figures), when play_game watched.
    watched: dict[str, Any] | None = field(default=None, compare=False, hash=False)


def bot_rng(seed: int) -> random.Random:
    """The players' random source for game ``seed`` (separate from the engine's shuffle)."""
    return random.Random(f"printkit-players-{seed}")


def bot_names(bot: str | Sequence[str], players: int) -> tuple[str, ...]:
    """One bot name per seat: ``greedy`` for every seat, ``strong,greedy`` (or ``strong+greedy``, the
    form ``--compare`` can hold) repeated around the table."""
    if isinstance(bot, str):
        names = tuple(name.strip() for name in bot.replace("+", ",").split(","))
        return tuple(names[seat % len(names)] for seat in range(players))
    return tuple(bot)


def _bots(engine: Engine, bot: str | Sequence[str], players: int) -> tuple[tuple[str, ...], list[Callable]]:
    available = engine.players()
    names = bot_names(bot, players)
    if len(names) != players:
        raise DeckError(f"{len(names)} bots given for {players} players")
    for name in names:
        if name not in available:
            raise DeckError(f"unknown player {name!r} for {engine.name} (known: {', '.join(sorted(available))})")
    return names, [available[name] for name in names]


def play_game(
    engine: Engine,
    deck: Deck,
    players: int,
    seed: int,
    bot: str | Sequence[str] = "random",
    *,
    check: bool = True,
    max_moves: int = DEFAULT_MAX_MOVES,
    facts: bool = False,
    watch: bool = False,
) -> GameRecord:
    """Play one seeded game to its end with the named bot(s) (one name, or one per seat).

    With ``facts`` the record carries the engine's ``facts`` about the game (its deal, its final
    state and who made which move), for reports; with ``watch``, what a
    :class:`~printkit.rules.observe.Watcher` saw (cards held and played, per-turn figures). Playing
    is the same either way.

    With ``check`` (the default) every move is checked to be among the legal moves, the engine's
    invariants are checked after every move, and at the end the record is replayed on a fresh game,
    which must reach the same outcome. Violations raise InvariantError.
    """
    names, bots = _bots(engine, bot, players)
    # An engine whose facts read only the final state (facts_from_final) is given no start and no
    # seats: play_game then neither deals the game again nor notes who made each move.
    from_final = facts and getattr(engine, "facts_from_final", False)
    note_seats = facts and not from_final
    state = engine.new_game(deck, players, seed)
    rng = bot_rng(seed)
    moves: list[Any] = []
    seats: list[int] = []
    view = view_for(engine.name)
    origin = view.origin(state) if view else current_player_at_start(engine, state)
    # The watcher only reads states: a watched game is the same game.
    watcher = Watcher(view, state, players) if watch and view else None
    if check:
        engine.check_invariants(state)
    # The engine's methods, looked up once: this loop runs for every move of every game.
    is_over, current_player, apply = engine.is_over, engine.current_player, engine.apply
    while not is_over(state):
        if len(moves) >= max_moves:
            raise InvariantError(f"termination: the game did not end within {max_moves} moves")
        seat = current_player(state)
        if note_seats:
            seats.append(seat)
        move = bots[seat](state, rng)
        if check:
            legal = engine.legal_moves(state)
            if not legal:
                raise InvariantError("legal moves: none offered although the game is not over")
            if move not in legal:
                raise InvariantError(f"legal moves: bot {names[seat]!r} chose {move!r}, which is not listed as legal")
        apply(state, move)
        moves.append(move)
        if watcher is not None:
            watcher(state, seat, move)
        if check:
            engine.check_invariants(state)
    result = engine.outcome(state)
    known = {}
    if facts and hasattr(engine, "facts"):
        # A second deal from the same seed is the game's start, untouched by play.
        start = None if from_final else engine.new_game(deck, players, seed)
        known = engine.facts(start, state, moves, seats)
    record = GameRecord(engine.name, deck.variant, players, seed, names, tuple(moves), result, known, origin,
                        watcher.result(state) if watcher is not None else None)
    if check:
        replayed = replay(engine, deck, record)
        if replayed != result:
            raise InvariantError(f"replay: the recorded moves give {replayed!r}, the game gave {result!r}")
    return record


def current_player_at_start(engine: Engine, state: Any) -> int:
    """The seat to move in a fresh game (0 when the game is over before any move)."""
    return 0 if engine.is_over(state) else engine.current_player(state)


def replay(engine: Engine, deck: Deck, record: GameRecord) -> Outcome:
    """The outcome of applying ``record.moves`` to a fresh game (IllegalMoveError if one is illegal)."""
    state = engine.new_game(deck, record.players, record.seed)
    for move in record.moves:
        engine.apply(state, move)
    if not engine.is_over(state):
        raise InvariantError(f"replay: the game is not over after the {len(record.moves)} recorded moves")
    return engine.outcome(state)


# ---------------------------------------------------------------- simulation


@dataclass(frozen=True)
class GameResult:
    """What a simulation keeps of one game."""

    seed: int
    turns: int
    scores: tuple[Any, ...]
    winners: tuple[int, ...]
    reason: str
    failure: str | None = None
    facts: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    origin: int = 0  # the seat positions count from (see GameRecord)
    watched: dict[str, Any] | None = field(default=None, compare=False, hash=False)


@dataclass(frozen=True)
class Summary:
    """Figures over many games; ``as_dict`` gives the JSON form."""

    game: str
    variant: str | None
    players: int
    bot: str
    seed: int
    games: int
    finished: int
    length: dict[str, float]
    scores: dict[str, float]
    win_rate_by_seat: tuple[float, ...]
    shared_wins: int
    endings: dict[str, int]
    failures: tuple[str, ...] = field(default_factory=tuple)
    length_unit: str = "turns"  # what ``length`` counts: the engine's length_unit
    wins: tuple[int, ...] = ()  # games won by each seat (a shared win counts for every winner)
    # games won by each position: 0 is the seat positions count from (the first to move; Clag: the
    # first dealer), 1 the seat after it …
    wins_by_position: tuple[int, ...] = ()
    position_from: str = "the first player"

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "variant": self.variant,
            "players": self.players,
            "bot": self.bot,
            "seed": self.seed,
            "games": self.games,
            "finished": self.finished,
            "length": self.length,
            "length_unit": self.length_unit,
            "scores": self.scores,
            "win_rate_by_seat": list(self.win_rate_by_seat),
            "win_rate_by_position": {
                "from": self.position_from,
                "wins": list(self.wins_by_position),
                "rate": [round(w / self.finished, 6) if self.finished else 0.0 for w in self.wins_by_position],
                "ci95": [[round(x, 6) for x in wilson(w, self.finished)] for w in self.wins_by_position],
            },
            "shared_wins": self.shared_wins,
            "endings": self.endings,
            "failures": list(self.failures),
        }

    def lines(self) -> list[str]:
        """The summary as text lines."""
        variant = f" ({self.variant})" if self.variant else ""
        out = [
            f"{self.game}{variant}: {self.games} games, {self.players} players, bot {self.bot}, seed {self.seed}",
            f"finished: {self.finished}/{self.games}",
        ]
        if self.finished:
            ln, sc = self.length, self.scores
            out += [
                f"length ({self.length_unit}): mean {ln['mean']:.2f}, stdev {ln['stdev']:.2f}, min {ln['min']:g}, "
                f"median {ln['median']:g}, max {ln['max']:g}",
                f"scores: mean {_num(sc['mean'])}, stdev {_num(sc['stdev'])}, min {_num(sc['min'])}, "
                f"p25 {_num(sc['p25'])}, median {_num(sc['median'])}, p75 {_num(sc['p75'])}, max {_num(sc['max'])}",
                "win rate by seat: " + ", ".join(f"{seat}: {rate:.1%}" for seat, rate in enumerate(self.win_rate_by_seat)),
                f"win rate by position from {self.position_from}: "
                + ", ".join(f"{p}: {w / self.finished:.1%}" for p, w in enumerate(self.wins_by_position)),
                f"shared wins: {self.shared_wins}",
                "endings: " + ", ".join(f"{reason} {count}" for reason, count in self.endings.items()),
            ]
        out += [f"FAILED {failure}" for failure in self.failures]
        return out


def _num(value: float) -> str:
    return f"{value:.4g}" if abs(value) >= 1e6 or value != int(value) else f"{int(value)}"


def _run_games(task: tuple[Deck, int, str, tuple[int, ...], bool, bool, bool]) -> list[GameResult]:
    """Play a batch of games (the unit of work handed to a worker process)."""
    deck, players, bot, seeds, check, facts, watch = task
    engine = engine_for(deck.game)
    results = []
    for seed in seeds:
        try:
            record = play_game(engine, deck, players, seed, bot, check=check, facts=facts, watch=watch)
        except (InvariantError, PrintkitError) as exc:
            results.append(GameResult(seed, 0, (), (), "failed", f"game seed {seed}: {type(exc).__name__}: {exc}"))
            continue
        o = record.outcome
        results.append(GameResult(seed, o.turns, o.scores, o.winners, o.reason, None, record.facts, record.origin,
                                  record.watched))
    return results


def with_options(deck: Deck, options: dict[str, Any] | None) -> Deck:
    """``deck`` with the game options ``options`` over the spec's ``options:`` (checked by the engine)."""
    if not options:
        return deck
    merged = _replace(deck, options={**deck.options, **options})
    engine_for(deck.game).check_options(merged.options)
    return merged


def simulate(
    deck: Deck,
    games: int,
    players: int,
    seed: int = 0,
    bot: str = "random",
    jobs: int = 1,
    *,
    check: bool = True,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``games`` seeded games and summarise them; the result is the same for any ``jobs``.

    ``progress`` is called with the number of games just finished, as batches complete.
    """
    engine = engine_for(deck.game)
    results = run_games(deck, games, players, seed, bot, jobs, check=check, progress=progress)
    return summarise(engine.name, deck.variant, players, bot, seed, results, engine.length_unit)


def run_games(
    deck: Deck,
    games: int,
    players: int,
    seed: int = 0,
    bot: str = "random",
    jobs: int = 1,
    *,
    check: bool = True,
    facts: bool = False,
    watch: bool = False,
    progress: Callable[[int], None] | None = None,
) -> list[GameResult]:
    """Play ``games`` seeded games (seeds ``seed`` …) and return their results in seed order.

    The results are the same for any ``jobs``; with ``facts`` each carries the engine's facts, with
    ``watch`` what a Watcher saw (see play_game).
    """
    engine = engine_for(deck.game)
    engine.validate_deck(deck)
    if games < 1:
        raise DeckError(f"the number of games must be at least 1, not {games!r}")
    if not engine.min_players <= players <= engine.max_players:
        raise DeckError(f"{engine.name} is played by {player_range(engine)}, not {players}")
    _bots(engine, bot, players)
    seeds = list(range(seed, seed + games))
    tasks = [
        (deck, players, bot, tuple(seeds[i : i + GAMES_PER_TASK]), check, facts, watch)
        for i in range(0, games, GAMES_PER_TASK)
    ]
    results: list[GameResult] = []
    if jobs <= 1 or len(tasks) == 1:
        for task in tasks:
            batch = _run_games(task)
            results.extend(batch)
            if progress:
                progress(len(batch))
    else:
        # fork where available: workers inherit the loaded modules and need no importable __main__.
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        with multiprocessing.get_context(method).Pool(min(jobs, len(tasks))) as pool:
            # imap keeps task order, so the results (and the summary) do not depend on jobs.
            for batch in pool.imap(_run_games, tasks):
                results.extend(batch)
                if progress:
                    progress(len(batch))
    return results


def player_range(engine: Engine) -> str:
    """The engine's player counts in words: ``2 to 8 players`` or ``exactly 2 players``."""
    if engine.min_players == engine.max_players:
        return f"exactly {engine.min_players} players"
    return f"{engine.min_players} to {engine.max_players} players"


def summarise(
    game: str,
    variant: str | None,
    players: int,
    bot: str,
    seed: int,
    results: Sequence[GameResult],
    length_unit: str = "turns",
) -> Summary:
    """Figures over ``results``: games finished, length and score statistics, wins by seat, endings."""
    done = [r for r in results if r.failure is None]
    lengths = [r.turns for r in done]
    scores = [as_float(s) for r in done for s in r.scores]
    wins = [0] * players
    by_position = [0] * players
    for r in done:
        for seat in r.winners:
            wins[seat] += 1
            by_position[(seat - r.origin) % players] += 1
    endings = Counter(r.reason for r in done)
    return Summary(
        game=game,
        variant=variant,
        players=players,
        bot=bot,
        seed=seed,
        games=len(results),
        finished=len(done),
        length=_stats(lengths, quartiles=False),
        scores=_stats(scores, quartiles=True),
        win_rate_by_seat=tuple(round(w / len(done), 6) if done else 0.0 for w in wins),
        shared_wins=sum(1 for r in done if len(r.winners) > 1),
        endings=dict(sorted(endings.items(), key=lambda item: (-item[1], item[0]))),
        failures=tuple(r.failure for r in results if r.failure is not None),
        length_unit=length_unit,
        wins=tuple(wins),
        wins_by_position=tuple(by_position),
        position_from=position_from(game),
    )


def position_from(game: str) -> str:
    """Where positions in the turn order count from, in words (the game's view says; else the first player)."""
    view = view_for(game)
    return view.position_from if view else "the first player"


def as_float(value: Any) -> float:
    # A score is a number with a float() (Calc's are exact and unbounded and convert themselves);
    # beyond the float range it counts as ±inf here, which is why reports give medians and
    # quantiles of scores rather than means.
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _stats(values: Sequence[float], quartiles: bool) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)
    finite = all(math.isfinite(v) for v in ordered)  # astronomic Calc scores are ±inf as floats
    result = {
        "mean": round(statistics.fmean(ordered), 6) if finite else float("nan"),
        "stdev": (round(statistics.pstdev(ordered), 6) if len(ordered) > 1 else 0.0) if finite else float("nan"),
        "min": ordered[0],
        "median": statistics.median(ordered),
        "max": ordered[-1],
    }
    if quartiles:
        result["p25"] = _quantile(ordered, 0.25)
        result["p75"] = _quantile(ordered, 0.75)
    return {k: (v if math.isfinite(v) else float("nan")) for k, v in result.items()}


def _quantile(ordered: Sequence[float], q: float) -> float:
    """Nearest-rank quantile (an actual observed value)."""
    index = max(0, math.ceil(q * len(ordered)) - 1)
    return ordered[index]


# ---------------------------------------------------------------- playability check


def check_playable(deck: Deck, games_per_count: int = 3, seed: int = 0) -> list[str]:
    """Prove ``deck`` playable by its engine: validate it, then play seeded games for every player count.

    Games alternate the random and greedy bots; each is checked move by move (see ``play_game``).
    Returns one message per failure naming deck, variant, player count, game seed and the invariant;
    an empty list means the deck is playable. A deck-level refusal (DeckError, e.g. a bad option or
    too few cards to deal) is reported once: no games are played for a player count it refuses, and
    the same refusal is not repeated for other counts.
    """
    where = f"deck {deck.name!r}" + (f" variant {deck.variant!r}" if deck.variant else "")
    try:
        engine = engine_for(deck.game)
    except ImportError as exc:
        return [f"{where}: no rule engine for game {deck.game!r} can be loaded ({exc})"]
    except PrintkitError as exc:
        return [f"{where}: {exc}"]
    try:
        engine.validate_deck(deck)
    except PrintkitError as exc:
        return [f"{where}: {exc}"]
    failures = []
    refusals: set[str] = set()
    bots = ("random", "greedy")
    for players in range(engine.min_players, engine.max_players + 1):
        for i in range(games_per_count):
            game_seed = seed + i
            bot = bots[i % len(bots)]
            try:
                play_game(engine, deck, players, game_seed, bot)
            except DeckError as exc:
                # The deck (not this game) is refused: every other seed would say the same.
                if str(exc) not in refusals:
                    refusals.add(str(exc))
                    failures.append(f"{where}, {players} players: {exc}")
                break
            except InvariantError as exc:
                failures.append(f"{where}, {players} players, game seed {game_seed} ({bot}): invariant broken: {exc}")
            except Exception as exc:  # an engine crash is a failure to report, not a traceback
                failures.append(
                    f"{where}, {players} players, game seed {game_seed} ({bot}): {type(exc).__name__}: {exc}"
                )
    return failures


def default_players(engine: Engine, preferred: int = 4) -> int:
    """The player count used when none is given: ``preferred`` within the engine's range."""
    return min(max(preferred, engine.min_players), engine.max_players)
