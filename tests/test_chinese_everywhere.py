"""No English left in Chinese output (issue 34): every command, and the API's answers the viewer's pages
show, run on every sample with --lang zh / ?lang=zh, and every Latin word in what a person reads is one
that stays as it is in every language (docs/i18n.md): a rule id, an option, preset or notation name (and
a value the record writes), a card code, a pointer, a player's or an event's name, a file, an option of
the command line, or the name of a format or program. The rules pages are normative in English: a
ruling quotes them only marked lang="en" (and says so), which is left out here."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from referee.cli.main import main
from referee.game import games
from referee.ruledocs import rule_entries
from tests.test_translations import DOMAINS, catalogue

ROOT = Path(__file__).parent.parent
SAMPLES = sorted((ROOT / "samples").glob("*/*.json"))
ENV = {"REFEREE_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None, "COLUMNS": "100"}
# names of formats, programs and protocols, and the letters a help text uses as placeholders
KEPT = {
    "CGR",
    "JSON",
    "Lines",
    "JSONL",
    "gzip",
    "CSV",
    "HTML",
    "UTF",
    "HTTP",
    "API",
    "REST",
    "OpenAPI",
    "Ctrl",
    "referee",
    "main",
    "Dask",
    "Unicode",
    "ID",
    "id",
    "sqlite",
    "zh",
    "en",
    "Bearer",
    "tcp",
    "K",
    "N",
    "T",
    "D",
    "S",
    "I",
    "L",
    "W",
    "v",
    "MIT",
    "fsspec",
    "WebSocket",
    "AI",
    "pip",
    "cgr",
    "md",
    "docs",
    "rules",
    "notation",
    "mypyc",
    "git",
}
LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_']*")


@cache
def kept_words() -> frozenset[str]:
    """Every word that stays as it is: rule ids' parts, options, presets and their values, card codes and
    ranks, the command line's commands, options and metavars, and the words the Chinese of the catalogues
    itself keeps (a key of the notation it quotes: `leader`, `as`)."""
    words = set(KEPT)
    for rule in rule_entries():
        words.update(rule.split("."))
    for game in games().values():
        words.add(game.NAME)
        for name, option in game.OPTIONS.items():
            words.add(name)
            words.update(str(choice) for choice in option.choices or ())
        for preset, overrides in game.PRESETS.items():
            words.add(preset)
            words.update(overrides)
            words.update(str(value) for value in overrides.values())
        words.update(game.PRESET_ALIASES)
    words.update(r + s for r in "23456789TJQKA" for s in "SHDC")
    words.update(["BJ", "RJ", "J", "Q", "A", "true", "false", "null"])
    words.update(_command_line_words(main))
    for domain in DOMAINS:
        for entry in catalogue(domain):
            for chinese in entry.string if isinstance(entry.string, tuple) else (entry.string,):
                words.update(LATIN.findall(re.sub(r"\{[^}]*\}", " ", chinese or "")))
    return frozenset(words)


def _command_line_words(group) -> set[str]:
    found, context = set(), click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        found.add(name)
        for param in command.params:
            found.update(part for opt in param.opts + param.secondary_opts for part in opt.lstrip("-").split("-"))
            found.update(LATIN.findall(param.metavar or "") + LATIN.findall(param.human_readable_name.upper()))
            if isinstance(param.type, click.Choice):
                found.update(map(str, param.type.choices))
        if isinstance(command, click.Group):
            found |= _command_line_words(command)
    return found | {"OPTIONS", "COMMAND", "ARGS"}


def record_words(record) -> set[str]:
    """A record's own words, which stay as written: its players, its meta (the event...) and the comments of
    its actions."""
    found = set()
    if isinstance(record, dict):
        comments = [action.get("comment") for deal in record.get("deals") or [] for action in deal.get("actions") or []]
        for value in [*(record.get("players") or []), *((record.get("meta") or {}).values()), *filter(None, comments)]:
            found.update(LATIN.findall(str(value)))
    return found


def english_words(text: str, allowed: set[str]) -> list[str]:
    """The Latin words of `text` that are none of the words kept: pointers, paths and flags left out first."""
    text = re.sub(
        r"(?<![\w/])(/[\w~./-]*)|\S+\.(json|jsonl|csv|html|md|gz)\b|(?<![\w-])--?[A-Za-z][\w-]*|§[\d.]+", " ", text
    )
    text = re.sub(r"\b[a-z_]+(\.[a-z_0-9]+)+\b|0x[0-9A-F]+", " ", text)  # rule ids and dotted names, bytes
    return sorted(
        {
            word
            for word in LATIN.findall(text)
            if word not in allowed
            and word.strip("'") not in allowed
            and not re.fullmatch(r"[0-9A-F]{8,}|[a-f0-9]{8,}", word)
        }
    )


def run(*args) -> str:
    result = CliRunner().invoke(main, ["--lang", "zh", *args], env=ENV, terminal_width=100)
    assert "Traceback" not in result.output, result.output
    return result.output


def readable(html: str) -> str:
    """A page's text as a person reads it, without what is marked as English (the rules pages' text)."""
    html = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r'<(\w+)[^>]*\blang="en"[^>]*>.*?</\1>', " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html).replace("&#x27;", "'").replace("&quot;", '"').replace("&amp;", "&")


def assert_chinese(text: str, allowed: set[str], where: str):
    found = english_words(text, allowed)
    assert not found, f"{where}: English words {found} in\n{text[:3000]}"


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_command_on_every_sample_speaks_chinese(path):
    record = json.loads(path.read_text())
    allowed = set(kept_words()) | record_words(record)
    sample = str(path.relative_to(ROOT))
    outputs = {"validate": run("validate", sample), "validate --infer-rules": run("validate", "--infer-rules", sample)}
    report = json.loads(CliRunner().invoke(main, ["validate", "--json", sample]).stdout.splitlines()[0])
    for deal in range(len(record.get("deals", []))):
        outputs[f"replay --deal {deal}"] = run("replay", "--deal", str(deal), sample)
    if report["findings"]:
        outputs["replay --finding 0"] = run("replay", "--finding", "0", sample)
        outputs["ruling --finding 0"] = readable(run("ruling", "--finding", "0", sample, "-o", "-"))
    else:
        outputs["ruling --deal 0 --action 0"] = readable(
            run("ruling", "--deal", "0", "--action", "0", sample, "-o", "-")
        )
    for command, output in outputs.items():
        assert_chinese(output, allowed, f"referee --lang zh {command} {sample}")


def test_the_event_commands_speak_chinese():
    allowed = set(kept_words()).union(*(record_words(json.loads(p.read_text())) for p in SAMPLES))
    for args in (
        ["standings", "samples/event"],
        ["results", "check", "samples/event/sheet.csv", "samples/event"],
        ["rules"],
    ):
        assert_chinese(run(*args), allowed, " ".join(args))


def test_every_rule_explained_in_chinese():
    allowed = set(kept_words())
    for rule in sorted(rule_entries()):
        shown = run("explain", rule)
        said = "\n".join(line for line in shown.splitlines() if "示例（英文）" not in line)
        # what the example's record wrote, quoted: an `as` reading, a value in quotes
        said = re.sub(r'(?<![A-Za-z_])[a-z_]+:[0-9TJQKABR]+(?![0-9A-Za-z])|"[^"]*"', " ", said)
        assert_chinese(said, allowed, f"explain {rule}")


@pytest.mark.parametrize(
    "args",
    [["valdate"], ["validate", "--jsno", "x"], ["replay"], ["store", "lst"], ["validate", "--severity", "bogus", "x"]],
)
def test_the_command_lines_own_errors_speak_chinese(args):
    shown = run(*args)
    assert "错误" in shown
    assert_chinese(shown, set(kept_words()) | set(args), " ".join(args))


def test_the_check_finds_english():
    """The test above can fail: an English word in Chinese output is found, a kept one is not."""
    assert english_words("1号位 梅花J（single:J）；1号位 ×4：2 aces then ×2", set(kept_words())) == [
        "aces",
        "single",
        "then",
    ]
    assert english_words("guandan.follow /deals/0/actions/3 max_bomb_size 黑桃7 --json", set(kept_words())) == []


def test_each_example_keeps_its_template_and_says_its_message():
    """docs/rule-examples.json keeps the examples' templates and parameters (explain says them in Chinese; an
    example added without is said in English, and says so): in English they say its message word for word."""
    from referee.messages import Msg
    from referee.ruledocs import example_message, examples

    kept = {rule: example for rule, example in examples().items() if "template" in example}
    assert len(kept) >= 138
    for rule, example in kept.items():
        said = example_message(example)
        assert isinstance(said, Msg) and str(said) == example["message"], rule


# what the API's answers hold for people (the viewer shows them as they are); the rest are values a program
# reads (a status, a mode, card codes), which the viewer says in its own words (viewer.po)
FOR_PEOPLE = {"message", "reason", "owed", "may", "multipliers", "ruling"}


def _for_people(value, key=None):
    if isinstance(value, dict):
        for name, item in value.items():
            yield from _for_people(item, name)
    elif isinstance(value, list):
        for item in value:
            yield from _for_people(item, key)
    elif isinstance(value, str) and key in FOR_PEOPLE:
        yield value


def test_the_apis_answers_in_chinese_hold_no_english(tmp_path):
    from referee.api import create_app

    token = "t" * 32
    client = create_app(str(tmp_path / "referee.db"), token=token).test_client()
    allowed = set(kept_words()).union(*(record_words(json.loads(p.read_text())) for p in SAMPLES))
    answers = {}
    for path in SAMPLES:
        stored = client.post(
            "/v1/records",
            data=path.read_bytes(),
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        record_id = stored.get_json()["id"]
        answers[f"report of {path.name}"] = client.get(f"/v1/records/{record_id}/report?lang=zh").get_json()
        for deal in range(len(json.loads(path.read_text())["deals"])):
            answers[f"steps of {path.name} deal {deal}"] = client.get(
                f"/v1/records/{record_id}/deals/{deal}/steps?lang=zh"
            ).get_json()
    answers["standings"] = client.get("/v1/events/Desk Cup 2026/standings?lang=zh").get_json()
    for where, answer in answers.items():
        assert_chinese("\n".join(_for_people(answer)), allowed, where)
