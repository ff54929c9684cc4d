"""Property tests: random legal Guandan matches validate with every claim, and one
changed action is caught at that action with the right rule id."""

import copy

from hypothesis import HealthCheck, given, settings, strategies as st

from referee.replay import check_record, replay_steps
from tests.guandan_gen import DECK, level_value, match_record, rank_of

SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=10**9)


def errors(report):
    return [(f.rule, f.at) for f in report.findings if f.severity == "error"]


@SETTINGS
@given(seeds)
def test_generated_matches_validate(seed):
    report = check_record(match_record(seed, max_deals=4))
    assert report.valid and report.findings == []


def _plays(record, deal_index):
    actions = record["deals"][deal_index]["actions"]
    return [i for i, a in enumerate(actions) if "play" in a or "pass" in a]


@SETTINGS
@given(seeds, st.data())
def test_a_card_not_held_is_caught(seed, data):
    record = match_record(seed, max_deals=2)
    d = data.draw(st.integers(0, len(record["deals"]) - 1))
    deal = record["deals"][d]
    i = data.draw(st.sampled_from([i for i in _plays(record, d) if "play" in deal["actions"][i]]))
    seat = deal["actions"][i]["seat"]
    moved = {a.get("tribute") or a.get("return") for a in deal["actions"]}
    foreign = sorted(set(DECK) - set(deal["hands"][seat]) - moved)
    deal["actions"][i]["play"][0] = data.draw(st.sampled_from(foreign))
    assert ("guandan.card.not_held", f"/deals/{d}/actions/{i}") in errors(check_record(record))


@SETTINGS
@given(seeds, st.data())
def test_a_wrong_seat_is_caught(seed, data):
    record = match_record(seed, max_deals=2)
    d = data.draw(st.integers(0, len(record["deals"]) - 1))
    i = data.draw(st.sampled_from(_plays(record, d)))
    action = record["deals"][d]["actions"][i]
    action["seat"] = data.draw(st.sampled_from([s for s in range(4) if s != action["seat"]]))
    assert errors(check_record(record))[0] == ("guandan.turn", f"/deals/{d}/actions/{i}")


@SETTINGS
@given(seeds, st.data())
def test_a_weaker_follow_is_caught(seed, data):
    record = match_record(seed, max_deals=1)
    _, frames = replay_steps(copy.deepcopy(record), 0)
    actions = record["deals"][0]["actions"]
    candidates = []
    for index, frame in enumerate(frames[1:]):
        table = frame["table"]
        following = index + 1 < len(actions) and table["table"] and "play" in table["table"][-1]
        if following and table["table"][-1]["as"].startswith("single:") and table["turn"] is not None:
            top = table["table"][-1]["play"][0]
            hand = table["hands"][table["turn"]]
            lower = [c for c in hand if level_value(rank_of(c), "2") < level_value(rank_of(top), "2")]
            if lower and actions[index + 1]["seat"] == table["turn"]:
                candidates.append((index + 1, table["turn"], lower[0]))
    if not candidates:
        return
    i, seat, card = data.draw(st.sampled_from(candidates))
    actions[i] = {"seat": seat, "play": [card]}
    assert errors(check_record(record))[0] == ("guandan.follow", f"/deals/0/actions/{i}")
