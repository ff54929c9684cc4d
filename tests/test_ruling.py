"""The ruling document (issue 21 item 6): `referee ruling` and GET /v1/records/{id}/ruling write one
self-contained HTML file: the record's identity and verdict, and per finding the table, the action, the
message, what was legal and the rule's text. Opened in a browser: tests/test_ruling_browser.py."""

from __future__ import annotations

import copy
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

import referee.replay
import referee.ruling
from referee.api import create_app
from referee.canonical import record_id
from referee.cli.main import main
from referee.replay import deals_steps, replay_steps, step_json
from referee.ruledocs import section_text
from referee.ruling import RulingError, ruling
from tests.test_docs_commands import REFEREE

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted(ROOT.glob("samples/*/*.json"))
FOLLOW = ROOT / "samples/guandan/disputed-illegal-follow.json"
TRIBUTE = ROOT / "samples/guandan/disputed-wrong-tribute-card.json"
HOSTILE = ["<script>alert(1)</script>", '"><img src=x onerror=alert(2)>', "Mallory\u202eevil", "&amp; 'quoted'"]


class Outline(HTMLParser):
    """Every tag with its attributes, and the text of <style>."""

    def __init__(self):
        super().__init__()
        self.tags, self.styles, self._in_style = [], [], False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_style = tag == "style"

    def handle_endtag(self, tag):
        self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.styles.append(data)


def outline(html: str) -> Outline:
    parsed = Outline()
    parsed.feed(html)
    return parsed


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def sections(html: str) -> list[str]:
    return re.findall(r'<section class="part finding ', html)


@pytest.mark.parametrize("path", SAMPLES, ids=[str(p.relative_to(ROOT)) for p in SAMPLES])
def test_a_ruling_fetches_nothing(path):
    html = ruling(load(path), "id")
    parsed = outline(html)
    tags = {tag for tag, _ in parsed.tags}
    assert not tags & {"script", "link", "img", "iframe", "object", "embed", "base", "form"}
    for tag, attrs in parsed.tags:
        for name in ("src", "href", "action", "srcset", "poster", "data"):
            value = attrs.get(name)
            assert value is None or value.startswith("#"), f"<{tag} {name}={value!r}>"
    css = "".join(parsed.styles)
    assert "@import" not in css and "url(" not in css
    assert not re.search(r"(https?:)?//[\w.-]+\.[a-z]", css)
    policy = next(
        attrs["content"]
        for tag, attrs in parsed.tags
        if tag == "meta" and attrs.get("http-equiv") == "Content-Security-Policy"
    )
    assert policy.startswith("default-src 'none'")


def test_every_player_name_and_meta_value_is_escaped():
    record = load(FOLLOW)
    record["players"] = HOSTILE
    record["meta"]["event"] = "</title><script>alert(3)</script>"
    html = ruling(record, "id")
    parsed = outline(html)
    assert [tag for tag, _ in parsed.tags if tag in ("script", "img")] == []
    assert "<script>" not in html and "<img" not in html and "\u202e" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&#34;&gt;&lt;img src=x onerror=alert(2)&gt;" in html
    assert "Mallory⟨U+202E⟩evil" in html  # the bidi override shown, not obeyed
    assert "&amp;amp; &#39;quoted&#39;" in html
    assert "&lt;/title&gt;&lt;script&gt;alert(3)" in html


