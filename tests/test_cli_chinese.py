"""The command line in Chinese (issue 22): --lang, REFEREE_LANG and the locale; help, reports and
replay tables in Chinese; an unknown language refused."""

import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from rich.cells import cell_len

from referee.cli.main import main
from referee.importers import importers

SAMPLES = Path(__file__).parent.parent / "samples"
DISPUTED = str(SAMPLES / "guandan" / "disputed-illegal-follow.json")
NO_LOCALE = {"REFEREE_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None, "COLUMNS": "80"}


def run(*args, **env):
    return CliRunner().invoke(main, list(args), env={**NO_LOCALE, **env})


@pytest.mark.parametrize(
    "args, env",
    [
        (("--lang", "zh", "validate", DISPUTED), {}),
        (("validate", "--lang", "zh", DISPUTED), {}),
        (("validate", DISPUTED), {"REFEREE_LANG": "zh"}),
        (("validate", DISPUTED), {"LANG": "zh_CN.UTF-8"}),
        (("validate", "--lang", "zh", DISPUTED), {"REFEREE_LANG": "en"}),
    ],
)
def test_the_report_is_in_chinese_by_flag_environment_or_locale(args, env):
    result = run(*args, **env)
    assert result.exit_code == 1
    assert "无效  掼蛋（official）" in result.output and "汇总：1 份记录：0 份有效" in result.output
    assert "INVALID" not in result.output and "Summary" not in result.output


def test_english_unless_chinese_is_asked_for():
    assert "INVALID" in run("validate", DISPUTED).output
    assert "INVALID" in run("validate", DISPUTED, LANG="fr_FR.UTF-8").output
    assert "INVALID" in run("--lang", "zh", "validate", "--lang", "en", DISPUTED).output


@pytest.mark.parametrize("args", [("--lang", "fr", "validate", DISPUTED), ("validate", "--lang", "klingon", DISPUTED)])
def test_an_unknown_language_is_a_usage_error(args):
    result = run(*args)
    assert result.exit_code == 2
    assert "unknown language" in result.output and "en, zh" in result.output and "Traceback" not in result.output


def test_errors_of_the_command_line_and_of_click_are_in_chinese(tmp_path):
    missing = run("--lang", "zh", "validate", str(tmp_path / "none.json"))
    assert missing.exit_code == 2 and "无法读取" in missing.output
    wrong = run("--lang", "zh", "validate", "--severity", "bogus", DISPUTED)
    assert (
        wrong.exit_code == 2
        and "错误：" in wrong.output
        and "'bogus' 不是 'info', 'warning', 'error' 之一" in wrong.output
    )
    assert "Error" not in wrong.output and "is not one of" not in wrong.output


@pytest.mark.parametrize("command", [("replay",), ("ruling", "-o", "out.html")])
def test_a_file_that_cannot_be_read_is_said_in_chinese_by_every_command(tmp_path, command):
    name, *options = command
    for path, says in ((tmp_path / "none.json", "没有这个文件或目录"), (tmp_path, "这是一个文件夹")):
        shown = run(
            "--lang", "zh", name, str(path), *[str(tmp_path / o) if o.endswith(".html") else o for o in options]
        )
        assert shown.exit_code == 2 and "无法读取" in shown.output and says in shown.output, shown.output
        assert "No such file" not in shown.output and "it is a folder" not in shown.output


@pytest.mark.parametrize(
    "sample, says",
    [
        ("gouji/false-shao-pai.json", "受罚 5号位"),
        ("gouji/disputed-non-duellist-plays-into-duel.json", "轮到 3号位"),
        ("gandengyan/multipliers.json", "胜方 2号位"),
    ],
)
def test_a_deals_seats_are_seats_in_chinese(sample, says):
    shown = run("--lang", "zh", "validate", str(Path(__file__).parent.parent / "samples" / sample))
    assert says in shown.output
    english = run("validate", str(Path(__file__).parent.parent / "samples" / sample))
    assert "号位" not in english.output


def test_a_computed_winner_of_no_one_is_shown_as_none(tmp_path):
    record = json.loads((Path(__file__).parent.parent / "samples" / "event" / "r1-t1.json").read_text())
    record["result"] = {"winner": 1}  # the match stopped before a team passed A: no winner computed
    record["rulings"] = [{"rule": "guandan.match.winner", "at": "/result/winner", "decision": "claim", "by": "x"}]
    path = tmp_path / "ruled.json"
    path.write_text(json.dumps(record))
    shown = run("--lang", "zh", "validate", str(path))
    assert "裁判计算 胜方=-" in shown.output and "None" not in shown.output


def _commands(group, prefix=()):
    context = click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        yield (*prefix, name)
        if isinstance(command, click.Group):
            yield from _commands(command, (*prefix, name))


def test_every_choice_is_refused_in_the_language_spoken():
    """click's own Choice says its refusal in English only (cli/command.py): every command takes the project's."""
    from referee.cli.command import Choice

    for path in _commands(main):
        command = main
        for name in path:
            command = command.get_command(click.Context(command), name)
        plain = [p.name for p in command.params if isinstance(p.type, click.Choice) and not isinstance(p.type, Choice)]
        assert plain == [], path
    refused = run("--lang", "zh", "decide", DISPUTED, "--finding", "1", "--decision", "maybe", "--by", "x", "-w")
    assert refused.exit_code == 2 and "'maybe' 不是 'stands', 'score', 'void', 'claim' 之一" in refused.output


# words that stay as they are in Chinese: file formats, programs and protocols, values a user types
KEPT = {
    "json",
    "jsonl",
    "lines",
    "gzip",
    "gz",
    "bz2",
    "xz",
    "csv",
    "sqlite",
    "dask",
    "fsspec",
    "parquet",
    "api",
    "rest",
    "openapi",
    "docs",
    "view",
    "referee",
    "schema",
    "cgr",
    "utf",
    "bearer",
    "token",
    "http",
    "tcp",
    "host",
    "post",
    "records",
    "delete",
    "get",
    "events",
    "event",
    "standings",
    "pip",
    "install",
    "guandan",
    "zh",
    "en",
    "infer",
    "rules",
    "true",
    "preset",
    "options",
    "meta",
    "date",
    "md",
    "game",
    "players",
    "winner",
    "levels",
    "totals",
    "deals",
    "round",
    "table",
    "status",
    "default",
    "values",
    "effect",
    "presets",
    "aliases",
    "chromium",
    "pdf",
    "info",
    "warning",
    "error",
    "match",
    "deal",
    "competition",
    "ctrl",
    "validate",
    "fmt",
    "serve",
    "show",
    "list",
    "store",
    "import",
    "would",
    "reformat",
    "no",
    "row",
    "name",
    "ids",
    "id",
    "db",
    "main",
    "audit",
    "explain",
    "replay",
    "results",
    "check",
    "report",
    "export",
    "ruling",
    "html",
    "websocket",
    "decide",
    "stands",
    "score",
    "void",
    "claim",
    "notation",
    "integrity",
}


@pytest.mark.parametrize("command", [(), *_commands(main)], ids=lambda c: " ".join(c) or "referee")
def test_help_in_chinese_has_no_english_but_names(command):
    result = run("--lang", "zh", *command, "--help")
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    for importer in importers().values():  # the importers' own words: the core's to translate
        text = text.replace(" ".join(importer.SUMMARY.split()), "")
    text = re.sub(r"--?[\w-]+|\b[A-Z_][A-Z_0-9]+\b|\[[^\]]*\]|`[^`]*`|'[^']*'|\"[^\"]*\"|\S+\.\w+|\w+://\S+", " ", text)
    english = {word.lower() for word in re.findall(r"[A-Za-z]{2,}", text)} - KEPT
    assert not english, result.output


@pytest.mark.parametrize("command", [(), *_commands(main)], ids=lambda c: " ".join(c) or "referee")
def test_help_in_chinese_is_set_as_chinese_is(command):
    """Within 80 cells, no line starts with a closing mark, and no space is left where the catalogue broke a line
    between Chinese characters or beside full-width punctuation (cli/command.py, _wrapped)."""
    _usage, *lines = run("--lang", "zh", *command, "--help").output.splitlines()  # click writes "用法： " itself
    assert max(map(cell_len, lines)) <= 80
    assert [line for line in lines if line.strip()[:1] in tuple("。，、；：！？）")] == []
    assert [line for line in lines if re.search("[，。、；：）] | [，。、；：（]", line.strip())] == []


def test_replay_tables_line_up_in_chinese_at_80_columns():
    result = run("--lang", "zh", "replay", DISPUTED, "--step", "0")
    lines = result.output.splitlines()
    assert "…" not in result.output  # no hand cut short
    head = next(line for line in lines if line.startswith("座位"))
    hand_at = cell_len(head[: head.index("手牌")])
    rows = [line for line in lines[lines.index(head) + 1 :] if line[:1].isdigit() or line.startswith(" " * hand_at)]
    assert len(rows) > 4
    for line in [head, *rows]:
        assert cell_len(line) <= 80, line
    for line in rows:
        first_card = re.search("红桃|黑桃|梅花|方块|小王|大王", line).start()
        assert cell_len(line[:first_card]) == hand_at, line


def test_replay_json_findings_are_rendered_in_the_language():
    english = json.loads(run("replay", DISPUTED, "--finding", "1", "--json").output)
    chinese = json.loads(run("--lang", "zh", "replay", DISPUTED, "--finding", "1", "--json").output)
    assert [f["rule"] for f in chinese["findings"]] == [f["rule"] for f in english["findings"]]
    assert chinese["table"] == english["table"]


def test_a_stored_report_shown_in_chinese_is_made_again_with_the_same_findings(tmp_path):
    db = str(tmp_path / "store.db")
    assert run("store", "import", DISPUTED, "--db", db).exit_code == 1
    record_id = run("store", "list", "--db", db).output.split()[0]
    stored = json.loads(run("store", "report", record_id, "--db", db, "--json").output)
    shown = json.loads(run("--lang", "zh", "store", "report", record_id, "--db", db, "--json").output)
    assert [(f["rule"], f["at"]) for f in shown["findings"]] == [(f["rule"], f["at"]) for f in stored["findings"]]
    assert shown["valid"] is stored["valid"] is False
    text = run("store", "report", record_id, "--db", db, "--lang", "zh").output
    assert "无效" in text and "INVALID" not in text


def test_the_version_in_chinese():
    assert run("--lang", "zh", "--version").output.startswith("main，版本 ")
    assert run("--version").output.startswith("main, version ")


def test_standings_columns_line_up_in_terminal_cells_with_chinese_heads_and_names():
    from referee.cli.results import standings_text
    from referee.messages import use_language

    rows = [
        {
            "rank": n + 1,
            "game": "guandan",
            "entrant": name,
            "played": 2,
            "won": 2 - n,
            "drawn": 0,
            "lost": n,
            "match_points": 4 - 2 * n,
            "margin": 5 - 5 * n,
            "tie_break": "margin" if n else None,
        }
        for n, name in enumerate(["王磊 & 刘洋", "Ann & Cy", "陈静 & 赵敏"])
    ]
    use_language("zh")
    lines = standings_text(
        {"event": "淮安公开赛", "points": [2, 1, 0], "standings": rows, "invalid": [], "not_counted": []}
    ).splitlines()
    head = next(line for line in lines if "名次依据" in line)
    body = lines[lines.index(head) + 1 :]
    assert len(body) == 3 and body[1].endswith("净胜")
    for line in body:  # every column but the last ends where its head ends
        assert cells_before_last(line) == cells_before_last(head), "\n".join(lines)


def cells_before_last(line: str) -> int:
    return cell_len(line[: line.rstrip().rindex("  ")])


@pytest.mark.parametrize(
    "game, effect",
    [("guandan", "天王炸排在7张炸弹和8张炸弹之间"), ("gouji", "只有得分为正的一队计分"), ("gandengyan", "王不能当2用")],
)
def test_rules_say_what_each_option_does_in_chinese(game, effect):
    result = run("--lang", "zh", "rules", game)
    assert result.exit_code == 0 and effect in result.output


@pytest.mark.parametrize("args", [["validate", "--help"], ["store", "list", "--help"], ["--version"], ["--help"]])
def test_lang_after_help_or_version_still_chooses_their_language(args):
    """click handles the eager options in the order given: --help before --lang showed the help in English."""
    chosen = run("--lang", "zh", *args)
    assert chosen.exit_code == 0 and re.search("[\u4e00-\u9fff]", chosen.output)
    assert run(*args, "--lang", "zh").output == chosen.output == run(*args, "--lang=zh").output
