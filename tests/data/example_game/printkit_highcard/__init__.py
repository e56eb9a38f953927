"""High Card for printkit: the game's record, which printkit finds through this package's
``printkit.games`` entry point. Importing this module loads no engine."""

from printkit.games import Game

GAME = Game(
    "highcard",
    engine="printkit_highcard.engine",
    icons="printkit_highcard.icons",
)
