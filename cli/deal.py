"""`referee deal`: a committed deal from a seed (notation §11), for platforms and organisers."""

from __future__ import annotations

import json
import re

import click

from referee.messages import part
from referee.precheck import GAMES

from .command import Choice, Command
from .common import EXIT_USAGE, fail

msg, msg_n, word, word_of = part("cli")

HEX = re.compile(r"[0-9a-fA-F]+")


@click.command(
    cls=Command,
    help=word("""Deal a committed deal from a seed (notation §11).

    Writes one deal as JSON: the hands (and the Gan Deng Yan talon) that the seed deals, with
    `commit`, to publish before play, and `reveal`, which opens it once the deal is played. Keep
    the seed secret until then. With --beacon (a public random value fixed after the commitment
    is published) the deal also shows it was not chosen. With --salt the commitment is in the
    salt form, and the seed is never revealed. Exit status: 0, or 2 for a seed or salt that is not
    hex digits enough, or seats the game does not have.
    """),
)
@click.option("--game", required=True, type=Choice(GAMES), help=word("The game to deal."))
@click.option(
    "--seed", required=True, metavar="HEX", help=word("The seed: 64 hex digits or more, from a strong random source.")
)
@click.option(
    "--beacon",
    metavar="TEXT",
    default=None,
    help=word("A public random value fixed after the commitment was published."),
)
@click.option(
    "--salt", metavar="HEX", default=None, help=word("Commit in the salt form with this salt (32 hex digits or more).")
)
@click.option(
    "--players",
    type=click.IntRange(2, 6),
    default=None,
    help=word("Seats at the table (Guandan 4 and Gou Ji 6 by default; Gan Deng Yan needs it)."),
)
@click.option(
    "--dealer", type=click.IntRange(0), default=0, show_default=True, help=word("Gan Deng Yan: the seat dealt 6 cards.")
)
def deal(game, seed, beacon, salt, players, dealer):
    from referee.commitments import committed_deal
    from referee.replay import game_module

    module = game_module(game)
    fixed = getattr(module, "SEATS", None)  # Guandan, Gou Ji; Gan Deng Yan takes 2 to 6
    seats = players or fixed
    if seats is None:
        fail(msg("--players is needed for {game}", game=game), EXIT_USAGE)
    if fixed is not None and seats != fixed:
        fail(msg("{game} is played by {n} seats", game=game, n=fixed), EXIT_USAGE)
    if not _hex(seed, 64) or (salt is not None and not _hex(salt, 32)):
        fail(msg("the seed needs 64 hex digits or more, and the salt 32 or more"), EXIT_USAGE)
    if dealer >= seats:
        fail(msg("--dealer takes a seat from 0 to {last}", last=seats - 1), EXIT_USAGE)
    click.echo(json.dumps(committed_deal(module, seed, seats, dealer, beacon=beacon, salt=salt)))


def _hex(text: str, least: int) -> bool:
    return len(text) >= least and HEX.fullmatch(text) is not None
