"""The API in Chinese (issue 22): ?lang= then Accept-Language, for reports, errors and steps."""

import orjson
import pytest

from referee.api import create_app
from tests.guandan_gen import match_record

TOKEN = "s3cret"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
ZH = {"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"}


@pytest.fixture
def client(tmp_path):
    return create_app(str(tmp_path / "referee.db"), token=TOKEN).test_client()


def stored_id(client) -> str:
    record = match_record(3, max_deals=1)
    record["deals"][0]["actions"] = record["deals"][0]["actions"][:5] + record["deals"][0]["actions"][6:]
    answer = client.post("/v1/records", data=orjson.dumps(record), headers=AUTH, content_type="application/json")
    assert answer.status_code == 201
    return answer.get_json()["id"]


@pytest.mark.parametrize(
    "path, headers",
    [
        ("/v1/records/nope", ZH),
        ("/v1/records/nope?lang=zh", {}),
        ("/v1/records/nope?lang=zh-Hans", {"Accept-Language": "en"}),
    ],
)
def test_errors_in_chinese_by_accept_language_or_lang(client, path, headers):
    answer = client.get(path, headers=headers)
    assert answer.status_code == 404 and answer.get_json()["message"] == "没有此编号的记录"
    assert "Accept-Language" in answer.headers["Vary"]


@pytest.mark.parametrize(
    "path, headers",
    [
        ("/v1/records/nope", {}),
        ("/v1/records/nope?lang=en", ZH),
        ("/v1/records/nope", {"Accept-Language": "fr, de;q=0.5"}),
    ],
)
def test_english_unless_chinese_is_asked_for(client, path, headers):
    assert client.get(path, headers=headers).get_json()["message"] == "no record has this id"


def test_an_unknown_lang_is_a_bad_request_in_english(client):
    answer = client.get("/v1/records?lang=fr")
    assert answer.status_code == 400 and "unknown language fr" in answer.get_json()["message"]


def test_lang_is_a_known_parameter_of_every_path_and_errors_of_parameters_are_chinese(client):
    assert client.get("/v1/records?lang=zh").status_code == 200
    answer = client.get("/v1/records?lang=zh&gam=guandan")
    body = answer.get_json()
    assert answer.status_code == 400 and body["message"].startswith("未知查询参数 gam")
    assert body["findings"][0]["message"] == "gam：未知参数"


def test_a_bad_body_and_its_findings_in_chinese(client):
    answer = client.post("/v1/validate?lang=zh", data=b"\xff\xfe", content_type="application/json")
    body = answer.get_json()
    assert answer.status_code == 400 and body["message"] == "请求体不是 UTF-8 文本"
    assert body["findings"][0]["message"].startswith("请求体不是 UTF-8 文本：")
    assert body["findings"][0]["template"] == "the body is not UTF-8 text: {reason}"


def test_reports_in_chinese_keep_their_rule_ids_templates_and_parameters(client):
    record_id = stored_id(client)
    english = client.get(f"/v1/records/{record_id}/report").get_json()
    chinese = client.get(f"/v1/records/{record_id}/report", headers=ZH).get_json()
    assert english["findings"], "the record was made to break a rule"
    keep = ("rule", "at", "template", "params")
    assert [{k: f.get(k) for k in keep} for f in chinese["findings"]] == [
        {k: f.get(k) for k in keep} for f in english["findings"]
    ]
    assert chinese["valid"] is english["valid"] is False


def test_steps_in_chinese_and_english_show_the_same_table(client):
    record_id = stored_id(client)
    path = f"/v1/records/{record_id}/deals/0/steps/-1"
    english, chinese = client.get(path).get_json(), client.get(path + "?lang=zh").get_json()
    assert chinese["table"] == english["table"]
    assert [f["rule"] for f in chinese["findings"]] == [f["rule"] for f in english["findings"]]
    missing = client.get(f"/v1/records/{record_id}/deals/0/steps/999?lang=zh").get_json()
    assert missing["message"].startswith("第 0 局最多复盘到第")


def test_werkzeugs_own_errors_in_chinese(client):
    assert client.get("/v1/nothing", headers=ZH).get_json()["message"].startswith("服务器上找不到所请求的网址")
    assert client.delete("/v1/validate?lang=zh").get_json()["message"] == "所请求的网址不允许此方法。"
    assert client.get("/v1/nothing").get_json()["message"].startswith("The requested URL was not found")


def test_the_viewers_steps_speak_the_language_asked_keeping_the_words_a_program_reads(client):
    with open("samples/gouji/disputed-wrong-tribute-card.json", "rb") as sample:
        record = sample.read()
    english = client.post("/v1/replay?deal=1", data=record, content_type="application/json").get_json()
    chinese = client.post("/v1/replay?deal=1&lang=zh", data=record, content_type="application/json").get_json()
    owing = [(e["table"], c["table"]) for e, c in zip(english["steps"], chinese["steps"]) if e["table"].get("owed")]
    assert owing and all(e["owed"].startswith("seat ") and "号位" in c["owed"] for e, c in owing)
    assert all(e["mode"] == c["mode"] for e, c in owing)  # the mode is a value the viewer reads
    found = [f for step in chinese["steps"] for f in step["findings"]]
    assert [f["rule"] for f in found] == ["gouji.tribute.card"] and "方块3" in found[0]["message"]


@pytest.mark.parametrize(
    "path, said",
    [
        ("/v1/records/x/ruling?finding=x", "finding：不是有效的整数。"),
        ("/v1/records?per_page=500", "per_page：须在 1 到 100 之间"),
        ("/v1/records?valid=maybe", "valid：不是有效的布尔值（true 或 false）。"),
    ],
)
def test_a_bad_parameter_is_said_in_chinese(client, path, said):
    answer = client.get(path, headers=ZH)
    assert answer.status_code == 400 and [f["message"] for f in answer.get_json()["findings"]] == [said]


@pytest.mark.parametrize("key", ["level", "levels", "tribute", "winner"])
def test_the_viewer_names_an_outcomes_keys_as_the_command_line_does(key):
    """One Chinese word for one thing (docs/glossary-zh.md): the viewer's catalogue and the command line's agree."""
    from referee.api.viewer import viewer_catalogue
    from referee.cli.plain import key_shown

    assert viewer_catalogue("zh")[key] == key_shown(key, "zh")
