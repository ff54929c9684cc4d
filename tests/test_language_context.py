"""The language is held per thread (per request, per command), not per process (issue 32): two of the
server's threads answering in Chinese and in English at once never mix their languages."""

import threading

import pytest
from click.testing import CliRunner

from referee.cli.main import main
from referee.messages import Cards, in_language, language, msg

SAID = msg("seat {seat} does not hold {card}", seat=2, card=Cards("7H"))


def _at_once(*functions):
    """Each function on a thread of its own, all started together; their answers in order."""
    answers = [None] * len(functions)
    meet = threading.Barrier(len(functions))

    def run(index, function):
        meet.wait()
        answers[index] = function(meet)

    threads = [threading.Thread(target=run, args=(i, f)) for i, f in enumerate(functions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    return answers


def test_two_threads_render_in_their_own_languages_at_once():
    def speaking(lang):
        def renders(meet):
            with in_language(lang):
                meet.wait()  # both have chosen their language before either renders
                return {SAID.render() for _ in range(200)}

        return renders

    chinese, english = _at_once(speaking("zh"), speaking("en"))
    assert english == {"seat 2 does not hold 7H"}
    assert len(chinese) == 1 and "红桃7" in chinese.pop()


def test_a_block_in_another_language_ends_with_it():
    with in_language("zh"):
        assert language() == "zh"
        with in_language("en"):
            assert language() == "en"
        assert language() == "zh"
    assert language() == "en"


def test_a_thread_starts_in_english_whatever_another_chose():
    seen = []
    with in_language("zh"):
        thread = threading.Thread(target=lambda: seen.append(language()))
        thread.start()
        thread.join()
    assert seen == ["en"]


def test_a_command_speaks_its_own_language_and_leaves_the_callers():
    result = CliRunner().invoke(main, ["--lang", "zh", "validate", "samples/guandan/disputed-illegal-follow.json"])
    assert "  无效  " in result.output.splitlines()[0]
    assert language() == "en"


@pytest.fixture
def app(tmp_path):
    from flask import jsonify

    from referee.api import create_app

    app = create_app(str(tmp_path / "r.db"), read_only=True)
    meet = threading.Barrier(2)

    @app.get("/spoken")
    def spoken():
        meet.wait(10)  # both requests are running before either answers
        return jsonify(language=language(), said=SAID.render())

    return app


def test_two_requests_answered_at_once_in_zh_and_en_never_mix(app):
    def asking(lang):
        return lambda _meet: app.test_client().get(f"/spoken?lang={lang}").get_json()

    chinese, english = _at_once(asking("zh"), asking("en"))
    assert english == {"language": "en", "said": "seat 2 does not hold 7H"}
    assert chinese["language"] == "zh" and "红桃7" in chinese["said"]


def test_a_request_leaves_its_thread_in_the_language_it_found(app):
    app.test_client().get("/v1/records?lang=zh")
    assert language() == "en"


def test_a_check_in_the_pool_runs_in_the_language_of_its_request():
    from referee.api.limits import CheckPool

    pool = CheckPool(1, 0)
    with in_language("zh"):
        assert pool.run(language) == "zh"
    assert pool.run(language) == "en"


def test_after_a_command_in_chinese_clicks_own_words_are_as_they_were(monkeypatch):
    import gettext
    import os

    monkeypatch.setenv("LANGUAGE", "en")
    domain = gettext.textdomain()
    CliRunner().invoke(main, ["--lang", "zh", "explain", "guandan.follow"])
    assert (os.environ["LANGUAGE"], gettext.textdomain()) == ("en", domain)


def test_each_language_and_domain_builds_its_catalogue_chain_once_for_every_thread():
    from referee.messages import translations

    chain = translations("zh", "cli")
    built = _at_once(*[lambda _meet: translations("zh", "cli")] * 2, lambda _meet: translations("zh", "core"))
    assert built[0] is chain and built[1] is chain and built[2] is not chain
