"""One game to read (``--sample N``): game N of a simulation replayed move by move, in words.

Moves are written as printkit writes them elsewhere: a Calc move by its state's ``describe``
(``play 5x (numbers-033) on seat 0's pay``), Clag's and Stack's by their notation (``bid 2``,
``play QH``, ``swap1 ruby+gold``). The transcript is the recorded game replayed on a fresh deal, so
it is exactly the game the simulation played (game N uses seed SEED+N).
"""

from __future__ import annotations

from typing import Any

from printkit.deck import Deck
from printkit.errors import DeckError
from printkit.games import engine_for
from printkit.rules.observe import view_for
from printkit.rules.play import play_game


def move_text(state: Any, move: Any) -> str:
    """``move`` in words, as printkit writes moves (needs the state before the move)."""
    describe = getattr(state, "describe", None)
    return describe(move) if describe is not None else str(move)


def transcript(deck: Deck, players: int, seed: int, bot: str) -> dict[str, Any]:
    """The game of seed ``seed``: its deal, every move (turn, seat, bot, text) and its outcome."""
    engine = engine_for(deck.game)
    record = play_game(engine, deck, players, seed, bot, check=False)
    view = view_for(engine.name)
    state = engine.new_game(deck, players, seed)
    deal = [" ".join(view.hand(state, s)) for s in range(players)] if view else []
    moves = []
    for move in record.moves:
        seat = engine.current_player(state)
        turn = view.clock(state) + 1 if view else len(moves) + 1
        moves.append({"turn": turn, "seat": seat, "bot": record.bots[seat], "move": move_text(state, move)})
        engine.apply(state, move)
    o = record.outcome
    return {"seed": seed, "players": players, "bots": list(record.bots), "deal": deal, "moves": moves,
            "scores": [str(s) for s in o.scores], "winners": list(o.winners), "reason": o.reason,
            "length": o.turns, "length_unit": engine.length_unit}


def sample_game(deck: Deck, players: int, seed: int, games: int, bot: str, n: int) -> dict[str, Any]:
    """Game ``n`` (0-based) of a simulation of ``games`` games from ``seed``; DeckError when out of range."""
    if not 0 <= n < games:
        raise DeckError(f"--sample {n}: the simulation plays games 0 to {games - 1}")
    return dict(transcript(deck, players, seed + n, bot), game=n)


def transcript_lines(t: dict[str, Any]) -> list[str]:
    """The transcript as text: the deal, one line per move, the outcome."""
    out = [f"game {t['game']} (seed {t['seed']}), {t['players']} players: {', '.join(t['bots'])}"]
    out += [f"deal, seat {s}: {hand}" for s, hand in enumerate(t["deal"])]
    out += [f"turn {m['turn']}, seat {m['seat']} ({m['bot']}): {m['move']}" for m in t["moves"]]
    winners = ", ".join(f"seat {s}" for s in t["winners"]) or "nobody"
    out.append(f"ended ({t['reason']}) after {t['length']} {t['length_unit']}: scores {', '.join(t['scores'])}; won by {winners}")
    return out
