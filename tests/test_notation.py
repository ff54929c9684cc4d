"""CGR/1 reading (notation.md): structure, cards and aliases, seats, verbs, x- keys, rules."""

import copy
import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings, strategies as st

from referee.batch import check_one, check_path
from referee.notation import schema, structure_findings
from referee.replay import check_record
from tests.builders import guandan, quick_deal

BASE = guandan([quick_deal([0, 2])])


def errors(record):
    return [(f.rule, f.at) for f in check_record(record).findings if f.severity == "error"]


def changed(edit):
    record = copy.deepcopy(BASE)
    edit(record)
    return record


@pytest.mark.parametrize(
    "edit, expected",
    [
        (lambda r: r.update(plya=1), [("notation.key.unknown", "/plya")]),
        (
            lambda r: r["deals"][0]["actions"][0].update(cards=["3S"]),
            [("notation.key.unknown", "/deals/0/actions/0/cards")],
        ),
        (lambda r: r.pop("deals"), [("notation.key.missing", "/deals")]),
        (lambda r: r.pop("players"), [("notation.key.missing", "/players")]),
        (lambda r: r["deals"][0].pop("hands"), [("notation.key.missing", "/deals/0/hands")]),
        (lambda r: r.update(cgr=2), [("notation.version", "/cgr")]),
        (lambda r: r.update(game="poker"), [("notation.game", "/game")]),
        (lambda r: r["deals"][0]["hands"][1].__setitem__(3, "1OS"), [("notation.card.unknown", "/deals/0/hands/1/3")]),
        (
            lambda r: r["deals"][0]["actions"][0]["play"].__setitem__(0, "ZZ"),
            [("notation.card.unknown", "/deals/0/actions/0/play/0")],
        ),
        (lambda r: r["deals"][0]["actions"][1].pop("pass"), [("notation.action.verb", "/deals/0/actions/1")]),
        (lambda r: r["deals"][0]["actions"][1].update(play=["3S"]), [("notation.action.verb", "/deals/0/actions/1")]),
        (
            lambda r: r["deals"][0]["actions"][1].update({"pass": False}),
            [("notation.action.pass", "/deals/0/actions/1/pass")],
        ),
        (lambda r: r["deals"][0]["actions"][1].update(seat=4), [("notation.seat", "/deals/0/actions/1/seat")]),
        (lambda r: r["deals"][0]["actions"][1].update(seat=-1), [("notation.seat", "/deals/0/actions/1/seat")]),
        (lambda r: r["deals"][0].update(talon=[]), [("notation.key.game", "/deals/0/talon")]),
        (
            lambda r: r["deals"][0]["actions"][0].update({"as": "straight"}),
            [("notation.action.as", "/deals/0/actions/0/as")],
        ),
        (lambda r: r.update(deals=[]), [("notation.deals", "/deals")]),
        (lambda r: r.update(start={"fresh": True}), [("notation.key.game", "/start/fresh")]),
        (lambda r: r.update(rules="house"), [("notation.rules.preset", "/rules")]),
        (
            lambda r: r.update(rules={"preset": "official", "options": {"max_bomb": 8}}),
            [("notation.rules.option", "/rules/options/max_bomb")],
        ),
        (
            lambda r: r.update(rules={"options": {"max_bomb_size": 12}}),
            [("notation.rules.option", "/rules/options/max_bomb_size")],
        ),
        (
            lambda r: r.update(rules={"options": {"report_at": True}}),
            [("notation.rules.option", "/rules/options/report_at")],
        ),
        (lambda r: r.update(meta={"round": 3}), [("notation.meta", "/meta/round")]),
        (lambda r: r.update(meta="Huai'an"), [("notation.meta", "/meta")]),
        (lambda r: r.update(rules=7), [("notation.rules", "/rules")]),
        (lambda r: r.update(start={"levels": ["5", "1"], "playing": 0}), [("notation.rank", "/start/levels/1")]),
        (lambda r: r.update(start={"levels": ["5", "5"], "playing": 2}), [("notation.start", "/start/playing")]),
        (lambda r: r["deals"][0]["actions"].__setitem__(1, "pass"), [("notation.action", "/deals/0/actions/1")]),
        (lambda r: r["players"].append(3), [("notation.structure", "/players/4")]),
    ],
)
def test_structure_errors(edit, expected):
    assert errors(changed(edit)) == expected


