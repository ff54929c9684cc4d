"""Every rule id the referee can report is documented and exercised by a test."""
import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
GAMES = "notation|guandan|gandengyan|gouji"
ID = re.compile(rf'"((?:{GAMES})\.[a-z_.0-9]+)"')
DOCS = ["rule-ids.md", "gandengyan.md"]


def emitted_ids():
    sources = list((ROOT / "referee").glob("*.py")) + [ROOT / "referee" / "schema" / "cgr1.schema.json"]
    found = {m for path in sources for m in ID.findall(path.read_text())}
    built = {f"{game}.{rule}" for game in ("guandan", "gandengyan", "gouji")      # by the driver and reports.py
             for rule in ("deal.over", "declare", "report.count", "report.missing")}
    totals = {f"{game}.{rule}" for game in ("gandengyan", "gouji")                # by claims.py
              for rule in ("result.key", "match.uncheckable", "match.totals", "match.winner")}
    return found | built | totals


def test_every_rule_id_is_documented():
    text = "".join((ROOT / "docs" / name).read_text() for name in DOCS)
    documented = set(re.findall(rf"`((?:{GAMES})\.[a-z_.0-9]+)`", text))
    assert emitted_ids() <= documented


def test_every_rule_id_is_tested():
    tests = "".join(p.read_text() for p in Path(__file__).parent.glob("test_*.py") if p.name != Path(__file__).name)
    untested = {rule for rule in emitted_ids() if f'"{rule}"' not in tests}
    assert untested == set()


def test_every_rule_id_has_an_example():
    import json
    examples = json.loads((ROOT / "docs" / "rule-examples.json").read_text())
    assert emitted_ids() <= set(examples)


def test_explain_prints_meaning_section_and_example():
    from click.testing import CliRunner
    from cli.main import main
    shown = CliRunner().invoke(main, ["explain", "guandan.follow"])
    assert shown.exit_code == 0
    assert "a play that may not follow the top play" in shown.output
    assert "rules/guandan.md §3" in shown.output and "example:" in shown.output and "single Q on a single K" in shown.output
    for rule in sorted(emitted_ids()):
        assert CliRunner().invoke(main, ["explain", rule]).exit_code == 0, rule
    unknown = CliRunner().invoke(main, ["explain", "guandan.nope"])
    assert unknown.exit_code == 2 and "guandan.follow" in unknown.output
