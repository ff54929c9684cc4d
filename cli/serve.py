"""`referee serve`: the REST API over the record store, served by waitress."""

from __future__ import annotations

import dataclasses
import ipaddress
import os
from pathlib import Path

import click

from referee.batch import os_problem
from referee.messages import part

from .command import Choice, Command
from .common import EXIT_USAGE, fail

msg, msg_n, word, word_of = part("cli")

LOOPBACK_NAMES = ("localhost",)


def _is_loopback(host: str) -> bool:
    try:
        return host in LOOPBACK_NAMES or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


LOG_LEVELS = ("debug", "info", "warning", "error")  # api/access_log.py
MIN_TOKEN = 16
READ_THREADS = 4  # threads never given to checks, so reads are served whatever is posted


def _token(token_file: str | None) -> str | None:
    try:
        text = Path(token_file).read_text(encoding="utf-8") if token_file else os.environ.get("REFEREE_API_TOKEN", "")
    except (OSError, UnicodeDecodeError) as exc:
        raise click.UsageError(
            msg("cannot read the token file {path}: {reason}", path=token_file, reason=str(exc)).render()
        ) from None
    token = text.strip() or None
    if token is not None and (len(token) < MIN_TOKEN or not token.isprintable()):
        raise click.UsageError(msg("a token needs at least {n} printable characters", n=MIN_TOKEN).render())
    return token


def write_access(host: str, token: str | None, read_only: bool, no_auth: bool) -> str:
    """How writes are guarded: "read-only", "open" or "token"; a usage error when none may be chosen."""
    if read_only:
        return "read-only"
    if no_auth:
        if not _is_loopback(host):
            raise click.UsageError(msg("--no-auth serves loopback only, not {host}", host=host).render())
        return "open"
    if token is None:
        raise click.UsageError(
            msg(
                "writes need a token: set REFEREE_API_TOKEN or --token-file "
                "(or serve with --read-only, or --no-auth on loopback)"
            ).render()
        )
    return "token"