def test_x_keys_are_kept_and_ignored():
    def edit(r):
        r["x-platform"] = {"table": 9}
        r["deals"][0]["x-clock"] = [1, 2]
        r["deals"][0]["actions"][0]["x-ms"] = 312
        r["rules"] = {"preset": "official", "options": {"x-house": 1}}

    assert errors(changed(edit)) == []


def test_aliases_are_accepted_with_a_note():
    def edit(r):
        hand = r["deals"][0]["hands"][1]
        hand[:] = [c.lower() if c[0] != "T" else "10" + c[1] for c in hand]
        r["rules"] = "guandan-official"

    report = check_record(changed(edit))
    assert report.valid
    assert [(f.severity, f.rule, f.at) for f in report.findings if f.severity == "info"] == [
        ("info", "notation.card.alias", "/deals/0/hands/1/0")
    ]
    assert report.rules["preset"] == "official"


@pytest.mark.parametrize(
    "text, rule",
    [
        ('{"cgr": 1, "game": "guandan", ', "notation.json"),
        ("[1, 2", "notation.json"),
        ("", "notation.json"),
    ],
)
def test_unreadable_json(text, rule):
    report = check_one(text, "t.json")
    assert report.unreadable and [f.rule for f in report.findings] == [rule]


def test_oversized_record(monkeypatch):
    monkeypatch.setattr("referee.batch.MAX_RECORD_BYTES", 10)
    report = check_one('{"cgr": 1, "game": "guandan"}', "big.json")
    assert report.unreadable and [f.rule for f in report.findings] == ["notation.size"]


def test_missing_file():
    [report] = check_path("/nonexistent/record.json")
    assert report.unreadable and [f.rule for f in report.findings] == ["notation.file"]


def test_not_utf8(tmp_path):
    (tmp_path / "x.json").write_bytes(b"\xff\xfe{}")
    [report] = check_path(str(tmp_path / "x.json"))
    assert [f.rule for f in report.findings] == ["notation.encoding"]


def test_game_without_a_module(monkeypatch):
    monkeypatch.setattr("referee.game.GAMES", ())
    assert errors(BASE) == [("notation.game.unsupported", "/game")]


def test_a_record_is_an_object():
    assert [f.rule for f in check_record([1, 2]).findings] == ["notation.structure"]


# One source of truth: the reader's structure check is the schema's verdict.
MUTATIONS = [
    lambda r: r.update(plya=1),
    lambda r: r.pop("players", None),
    lambda r: r.update(cgr="1"),
    lambda r: r["deals"][0]["actions"].append({"seat": 0}),
    lambda r: r["deals"][0]["hands"].append("AS"),
    lambda r: r["deals"][0]["actions"][0].update(tribute="XX"),
    lambda r: r.update(start={"levels": ["1", "2"]}),
    lambda r: r.update(result={"winner": "team 0"}),
    lambda r: r.update(comment=5),
    lambda r: None,
    lambda r: r["deals"][0].update(leader=1.5),
    lambda r: r.update(meta={"x": "y"}),
]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(range(len(MUTATIONS))), max_size=3))
def test_reader_and_schema_agree(picks):
    record = copy.deepcopy(BASE)
    for p in picks:
        MUTATIONS[p](record)
    schema_says = jsonschema.Draft7Validator(schema()).is_valid(record)
    assert (structure_findings(record) == []) is schema_says


def test_shipped_schema_is_a_valid_json_schema():
    jsonschema.Draft7Validator.check_schema(schema())
    with open("referee/schema/cgr1.schema.json") as handle:
        assert json.load(handle) == schema()


def test_whole_numbers_written_as_decimals_are_read_as_integers():
    def edit(r):
        r["deals"][0]["actions"][1]["seat"] = 1.0
        r["deals"][0]["leader"] = 0.0
        r["start"] = {"levels": ["2", "2"], "playing": 0.0, "a_attempts": [1.0, 0]}

    assert errors(changed(edit)) == []
    huge = changed(lambda r: r["deals"][0].update(leader=1e30))
    assert errors(huge) == [("notation.seat", "/deals/0/leader")]


