"""The result of a match that stops before it is won, in every report's match outcome
(docs/formats/results-sheet.md): Guandan by levels, Gan Deng Yan and Gou Ji by totals."""

import copy

from click.testing import CliRunner

from referee.claims import match_result
from referee.cli.main import main
from referee.replay import check_record
from tests.gandengyan_gen import match_record as gdy_record
from tests.gouji_gen import match_record as gouji_record
from tests.guandan_gen import match_record as guandan_record


def test_the_highest_score_wins_by_its_lead_and_equal_top_scores_draw():
    assert match_result([3, 0]) == {"winner": 0, "margin": 3}
    assert match_result([-14, 26, 0, -12]) == {"winner": 1, "margin": 26}
    assert match_result([5, 5, -10]) == {"draw": True, "margin": 0}
    assert match_result([12, 12], won=1) == {"winner": 1, "margin": 0}  # passed A: won outright
    assert match_result(None) is None


def test_a_guandan_match_stopped_before_it_is_won_goes_to_the_higher_level():
    record = guandan_record(1, max_deals=2)
    match = check_record(record).match
    assert match["levels"] == ["5", "2"] and match["winner"] is None
    assert match["result"] == {"winner": 0, "margin": 3}


def test_equal_guandan_levels_are_a_draw_and_a_won_match_keeps_its_winner():
    record = guandan_record(1, max_deals=1)
    record["deals"][0]["actions"] = record["deals"][0]["actions"][:3]  # stopped in the first deal
    record["deals"][0].pop("result")
    record.pop("result")
    assert check_record(record).match["result"] == {"draw": True, "margin": 0}
    won = check_record(guandan_record(0, max_deals=30)).match
    assert won["result"]["winner"] == won["winner"] is not None


def test_gan_deng_yan_and_gou_ji_results_come_from_the_totals():
    assert check_record(gdy_record(2, seats=4, deals=3)).match["result"] == {"winner": 1, "margin": 26}
    assert check_record(gouji_record(2, deals=2)).match["result"] == {"winner": 1, "margin": 36}
    assert check_record(gouji_record(3, deals=2)).match["result"] == {"draw": True, "margin": 0}


def test_tied_top_totals_in_gan_deng_yan_are_a_draw(tmp_path):
    record = copy.deepcopy(gdy_record(2, seats=4, deals=3))
    record["start"] = {"totals": [40, 0, 0, 0]}  # P0 reaches P1's 26 at the end
    record.pop("result")
    record["deals"][0].pop("leader", None)
    match = check_record(record).match
    assert match["totals"][0] == match["totals"][1] == 26 and match["result"] == {"draw": True, "margin": 0}


def test_the_report_text_shows_the_result():
    path = "samples/gouji/session-tribute-and-returns.json"
    assert "match: totals 0 0, result so far draw=yes margin=0" in CliRunner().invoke(main, ["validate", path]).output
    path = "samples/guandan/match-won-at-a.json"
    assert (
        "match: levels A K, winner 0, a attempts 0 0, result winner=0 margin=1"
        in CliRunner().invoke(main, ["validate", path]).output
    )
