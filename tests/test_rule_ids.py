"""Every rule id the referee can report is in the registry (referee/ruleids.py), docs/rule-ids.md is the
registry's, and each id's example record, replayed, gives the example finding."""

import re
from pathlib import Path

import pytest

from referee.batch import MAX_RECORD_BYTES, check_path
from referee.ruledocs import DOCS, section, section_text
from referee.ruleids import markdown, rules

ROOT = Path(__file__).parent.parent
EXAMPLES = Path(__file__).parent / "data" / "rule-examples"  # the example record of each id: ID.json
GAMES = "notation|guandan|gandengyan|gouji"
ID = re.compile(rf'"((?:{GAMES})\.[a-z_.0-9]+)"')


def emitted_ids():
    sources = list((ROOT / "referee").glob("*.py")) + [ROOT / "referee" / "schema" / "cgr1.schema.json"]
    sources.remove(ROOT / "referee" / "ruleids.py")
    found = {m for path in sources for m in ID.findall(path.read_text())}
    built = {
        f"{game}.{rule}"
        for game in ("guandan", "gandengyan", "gouji")  # by the driver and reports.py
        for rule in ("deal.over", "declare", "report.count", "report.missing")
    }
    totals = {
        f"{game}.{rule}"
        for game in ("gandengyan", "gouji")  # by claims.py
        for rule in ("result.key", "match.uncheckable", "match.totals", "match.winner")
    }
    return found | built | totals


def test_the_registry_holds_every_rule_id_the_code_reports_and_no_other():
    assert sorted(rules()) == sorted(emitted_ids())


def test_the_rule_ids_page_is_written_from_the_registry():
    """`make rule-ids` writes it; edit referee/ruleids.json, not the page."""
    assert (DOCS / "rule-ids.md").read_text(encoding="utf-8") == markdown()


def test_every_rule_id_is_tested():
    tests = "".join(p.read_text() for p in Path(__file__).parent.glob("test_*.py") if p.name != Path(__file__).name)
    untested = {rule for rule in emitted_ids() if f'"{rule}"' not in tests}
    assert untested == set()


def _example_file(rule: str, folder: Path) -> Path:
    """The id's example record: a file of EXAMPLES, but for two ids: notation.file's is a file that is not
    there, notation.size's one a byte too big, made here."""
    path = EXAMPLES / f"{rule}.json"
    assert path.exists() == (rule not in ("notation.file", "notation.size")), f"an example record of {rule}: {path}"
    if rule == "notation.size":
        path = folder / "big.json"
        with open(path, "wb") as big:
            big.truncate(MAX_RECORD_BYTES + 1)
    return path


@pytest.mark.parametrize("rule", sorted(rules()))
def test_each_rule_ids_example_record_gives_its_example_finding(rule, tmp_path, monkeypatch):
    example, path = rules()[rule].example, _example_file(rule, tmp_path)
    if rule == "notation.game.unsupported":  # every game has its module: a referee without them
        monkeypatch.setattr("referee.game.GAMES", ())
    found = [(f.rule, f.at, f.message) for report in check_path(str(path)) for f in report.findings]
    message = example["message"].replace("games/round3.json", str(path))  # the file named: where it is looked for
    assert (rule, example["at"], message) in found, found


def test_explain_prints_meaning_section_and_example():
    from click.testing import CliRunner

    from referee.cli.main import main

    shown = CliRunner().invoke(main, ["explain", "guandan.follow"])
    assert shown.exit_code == 0
    assert "a play that may not follow the top play" in shown.output
    assert (
        "rules/guandan.md §3" in shown.output
        and "example:" in shown.output
        and "single Q on a single K" in shown.output
    )
    for rule in sorted(emitted_ids()):
        assert CliRunner().invoke(main, ["explain", rule]).exit_code == 0, rule
    unknown = CliRunner().invoke(main, ["explain", "guandan.nope"])
    assert unknown.exit_code == 2 and "guandan.follow" in unknown.output


def test_every_id_says_what_it_stops_and_is_in_its_groups_table():
    """Issue 19: one layout for the three games and the notation: id, severity, stops, meaning."""
    from referee.ruleids import registry

    assert {rule.stops.split()[0] for rule in rules().values()} <= {"no", "deal", "record", "rest"}
    for group in registry()["groups"]:
        [prefix] = {rule.split(".")[0] for rule in group["rules"]}
        assert f"(`{prefix}.*`)" in group["heading"]


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
                shown = {"error", "warning", "info"}  # ctx.add(severity, …): as the variable says
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


def test_the_registrys_severity_is_the_one_the_code_reports():
    registered = {rule: set(re.findall(r"error|warning|info", entry.severity)) for rule, entry in rules().items()}
    in_code = severities_in_code()
    wrong = {
        rule: (sorted(registered[rule]), sorted(sev))
        for rule, sev in in_code.items()
        if rule in registered and not (registered[rule] <= sev and (len(sev) == 3 or sev <= registered[rule]))
    }
    assert wrong == {}
    assert len(in_code) > 100  # the calls were found


def test_each_section_a_meaning_names_is_among_those_that_decide_it():
    for rule, entry in rules().items():
        game = rule.split(".")[0]
        own = "docs/notation.md" if game == "notation" else f"docs/rules/{game}.md"
        named = {
            ("docs/notation.md" if page else own, number)
            for page, number in re.findall(r"(notation |RFC \d+ )?(§[0-9]+(?:\.[0-9]+)?)", entry.meaning)
            if not page.startswith("RFC")
        }  # an RFC's sections are not ours
        decided = {(page, number) for page, numbers in entry.sections.items() for number in numbers}
        assert named <= decided, rule
        assert all(section_text(page, number) for page, numbers in entry.sections.items() for number in numbers), rule
        assert all((DOCS.parent / page).exists() for page in entry.sections), rule


@pytest.mark.parametrize(
    "rule, shown",
    [
        ("guandan.levels.from_claim", "docs/notation.md §9"),
        ("guandan.result.levels", "docs/rules/guandan.md §5; docs/notation.md §9"),
        ("notation.bom", "docs/notation.md §1"),  # not RFC 8259's §8.1
        ("gandengyan.follow", "docs/rules/gandengyan.md §3"),
    ],
)
def test_explain_sends_each_section_to_its_page(rule, shown):
    assert section(rule) == shown
