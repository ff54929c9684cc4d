"""Every command line in the README and docs runs as written (issue 19): each `referee` line parses
with the options its command has, each `curl` names an endpoint of the API with the method it
allows and, where it sends a body, its Content-Type; docs/samples.md lists the samples."""

import re
import shlex
from pathlib import Path

import click
import pytest

from referee.cli.main import main

ROOT = Path(__file__).parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL_BLOCK = re.compile(r"```sh\n(.*?)```", re.S)
STOP = {"|", ">", ">>", "<", "&&", "||", ";", "2>", "2>&1"}


def shell_lines():
    """(page, line) of every command in a ```sh block, continuation lines joined, comments dropped."""
    for page in PAGES:
        for block in SHELL_BLOCK.findall(page.read_text(encoding="utf-8")):
            for line in block.replace("\\\n", " ").splitlines():
                line = re.sub(r"\s+#\s.*$", "", line).strip()
                if line and not line.startswith("#"):
                    yield page.name, line


def words_after(line: str, program: str) -> list[list[str]]:
    """The arguments of each call of `program` in a shell line, up to the next pipe or redirection."""
    words = shlex.split(line.replace("$(", " ").replace(")", " "), posix=True)
    calls = []
    for i, word in enumerate(words):
        if word == program or word.endswith("/" + program):
            rest = []
            for w in words[i + 1 :]:
                if w in STOP or w.startswith((">", "2>")):
                    break
                rest.append(w)
            calls.append(rest)
    return calls


REFEREE = [(page, line, args) for page, line in shell_lines() for args in words_after(line, "referee")]
CURL = [(page, line, args) for page, line in shell_lines() for args in words_after(line, "curl")]


def test_the_pages_hold_command_lines():
    assert len(REFEREE) > 30 and len(CURL) > 5


@pytest.mark.parametrize("page, line, args", REFEREE, ids=[f"{p}: {line[:60]}" for p, line, _ in REFEREE])
def test_every_referee_line_parses(page, line, args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a click.File option for writing must not touch the checkout
    command, context, rest = main, click.Context(main, info_name="referee"), list(args)
    while isinstance(command, click.Group) and rest and not rest[0].startswith("-"):
        name, rest = rest[0], rest[1:]
        command = command.get_command(context, name)
        assert command is not None, f"no command {name}: {line}"
        context = click.Context(command, info_name=name, parent=context)
    try:
        command.make_context(context.info_name, rest, parent=context.parent)
    except click.BadParameter as exc:
        assert "does not exist" in str(exc), exc  # a placeholder file, as the page writes it


def _curl_request(args):
    method, body, headers, url = "GET", False, [], None
    it = iter(args)
    for word in it:
        if word == "-X":
            method = next(it)
        elif word == "-H":
            headers.append(next(it))
        elif word in ("--data-binary", "-d", "--data", "-F"):
            next(it)
            body = True
            method = "POST" if method == "GET" else method
        elif not word.startswith("-") and ("/" in word):
            url = word.rstrip(";")
    return method, body, headers, url


VARIABLES = {"$T": "Authorization: Bearer token", "$J": "Content-Type: application/json"}


@pytest.mark.parametrize("page, line, args", CURL, ids=[f"{p}: {line[:60]}" for p, line, _ in CURL])
def test_every_curl_line_names_an_endpoint_and_the_type_of_what_it_sends(page, line, args):
    from referee.api import create_app

    method, body, headers, url = _curl_request(args)
    assert url, line
    path = re.sub(r"^(\$B|https?://[^/]+/v1)", "/v1", url.split("?")[0]).replace("$ID", "abc").replace("%20", " ")
    path = re.sub(r"^https?://[^/]+", "", path)
    adapter = create_app(":memory:", read_only=True).url_map.bind("localhost")
    adapter.match(path, method)  # raises NotFound or MethodNotAllowed
    if body:
        given = [VARIABLES.get(h, h) for h in headers]
        assert any(h.lower().startswith("content-type:") for h in given), line


def test_the_samples_page_lists_every_sample_make_demo_checks():
    section = (ROOT / "docs/samples.md").read_text(encoding="utf-8")
    listed = set()
    for folder_line in re.finditer(r"^- `(samples/[a-z]+)/`.*?(?=^- `samples/|\Z)", section, re.S | re.M):
        listed |= {
            f"{folder_line.group(1)}/{name}" for name in re.findall(r"`([a-z0-9-]+\.json)`", folder_line.group(0))
        }
    on_disk = {str(p.relative_to(ROOT)) for p in ROOT.glob("samples/*/*.json")}
    assert listed == on_disk
