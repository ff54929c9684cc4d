"""Messages an arbiter can quote (issue 9): no Python reprs in any text, only the missing
cards named, the legal plays with their cards."""

import copy
import re

import pytest

from referee.replay import check_record
from tests import test_one_fault as faults
from tests.builders import guandan, quick_deal

PYTHON_REPR = re.compile(r"\bTrue\b|\bFalse\b|\bNone\b|\[\]|\['|', '|'\]|\{'")
BASE = guandan([quick_deal([0, 2])])


def _edited(edit):
    record = copy.deepcopy(BASE)
    edit(record)
    return record


STRUCTURAL = [
    lambda r: r["deals"][0]["actions"][0].update(seat=True),
    lambda r: r["deals"][0]["actions"][1].update({"pass": []}),
    lambda r: r["deals"][0]["actions"][0].update(play=[["A", "3"]]),
    lambda r: r["deals"][0]["actions"][0].update(declare=["A", "3"], play=None),
    lambda r: r.update(rules={"preset": "official", "options": {"max_bomb_size": [1], "nope": True}}),
    lambda r: r.update(rules="no such preset"),
    lambda r: r.update(game=["guandan"]),
    lambda r: r.update(cgr=True),
    lambda r: r.update(result={"levels": ["A", True]}),
    lambda r: r["deals"][0]["actions"].append({"seat": 1, "declare": "revolution"}),
]


def messages(record):
    report = check_record(record)
    return [f.message for f in report.findings] + [f.legal["may"] for f in report.findings if f.legal]


@pytest.mark.parametrize("edit", STRUCTURAL)
def test_no_python_reprs_in_structural_messages(edit):
    found = messages(_edited(edit))
    assert found and not [m for m in found if PYTHON_REPR.search(m)]


@pytest.mark.parametrize("fault", faults.GUANDAN_FAULTS + faults.GUANDAN_STOPS, ids=lambda f: f[0])
def test_no_python_reprs_in_guandan_messages(fault):
    found = messages(faults.injected(faults.GUANDAN_BASE, fault[1]))
    assert found and not [m for m in found if PYTHON_REPR.search(m)]


@pytest.mark.parametrize("fault", faults.GDY_FAULTS + faults.GDY_STOPS, ids=lambda f: f[0])
def test_no_python_reprs_in_gandengyan_messages(fault):
    found = messages(faults.injected(faults.GDY_BASE, fault[1]))
    assert found and not [m for m in found if PYTHON_REPR.search(m)]


def test_not_held_names_only_the_missing_cards():
    record = faults.injected(faults.GUANDAN_BASE, faults._action(2, play=["6S", "RJ"]))
    stop = next(f for f in check_record(record).findings if f.severity == "error")
    assert stop.rule == "guandan.card.not_held"
    assert stop.message == "seat 3 does not hold RJ (of 6S RJ)"
