"""The `referee` command line."""

from __future__ import annotations

import json
import sys

import click

from referee import __version__
from referee.game import games
from referee.messages import counted, index_of, part, shown
from referee.notation import schema as cgr1_schema
from referee.replay import check_record, replay_steps, step_of_action

from .command import Command
from .common import EXIT_INVALID, EXIT_USAGE, EXIT_VALID, deal_index, fail, finding_index, load_one, unknown
from .listing import ListingGroup

msg, msg_n, word, word_of = part("cli")

# the commands of the other modules, each imported when it runs
COMMANDS = {
    "validate": "referee.cli.validate_command:validate",
    "audit": "referee.cli.audit:audit",
    "explain": "referee.cli.explain:explain",
    "ruling": "referee.cli.ruling:ruling",
    "fmt": "referee.cli.fmt:fmt",
    "serve": "referee.cli.serve:serve",
    "store": "referee.cli.store:store",
    "import": "referee.cli.importing:import_",
    "results": "referee.cli.results:results",
    "standings": "referee.cli.results:standings",
    "deal": "referee.cli.deal:deal",
    "integrity": "referee.cli.integrity:integrity",
    "decide": "referee.cli.decide:decide",
}


def _version(ctx, _param, asked):
    """--version, as click's version option says it, in the language spoken (click's words are fixed when
    the option is made, before --lang is read); the version is given: looking it up in the metadata
    costs a quarter of the start-up."""
    if asked:
        click.echo(msg("{prog}, version {version}", prog=ctx.find_root().info_name, version=__version__).render())
        ctx.exit()


@click.group(
    cls=ListingGroup,
    lazy=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"]},
    help=word("Referee for Chinese climbing card games: checks CGR/1 game records."),
)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_version,
    help=word("Show the version and exit."),
)
def main():
    pass


