"""`referee rules`: every option whole, in JSON spelling, with its effect in words."""

import json

import pytest
from click.testing import CliRunner

from referee.cli.main import main
from referee.game import games
from referee.rules import json_text


def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("name", sorted(games()))
def test_rules_prints_every_option_whole_in_a_pipe(name):
    out = run("rules", name).output
    for option_name, option in games()[name].OPTIONS.items():
        assert f"  {option_name}: {option.describe()}, default {json_text(option.default)}\n" in out
        assert option.effect.strip("()§0123456789. "), f"{option_name}: its effect is only a section number"
    assert "True" not in out and "None" not in out and "…" not in out


def test_rules_json_spells_values_as_json():
    data = json.loads(run("rules", "guandan", "--json").output)
    assert data["guandan"]["options"]["report_at"]["values"] == "an integer or null"
    assert data["guandan"]["options"]["straight_flush_bomb"]["values"] == "true | false"


def test_unknown_rules_names_say_what_was_meant():
    from referee.rules import resolve

    guandan = games()["guandan"]
    _, findings = resolve(guandan, {"preset": "offical", "options": {"return_cpa": "ten", "ace_low": 1}})
    messages = [f.message for f in findings]
    assert 'unknown preset "offical" for guandan (did you mean official?)' in messages[0]
    assert "did you mean return_cap?" in messages[1] and "options: max_bomb_size," in messages[1]
    assert messages[2] == "option ace_low takes true | false, not 1"
    assert [f.at for f in findings] == ["/rules/preset", "/rules/options/return_cpa", "/rules/options/ace_low"]
