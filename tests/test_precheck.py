"""The fast structure pre-check (referee/precheck.py) never accepts what the schema rejects,
and accepts the plain records the schema accepts; the one-pass reader of plain records
(notation.read_plain) reads only records the full checks find nothing in, and reads them alike."""

import copy
import json

import fastjsonschema
import jsonschema
import orjson
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from referee.actions import FIELDS, READING, TRIBUTE_KEYS, VERBS
from referee.notation import number_findings, plain_read, read_deals, read_plain, schema, seat_findings
from referee.precheck import CARDS, RANKS, accepts, in_bounds
from tests import gandengyan_gen, guandan_gen
from tests.builders import guandan, quick_deal

SCHEMA_VALIDATOR = jsonschema.Draft7Validator(schema())
FAST_VALIDATE = fastjsonschema.compile(schema())


def _committed(record, reveal):
    """A record whose first deal carries a commitment (notation §11; whether it opens is no matter here)."""
    record = copy.deepcopy(record)
    record["deals"][0].update(commit="sha256:" + "0f" * 32, reveal=reveal)
    return record


def _with_everything(record):
    """A record that also uses the optional keys (start, result, meta, comments, x- keys)."""
    record = copy.deepcopy(record)
    record.update(comment="c", meta={"event": "e"}, **{"x-vendor": [1, {"a": None}]})
    record["deals"][0]["actions"][0].update(t=1.5, comment="first", **{"x-note": 3})
    record["deals"][0]["comment"] = "d"
    return record


BASES = [
    guandan([quick_deal([0, 2])]),
    guandan_gen.match_record(3, max_deals=2),
    gandengyan_gen.match_record(5, seats=3, deals=1),
    gandengyan_gen.match_record(6, seats=2, deals=1, options={"decks": 2}, preset="wenshan"),
    _with_everything(guandan_gen.match_record(7, max_deals=1)),
    _with_everything(gandengyan_gen.match_record(8, seats=4, deals=1)),
    guandan(
        [quick_deal([1, 3])],
        start={"levels": ["5", "10"], "playing": 1, "previous_order": [1, 3], "a_attempts": [0, 1]},
    ),
    guandan(
        [quick_deal([1, 3])],
        rules={"preset": "pagat", "options": {"report_at": None}},
        result={"levels": ["5", "2"], "winner": 0},
    ),
    _committed(guandan([quick_deal([0, 2])]), {"salt": "ab" * 16}),
    _committed(
        gandengyan_gen.match_record(9, seats=3, deals=1),
        {"seed": "5eed" * 16, "shuffle": "cgr-fy-sha256/1", "beacon": "b", "x-at": "u"},
    ),
]

KEYS = [
    "cgr",
    "game",
    "rules",
    "meta",
    "players",
    "start",
    "deals",
    "result",
    "comment",
    "hands",
    "talon",
    "leader",
    "actions",
    "seat",
    "play",
    "pass",
    "tribute",
    "return",
    "declare",
    "as",
    "to",
    "count",
    "t",
    "order",
    "winner",
    "scores",
    "levels",
    "totals",
    "playing",
    "previous_order",
    "a_attempts",
    "fresh",
    "dealer",
    "preset",
    "options",
    "commit",
    "reveal",
    "salt",
    "seed",
    "shuffle",
    "beacon",
    "x-",
    "x-a",
    "X-a",
    "foo",
]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-2, 6),
    st.floats(allow_nan=False),
    st.sampled_from([0.0, 1.0, -0.5, 1e300, 2**64, 2**70]),
    st.sampled_from(
        sorted(CARDS)
        + sorted(RANKS)
        + KEYS
        + ["guandan", "gouji", "gandengyan", "official", "straight:9", "straight:9\n", "AS\n", "", "1", "11"]
    ),
    st.text(max_size=4),
)
INTERESTING = [
    -1,
    0,
    1,
    2,
    4,
    2**70,
    1.0,
    0.5,
    -0.5,
    True,
    False,
    None,
    "",
    "AS",
    "10h",
    "x-",
    "straight:9\n",
    "sha256:" + "0f" * 32 + "\n",
    "ab" * 16,
    "5eed" * 16,
    "cgr-fy-sha256/1",
    {"salt": "ab" * 16},
    "guandan",
    "gouji",
    "gandengyan",
    [],
    {},
    ["AS"],
    [0, 1],
    {"x-a": 1},
]
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, path + (i,))


def _pick_path(data, record):
    """A path, each shape (indices left out) as likely as any other, so that seats and
    verbs are hit as often as the many cards of the hands."""
    shapes = _shapes(record)
    return data.draw(st.sampled_from(shapes[data.draw(st.sampled_from(sorted(shapes)))]))