@click.command(
    cls=Command,
    help=word("""Serve the REST API and the replay viewer.

    The API is under /v1, its docs at /docs, OpenAPI at /openapi.json, the viewer at /view. Each
    request is logged in one line on standard error (--no-access-log: none). Exit status: 0 when
    stopped, 2 when the server cannot start (the port is in use, the store cannot be opened),
    130 interrupted (Ctrl-C)."""),
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help=word("Address to listen on; a non-loopback one needs a token or --read-only."),
)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help=word("Port to listen on."))
@click.option("--db", "db_path", default="referee.db", show_default=True, help=word("SQLite file of the record store."))
@click.option(
    "--token-file",
    type=click.Path(exists=True, dir_okay=False),
    help=word("File holding the bearer token for writes (else REFEREE_API_TOKEN)."),
)
@click.option("--read-only", is_flag=True, help=word("Refuse every write (POST /records, DELETE)."))
@click.option("--no-auth", is_flag=True, help=word("Writes without a token; loopback hosts only."))
@click.option(
    "--max-body",
    default=10 * 1024 * 1024,
    show_default=True,
    type=click.IntRange(min=1),
    help=word("Largest request body in bytes (larger: 413)."),
)
@click.option(
    "--max-records", type=click.IntRange(min=1), help=word("Records in one request body (default 1000; more: 413).")
)
@click.option("--max-deals", type=click.IntRange(min=1), help=word("Deals in one record (default 1000; more: 422)."))
@click.option(
    "--max-actions",
    type=click.IntRange(min=1),
    help=word("Actions in one record, all deals together (default 100000; more: 422)."),
)
@click.option(
    "--max-message",
    type=click.IntRange(min=20),
    help=word("Characters of a finding's message in an answer (default 1000; longer: cut)."),
)
@click.option(
    "--max-seconds",
    type=click.FloatRange(min=0.1),
    help=word(
        "Seconds one request may take (default 10; the rule search of ?infer_rules=true stops at half "
        "of it, checks still running at the end get 422); its work stops when its client hangs up."
    ),
)
@click.option("--checks", type=click.IntRange(min=1), help=word("Checks and replays running at once (default 2)."))
@click.option(
    "--check-processes/--check-threads",
    default=True,
    show_default=True,
    help=word(
        "Check records in worker processes of their own, which can use every core (quicker where cores are "
        "idle; slower where other work keeps them all busy), or in the server's threads."
    ),
)
@click.option(
    "--check-queue",
    type=click.IntRange(min=0),
    help=word(
        "Requests waiting for a check (default: the threads less the checks and 4 kept for reads; more: 503 at once)."
    ),
)
@click.option(
    "--threads", default=16, show_default=True, type=click.IntRange(min=1), help=word("Threads serving requests.")
)
@click.option(
    "--connection-limit",
    default=100,
    show_default=True,
    type=click.IntRange(min=1),
    help=word("Open connections at once."),
)
@click.option(
    "--channel-timeout",
    default=10,
    show_default=True,
    type=click.IntRange(min=1),
    help=word(
        "Seconds an idle connection is kept, a request may take to arrive (a second more for every kB of it), "
        "and an answer may wait for its client to read it."
    ),
)
@click.option(
    "--access-log/--no-access-log",
    default=True,
    show_default=True,
    help=word("Log each request on standard error: time, client, method, path, status, milliseconds."),
)
@click.option(
    "--log-level",
    default="info",
    show_default=True,
    envvar="REFEREE_LOG_LEVEL",
    type=Choice(LOG_LEVELS, case_sensitive=False),
    help=word(
        "The least severe lines the log writes: info writes each request, warning and error only "
        "the server's problems (else REFEREE_LOG_LEVEL)."
    ),
)
def serve(
    host,
    port,
    db_path,
    token_file,
    read_only,
    no_auth,
    max_body,
    max_records,
    max_deals,
    max_actions,
    max_message,
    max_seconds,
    checks,
    check_processes,
    check_queue,
    threads,
    connection_limit,
    channel_timeout,
    access_log,
    log_level,
):
    try:
        from ..api import create_app
        from ..api.access_log import access_logged, configure, refusals_logged
        from ..api.limits import Limits
        from ..api.server import make_server, run
        from ..api.store import StoreError
    except ModuleNotFoundError as missing:  # flask and the rest: the api extra
        fail(
            msg(
                "referee serve needs {module}: pip install 'cgr-referee[api]' (or '.[api]' in a checkout)",
                module=missing.name,
            )
        )
    token = _token(token_file)
    access = write_access(host, token, read_only, no_auth)

    given = {
        "records": max_records,
        "deals": max_deals,
        "actions": max_actions,
        "message": max_message,
        "seconds": max_seconds,
        "checks": checks,
    }
    limits = Limits(**{name: value for name, value in given.items() if value is not None})
    queue = max(0, threads - limits.checks - READ_THREADS) if check_queue is None else check_queue
    if limits.checks + queue >= threads:
        raise click.UsageError(
            msg("--checks plus --check-queue must stay below --threads, so reads are served").render()
        )
    limits = dataclasses.replace(limits, queue=queue)
    configure(log_level)  # before the app is made: flask then adds no handler of its own to its logger
    try:
        app = create_app(
            db_path,
            token=token if access == "token" else None,
            read_only=access == "read-only",
            max_body=max_body,
            limits=limits,
            trusted_hosts=_hosts(host, port) if access == "open" else None,
            check_processes=check_processes,
        )
    except StoreError as exc:
        fail(exc.text, EXIT_USAGE)
    if access_log:
        app.wsgi_app = access_logged(app.wsgi_app)
    try:
        server = make_server(
            app,
            log_refusal=refusals_logged() if access_log else None,
            host=host,
            port=port,
            threads=threads,
            connection_limit=connection_limit,
            channel_timeout=channel_timeout,
            max_request_body_size=max_body,
            ident="referee",
        )
    except OSError as exc:
        fail(
            msg("cannot listen on {host}:{port}: {reason}", host=host, port=port, reason=os_problem(exc)),
            EXIT_USAGE,
        )
    click.echo(
        msg(
            "referee API on http://{host}:{port}/v1 (docs /docs, replay viewer /view), store {path}, writes: {access}",
            host=host,
            port=port,
            path=db_path,
            access=access,
        ).render()
    )
    run(server)


def _hosts(host: str, port: int) -> list[str]:
    """The Host headers a loopback server answers: its own address and localhost, with the port."""
    names = {host, "localhost", f"[{host}]" if ":" in host else host}
    return sorted(names | {f"{name}:{port}" for name in names})
