"""Reliability III (issue 18): budgets, a desk's concurrency, slow clients, one id per match, the access log."""
from __future__ import annotations

import io
import socket

import orjson

from api import create_app
from api.access_log import access_logged, refusals_logged
from tests.builders import guandan, quick_deal
from tests.servers import serving

BASE = guandan([quick_deal([0, 2])])
TOKEN = "a-token-of-16-chars-or-more"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def raw_answer(port, data: bytes, timeout: float = 10) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
        conn.sendall(data)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    return answer


# ------------------------------------------------------------------ 11. the access log

def test_the_access_log_records_what_waitress_refuses_and_hides_tokens(tmp_path):
    app = create_app(str(tmp_path / "r.db"), read_only=True)
    log = io.StringIO()
    app.wsgi_app = access_logged(app.wsgi_app, log)
    with serving(app, max_request_body_size=1000, log_refusal=refusals_logged(log)) as port:
        answer = raw_answer(port, b"POST /v1/validate?token=s3cret HTTP/1.1\r\nHost: x\r\n"
                                  b"Content-Length: 50000000\r\n\r\n{")
        assert answer.startswith(b"HTTP/1.1 413")
        raw_answer(port, b"GET /v1/records?page=1&access_token=s3cret HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    lines = log.getvalue().splitlines()
    assert len(lines) == 2, lines
    assert " 127.0.0.1 POST /v1/validate?token=*** 413 " in lines[0]
    assert " GET /v1/records?page=1&access_token=*** 400 " in lines[1]
    assert "s3cret" not in log.getvalue()
