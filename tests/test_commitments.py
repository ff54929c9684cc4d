"""Committed deals (notation §11): the test vectors of docs/formats/deal-commitments.json, deals that
open, each way a commitment fails to open (its own rule id, at its JSON Pointer), and `referee deal`."""

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import main
from referee.commitments import committed_deal, salt_commitment, seed_commitment, seed_deal, shuffled_deck
from referee.replay import check_record, game_module

VECTORS = json.loads((Path(__file__).parent.parent / "docs" / "formats" / "deal-commitments.json").read_text())[
    "vectors"
]
SALT, SEED, GDY = VECTORS["salt_form"], VECTORS["seed_form"], VECTORS["seed_form_gandengyan"]
SUIT_ORDER = {"S": 0, "H": 1, "D": 2, "C": 3}


def _rank_order(code):
    """The order the vectors list a sorted hand in: 2 … A, each in S H D C, then the jokers."""
    return (99, code) if code in ("BJ", "RJ") else ("23456789TJQKA".index(code[0]), SUIT_ORDER[code[1]])


def test_salt_form_vector():
    assert salt_commitment("guandan", SALT["salt"], SALT["hands"]) == SALT["commit"]
    first = SALT["canonical_text_first_lines"][3]
    assert first == "0:" + " ".join(sorted(SALT["hands"][0]))


def test_seed_form_vectors():
    assert seed_commitment(SEED["seed"]) == SEED["commit"]
    hands, talon = seed_deal(game_module("guandan"), {}, 4, 0, SEED["seed"])
    assert hands[0][:8] == SEED["seat0_first_cards_dealt"] and talon is None
    assert sorted(hands[0], key=_rank_order) == SEED["seat0_sorted"]
    with_beacon, _ = seed_deal(game_module("guandan"), {}, 4, 0, SEED["seed"], "drand round 1")
    assert with_beacon[0][:8] != hands[0][:8]  # the vector's beacon text is not given: see docs/integrity.md


def test_gandengyan_seed_vector():
    game = game_module("gandengyan")
    hands, talon = seed_deal(game, {"decks": 1}, GDY["seats"], GDY["dealer"], GDY["seed"])
    assert [sorted(h) for h in hands] == [sorted(h) for h in GDY["hands"]]
    assert talon[: len(GDY["talon_first"])] == GDY["talon_first"] and len(talon) == 54 - 16


def test_the_deck_is_every_pack_once_shuffled():
    deck = shuffled_deck("gouji", SEED["seed"], "", 4)
    assert len(deck) == 216 and sorted(deck) == sorted(shuffled_deck("gouji", "0" * 64, "", 4))


def _record(game, deal, players=4):
    return {"cgr": 1, "game": game, "players": [f"p{i}" for i in range(players)], "deals": [deal]}


def _findings(record):
    return [(f.rule, f.at, f.severity) for f in check_record(record).findings if f.rule.startswith("notation.commit")]


SALTED = {
    "hands": SALT["hands"],
    "leader": 0,
    "actions": [],
    "commit": SALT["commit"],
    "reveal": {"salt": SALT["salt"]},
}


@pytest.mark.parametrize(
    "game, players, dealer", [("guandan", 4, 0), ("gouji", 6, 0), ("gandengyan", 3, 1), ("gandengyan", 6, 4)]
)
@pytest.mark.parametrize("form", ["seed", "beacon", "salt"])
def test_committed_deals_open(game, players, dealer, form):
    deal = committed_deal(
        game_module(game),
        SEED["seed"],
        players,
        dealer,
        beacon="b" if form == "beacon" else None,
        salt="ab" * 16 if form == "salt" else None,
    )
    assert _findings(_record(game, deal, players)) == []


def test_the_salt_form_vector_opens_in_a_record():
    assert _findings(_record("guandan", SALTED)) == []


def test_a_salt_that_does_not_open():
    deal = copy.deepcopy(SALTED)
    deal["reveal"]["salt"] = "f" * 32
    assert _findings(_record("guandan", deal)) == [("notation.commit.salt", "/deals/0/commit", "error")]


