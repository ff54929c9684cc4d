"""The store's reading of a record's canonical form made from the record's own plain reading (canonical.stored_reading)
is what reading the form itself gives, and so is the report the store keeps (api/store.py)."""

from __future__ import annotations

import copy

import orjson
import pytest

from referee.api.store import prepare, rechecked
from referee.canonical import stored_form, stored_reading
from referee.notation import plain_read
from tests import golden

TEXTS = [item["record"] for item in golden.read()]


@pytest.mark.parametrize("text", TEXTS[::3])
def test_the_forms_reading_is_the_one_read_from_the_form(text):
    record = orjson.loads(text)
    plain = plain_read(record)
    if plain.deals is None:
        return
    digest, form, reading = stored_reading(copy.deepcopy(record), plain_read(copy.deepcopy(record)))
    assert digest == stored_form(record)[0]
    assert orjson.dumps(form) == orjson.dumps(stored_form(record)[1])  # its keys in the same order too
    if reading is not None:
        assert reading.deals == plain_read(form).deals


@pytest.mark.parametrize("text", TEXTS[1::3])
def test_the_stored_report_is_the_forms(text):
    entry = prepare(text)
    if isinstance(entry, list):
        return
    assert entry.report == rechecked(stored_form(orjson.loads(text))[1]).as_dict()


def test_a_record_with_whole_numbers_written_as_decimals_is_read_from_its_form():
    record = orjson.loads(next(text for text in TEXTS if '"guandan"' in text and plain_read(orjson.loads(text)).deals))
    record["meta"] = dict(record.get("meta", {}), round=2.0)
    _, form, reading = stored_reading(record, plain_read(copy.deepcopy(record)))
    assert reading is None
    assert form["meta"]["round"] == 2 and type(form["meta"]["round"]) is int
