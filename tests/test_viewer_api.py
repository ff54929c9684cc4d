"""What the replay viewer needs from the server: its pages, every step of a deal, offline API docs."""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest

import referee.api.viewer
from referee.api import create_app
from referee.replay import replay_steps, step_json

ROOT = Path(__file__).resolve().parent.parent
DISPUTED = ROOT / "samples/guandan/disputed-illegal-follow.json"
MATCH = ROOT / "samples/guandan/match-won-at-a.json"


@pytest.fixture
def client(tmp_path):
    return create_app(str(tmp_path / "referee.db")).test_client()


def replay(client, body: bytes, deal=None):
    url = "/v1/replay" if deal is None else f"/v1/replay?deal={deal}"
    return client.post(url, data=body, content_type="application/json")


@pytest.mark.parametrize("deal", [0, 3])
def test_replay_gives_every_step_of_a_posted_deal_and_stores_nothing(client, deal):
    record = orjson.loads(MATCH.read_bytes())
    response = replay(client, MATCH.read_bytes(), deal)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    _, steps = replay_steps(record, deal)
    assert body == {"deal": deal, "deals": len(record["deals"]), "steps": [step_json(s) for s in steps]}
    assert len(body["steps"]) == len(record["deals"][deal]["actions"]) + 1
    assert client.get("/v1/records").get_json()["total"] == 0


def test_replay_steps_follow_the_record_up_to_its_dispute(client):
    actions = orjson.loads(DISPUTED.read_bytes())["deals"][0]["actions"]
    steps = replay(client, DISPUTED.read_bytes()).get_json()["steps"]
    assert steps[0]["action"] is None
    assert [step["action"] for step in steps[1:]] == actions[: len(steps) - 1]
    assert 24 <= len(steps) - 1 < len(actions)  # the replay stops at the illegal follow
    assert all(step["table"]["wild"] == ["2H"] for step in steps)


@pytest.mark.parametrize(
    "body, code, rule",
    [
        (b"{not json", 400, "notation.json"),
        (b"\xff\xfe", 400, "notation.json"),
        (b'{"cgr": 1}', 422, "notation.key.missing"),
        (b"[1, 2]", 422, "notation.structure"),
    ],
)
def test_replay_answers_a_bad_body_with_findings(client, body, code, rule):
    response = replay(client, body)
    assert response.status_code == code
    assert rule in {f["rule"] for f in response.get_json()["findings"]}


@pytest.mark.parametrize("query, code", [("deal=1", 404), ("deal=-1", 400), ("deal=x", 400)])
def test_replay_refuses_a_deal_the_record_lacks(client, query, code):
    response = client.post(f"/v1/replay?{query}", data=DISPUTED.read_bytes(), content_type="application/json")
    assert response.status_code == code
    assert response.get_json()["code"] == code


def test_replay_refuses_a_deal_longer_than_its_bound(client, monkeypatch):
    monkeypatch.setattr(referee.api.viewer, "MAX_STEPS", 20)
    response = replay(client, DISPUTED.read_bytes())
    assert response.status_code == 422
    assert "28 actions" in response.get_json()["message"]


def test_stored_steps_are_the_single_steps_in_order(client):
    record_id = client.post("/v1/records", data=DISPUTED.read_bytes(), content_type="application/json").get_json()["id"]
    body = client.get(f"/v1/records/{record_id}/deals/0/steps").get_json()
    assert body["deals"] == 1
    assert [s["step"] for s in body["steps"]] == list(range(len(body["steps"])))
    for k in (0, 7, len(body["steps"]) - 1):
        assert client.get(f"/v1/records/{record_id}/deals/0/steps/{k}").get_json() == body["steps"][k]
    assert client.get(f"/v1/records/{record_id}/deals/1/steps").status_code == 404
    assert client.get("/v1/records/nope/deals/0/steps").status_code == 404


@pytest.mark.parametrize("path", ["/view", "/view/", "/view/0123abc"])
def test_the_viewer_page_is_served_with_its_script_and_style(client, path):
    page = client.get(path)
    assert page.status_code == 200 and page.mimetype == "text/html"
    assets = re.findall(r'(?:src|href)="(/view/static/[^"]+)"', page.get_data(as_text=True))
    assert sorted(assets) == ["/view/static/language.js", "/view/static/viewer.css", "/view/static/viewer.js"]
    assert all(client.get(asset).status_code == 200 for asset in assets)


def test_the_api_docs_load_nothing_from_another_host(client):
    page = client.get("/docs", follow_redirects=True)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert "/docs/swagger-ui-bundle.js" in assets and "/docs/swagger-ui.css" in assets
    assert set(re.findall(r"https?://([^/\"']+)", html)) <= {"localhost"}  # the OAuth redirect: this host
    assert all(client.get(asset).status_code == 200 for asset in assets)


def test_the_openapi_document_lists_the_viewer_endpoints(client):
    paths = client.get("/openapi.json").get_json()["paths"]
    assert "post" in paths["/v1/replay"]
    assert "get" in paths["/v1/records/{record_id}/deals/{deal}/steps"]


@pytest.mark.parametrize(
    "path",
    [
        "/view",
        "/view/abc",
        "/view/events/Desk Cup 2026",
        "/docs/",
        "/view/static/viewer.js",
        "/docs/swagger-ui.css",
        "/v1/records",
    ],
)
def test_pages_send_a_content_security_policy_nosniff_and_no_framing(client, path):
    headers = client.get(path).headers
    policy = dict(part.strip().split(" ", 1) for part in headers["Content-Security-Policy"].split(";"))
    assert policy["default-src"] == "'self'" and policy["frame-ancestors"] == "'none'" and "script-src" not in policy
    assert headers["X-Content-Type-Options"] == "nosniff" and headers["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize("path", ["/view", "/docs/", "/view/events/Desk Cup 2026"])
def test_the_pages_need_no_inline_script(client, path):
    html = client.get(path).get_data(as_text=True)
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    assert scripts and all("src=" in attrs and not body.strip() for attrs, body in scripts)


def test_the_viewer_numbers_findings_from_1_as_replay_finding_does(client):
    """Issues 19 and 35: the viewer's finding N is `referee replay --finding N`, both counted from 1."""
    page = client.get("/view").get_data(as_text=True)
    findings = page.split('id="findings"', 1)[1].split("</section>", 1)[0]
    assert "<ol>" in findings and "start=" not in findings


def test_the_viewers_words_come_from_its_catalogue_as_json(client):
    """Issue 22: the viewer's script reads one JSON catalogue made from viewer.po."""
    body = client.get("/v1/messages/zh").get_json()
    assert body["lang"] == "zh"
    assert body["messages"]["Dispute"] == "争议"
    assert body["messages"]["{name} (seat {seat})"] == "{name}（{seat}号位）"
    assert body["messages"]["{n} card"] == ["{n}张牌"], "a plural's forms are a list"
    assert client.get("/v1/messages/en").get_json()["messages"] == {}, "English is the templates themselves"
    answer = client.get("/v1/messages/fr")
    assert answer.status_code == 404 and "en, zh" in answer.get_json()["message"]


def test_a_record_page_answers_with_a_trailing_slash_too(client):
    record_id = client.post("/v1/records", data=DISPUTED.read_bytes(), content_type="application/json").get_json()["id"]
    for path in (f"/view/{record_id}", f"/view/{record_id}/"):
        answer = client.get(path)
        assert answer.status_code == 200 and b'id="viewer"' in answer.data, path
