"""`--infer-rules` (issue 9 item 5): the rule sets, closest to the stated ones, under which an
invalid record is valid; bounded in time."""

import json
from pathlib import Path

import orjson
from click.testing import CliRunner

from referee.api import create_app
from referee.cli.main import main
from referee.infer import describe, infer_rules
from tests.builders import deal, guandan, quick_deal
from tests.gandengyan_builders import deal as gdy_deal, record as gdy_record

SAMPLES = Path(__file__).parent.parent / "samples"
EQUAL = [["RJ", "RJ", "4C"], ["BJ", "3C"], ["5C"], ["BJ", "3D"]]
FREE_ALLOCATION = [
    {"seat": 1, "tribute": "BJ", "to": 2},
    {"seat": 3, "tribute": "BJ", "to": 0},
    {"seat": 0, "return": "3D"},
    {"seat": 2, "return": "5C"},
    {"seat": 3, "play": ["3D"]},
]


def played_with_free_allocation():
    return guandan([quick_deal([0, 2]), deal(EQUAL, FREE_ALLOCATION, seed=3, leader=3)])


def test_finds_the_one_option_a_guandan_record_was_played_under():
    found = infer_rules(played_with_free_allocation())
    assert found["complete"] and found["valid_under"] == [
        {"preset": "official", "options": {"equal_double_tribute": "free"}, "differs": ["equal_double_tribute"]}
    ]
    assert describe(found).startswith("valid under official with equal_double_tribute=free")


def test_finds_a_gan_deng_yan_option():
    """2 on 2 is illegal by default (§10.1); a record that plays it was played with two_on_two."""
    record = gdy_record(
        [
            gdy_deal(
                [["2S", "3S", "4H", "5D", "6C", "7S"], ["2H", "AS", "9C", "9D", "KD"]],
                [{"seat": 0, "play": ["2S"]}, {"seat": 1, "play": ["2H"]}],
            )
        ]
    )
    found = infer_rules(record)
    assert {"preset": "pagat", "options": {"two_on_two": True}, "differs": ["two_on_two"]} in found["valid_under"]


def test_says_when_no_rules_make_it_valid_and_stops_at_the_time_limit():
    disputed = json.loads((SAMPLES / "guandan" / "disputed-illegal-follow.json").read_text())
    none = infer_rules(disputed)
    assert none["valid_under"] == [] and none["complete"] and none["searched"] > 100
    assert "valid under no documented preset" in describe(none)
    cut = infer_rules(disputed, seconds=0)
    assert not cut["complete"] and "before the time limit" in describe(cut)


def test_cli_and_api(tmp_path):
    path = tmp_path / "free.json"
    path.write_bytes(orjson.dumps(played_with_free_allocation()))
    text = CliRunner().invoke(main, ["validate", "--infer-rules", str(path)])
    assert text.exit_code == 1 and "rules: valid under official with equal_double_tribute=free" in text.output
    as_json = json.loads(CliRunner().invoke(main, ["validate", "--infer-rules", "--json", str(path)]).stdout)
    assert as_json["inferred_rules"]["valid_under"][0]["options"] == {"equal_double_tribute": "free"}
    plain = json.loads(CliRunner().invoke(main, ["validate", "--json", str(path)]).stdout)
    assert "inferred_rules" not in plain
    client = create_app(str(tmp_path / "db.sqlite"), token="t").test_client()
    answer = client.post("/v1/validate?infer_rules=true", data=path.read_bytes(), content_type="application/json")
    assert answer.get_json()["inferred_rules"] == as_json["inferred_rules"]


def test_a_check_that_stops_at_the_first_error():
    from tests import test_one_fault as faults

    (_, first, *_), (_, second, *_) = faults.GUANDAN_FAULTS[0], faults.GUANDAN_FAULTS[-1]
    record = faults.injected(faults.GUANDAN_BASE, first, second)
    from referee.replay import check_record

    assert len([f for f in check_record(record).findings if f.severity == "error"]) == 2
    quick = check_record(record, stop_at_error=True)
    assert not quick.valid and [f.rule for f in quick.findings if f.severity == "error"] == ["guandan.tribute.card"]
