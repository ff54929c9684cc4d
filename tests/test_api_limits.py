"""The size limit's quick proof that no array or object is too long (api/limits.py) agrees with its walk."""

from __future__ import annotations

import orjson
from hypothesis import given, settings, strategies as st

from referee.api.limits import _holds_long, _long_container
from tests.guandan_gen import match_record

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=12) | st.dictionaries(st.text(max_size=3), inner, max_size=12),
    max_leaves=200,
)


@settings(max_examples=300, deadline=None)
@given(value=JSON, most=st.integers(0, 15), apart_first=st.booleans())
def test_a_long_array_or_object_is_found_by_both(value, most, apart_first):
    value = orjson.loads(orjson.dumps(value))  # as a request's record is parsed
    apart = {id(value)} if apart_first else set()
    assert _holds_long(value, most, apart) == (_long_container(value, most, apart) is not None)


def test_a_match_is_clear_but_where_its_hands_are_long():
    record = orjson.loads(orjson.dumps(match_record(7)))
    deals = record["deals"]
    apart = {id(deals), *(id(deal["actions"]) for deal in deals)}
    longest_hand = max(len(hand) for deal in deals for hand in deal["hands"])
    assert not _holds_long(record, longest_hand, apart)
    assert _holds_long(record, longest_hand - 1, apart)
