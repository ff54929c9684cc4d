"""The core's findings and problems as message templates (issue 22): each keeps its template and
parameters, and reads in Chinese with no English word but those quoted from the record or the rules
(rule ids, option and preset names, JSON keys and values)."""

import json
import re
from pathlib import Path

import pytest

from referee import guandan
from referee.batch import check_one, records_of
from referee.findings import more_finding
from referee.importers.competition import convert
from referee.messages import Msg, msg, use_language
from referee.notation import parse_json
from referee.replay import check_record
from referee.results import check_sheet, played
from referee.ruledocs import meaning, rule_entries, section
from referee.sheet import SheetError, read_sheet
from tests.test_translations import extracted

SAMPLES = Path(__file__).parent.parent / "samples"
WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9.-]*")


def english_words(text: str, quoted=()) -> set[str]:
    """The words of `text` written in Latin letters with a lowercase one (CGR, JSON, UTF are names, not
    English), but for those `quoted` (from the record or the rules), JSON's literals and rule ids."""
    allowed = {"true", "false", "null", "x-", *quoted}
    return {w for w in WORD.findall(text) if re.search("[a-z]", w) and w not in allowed and "." not in w}


def in_chinese(finding, *quoted):
    """The finding's Chinese, after checking that it keeps its template and says no English word."""
    data = finding.as_dict()
    assert data["template"] and isinstance(data["params"], dict)
    text = finding.shown("zh")
    assert text != finding.message
    assert not english_words(text, quoted), (text, english_words(text, quoted))
    return text


def sample(path):
    return json.loads((SAMPLES / path).read_text(encoding="utf-8"))


@pytest.mark.parametrize("text", ['{"cgr": 1,', "[1 2]", "", '{"a": tru}', "\ufeff{}x"])
def test_unreadable_json_says_where_and_why_in_chinese(text):
    finding = parse_json(text.lstrip("\ufeff"))
    params = finding.as_dict()["params"]
    assert finding.rule == "notation.json" and "line" not in params and params["column"] >= 1  # one line: its column
    assert "记录不是有效的 JSON" in in_chinese(finding)


def test_an_unreadable_record_in_a_batch_keeps_its_template():
    [finding] = check_one('{"cgr": ', "x.json").findings
    assert finding.as_dict()["template"].startswith("the record is not valid JSON")
    in_chinese(finding)


def test_schema_errors_are_our_own_templates_in_chinese():
    record = {
        "cgr": 2,
        "game": "guandan",
        "players": "A B C D",
        "deals": [],
        "bogus": 1,
        "meta": {"event": 3},
        "start": {"fresh": True},
    }
    findings = check_record(record).findings
    rules = {f.rule for f in findings}
    assert {
        "notation.version",
        "notation.structure",
        "notation.key.unknown",
        "notation.deals",
        "notation.meta",
        "notation.key.game",
    } <= rules
    for finding in findings:
        in_chinese(finding, *record, *record["start"])
    [missing] = check_record({"cgr": 1, "game": "guandan", "players": ["A", "B", "C", "D"]}).findings
    assert missing.as_dict()["params"] == {"key": '"deals"'}
    assert in_chinese(missing, "deals") == '缺少必需的键 "deals"'


def test_a_schema_error_without_a_message_of_its_own_is_in_our_words():
    record = sample("guandan/match-won-at-a.json")
    record["deals"][0]["actions"][0] = {"seat": 0, "play": []}
    findings = check_record(record).findings
    assert [f.as_dict()["template"] for f in findings] == ["needs at least {n} item"]
    assert in_chinese(findings[0]) == "至少需要 1 项"


@pytest.mark.parametrize(
    "rules, said",
    [
        ({"preset": "oficial"}, "guandan 没有预设"),
        ({"options": {"max_bomb_sise": 6}}, "guandan 没有选项"),
        ({"options": {next(iter(guandan.OPTIONS)): "yes"}}, "的取值应为"),
    ],
)
def test_unknown_presets_and_options_and_wrong_values_in_chinese(rules, said):
    record = dict(sample("guandan/match-won-at-a.json"), rules=rules)
    [finding] = check_record(record).findings
    names = [*guandan.PRESETS, *guandan.OPTIONS, "guandan", "oficial", "max_bomb_sise", "yes"]
    assert said in in_chinese(finding, *names)


def test_claimed_totals_and_a_claim_the_game_lacks_in_chinese():
    record = sample("gandengyan/multipliers.json")
    record["result"] = {"totals": [0, 0, 0], "levels": ["2", "2"]}
    findings = {f.rule: f for f in check_record(record).findings}
    assert in_chinese(findings["gandengyan.match.totals"]) == "记录所称总分为 0, 0, 0，裁判计算为 -16, -384, 400"
    assert (
        in_chinese(findings["gandengyan.result.key"], "totals", "winner")
        == "干瞪眼没有级；记录中请给出 totals 或 winner"
    )