def test_a_ruling_holds_the_identity_the_verdict_and_the_dispute():
    record = load(FOLLOW)
    html = ruling(record, record_id(record))
    for text in (
        "Huai&#39;an Open 2026, round 1, table 11",
        "<dt>Round</dt><dd>1</dd>",
        "<dt>Table</dt><dd>11</dd>",
        "<dt>Game</dt><dd>Guandan</dd>",
        "the “official” preset of docs/rules/guandan.md",
        "Wang Lei (seat 0), team 0",
        "Zhao Min (seat 3), team 1",
        record_id(record),
        "INVALID",
        "seat 0 played a single Q on a single K; only a higher single, or a bomb, may follow",
        "docs/rules/guandan.md §3, item 3",
        "The action, refused",
    ):
        assert text in html, text
    assert "## 3." not in html and "<h2>3. The follow relation" not in html, "the clause, not the whole section"
    assert '<ol start="3">' in html and "<code>single</code>" in html, "the page's Markdown rendered"
    finding = html.split('id="finding-1"')[1]
    table = finding.split('class="table seats-4"')[1].split("Legal then")[0]
    assert len(re.findall(r'<section class="seat', table)) == 4
    assert table.count('class="card marked"') == 2, "the refused Q: once in the hand, once in the trick"
    legal = finding.split("Legal then")[1].split("The rule")[0]
    assert legal.count('class="card') == 1 + 4 + 4 + 4 + 5 + 3 * 5, "single 2C; four bombs; three straight flushes"
    assert "<strong>bomb</strong>" in legal and "<strong>straight flush</strong>" in legal


def test_a_tribute_finding_shows_the_tribute_and_the_rule_item():
    html = ruling(load(TRIBUTE), "id", finding=0)
    assert len(sections(html)) == 1
    assert "Sun Hao (seat 0) pays tribute" not in html
    assert re.search(
        r"Wu Qiang \(seat 2\) pays tribute <span class=\"played\"><span class=\"card red marked\" "
        r"title=\"3D\"",
        html,
    )
    assert "**Tribute card**" not in html and '<ol start="3">\n<li><strong>Tribute card</strong>' in html  # §6.3 alone
    assert "Double allocation" not in html


def test_a_deal_and_action_without_a_finding_shows_that_action():
    html = ruling(load(FOLLOW), "id", deal=0, action=3)
    assert len(sections(html)) == 1 and "The referee finds no fault in this action." in html
    assert "The table at step 4 (deal 1)" and "Deal 1, action 4" in html in html


@pytest.mark.parametrize(
    "asked, said",
    [
        ({"finding": 1}, "there is no finding 2: the record has 1 finding"),
        ({"deal": 1}, "there is no deal 2: the record has 1 deal"),
        ({"deal": 0, "action": 500}, "deal 1 replays to action 25 at most"),
        ({"finding": 0, "deal": 0}, "name a finding, or a deal and an action, not both"),
    ],
)
def test_what_the_record_does_not_hold_is_said(asked, said):
    with pytest.raises(RulingError) as caught:
        ruling(load(FOLLOW), "id", **asked)
    assert str(caught.value) == said


def test_a_ruling_in_chinese():
    html = ruling(load(FOLLOW), "id", "zh")
    assert '<html lang="zh-Hans">' in html and "<title>裁决书" in html
    assert "Wang Lei（0号位）" in html
    assert 'aria-label="黑桃Q"' in html and "判定1：错误 guandan.follow" in html
    assert "<dt>进贡</dt><dd>类型 无" in html and ">kind " not in html  # a table's keys within keys too
    assert '<p class="line"><strong>同花顺</strong>' in html  # what was legal, grouped in the glossary's words
    assert "</a>（第1局、动作25、Wang Lei（0号位））：0号位出单张Q管单张K" in html  # full-width brackets and colon
    assert "0队（Wang Lei、Liu Yang）：打2；1队（Chen Jing、Zhao Min）：打2" in html


def test_the_rule_text_is_the_section_or_the_item_the_rule_id_names():
    assert section_text("docs/rules/guandan.md", "§6.4").startswith("4. **Double allocation**")
    assert "5. **Return card**" not in section_text("docs/rules/guandan.md", "§6.4")
    assert section_text("docs/rules/gouji.md", "§6.2").startswith("### 6.2 Card rules")
    assert "### 6.3" not in section_text("docs/rules/gouji.md", "§6.2")
    assert section_text("docs/rules/guandan.md", "§3").startswith("## 3. The follow relation")
    assert section_text("docs/rules/guandan.md", "§77") == ""