def _shapes(record) -> dict:
    shapes = {}
    for path in _paths(record):
        shapes.setdefault(tuple(p for p in path if isinstance(p, str)), []).append(path)
    return shapes


def _schema_accepts(record) -> bool:
    try:
        FAST_VALIDATE(record)
    except fastjsonschema.JsonSchemaException:
        return False
    return SCHEMA_VALIDATOR.is_valid(record)


def _read_plain_agrees(record) -> bool:
    """read_plain reads `record` only if the full checks find nothing in it, and then alike; plain_read
    counts the colons of its JSON written compactly as orjson writes them (for the duplicate-key test)."""
    read = plain_read(copy.deepcopy(record))
    deals, colons = read.deals, read.colons
    if deals is None:
        return colons is None and read_plain(copy.deepcopy(record)) is None
    return (
        _schema_accepts(record)
        and not seat_findings(record)
        and not number_findings(record)
        and read_deals(record) == (deals, [])
        and _counted_right(colons, record)
    )


def _in_bounds_agrees(record) -> bool:
    """in_bounds takes, of the records accepts takes without their actions, those seat_findings and number_findings
    find nothing in but in actions (which read_plain checks as it reads them)."""
    if not accepts(record, actions=False):
        return True
    without_actions = copy.deepcopy(record)
    for deal in without_actions["deals"]:
        deal["actions"] = []
    found = seat_findings(without_actions) + number_findings(without_actions)
    return in_bounds(record, len(record["players"])) == (not found)


def _counted_right(colons: int, record) -> bool:
    """The colons of the record written compactly, or fewer where orjson cannot write a part (2**70): never
    more, as a count equal to the text's then says that no key was written twice."""
    written = json.dumps(record, separators=(",", ":"), ensure_ascii=False).count(":")
    try:
        return colons == orjson.dumps(record).count(b":") == written
    except orjson.JSONEncodeError:
        return colons < written


@pytest.mark.parametrize("record", BASES)
def test_plain_records_are_accepted(record):
    assert _schema_accepts(record) and accepts(record)
    assert read_plain(record) is not None and _read_plain_agrees(record)


def _edits(record):
    """Every one-fault edit at one path of each shape: each interesting value put there,
    the key or item removed, each known key added (to an object) or a value appended."""
    for path in _shapes(record).values():
        path = path[0]
        target = _at(record, path)
        for value in INTERESTING:
            yield path, "replace", value
        if path:
            yield path, "delete", None
        for key in KEYS if isinstance(target, dict) else ["append"] if isinstance(target, list) else []:
            for value in (1, "AS", True, [], None):
                yield path, ("add", key), value


def _edited(record, path, edit, value):
    record = copy.deepcopy(record)
    target = _at(record, path)
    if edit == "replace" and not path:
        return value
    if edit == "replace" or edit == "delete":
        parent = _at(record, path[:-1])
        if edit == "delete":
            del parent[path[-1]]
        else:
            parent[path[-1]] = value
    elif isinstance(target, dict):
        target[edit[1]] = value
    else:
        target.append(value)
    return record


def _at(record, path):
    for part in path:
        record = record[part]
    return record


@pytest.mark.parametrize("base", BASES[4:6] + BASES[6:7])
def test_no_one_fault_edit_is_wrongly_accepted(base):
    wrong = [
        (path, edit, value)
        for path, edit, value in _edits(base)
        if (accepts(changed := _edited(base, path, edit, value)) and not _schema_accepts(changed))
        or not _read_plain_agrees(changed)
        or not _in_bounds_agrees(changed)
    ]
    assert wrong == []


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(BASES), st.data())
def test_never_accepts_what_the_schema_rejects(base, data):
    record = copy.deepcopy(base)
    for _ in range(data.draw(st.integers(1, 2))):
        path = _pick_path(data, record)
        value = copy.deepcopy(data.draw(st.sampled_from(INTERESTING) | JSON))  # INTERESTING is shared
        target = record
        for part in path:
            target = target[part]
        edit = data.draw(st.sampled_from(["replace", "delete", "add"]))
        if edit == "add" and isinstance(target, dict):
            target[data.draw(st.sampled_from(KEYS))] = value
        elif edit == "add" and isinstance(target, list):
            target.append(value)
        elif not path:
            record = value
        else:
            parent = record
            for part in path[:-1]:
                parent = parent[part]
            if edit == "delete":
                del parent[path[-1]]
            else:
                parent[path[-1]] = value
    if accepts(record):
        assert _schema_accepts(record)
    assert _read_plain_agrees(record) and _in_bounds_agrees(record)


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_any_json_value_is_never_wrongly_accepted(value):
    if accepts(value):
        assert _schema_accepts(value)
    assert _read_plain_agrees(value)


