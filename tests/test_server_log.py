"""The server logs through `logging` (issue 32): each request on referee.api.access, the app's errors
on referee, waitress's on waitress; `referee serve` writes them on standard error from --log-level
(or REFEREE_LOG_LEVEL) up, an access line in the format it always had."""

import logging
import re

import pytest
from click.testing import CliRunner

from referee.api.access_log import LOGGERS, StandardError, configure
from referee.cli.main import main

ACCESS_LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ 127\.0\.0\.1 GET /v1/records 200 \d+\.\dms$")


@pytest.fixture(autouse=True)
def logging_as_it_was():
    kept = {name: (logging.getLogger(name).level, list(logging.getLogger(name).handlers)) for name in LOGGERS}
    yield
    for name, (level, handlers) in kept.items():
        logging.getLogger(name).setLevel(level)
        logging.getLogger(name).handlers[:] = handlers


@pytest.fixture
def serving_once(monkeypatch, tmp_path):
    """`referee serve` whose server answers one GET /v1/records and stops; its standard error."""

    class Server:
        def __init__(self, app):
            self.app = app

        def run(self):
            self.app.test_client().get("/v1/records")

    monkeypatch.setattr("referee.api.server.make_server", lambda app, **kwargs: Server(app))

    def serve(*args, env=None):
        result = CliRunner().invoke(main, ["serve", "--read-only", "--db", str(tmp_path / "r.db"), *args], env=env)
        assert result.exit_code == 0, result.output
        return result.stderr.splitlines()

    return serve


def test_each_request_is_one_line_in_the_format_it_always_had(serving_once):
    lines = serving_once()
    assert len(lines) == 1 and ACCESS_LINE.match(lines[0]), lines


@pytest.mark.parametrize(
    "args, env",
    [
        (["--log-level", "warning"], None),
        ([], {"REFEREE_LOG_LEVEL": "error"}),
        (["--log-level", "WARNING"], {"REFEREE_LOG_LEVEL": "debug"}),
    ],
)
def test_a_level_above_info_writes_no_request(serving_once, args, env):
    assert serving_once(*args, env=env) == []


def test_an_unknown_level_is_a_usage_error(tmp_path):
    result = CliRunner().invoke(main, ["serve", "--read-only", "--db", str(tmp_path / "r.db"), "--log-level", "loud"])
    assert result.exit_code == 2 and "loud" in result.output


def test_the_servers_other_lines_say_their_level_and_logger(capsys):
    configure("warning")
    logging.getLogger("waitress.queue").warning("Task queue depth is %d", 3)
    logging.getLogger("referee").info("not written below warning")
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and re.match(r"^\S+Z WARNING waitress\.queue: Task queue depth is 3$", lines[0]), lines


def test_configured_twice_it_writes_each_line_once(capsys):
    configure("info")
    configure("info")
    logging.getLogger("referee.api.access").info("one line")
    assert len(capsys.readouterr().err.splitlines()) == 1
    assert [type(h) for h in logging.getLogger("referee").handlers].count(StandardError) == 1


def test_a_failing_request_is_logged_with_its_traceback_through_the_same_handler(tmp_path, capsys):
    from referee.api import create_app

    configure("info")
    app = create_app(str(tmp_path / "r.db"), read_only=True)

    @app.get("/boom")
    def boom():
        raise RuntimeError("kaboom")

    assert app.test_client().get("/boom").status_code == 500
    err = capsys.readouterr().err
    assert re.search(r"Z ERROR referee: Exception on /boom \[GET\]", err) and "RuntimeError: kaboom" in err
    assert err.count("Exception on /boom") == 1  # flask added no handler of its own


def test_the_time_of_a_line_is_utc():
    from referee.api.access_log import LineFormat

    line = logging.LogRecord("referee.api.access", logging.INFO, __file__, 1, "127.0.0.1 GET / 200 1.0ms", (), None)
    line.created = 0
    assert LineFormat().format(line) == "1970-01-01T00:00:00Z 127.0.0.1 GET / 200 1.0ms"
