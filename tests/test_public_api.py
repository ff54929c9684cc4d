"""The public Python API (referee/public.py, docs/python-api.md): what `import referee` offers, each
name with a docstring whose examples run, typed (py.typed), and cheap to import."""

import doctest
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import referee
from referee import messages, public
from referee.batch import check_one

ROOT = Path(__file__).parent.parent
SAMPLE = ROOT / "samples/guandan/disputed-illegal-follow.json"


def test_the_examples_of_every_docstring_run(monkeypatch):
    monkeypatch.chdir(ROOT)  # they name the samples from the repository's root
    failed, attempted = doctest.testmod(public)
    assert failed == 0 and attempted > len(public.__all__)
    assert doctest.testmod(messages) == (0, 3)  # language and in_language, which the API offers


@pytest.mark.parametrize("name", public.__all__)
def test_every_public_name_is_exported_documented_and_shown_in_use(name):
    assert name in referee.__all__ and getattr(referee, name) is getattr(public, name)
    documented = getattr(public, name)
    if callable(documented) and name not in ("Finding", "Report", "LANGUAGES"):
        assert documented.__doc__ and (">>>" in documented.__doc__ or isinstance(documented, type))


def test_the_package_exports_what_the_api_has_and_its_version():
    assert set(referee.__all__) == {*public.__all__, "__version__"}
    with pytest.raises(AttributeError):
        referee.no_such_name  # noqa: B018 (the attribute looked up is the test)


def test_import_referee_loads_nothing_else():
    loaded = subprocess.run(
        [sys.executable, "-c", "import referee, sys; print(' '.join(sys.modules))"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert [name for name in loaded if name.startswith("referee.")] == [] and "typing" not in loaded


def test_the_package_says_it_is_typed():
    assert (ROOT / "referee/py.typed").exists()
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "py.typed" in package_data["referee"]


def test_a_record_text_bytes_or_file_gives_the_report_validate_gives():
    expected = check_one(SAMPLE.read_text(encoding="utf-8"), "<text>").as_dict("en")
    assert referee.check(SAMPLE.read_text(encoding="utf-8")).as_dict("en") == expected
    assert referee.check(SAMPLE.read_bytes()).as_dict("en") == expected
    assert referee.check(SAMPLE).as_dict("en") == dict(expected, source=str(SAMPLE))
    parsed = referee.check(json.loads(SAMPLE.read_text(encoding="utf-8"))).as_dict("en")
    assert parsed["findings"] == expected["findings"] and not parsed["valid"]


@pytest.mark.parametrize(
    "source, rule",
    [(b"\xff{}", "notation.encoding"), (Path("no/such/file.json"), "notation.file"), ("[1", "notation.json")],
)
def test_input_that_cannot_be_read_is_a_report_not_an_exception(source, rule):
    report = referee.check(source)
    assert report.unreadable and [f.rule for f in report.findings] == [rule]
    assert referee.replay_deal(source).steps == [] and referee.replay_deal(source).report.findings[0].rule == rule


def test_a_file_of_several_records_gives_a_report_each(tmp_path):
    lines = tmp_path / "two.jsonl"
    record = json.dumps(json.loads(SAMPLE.read_text(encoding="utf-8")))
    lines.write_text(record + "\n" + record + "\n")
    assert [(r.source, r.valid) for r in referee.check_file(lines)] == [(f"{lines}:1", False), (f"{lines}:2", False)]


def test_a_replay_shows_every_action_and_the_refused_one():
    record = json.loads(SAMPLE.read_text(encoding="utf-8"))
    replayed = referee.replay_deal(record)
    refused = replayed.steps[-1]
    assert [s.number for s in replayed.steps[:-1]] == list(range(len(replayed.steps) - 1))
    assert refused.rejected and refused.action == record["deals"][0]["actions"][refused.number - 1]
    assert refused.findings == [f for f in replayed.report.findings if f.action == refused.number - 1]


def test_the_language_asked_for_or_the_callers():
    report = referee.check(SAMPLE)
    assert "无效" in referee.report_text(report, "zh") and "INVALID" in referee.report_text(report)
    with referee.in_language("zh"):
        assert referee.report_text(report) == referee.report_text(report, "zh")
        assert referee.explain("guandan.follow").meaning == referee.explain("guandan.follow", "zh").meaning
        assert referee.report_json(report)["findings"][0]["message"] == report.findings[0].shown("zh")
    assert referee.explain("guandan.follow").meaning != referee.explain("guandan.follow", "zh").meaning


def test_what_is_asked_of_a_ruling_or_a_deal_that_is_not_there_is_a_value_error():
    with pytest.raises(ValueError, match="no finding 9"):
        referee.ruling_document(SAMPLE, finding=8)
    with pytest.raises(ValueError, match="not valid JSON"):
        referee.ruling_document("{")
    with pytest.raises(ValueError, match="no such game"):
        referee.committed_deal("poker", "5e" * 32, 4)


def test_a_committed_deal_opens_and_replays():
    deal = referee.committed_deal("gouji", "ab" * 32, 6)
    record = {"cgr": 1, "game": "gouji", "rules": "pagat", "players": list("abcdef"), "deals": [deal]}
    assert not [f for f in referee.check(record).findings if f.rule.startswith("notation.commit")]


def test_no_public_name_is_hidden_by_a_module_of_the_package():
    modules = {path.stem for path in (ROOT / "referee").glob("*.py")} | {
        p.name for p in (ROOT / "referee").iterdir() if p.is_dir()
    }
    assert sorted(set(referee.__all__) & modules) == []


def test_the_examples_of_the_python_api_page_run(monkeypatch, capsys):
    """docs/python-api.md's blocks, in order, with `record` the sample's record (the first block's input)."""
    monkeypatch.chdir(ROOT)
    page = (ROOT / "docs/python-api.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", page, re.S | re.M)
    assert len(blocks) == 3 and len([line for line in blocks[0].splitlines() if line.strip()]) == 3
    scope = {"record": json.loads(SAMPLE.read_text(encoding="utf-8")), "Path": Path}
    for block in blocks:
        exec(block, scope)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "False ['guandan.follow']" and "无效" in printed[1]
    assert printed[-1].endswith("['guandan.follow']")