def _paths(value, path=()):
    yield path
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        yield from _paths(child, path + (key,))


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=4)
    | st.sampled_from(["AS", "10h", "BJ", "play", "x-a"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["seat", "play", "pass", "x-y", "as"]), inner, max_size=3)
    ),
    max_leaves=6,
)
SMALL = guandan(
    [
        {
            "hands": BASE["deals"][0]["hands"],
            "leader": 0,
            "actions": BASE["deals"][0]["actions"][:12],
            "result": {"order": [0, 2]},
        }
    ],
    start={"levels": ["5", "5"]},
)
GDY = json.loads((Path(__file__).parent.parent / "samples" / "gandengyan" / "multipliers.json").read_text())
PROBES = [
    (record, p)
    for record in (SMALL, GDY)
    for p in _paths(record)
    if p and (p[0] != "deals" or len(p) < 4 or p[3] not in ("hands", "talon") or len(p) < 6)
]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PROBES), JSON_VALUES)
def test_any_value_anywhere_gives_a_report_never_an_exception(probe, value):
    original, path = probe
    record = copy.deepcopy(original)
    holder = record
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value
    report = check_record(record)
    assert isinstance(report.valid, bool)
    assert all(f.rule and f.message for f in report.findings)


def located_errors(record):
    return [(f.rule, f.at, f.seat, f.deal, f.action) for f in check_record(record).findings if f.severity == "error"]


@pytest.mark.parametrize(
    "edit, expected",
    [
        (
            lambda r: r["deals"][0]["actions"][4]["play"].__setitem__(0, "1H"),
            ("notation.card.unknown", "/deals/0/actions/4/play/0", 0, 0, 4),
        ),
        (
            lambda r: r["deals"][0]["actions"][1].update(seat=9),
            ("notation.seat", "/deals/0/actions/1/seat", None, 0, 1),
        ),
        (
            lambda r: r["deals"][0]["actions"][1].update(plya=1),
            ("notation.key.unknown", "/deals/0/actions/1/plya", 1, 0, 1),
        ),
        (
            lambda r: r["deals"][0]["hands"][3].__setitem__(0, "ZZ"),
            ("notation.card.unknown", "/deals/0/hands/3/0", None, 0, None),
        ),
        (lambda r: r["deals"][0].update(leader=7), ("notation.seat", "/deals/0/leader", None, 0, None)),
    ],
)
def test_structural_findings_carry_deal_and_action(edit, expected):
    """Notation §9: seat, deal and action indices wherever they apply, structural findings too."""
    assert located_errors(changed(edit)) == [expected]


def test_a_tribute_in_gan_deng_yan_carries_deal_action_and_seat():
    from tests.gandengyan_builders import deal, record

    rec = record([deal([["3S"], []], [{"seat": 0, "tribute": "3S"}])])
    assert located_errors(rec) == [("gandengyan.action.unknown", "/deals/0/actions/0/tribute", 0, 0, 0)]


def test_keys_of_another_game_are_errors():
    """Notation §9: a key notation gives to another game is an error, as an unknown key is."""
    from tests.gandengyan_builders import deal, record

    rec = record([deal([["3S"], []], [{"seat": 0, "play": ["3S"], "to": 1}])])
    assert located_errors(rec) == [("notation.key.game", "/deals/0/actions/0/to", 0, 0, 0)]
    stopped = record([deal([["3S"], []], [{"seat": 1, "pass": True}], result={"levels": ["2", "2"]})])
    assert ("gandengyan.result.key", "/deals/0/result/levels") in [(r, at) for r, at, *_ in located_errors(stopped)]


@pytest.mark.parametrize(
    "extra, key",
    [
        ({"pass": True, "as": "pair:3"}, "as"),  # `as` says what a play stands for
        ({"declare": "report", "count": 27, "as": "pair:3"}, "as"),
        ({"pass": True, "to": 2}, "to"),  # `to`: where a tribute or return goes
        ({"play": ["3S"], "to": 2}, "to"),
        ({"play": ["3S"], "count": 1}, "count"),  # `count` goes with a report
        ({"declare": "revolution", "count": 3}, "count"),
    ],
)
def test_a_key_of_another_kind_of_action_is_an_error(extra, key):
    """Notation §5: `as` (a play), `to` (a tribute or return), `count` (a report) belong to one kind of action."""
    rec = guandan([quick_deal([0, 2])])
    rec["deals"][0]["actions"][0] = {"seat": 0, **extra}
    assert (("notation.key.verb", f"/deals/0/actions/0/{key}", 0, 0, 0)) in located_errors(rec)


@pytest.mark.parametrize(
    "action",
    [
        {"seat": 0, "tribute": "3S", "to": 1},
        {"seat": 0, "return": "3S", "to": 1},
        {"seat": 0, "declare": "report", "count": 27},
    ],
)
def test_a_key_on_its_own_kind_of_action_is_no_structural_error(action):
    rec = guandan([quick_deal([0, 2])])
    rec["deals"][0]["actions"][0] = action
    assert structure_findings(rec) == []
