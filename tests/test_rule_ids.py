"""Every rule id the referee can report is documented and exercised by a test."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
GAMES = "notation|guandan|gandengyan|gouji"
ID = re.compile(rf'"((?:{GAMES})\.[a-z_.0-9]+)"')
DOCS = ["rule-ids.md"]


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

    from referee.cli.main import main
    shown = CliRunner().invoke(main, ["explain", "guandan.follow"])
    assert shown.exit_code == 0
    assert "a play that may not follow the top play" in shown.output
    assert "rules/guandan.md §3" in shown.output and "example:" in shown.output and "single Q on a single K" in shown.output
    for rule in sorted(emitted_ids()):
        assert CliRunner().invoke(main, ["explain", rule]).exit_code == 0, rule
    unknown = CliRunner().invoke(main, ["explain", "guandan.nope"])
    assert unknown.exit_code == 2 and "guandan.follow" in unknown.output


def _table_rows():
    """(section, cells) of every table row of docs/rule-ids.md."""
    section, rows = None, []
    for line in (ROOT / "docs" / "rule-ids.md").read_text().splitlines():
        if line.startswith("## "):
            section = line
        elif line.startswith("|"):
            rows.append((section, [c.strip() for c in line.strip().strip("|").split("|")]))
    return rows


def test_every_game_lists_its_ids_in_one_table_layout():
    """Issue 19: one layout for the three games and the notation: id, severity, stops, meaning."""
    rows = _table_rows()
    headers = {tuple(cells) for _, cells in rows if cells[0] == "id"}
    assert headers == {("id", "severity", "stops", "meaning")}
    assert all(len(cells) == 4 for _, cells in rows)
    assert {cells[2].split()[0] for _, cells in rows if cells[0].startswith("`")} <= {"no", "deal", "record", "rest"}
    sections = {section.split("`")[1].split(".")[0] for section, cells in rows if cells[0].startswith("`")}
    assert sections == {"notation", "guandan", "gandengyan", "gouji"}
    documented = [cells[0].strip("`") for _, cells in rows if cells[0].startswith("`")]
    assert sorted(documented) == sorted(emitted_ids())      # each id once, and none the code never reports


SEVERITY_NAMES = {"ERROR": "error", "WARNING": "warning", "INFO": "info"}


def severities_in_code() -> dict[str, set[str]]:
    """The severities each rule id is reported with, read from the calls that name it: ctx.error,
    ctx.warn, ctx.add(SEVERITY, …), StopDeal(…, severity=…), Finding(SEVERITY, …); an id built
    by an f-string ("{game}.report.missing") stands for that id of every game. A severity held
    in a variable counts as any."""
    import ast
    found = {}
    for path in (ROOT / "referee").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            ids = [a for a in node.args if isinstance(a, (ast.Constant, ast.JoinedStr))]
            named = [a.id for a in [*node.args, *(k.value for k in node.keywords)] if isinstance(a, ast.Name)]
            method = getattr(node.func, "attr", getattr(node.func, "id", ""))
            shown = {SEVERITY_NAMES[n] for n in named if n in SEVERITY_NAMES}
            if (method == "add" or "severity" in named) and not shown:
                shown = {"error", "warning", "info"}           # ctx.add(severity, …): as the variable says
            severity = shown or ({"warning"} if method == "warn" else {"error"})
            for arg in ids:
                for rule in _ids_of(arg):
                    found.setdefault(rule, set()).update(severity)
    return found


def _ids_of(arg) -> set[str]:
    import ast
    if isinstance(arg, ast.Constant):
        return {arg.value} if isinstance(arg.value, str) and ID.fullmatch(f'"{arg.value}"') else set()
    tail = "".join(part.value for part in arg.values if isinstance(part, ast.Constant))
    if not tail.startswith(".") or not isinstance(arg.values[0], ast.FormattedValue):
        return set()
    return {rule for rule in emitted_ids() if rule.endswith(tail) and rule.count(".") == tail.count(".")}


def test_the_documented_severity_is_the_one_the_code_reports():
    documented = {cells[0].strip("`"): set(re.findall(r"error|warning|info", cells[1]))
                  for _, cells in _table_rows() if cells[0].startswith("`")}
    in_code = severities_in_code()
    wrong = {rule: (sorted(documented[rule]), sorted(sev)) for rule, sev in in_code.items()
             if rule in documented and not (documented[rule] <= sev and (len(sev) == 3 or sev <= documented[rule]))}
    assert wrong == {}
    assert len(in_code) > 100           # the calls were found


@pytest.mark.parametrize("rule, shown", [
    ("guandan.levels.from_claim", "docs/notation.md §9"),
    ("guandan.result.levels", "docs/rules/guandan.md §5; docs/notation.md §9"),
    ("notation.bom", "docs/notation.md §1"),            # not RFC 8259's §8.1
    ("gandengyan.follow", "docs/rules/gandengyan.md §3"),
])
def test_explain_sends_each_section_to_its_page(rule, shown):
    from referee.ruledocs import rule_entries, section
    assert section(rule, rule_entries()[rule]["meaning"]) == shown
