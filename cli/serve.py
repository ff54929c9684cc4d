"""`referee serve`: the REST API over the record store, served by waitress."""
from __future__ import annotations

import ipaddress
import os
from pathlib import Path

import click

LOOPBACK_NAMES = ("localhost",)


def _is_loopback(host: str) -> bool:
    try:
        return host in LOOPBACK_NAMES or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _token(token_file: str | None) -> str | None:
    text = Path(token_file).read_text(encoding="utf-8") if token_file else os.environ.get("REFEREE_API_TOKEN", "")
    return text.strip() or None


def write_access(host: str, token: str | None, read_only: bool, no_auth: bool) -> str:
    """How writes are guarded: "read-only", "open" or "token"; a usage error when none may be chosen."""
    if read_only:
        return "read-only"
    if no_auth:
        if not _is_loopback(host):
            raise click.UsageError(f"--no-auth serves loopback only, not {host}")
        return "open"
    if token is None:
        raise click.UsageError("writes need a token: set REFEREE_API_TOKEN or --token-file "
                               "(or serve with --read-only, or --no-auth on loopback)")
    return "token"


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--db", "db_path", default="referee.db", show_default=True, help="SQLite file of the record store.")
@click.option("--token-file", type=click.Path(exists=True, dir_okay=False),
              help="File holding the bearer token for writes (else REFEREE_API_TOKEN).")
@click.option("--read-only", is_flag=True, help="Refuse every write (POST /records, DELETE).")
@click.option("--no-auth", is_flag=True, help="Writes without a token; loopback hosts only.")
@click.option("--max-body", default=10 * 1024 * 1024, show_default=True, type=click.IntRange(min=1),
              help="Largest request body in bytes (larger: 413).")
@click.option("--threads", default=8, show_default=True, type=click.IntRange(min=1))
def serve(host, port, db_path, token_file, read_only, no_auth, max_body, threads):
    """Serve the REST API (docs at /docs, OpenAPI at /openapi.json) and the replay viewer (/view)."""
    token = _token(token_file)
    access = write_access(host, token, read_only, no_auth)
    from waitress import serve as waitress_serve

    from api import create_app

    app = create_app(db_path, token=token if access == "token" else None, read_only=access == "read-only",
                     max_body=max_body)
    click.echo(f"referee API on http://{host}:{port}/v1 (docs /docs, replay viewer /view), store {db_path}, writes: {access}")
    waitress_serve(app, host=host, port=port, threads=threads, ident="referee")