# ---------------------------------------------------------------- the command line


def run(*args):
    return CliRunner().invoke(main, ["ruling", *map(str, args)])


def test_the_command_writes_the_file(tmp_path):
    out = tmp_path / "ruling.html"
    result = run(FOLLOW, "--finding", 1, "-o", out)
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and len(sections(html)) == 1
    assert record_id(load(FOLLOW)) in html


@pytest.mark.parametrize(
    "args, said",
    [
        (["--finding", 7], "the record has 1 finding(s); --finding takes 1 to 1"),
        (["--finding", 0], "the record has 1 finding(s); --finding takes 1 to 1"),
        (["--deal", 3], "the record has 1 deal(s); --deal takes 1 to 1"),
        (["--deal", 1, "--action", 99], "deal 1 replays to action 25 at most"),
        (["--action", 0], "deal 1 replays to action 25 at most"),
        (["--finding", 1, "--action", 1], "name a finding, or a deal and an action, not both"),
        (["--line", 3], "is one JSON document, not JSON Lines"),
    ],
)
def test_a_request_the_record_cannot_answer_exits_2_and_writes_nothing(args, said, tmp_path):
    out = tmp_path / "ruling.html"
    result = run(FOLLOW, *args, "-o", out)
    assert result.exit_code == 2 and said in result.output
    assert "Traceback" not in result.output and not out.exists()


def test_an_unreadable_file_exits_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    for path in (bad, tmp_path / "missing.json"):
        result = run(path, "-o", tmp_path / "out.html")
        assert result.exit_code == 2 and "referee:" in result.output


def test_the_command_speaks_chinese(tmp_path):
    out = tmp_path / "ruling.html"
    assert run(FOLLOW, "--lang", "zh", "-o", out).exit_code == 0
    assert "裁决书" in out.read_text(encoding="utf-8")
    result = run(FOLLOW, "--lang", "zh", "--finding", 4, "-o", out)
    assert result.exit_code == 2 and "该记录有 1 条判定；--finding 取 1 到 1" in result.output


# ---------------------------------------------------------------- the API


@pytest.fixture
def client(tmp_path):
    return create_app(str(tmp_path / "referee.db")).test_client()


def stored(client, path: Path) -> str:
    return client.post("/v1/records", data=path.read_bytes(), content_type="application/json").get_json()["id"]


def test_the_endpoint_hands_out_the_ruling_as_a_file(client):
    record = stored(client, FOLLOW)
    answer = client.get(f"/v1/records/{record}/ruling?finding=0")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "text/html; charset=utf-8"
    assert answer.headers["Content-Disposition"] == f'attachment; filename="ruling-{record[:12]}.html"'
    assert answer.headers["Content-Security-Policy"].startswith("default-src 'none'")
    html = answer.get_data(as_text=True)
    assert record in html and record == record_id(load(FOLLOW)) and len(sections(html)) == 1