PLAIN = guandan([quick_deal([0, 2])])


@pytest.mark.parametrize(
    "change, plain",
    [
        ({}, True),
        ({"t": 10**12}, True),  # at its bound
        ({"t": 10**12 + 0.5}, False),
        ({"seat": 4}, False),
        ({"seat": 1.0}, False),  # a decimal: seat_findings reads it as 1
        ({"play": ["ts"]}, False),  # an alias: read_deals says so
        ({"pass": False}, False),
    ],
)
def test_read_plain_reads_only_what_the_full_checks_pass(change, plain):
    record = copy.deepcopy(PLAIN)
    action = record["deals"][0]["actions"][0]
    action.update(change)
    assert (read_plain(copy.deepcopy(record)) is not None) is plain and _read_plain_agrees(record)


@pytest.mark.parametrize(
    "action, plain",
    [  # the forms of three keys read in one step (actions._common)
        ({"seat": 0, "declare": "report", "count": 10**12}, True),
        ({"seat": 0, "declare": "report", "count": 10**12 + 1}, False),
        ({"seat": 0, "declare": "report", "count": -1}, False),
        ({"seat": 0, "declare": "report", "count": True}, False),
        ({"seat": 0, "declare": "", "count": 3}, False),
        ({"seat": 0, "declare": "report", "t": 3}, True),
        ({"seat": 0, "return": "5C", "to": 3}, True),
        ({"seat": 0, "tribute": "5C", "to": 2}, True),
        ({"seat": 0, "return": "5C", "to": 4}, False),  # seat beyond the table
        ({"seat": 0, "declare": "report", "count": 10**12}, True),  # at its bound
        ({"seat": 0, "declare": "report", "count": 10**12 + 1}, False),
        ({"seat": 0, "return": "5C", "to": 1.0}, False),
        ({"seat": 0, "return": "5c", "to": 1}, False),
        ({"seat": 0, "return": "5C", "count": 1}, False),  # count goes with a report (notation.key.verb)
        ({"seat": 0, "pass": True, "to": 1}, False),  # to with a tribute or return
        ({"seat": 0, "declare": "revolution", "count": 3}, False),
        ({"seat": 0, "pass": True, "as": "pair:3"}, False),  # as with a play
    ],
)
def test_read_plain_reads_the_forms_of_three_keys_as_the_full_checks_do(action, plain):
    record = copy.deepcopy(PLAIN)
    record["deals"][0]["actions"][0] = action
    assert (read_plain(copy.deepcopy(record)) is not None) is plain and _read_plain_agrees(record)


@pytest.mark.parametrize(
    "hand, plain",
    [  # the cards of hands and talons are read by read_plain itself, not by the pre-check before it
        (["AS", "BJ"], True),
        (["10h", "BJ"], False),  # an alias: read_deals says so
        (["AS", "ZZ"], False),
        (["AS", 5], False),
        ("AS", False),
        ({"AS": 1}, False),
    ],
)
def test_read_plain_reads_only_hands_and_talons_of_canonical_codes(hand, plain):
    record = copy.deepcopy(PLAIN)
    record["deals"][0]["hands"][3] = hand
    talon = copy.deepcopy(BASES[2])
    talon["deals"][0]["talon"] = hand
    for changed in (record, talon):
        assert (read_plain(copy.deepcopy(changed)) is not None) is plain and _read_plain_agrees(changed)


GAN_DENG_YAN = gandengyan_gen.match_record(5, seats=3, deals=1)