def test_a_changed_deal_does_not_open_the_salt_form():
    deal = copy.deepcopy(SALTED)
    deal["hands"][0][0], deal["hands"][2][0] = deal["hands"][2][0], deal["hands"][0][0]  # 2S for 2C
    assert _findings(_record("guandan", deal)) == [("notation.commit.salt", "/deals/0/commit", "error")]


def test_a_seed_that_does_not_hash_to_the_commitment():
    deal = committed_deal(game_module("guandan"), SEED["seed"], 4)
    deal["reveal"]["seed"] = "0" + SEED["seed"][1:]
    assert _findings(_record("guandan", deal)) == [("notation.commit.seed", "/deals/0/reveal/seed", "error")]


def test_a_deal_that_is_not_the_seeds():
    deal = committed_deal(game_module("guandan"), SEED["seed"], 4)
    deal["hands"][2][0], deal["hands"][3][0] = deal["hands"][3][0], deal["hands"][2][0]
    assert _findings(_record("guandan", deal)) == [("notation.commit.deal", "/deals/0/hands/2", "error")]


def test_a_beacon_changed_after_the_commitment():
    deal = committed_deal(game_module("gouji"), SEED["seed"], 6, beacon="round 1")
    deal["reveal"]["beacon"] = "round 2"
    assert _findings(_record("gouji", deal, 6)) == [("notation.commit.deal", "/deals/0/hands/0", "error")]


def test_a_talon_in_another_order_is_not_the_seeds():
    deal = committed_deal(game_module("gandengyan"), SEED["seed"], 3, 1)
    deal["talon"][0], deal["talon"][1] = deal["talon"][1], deal["talon"][0]
    assert _findings(_record("gandengyan", deal, 3)) == [("notation.commit.deal", "/deals/0/talon", "error")]


def test_the_seed_form_deals_from_the_seat_dealt_6():
    """The dealer is not committed (notation §11: the seat dealt 6 takes the first 6): a deal of the same
    seed from another dealer opens too; who deals is the match's to check (gandengyan.deal.dealer)."""
    deal = committed_deal(game_module("gandengyan"), SEED["seed"], 3, 1)
    other = committed_deal(game_module("gandengyan"), SEED["seed"], 3, 2)
    assert other["hands"][2] == deal["hands"][1] and _findings(_record("gandengyan", other, 3)) == []
    other["hands"][2], other["hands"][1] = other["hands"][1], other["hands"][2]
    assert _findings(_record("gandengyan", other, 3)) == [("notation.commit.deal", "/deals/0/hands/0", "error")]


def test_a_commitment_without_reveal_is_a_warning():
    deal = dict(SALTED)
    del deal["reveal"]
    assert _findings(_record("guandan", deal)) == [("notation.commit.unopened", "/deals/0/commit", "warning")]


def test_card_aliases_open_as_their_canonical_codes():
    deal = copy.deepcopy(SALTED)
    deal["hands"][0] = [c.lower().replace("t", "10") for c in deal["hands"][0]]
    assert _findings(_record("guandan", deal)) == []


@pytest.mark.parametrize(
    "change, rule, at",
    [
        ({"commit": "sha256:" + "A" * 64}, "notation.commit", "/deals/0/commit"),
        (
            {"commit": "d0ce637ccf40adf32c6b950a6e275f0a141c49f80797ac680854fb39eadbeacd"},
            "notation.commit",
            "/deals/0/commit",
        ),
        ({"commit": 7}, "notation.commit", "/deals/0/commit"),
        ({"reveal": {"salt": "abc"}}, "notation.reveal", "/deals/0/reveal"),
        ({"reveal": {"salt": "g" * 32}}, "notation.reveal", "/deals/0/reveal"),
        ({"reveal": {"seed": "5eed" * 16}}, "notation.reveal", "/deals/0/reveal"),
        ({"reveal": {"seed": "5eed" * 16, "shuffle": "fy"}}, "notation.reveal", "/deals/0/reveal"),
        ({"reveal": {"seed": "5eed" * 8, "shuffle": "cgr-fy-sha256/1"}}, "notation.reveal", "/deals/0/reveal"),
        (
            {"reveal": {"seed": "5eed" * 16, "shuffle": "cgr-fy-sha256/1", "beacon": 3}},
            "notation.reveal",
            "/deals/0/reveal",
        ),
        ({"reveal": {"salt": "a" * 32, "seed": "5eed" * 16}}, "notation.reveal", "/deals/0/reveal"),
        ({"reveal": "a" * 32}, "notation.reveal", "/deals/0/reveal"),
    ],
)
def test_a_malformed_commitment_is_a_structural_error(change, rule, at):
    report = check_record(_record("guandan", {**SALTED, **change}))
    assert [(f.rule, f.at) for f in report.findings] == [(rule, at)]