def test_an_incomplete_deal_and_the_findings_past_those_listed_in_chinese():
    record = sample("guandan/match-won-at-a.json")  # 11 deals: the first may not be incomplete
    del record["deals"][0]["actions"][5:]
    record["deals"][0].pop("result", None)
    record.pop("result", None)
    incomplete = [f for f in check_record(record).findings if f.rule == "notation.deal.incomplete"]
    assert [in_chinese(f) for f in incomplete] == ["本局在 5 个动作之后中止，尚未结束；只有记录的最后一局可以不完整"]
    more = more_finding(1234, msg("structural problems"), all_counted=False)
    assert in_chinese(more) == "……另有至少 1,234 条结构问题（其余未再计数）"


def test_seats_and_numbers_beyond_bounds_in_chinese():
    record = sample("guandan/match-won-at-a.json")
    record["deals"][0]["actions"][0]["seat"] = 7
    [seat] = check_record(record).findings
    assert in_chinese(seat) == "7号位不存在：本桌只有 0 到 3 号位"


def test_sheet_problems_carry_templates_and_read_in_chinese():
    records, _ = played(
        [
            (
                "r.json",
                json.dumps(
                    dict(sample("guandan/match-won-at-a.json"), meta={"event": "Open", "round": "1", "table": "1"})
                ),
            )
        ]
    )
    sheet = read_sheet(b"event,round,table,game,deals\nOpen,1,1,chess,many,extra\nOpen,,1,guandan,1\n")
    problems = [p for entry in check_sheet(sheet, records) for p in entry.get("problems", [])]
    assert len(problems) == 4
    for problem in problems:
        text = Msg.from_json(problem).render("zh")
        assert str(Msg.from_json(problem)) == problem["message"]
        assert not english_words(text, ["chess", "many", "guandan", "gandengyan", "gouji", "round"]), text


@pytest.mark.parametrize("data", [b"round\n1\n", b"", b"\xff\xfe\x00\xd8"])
def test_sheets_that_cannot_be_read_say_why_in_chinese(data):
    with pytest.raises(SheetError) as caught:
        read_sheet(data)
    problem = caught.value.args[0]
    assert isinstance(problem, Msg) and str(caught.value) == str(problem)
    assert not english_words(problem.render("zh"), ["round", "table", "columns"]), problem.render("zh")


def test_importer_problems_read_in_chinese():
    problems = [
        item
        for item in convert([(1, '{"type": "notify", "stage": "nonsense"}\n')], "c.jsonl", "match", None)
        if not hasattr(item, "record")
    ]
    assert problems and all(p.text is not None for p in problems)
    assert "未知的消息" in problems[0].shown("zh") and str(problems[0]).startswith("c.jsonl:1: unknown message")


def test_every_rule_meaning_is_in_the_catalogue_and_reads_in_chinese():
    said = {text for text, _context in extracted("core")}
    entries = rule_entries()
    assert all(entry["meaning"] in said for entry in entries.values())
    assert meaning("notation.json", "en") == entries["notation.json"]["meaning"]
    assert meaning("notation.json", "zh").startswith("不是有效的 JSON")
    assert meaning("guandan.tribute.card", "zh") == "进贡的牌不是手中最大的点数（§6.3）"
    assert meaning("no.such.rule", "zh") is None


def test_the_schema_messages_are_in_the_catalogue():
    schema_text = (Path(__file__).parent.parent / "referee" / "schema" / "cgr1.schema.json").read_text()
    templates = {t.replace("{value!r}", "{value}") for t in re.findall(r'"x-message": "([^"]*)"', schema_text)}
    assert templates and templates <= {text for text, _context in extracted("core")}


def test_the_rules_page_of_a_rule_without_a_section_reads_in_the_process_language():
    assert section("notation.depth") == "docs/notation.md (no single section)"
    use_language("zh")
    try:
        assert section("notation.depth") == "docs/notation.md （无单独章节）"
    finally:
        use_language("en")


def test_a_file_that_cannot_be_opened_says_why_in_chinese(tmp_path):
    [(_, report)] = list(records_of(str(tmp_path / "missing.json")))
    [finding] = report.findings
    assert finding.rule == "notation.file" and finding.message.endswith("No such file or directory")
    assert in_chinese(finding, "missing.json", *str(tmp_path).split("/")).endswith("没有这个文件或目录")