@pytest.mark.parametrize(
    "base, path, value",
    [  # each place in_bounds looks at, at its bound and past it
        (PLAIN, ("deals", 0, "leader"), 3),
        (PLAIN, ("deals", 0, "leader"), 4),
        (PLAIN, ("deals", 0, "result"), {"order": [0, 4]}),
        (PLAIN, ("deals", 0, "result"), {"winner": 4}),
        (GAN_DENG_YAN, ("deals", 0, "result", "scores"), [10**12, -(10**12)]),
        (GAN_DENG_YAN, ("deals", 0, "result", "scores"), [-(10**12) - 1]),
        (
            PLAIN,
            ("rulings",),
            [{"rule": "guandan.follow", "at": "/deals/0", "decision": "score", "result": {"order": [3, 2, 1, 0]}}],
        ),
        (
            PLAIN,
            ("rulings",),
            [{"rule": "guandan.follow", "at": "/deals/0", "decision": "score", "result": {"winner": 4}}],
        ),
        (
            PLAIN,
            ("rulings",),
            [{"rule": "guandan.follow", "at": "/deals/0", "decision": "score", "result": {"scores": [10**12 + 1]}}],
        ),
        (PLAIN, ("start",), {"previous_order": [0, 3]}),
        (PLAIN, ("start",), {"previous_order": [4]}),
        (PLAIN, ("start",), {"a_attempts": [0, 10**12 + 1]}),
        (GAN_DENG_YAN, ("start",), {"dealer": 2, "totals": [10**12, 0, 0]}),
        (GAN_DENG_YAN, ("start",), {"dealer": 3}),
        (GAN_DENG_YAN, ("start",), {"totals": [0, 0.5, 10**12 + 0.5]}),
        (GAN_DENG_YAN, ("result",), {"totals": [1.5, -(10**12) - 1, 0]}),
    ],
)
def test_in_bounds_looks_where_the_seat_and_number_checks_look(base, path, value):
    record = copy.deepcopy(base)
    parent = _at(record, path[:-1])
    parent[path[-1]] = value
    assert accepts(record, actions=False) and _in_bounds_agrees(record) and _read_plain_agrees(record)


# The schema of each kind of value of the action forms (referee.actions.FIELDS), as the schema writes it
KIND_SCHEMAS = {
    "seat": {"$ref": "#/definitions/seat"},
    "cards": {"$ref": "#/definitions/cards_nonempty"},
    "card": {"$ref": "#/definitions/card"},
    "true": {"enum": [True]},
    "name": {"type": "string", "minLength": 1},
    "reading": {"type": "string", "pattern": "^" + READING.pattern + "$"},
    "count": {"type": "integer", "minimum": 0},
    "time": {"type": "number", "minimum": 0},
    "text": {"type": "string"},
}


def _unannotated(node: dict) -> dict:
    return {key: value for key, value in node.items() if not key.startswith("x-")}


def test_the_schemas_action_is_the_table_of_action_forms():
    """The action of schema/cgr1.schema.json holds the keys of actions.FIELDS, in their order, each with a value
    of its kind, and exactly one of its VERBS; Gan Deng Yan's actions none of TRIBUTE_KEYS."""
    action = schema()["definitions"]["action"]
    assert {key: _unannotated(value) for key, value in action["properties"].items()} == {
        key: KIND_SCHEMAS[kind] for key, kind in FIELDS.items()
    }
    assert list(action["properties"]) == list(FIELDS)
    assert [branch["required"] for branch in action["allOf"][0]["anyOf"]] == [[verb] for verb in VERBS]
    assert {verb: set(others["properties"]) for verb, others in action["dependencies"].items()} == {
        verb: set(VERBS) - {verb} for verb in VERBS
    }
    [gandengyan] = [
        rule["then"]
        for rule in schema()["allOf"]
        if rule["if"]["properties"]["game"]["enum"] == ["gandengyan"] and "deals" in rule["then"]["properties"]
    ]
    forbidden = gandengyan["properties"]["deals"]["items"]["properties"]["actions"]["items"]["properties"]
    assert set(forbidden) == TRIBUTE_KEYS and all(value["not"] == {} for value in forbidden.values())


HOSTS = {
    "as": {"play": ["3S", "3H"]},
    "to": {"tribute": "5D"},
    "count": {"declare": "report"},
}  # the verbs they go with


@pytest.mark.parametrize("key", list(FIELDS))
def test_the_pre_check_takes_each_key_of_the_action_forms_as_the_schema_does(key):
    """Each key of an action with a value of its kind, and with a value of every other kind: the pre-check
    accepts only where the schema does."""
    samples = {
        "seat": 1,
        "cards": ["3S", "4H"],
        "card": "5D",
        "true": True,
        "name": "report",
        "reading": "pair:3",
        "count": 0,
        "time": 2.5,
        "text": "",
    }
    for kind, value in samples.items():
        action = {"seat": 0} if key in VERBS else {"seat": 0, **HOSTS.get(key, {"pass": True})}
        action[key] = value
        record = guandan([quick_deal([0, 2])])
        record["deals"][0]["actions"] = [action]
        accepted, valid = accepts(record), SCHEMA_VALIDATOR.is_valid(record)
        assert not accepted or valid, (key, kind)
        if kind == FIELDS[key]:
            assert accepted and valid, (key, kind)
