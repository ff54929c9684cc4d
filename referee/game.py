"""The registry of games: `game(name)` gives the module of a game, imported when first asked for (a record of one
game loads only that game's module), and the helpers the games share. What a game module offers the replay driver
is the contract of referee/contract.py (the `Game` Protocol), which mypy and the tests hold every game to.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing is not imported where records are checked: it takes about 4 ms of start-up
if TYPE_CHECKING:
    from typing import Any, TypeVar

    from .contract import Game
    from .findings import Finding
    from .replay import Context

    Match = TypeVar("Match")

# The games this referee checks, by the `game` value that names them in a record (notation §2).
GAMES = ("guandan", "gouji", "gandengyan")


def game(name: object) -> Game[Any, Any] | None:
    """The module of the game named, imported when first asked for; None for a name that is no game this
    referee checks."""
    if not isinstance(name, str) or name not in GAMES:
        return None
    module = _LOADED.get(name)
    if module is None:
        module = _LOADED[name] = importlib.import_module(f"{__package__}.{name}")
    return module  # a module that satisfies Game (mypy holds each game to it: referee/contract.py)


_LOADED: dict[str, Any] = {}  # the games' modules imported, by name: asked for several times a record


def games() -> dict[str, Game[Any, Any]]:
    """Every game by name."""
    return {name: game(name) for name in GAMES}  # type: ignore[misc]  # every name a game


def no_claimed_state(match: object) -> None:
    """`claimed_state` of a game whose claims carry on as totals only, never as a whole state: no deal is
    tried again, and `adopt_claim` (computed_state) is never asked."""
    return None


def computed_state(ctx: Context, match: Match, broken: Finding) -> Match:
    """`adopt_claim` of a game without a claimed state (no_claimed_state): the computed state."""
    return match
