"""Every rule id the referee can report is documented and exercised by a test."""
import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
ID = re.compile(r'"((?:notation|guandan)\.[a-z_.]+)"')


def emitted_ids():
    sources = list((ROOT / "referee").glob("*.py")) + [ROOT / "referee" / "schema" / "cgr1.schema.json"]
    found = {m for path in sources for m in ID.findall(path.read_text())}
    return found | {"guandan.deal.over"}     # built by the driver as f"{game}.deal.over"


def test_every_rule_id_is_documented():
    documented = set(re.findall(r"`((?:notation|guandan)\.[a-z_.]+)`", (ROOT / "docs" / "rule-ids.md").read_text()))
    assert emitted_ids() <= documented


def test_every_rule_id_is_tested():
    tests = "".join(p.read_text() for p in Path(__file__).parent.glob("test_*.py") if p.name != Path(__file__).name)
    untested = {rule for rule in emitted_ids() if f'"{rule}"' not in tests}
    assert untested == set()