def test_the_endpoint_speaks_the_language_asked(client):
    record = stored(client, FOLLOW)
    assert "裁决书" in client.get(f"/v1/records/{record}/ruling?lang=zh").get_data(as_text=True)
    asked = client.get(f"/v1/records/{record}/ruling", headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    assert "裁决书" in asked.get_data(as_text=True)
    assert "<title>Ruling" in client.get(f"/v1/records/{record}/ruling").get_data(as_text=True)


@pytest.mark.parametrize(
    "query, status",
    [
        ("?finding=3", 404),
        ("?deal=2", 404),
        ("?deal=0&action=400", 404),
        ("?finding=x", 400),
        ("?lang=fr", 400),
        ("?step=1", 400),
    ],
)
def test_the_endpoint_refuses_what_is_not_there(client, query, status):
    record = stored(client, FOLLOW)
    answer = client.get(f"/v1/records/{record}/ruling{query}")
    assert answer.status_code == status and answer.get_json()["message"]


def test_no_ruling_for_an_unknown_record(client):
    assert client.get("/v1/records/nothing/ruling").status_code == 404


README_RULINGS = [
    args
    for page, _, args in REFEREE
    if page in ("README.md", "cli.md") and args[:1] == ["ruling"] and (ROOT / args[1]).exists()
]


@pytest.mark.parametrize("args", README_RULINGS, ids=[" ".join(a) for a in README_RULINGS])
def test_the_readme_ruling_commands_write_their_file(args, tmp_path, monkeypatch):
    from referee.cli.ruling import _chromium

    if args[-1].endswith(".pdf") and _chromium() is None:
        pytest.skip("no Chromium on PATH to print a PDF with (make browser; or set REFEREE_CHROMIUM)")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, [args[0], str(ROOT / args[1]), *args[2:]])
    assert result.exit_code == 0, result.output
    written = tmp_path / args[args.index("-o") + 1]
    assert written.read_bytes().startswith(b"%PDF" if written.suffix == ".pdf" else b"<!DOCTYPE html>")


def test_without_the_docs_the_ruling_is_written_without_the_rules_text(monkeypatch, tmp_path):
    monkeypatch.setattr("referee.ruledocs.DOCS", tmp_path / "no-docs")
    html = ruling(load(FOLLOW), "id")
    assert "seat 0 played a single Q on a single K" in html and "The follow relation" not in html


def test_a_claim_finding_shows_the_claim_against_the_computed_value():
    html = ruling(load(ROOT / "samples/guandan/disputed-false-level.json"), "id", finding=0)
    claim = html.split('<table class="claim">')[1].split("</table>")[0]
    assert "<caption>Claimed against computed</caption>" in claim and '<th scope="row">levels</th>' in claim
    assert (
        '<td class="differs">team 0 (Wang Lei, Liu Yang): A; team 1 (Chen Jing, Zhao Min): 3</td>'
        "<td>team 0 (Wang Lei, Liu Yang): 4; team 1 (Chen Jing, Zhao Min): 3</td>"
    ) in claim
    outcome = html.split("The deal&#39;s outcome")[1].split("The rule")[0]
    assert "<dt>levels</dt><dd>team 0 (Wang Lei, Liu Yang): 4; team 1 (Chen Jing, Zhao Min): 3</dd>" in outcome


def test_warnings_and_notes_go_to_the_appendix_after_the_errors():
    html = ruling(load(ROOT / "samples/guandan/disputed-return-above-ten.json"), "id")
    main, appendix = html.split('<section class="part appendix">')
    assert len(re.findall(r'<section class="part finding error"', main)) == 1
    assert 'class="part finding warning"' not in main and 'class="part finding info"' not in main
    assert re.search(r'<section class="part finding (warning|info)"', appendix)
    assert 'class="table' not in appendix, "a note is told without its table"


def test_a_ruling_replays_the_record_once_for_all_its_deals(monkeypatch):
    record = load(ROOT / "samples/gandengyan/wenshan-session.json")
    record["deals"] = [copy.deepcopy(record["deals"][n % 4]) for n in range(12)]
    for deal in record["deals"]:
        deal["result"]["scores"] = [score + 1 for score in deal["result"]["scores"]]  # a wrong claim in each
    checks = []
    real = referee.replay.check_record
    monkeypatch.setattr(referee.replay, "check_record", lambda *a, **k: checks.append(1) or real(*a, **k))
    monkeypatch.setattr(referee.ruling, "check_record", referee.replay.check_record)
    html = ruling(record, "id")
    assert len({f.deal for f in real(record).findings if f.deal is not None}) == 12 and len(sections(html)) >= 12
    assert len(checks) == 2, "one check for the report, one replay for the tables of every deal"


