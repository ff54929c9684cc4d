"""Checking a record pauses Python's cycle collector (referee.replay.cycle_collection_paused) while
the record is parsed and replayed, and leaves it as it found it, whatever the record holds."""

import gc
import pathlib

import pytest

from referee import batch, replay
from referee.batch import check_batch, check_one

SAMPLE = (pathlib.Path(__file__).parent.parent / "samples/guandan/disputed-illegal-follow.json").read_text()


@pytest.mark.parametrize("text", [SAMPLE, "{not json", '{"cgr": 1}', SAMPLE.replace('"actions"', '"actions_"', 1)])
@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_while_checking_and_left_as_it_was(text, enabled, monkeypatch):
    during = []

    def watched(function):
        def call(*args, **kwargs):
            during.append(gc.isenabled())
            return function(*args, **kwargs)

        return call

    monkeypatch.setattr(batch, "parse_json", watched(batch.parse_json))
    monkeypatch.setattr(replay, "structure_findings", watched(replay.structure_findings))
    (gc.enable if enabled else gc.disable)()
    try:
        report = check_one(text, "t")
        assert gc.isenabled() is enabled
    finally:
        gc.enable()
    assert report.findings and during and not any(during)


def test_a_batch_is_checked_with_the_collector_paused_throughout(monkeypatch):
    """What the checks of a batch's records leave is collected once, after the batch, not after each record."""
    during = []
    render = lambda report: during.append(gc.isenabled()) or report.valid  # noqa: E731
    gc.enable()
    try:
        kept = check_batch([("a", SAMPLE), ("b", "{not json"), ("c", SAMPLE)], outcome=render)
        assert gc.isenabled()
    finally:
        gc.enable()
    assert kept == [False, False, False] and during == [False, False, False]


@pytest.mark.parametrize("in_a_batch", [False, True])
def test_the_rule_search_runs_with_the_collector_on(monkeypatch, in_a_batch):
    """--infer-rules replays the record under hundreds of rule sets; the reading caches of the sets
    it evicts are cycles (rules.shared), which a paused collector would let pile up (about twice the
    peak memory of checking disputed-false-level.json)."""
    import referee.infer

    during = []
    search = referee.infer.infer_rules
    monkeypatch.setattr(
        referee.infer,
        "infer_rules",
        lambda record, **options: during.append(gc.isenabled()) or search(record, **options),
    )
    gc.enable()
    report = check_batch([("t", SAMPLE)], infer=True)[0] if in_a_batch else check_one(SAMPLE, "t", infer=True)
    assert during == [True] and report.inferred["searched"] > 0 and gc.isenabled()
