"""Card removal sweep (``--card-impact``): each distinct card taken out in turn, against the full deck.

Every removal plays the same seeds as the full deck, so games come in pairs: the first player's
win rate (position 0 of the turn order; Clag: the first dealer) is compared by McNemar's exact
test, game length by the Wilcoxon signed-rank test, and the p-values of the whole sweep are adjusted
together by Holm's method. A card whose removal leaves a deck the rules refuse is listed as such.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from printkit.errors import DeckError
from printkit.plural import counted
from printkit.report.data import Setting, play_batch
from printkit.report.stats import holm, mcnemar_exact, paired_median_difference, wilcoxon_signed_rank
from printkit.rules.observe import card_names
from printkit.rules.play import GameResult, position_from, with_options
from printkit.decks import load_deck

LEVEL = 0.05


def first_won(r: GameResult) -> bool:
    """Position 0 of the turn order (the first player; Clag: the first dealer) is among the winners."""
    return r.origin in r.winners


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def card_impact(game: str, base: Setting, *, games: int, players: int | None, seed: int, bot: str,
                variant: str | None, jobs: int = 1, check: bool = False,
                progress: Callable[[str], Any] | None = None) -> dict[str, Any]:
    """The sweep's numbers: the full deck's, then one row per distinct card (in deck order)."""
    deck = with_options(load_deck(game, base.variant or variant), dict(base.options))
    names = list(dict.fromkeys(card_names(deck)))
    full = play_batch(game, base, games=games, players=players, seed=seed, bot=bot, variant=variant,
                      jobs=jobs, check=check, watch=False)
    full_done = {r.seed: r for r in full.results if r.failure is None}
    rows: list[dict[str, Any]] = []
    raw: list[float] = []
    for name in names:
        if progress:
            progress(name)
        setting = replace(base, label=f"without {name}", remove=tuple(base.remove) + (name,))
        row: dict[str, Any] = {"card": name, "copies": card_names(deck).count(name)}
        try:
            batch = play_batch(game, setting, games=games, players=players, seed=seed, bot=bot,
                               variant=variant, jobs=jobs, check=check, watch=False)
        except DeckError as exc:
            row["unplayable"] = str(exc)
            rows.append(row)
            continue
        pairs = [(full_done[r.seed], r) for r in batch.results if r.failure is None and r.seed in full_done]
        xs = [first_won(a) for a, _ in pairs]
        ys = [first_won(b) for _, b in pairs]
        only_full, only_without, p_win = mcnemar_exact(xs, ys)
        la = [float(a.turns) for a, _ in pairs]
        lb = [float(b.turns) for _, b in pairs]
        _, p_len = wilcoxon_signed_rank(la, lb)
        n = len(pairs)
        row.update({
            "pairs": n,
            "first_player_win_rate": [sum(xs) / n if n else 0.0, sum(ys) / n if n else 0.0],
            "win_rate_change": (sum(ys) - sum(xs)) / n if n else 0.0,
            "discordant": [only_full, only_without],
            "p_win": p_win,
            "length_median": [_median(la) if la else 0.0, _median(lb) if lb else 0.0],
            "length_change": paired_median_difference(la, lb) if la else 0.0,
            "length_mean_change": (sum(lb) - sum(la)) / n if n else 0.0,
            "p_length": p_len,
            "failures": sum(1 for r in batch.results if r.failure is not None),
        })
        raw += [p_win, p_len]
        rows.append(row)
    adjusted = iter(holm(raw))
    for row in rows:
        if "unplayable" not in row:
            row["p_win_holm"], row["p_length_holm"] = next(adjusted), next(adjusted)
            row["clear"] = row["p_win_holm"] < LEVEL or row["p_length_holm"] < LEVEL
    if rows and all("unplayable" in row for row in rows):
        raise DeckError(f"--card-impact: the rules refuse the deck without any one of its cards "
                        f"({rows[0]['unplayable']})")
    return {"game": full.game, "players": full.players, "bot": full.bot, "seed": seed, "games": games,
            "length_unit": full.length_unit, "position_from": position_from(full.game),
            "full_deck": {"first_player_win_rate": sum(first_won(r) for r in full_done.values()) / max(1, len(full_done)),
                          "length_median": _median([float(r.turns) for r in full_done.values()]) if full_done else 0.0},
            "cards": rows}


def impact_lines(sweep: dict[str, Any]) -> list[str]:
    """The sweep as text lines (one per card)."""
    unit = sweep["length_unit"]
    full = sweep["full_deck"]
    out = [f"card impact: {sweep['game']}, {counted(sweep['games'], 'game')} per deck, {sweep['players']} players, bot "
           f"{sweep['bot']}, seed {sweep['seed']}; full deck: {sweep['position_from']} wins "
           f"{full['first_player_win_rate']:.1%}, median length {full['length_median']:g} {unit}",
           "card   copies  win rate (first) change  Holm p   length change (median, mean)  Holm p"]
    for row in sweep["cards"]:
        if "unplayable" in row:
            out.append(f"{row['card']:<8} {row['copies']:>3}  unplayable: {row['unplayable']}")
            continue
        mark = "  *" if row["clear"] else ""
        out.append(f"{row['card']:<8} {row['copies']:>3}  {row['first_player_win_rate'][1]:7.1%} "
                   f"{row['win_rate_change'] * 100:+6.1f} pts  {row['p_win_holm']:7.2g}   "
                   f"{row['length_change']:+7g}, {row['length_mean_change']:+7.2f}          "
                   f"{row['p_length_holm']:7.2g}{mark}")
    return out