def test_the_steps_of_several_deals_are_those_of_each():
    record = load(ROOT / "samples/guandan/match-won-at-a.json")
    _, steps = deals_steps(record, [0, 2])
    for deal in (0, 2):
        alone = replay_steps(record, deal)[1]
        assert [step_json(s) for s in steps[deal]] == [step_json(s) for s in alone]


def test_the_cards_in_question_are_marked_where_the_table_holds_them():
    returned = ruling(load(ROOT / "samples/guandan/disputed-return-above-ten.json"), "id", finding=0)
    receiver = returned.split('<span class="name">Guo Tao</span>')[1].split("</section>")[0]
    assert receiver.count("marked") == 1, "the return that stood: the QH in the receiver's hand"


# ---------------------------------------------------------------- the clause a rule id names (issue 35)


@pytest.mark.parametrize(
    "rule, page, number, message, kind, key, holds",
    [
        (
            "guandan.follow",
            "docs/rules/guandan.md",
            "§3",
            "seat 0 played a single Q on a single K; only a higher single, or a bomb, may follow",
            "item",
            "3",
            "`single`",
        ),
        (
            "notation.deal.incomplete",
            "docs/notation.md",
            "§5",
            "the deal stops after 5 actions, before it is over",
            "",
            "",
            "**Incomplete deals.**",
        ),
        (
            "gandengyan.follow",
            "docs/rules/gandengyan.md",
            "§3",
            "seat 1 played a pair of 6s on a pair of 4s; only a pair of 5s, a pair of 2s or a bomb may follow",
            "row",
            '`["4S","4H"]`',
            "| top Y |",
        ),
        ("guandan.tribute.card", "docs/rules/guandan.md", "§6.3", "seat 2 paid 3D", "", "", "3. **Tribute card**"),
    ],
)
def test_the_clause_is_the_item_row_or_paragraph_the_finding_is_about(rule, page, number, message, kind, key, holds):
    from referee.ruledocs import clause

    found = clause(page, number, rule, message, rule_meaning(rule))
    assert found[:2] == (kind, key) and holds in found[2]
    assert len(found[2]) < len(section_text(page, number)) or number == "§6.3"
    assert "\n## " not in found[2] and "```" not in found[2]


def rule_meaning(rule: str) -> str:
    from referee.ruledocs import rule_entries

    return rule_entries()[rule]["meaning"]


def test_a_section_the_page_lacks_has_no_clause():
    from referee.ruledocs import clause

    assert clause("docs/rules/guandan.md", "§77", "guandan.follow", "x") == ("", "", "")


def test_the_rule_text_is_rendered_markdown_with_cards_drawn():
    html = ruling(load(ROOT / "samples/gandengyan/disputed-two-ranks-higher.json"), "id")
    rule = html.split('<div class="rule">')[1]
    assert "<table>" in rule and "| top Y |" not in rule, "a pipe table rendered as a table"
    assert '<code class="cards" title="[&#34;4S&#34;,&#34;4H&#34;]">4♠ 4♥</code>' in rule
    assert "table row 4♠ 4♥" in rule


def test_the_cover_says_the_rules_in_words():
    """The preset, and each option it or the record sets, with what the option changes (issue 35)."""
    record = load(FOLLOW)
    record["rules"] = {"preset": "pagat", "options": {"max_bomb_size": 9}}
    rules = ruling(record, "id").split("<dt>Rules</dt><dd>")[1].split("</dd>")[0]
    assert rules.startswith("the “pagat” preset of docs/rules/guandan.md; one_two_levels = 4: ")
    assert "max_bomb_size = 9: largest bomb" in rules and "options" not in rules
    plain = ruling(load(FOLLOW), "id", "zh").split("<dt>规则</dt><dd>")[1].split("</dd>")[0]
    assert plain == "docs/rules/guandan.md 的“official”预设；各选项均按该页的设定"