def test_a_reveal_without_commit_is_a_missing_key():
    deal = {k: v for k, v in SALTED.items() if k != "commit"}
    assert [(f.rule, f.at) for f in check_record(_record("guandan", deal)).findings] == [
        ("notation.key.missing", "/deals/0/commit")
    ]


def test_x_keys_are_free_in_a_reveal():
    deal = copy.deepcopy(SALTED)
    deal["reveal"]["x-published"] = "https://example.org/commitments"
    assert _findings(_record("guandan", deal)) == []


def test_validate_reports_a_commitment_that_does_not_open(tmp_path):
    deal = copy.deepcopy(SALTED)
    deal["reveal"]["salt"] = "f" * 32
    path = tmp_path / "r.json"
    path.write_text(json.dumps(_record("guandan", deal)))
    shown = CliRunner().invoke(main, ["validate", "--json", "-j", "1", str(path)])
    assert shown.exit_code == 1
    assert {"rule": "notation.commit.salt", "at": "/deals/0/commit"}.items() <= json.loads(
        shown.stdout.splitlines()[0]
    )["findings"][0].items()


def test_referee_deal_writes_the_vectors_deal():
    shown = CliRunner().invoke(
        main, ["deal", "--game", "gandengyan", "--players", "3", "--dealer", "1", "--seed", GDY["seed"]]
    )
    assert shown.exit_code == 0
    deal = json.loads(shown.output)
    assert deal["commit"] == SEED["commit"] and deal["reveal"] == {"seed": GDY["seed"], "shuffle": "cgr-fy-sha256/1"}
    assert [sorted(h) for h in deal["hands"]] == [sorted(h) for h in GDY["hands"]]


def test_referee_deal_in_the_salt_form_opens():
    shown = CliRunner().invoke(main, ["deal", "--game", "guandan", "--seed", SEED["seed"], "--salt", "12" * 16])
    deal = json.loads(shown.output)
    assert deal["reveal"] == {"salt": "12" * 16} and _findings(_record("guandan", deal)) == []


@pytest.mark.parametrize(
    "args",
    [
        ["--game", "guandan", "--seed", "12"],
        ["--game", "guandan", "--seed", "z" * 64],
        ["--game", "guandan", "--seed", "1" * 64, "--salt", "1"],
        ["--game", "gandengyan", "--seed", "1" * 64],
        ["--game", "guandan", "--players", "6", "--seed", "1" * 64],
        ["--game", "gandengyan", "--players", "3", "--dealer", "3", "--seed", "1" * 64],
    ],
)
def test_referee_deal_refuses_what_it_cannot_deal(args):
    shown = CliRunner().invoke(main, ["deal", *args])
    assert shown.exit_code == 2 and "Traceback" not in shown.output


@pytest.mark.parametrize("game", ["guandan", "gouji", "gandengyan"])
def test_the_committed_samples_open_and_are_reproducible(game):
    from referee.canonical import canonical
    from tests.committed_gen import sample

    path = Path(__file__).parent.parent / "samples" / game / "committed-deal.json"
    record = json.loads(path.read_text())
    assert canonical(sample(game)) == record and "commit" in record["deals"][0]
    assert check_record(record).valid
    hands = record["deals"][0]["hands"]
    other = next(i for i, card in enumerate(hands[1]) if card != hands[0][0])
    hands[0][0], hands[1][other] = hands[1][other], hands[0][0]
    assert {f.rule for f in check_record(record).findings} & {"notation.commit.salt", "notation.commit.deal"}