@main.command(
    cls=Command,
    help=word("""Replay one deal, step by step or at one step.

    Shows the table at a step, or the deal action by action.

    Deals, actions and findings count from 1, as reports number them. Step 0 is the table as
    dealt and step K the table after action K. An action the referee rejected is shown as the last
    step, on the table it was tried on, with its finding. Exit status: 0 the deal has no error, 1 it
    has one, 2 the file cannot be read or the request is wrong (a deal, step, action or finding that
    is not there), 130 interrupted.
    """),
)
@click.argument("file")
@click.option(
    "--deal",
    "deal_number",
    type=int,
    default=None,
    help=word("Deal D, from 1 (default: the finding's deal, or 1: a one-deal record needs no --deal)."),
)
@click.option(
    "--step",
    type=int,
    default=None,
    help=word("Show step K: 0 is the table as dealt, K the table after action K; -1 the last step, -2 the one before."),
)
@click.option(
    "--action",
    "action_number",
    type=int,
    default=None,
    help=word("Show action K (from 1, as reports number actions) and the table after it."),
)
@click.option(
    "--finding",
    "finding_number",
    type=int,
    default=None,
    help=word("Show the step of the record's finding N (from 1, as validate numbers them)."),
)
@click.option("--line", type=int, default=None, help=word("The record's line in a JSON Lines file."))
@click.option("--json", "as_json", is_flag=True, help=word("The table(s) as JSON."))
def replay(file, deal_number, step, action_number, finding_number, line, as_json):
    from rich.console import Console  # here, as in every command that renders: start-up stays fast
    from rich.text import Text

    from . import render

    if sum(x is not None for x in (step, action_number, finding_number)) > 1:
        fail(msg("give at most one of --step, --action and --finding"), EXIT_USAGE)
    record = load_one(file, line)
    deals = record.get("deals") if isinstance(record.get("deals"), list) else []
    deal = None if deal_number is None else deal_index(deal_number, len(deals))
    finding = None
    if finding_number is not None:
        finding, deal = _finding(record, finding_number, deal)
    deal = deal_index(1, len(deals)) if deal is None else deal
    report, frames = replay_steps(record, deal)
    if not frames:
        render.report(Console(highlight=False, soft_wrap=True), report)
        fail(msg("deal {deal} could not be replayed (see the findings above)", deal=counted(deal)), EXIT_INVALID)
    chosen = _chosen_steps(frames, deal, step, action_number, finding)
    if as_json:
        tables = [render.step_shown(frame) for frame in chosen]
        click.echo(
            json.dumps(
                tables if step is None and action_number is None and finding is None else tables[0],
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        console = Console(highlight=False, soft_wrap=True)
        console.print(
            Text(
                msg(
                    "step 0 is the table as dealt; step K the table after action K "
                    "(deals, actions and findings count from 1)"
                ).render(),
                "dim",
            )
        )
        for frame in chosen:
            render.table(console, frame, record)
            console.print()
    deal_errors = any(f.severity == "error" and f.deal == deal for f in report.findings)
    sys.exit(EXIT_INVALID if deal_errors else EXIT_VALID)


def _finding(record, number, asked):
    """The record's finding `number` (from 1) and the deal that shows it; `asked` the deal --deal names."""
    findings = check_record(record).findings
    chosen = findings[finding_index(number, len(findings))]
    deal = chosen.deal
    if deal is None and chosen.at.startswith("/result"):
        deal = len(record["deals"]) - 1  # a claim about the match: shown after the last deal
    if deal is None:
        fail(
            msg("finding {number} ({rule}) is about the whole record, not a deal", number=number, rule=chosen.rule),
            EXIT_USAGE,
        )
    if asked is not None and asked != deal:
        fail(
            msg(
                "finding {number} is in deal {deal}, not deal {asked}",
                number=number,
                deal=counted(deal),
                asked=counted(asked),
            ),
            EXIT_USAGE,
        )
    return chosen, deal


def _chosen_steps(frames, deal, step, action_number, finding):
    if finding is not None:
        return [next(frame for frame in frames if finding in frame["findings"])]
    if action_number is not None:
        at = step_of_action(frames, index_of(action_number)) if action_number >= 1 else None
        if at is None:
            fail(
                msg(
                    "deal {deal} replays to action {last} at most",
                    deal=counted(deal),
                    last=counted(frames[-1]["step"] - 1),
                ),
                EXIT_USAGE,
            )
        return [frames[at]]
    if step is not None:
        if not -len(frames) <= step < len(frames):
            fail(
                msg(
                    "deal {deal} replays to step {last} at most (--step -1 is the last step, -{n} the first)",
                    deal=counted(deal),
                    last=len(frames) - 1,
                    n=len(frames),
                ),
                EXIT_USAGE,
            )
        return [frames[step]]
    return frames


@main.command(
    cls=Command,
    help=word("""List each game's presets and options.

    All games when GAME is left out, with their defaults and what each option changes. Sections
    (§) are those of docs/rules/GAME.md. Exit status: 0, or 2 for a game that is not one (with the
    game probably meant)."""),
)
@click.argument("game", required=False)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help=word(
        "One JSON object per game: default_preset, presets, preset_aliases and options "
        "(each with default, values and effect), for programs."
    ),
)
def rules(game, as_json):
    from . import render  # here: it loads rich, which start-up does without

    known = games()
    if game is not None and game not in known:
        unknown(word("game"), game, known)
    chosen = [known[game]] if game else list(known.values())
    if as_json:
        click.echo(
            json.dumps(
                {
                    g.NAME: {
                        "default_preset": g.DEFAULT_PRESET,
                        "presets": g.PRESETS,
                        "preset_aliases": g.PRESET_ALIASES,
                        "options": {
                            n: {"default": o.default, "values": shown(o.allowed()), "effect": shown(o.effect)}
                            for n, o in g.OPTIONS.items()
                        },
                    }
                    for g in chosen
                },
                indent=2,
            )
        )
        return
    click.echo("\n\n".join(render.rules_table(g) for g in chosen))


@main.command(
    cls=Command,
    help=word("""Print the JSON Schema of CGR/1.

    For platforms that write records: the structure every record is read against. Exit status: 0."""),
)
def schema():
    click.echo(json.dumps(cgr1_schema(), indent=2))


if __name__ == "__main__":
    main()
