"""The replay viewer in a real headless Chromium (playwright), against a real server on loopback.

The browser: $REFEREE_CHROMIUM, else a `chromium` on PATH (Debian: apt-get install chromium),
else playwright's own download. Screenshots are kept in build/artifacts/ (not committed).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import orjson
import pytest
from click.testing import CliRunner

from referee.api import create_app
from referee.cli.main import main
from tests.test_api_concurrency import serving

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed: pip install -e '.[browser]'")

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = Path(__file__).resolve().parent.parent / "build" / "artifacts"  # gitignored
DISPUTED = ROOT / "samples/guandan/disputed-illegal-follow.json"
FIVE_SEATS = ROOT / "samples/gandengyan/pagat-5-players.json"
DESKTOP, PHONE = {"width": 1366, "height": 900}, {"width": 390, "height": 844}
WAIT_MS = 15_000


def _executables():
    named = os.environ.get("REFEREE_CHROMIUM")
    found = [shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome")]
    return [path for path in [named, *found] if path] + [None]  # None: playwright's own download


@pytest.fixture(scope="module")
def browser():
    reasons = []
    with sync_api.sync_playwright() as playwright:
        for path in _executables():
            try:
                chromium = playwright.chromium.launch(executable_path=path, args=["--no-sandbox"])
            except sync_api.Error as exc:
                reasons.append(f"{path or 'playwright download'}: {str(exc).splitlines()[0]}")
                continue
            yield chromium
            chromium.close()
            return
    pytest.skip("no Chromium could start (apt-get install chromium, or set REFEREE_CHROMIUM): " + "; ".join(reasons))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = create_app(str(tmp_path_factory.mktemp("viewer") / "referee.db"))
    with serving(app) as port:
        yield f"http://127.0.0.1:{port}", app


def watched_page(browser, **options):
    """A page in a context of its own, its script's errors noted; closed, and none allowed, at the end."""
    context = browser.new_context(**options)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert errors == [], "the page's script failed"


@pytest.fixture
def page(browser):
    yield from watched_page(browser, viewport=DESKTOP)


def stored(app, path: Path) -> str:
    response = app.test_client().post("/v1/records", data=path.read_bytes(), content_type="application/json")
    return response.get_json()["id"]


def shot(page, name: str):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def tab_to(page, selector: str, limit: int = 60):
    """Press Tab until the focus is on `selector`, as a keyboard user would."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def current_step(page) -> str:
    return page.input_value("#step")


def test_a_keyboard_user_reaches_the_disputed_play_and_its_explanation(server, page):
    base, app = server
    page.goto(f"{base}/view/{stored(app, DISPUTED)}")
    page.wait_for_selector("#table .seat")
    assert page.inner_text("#action").endswith("as dealt")
    assert "INVALID" in page.inner_text("#record-title")

    page.focus("#next")
    page.keyboard.press("Enter")  # the button, then the arrow keys
    assert "Wang Lei (seat 0) plays 5♣" in page.inner_text("#action")
    page.keyboard.press("ArrowRight")
    assert "Chen Jing (seat 1) plays 6♣" in page.inner_text("#action")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#action").endswith("as dealt")

    tab_to(page, "#findings a")
    page.keyboard.press("Enter")
    page.wait_for_selector("#findings li.current")
    assert page.evaluate("document.activeElement.dataset.finding") == "0", "the focus stays on the finding"
    explain = page.inner_text("#dispute")
    assert "guandan.follow" in explain and "seat 0 played a single Q on a single K" in explain
    assert "Legal then" in explain and page.locator('#dispute .alternative [aria-label="2 of clubs"]').count() == 1
    assert "Wang Lei (seat 0) plays Q♠" in page.inner_text("#now")
    assert page.locator('#now .offending, #table .offending, #table .marked[aria-label="queen of spades"]').count() > 0
    trick = page.inner_text("#table .trick")
    assert "Zhao Min (seat 3)" in trick and "single K" in trick
    assert page.locator('#table .trick [aria-label="king of clubs"]').count() == 1
    wang = page.locator('#table .seat[data-seat="0"]')
    assert "Wang Lei" in wang.inner_text() and "to act" in wang.inner_text()
    assert wang.locator('[aria-label="2 of hearts, wild card"]').count() == 1
    assert urlsplit(page.url).query == f"deal=1&step={current_step(page)}"
    assert not page.locator("#outcome").is_hidden()
    assert "stopped" in page.inner_text("#outcome")
    shot(page, "viewer-disputed-desktop")

    page.keyboard.press("Home")
    page.keyboard.press("n")  # the next finding, by key
    assert "guandan.follow" in page.inner_text("#dispute")


def test_the_open_page_lists_stored_records_to_follow(server, page):
    base, app = server
    record_id = stored(app, DISPUTED)
    page.goto(f"{base}/view")
    link = page.locator(f'#stored a[href="/view/{record_id}"]')
    assert link.inner_text() == "Huai'an Open 2026 · round 1, table 11"
    assert "Wang Lei, Chen Jing, Liu Yang, Zhao Min" in page.inner_text("#stored")
    tab_to(page, f'#stored a[href="/view/{record_id}"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("#table .seat")
    assert urlsplit(page.url).path == f"/view/{record_id}"


def test_a_link_with_deal_and_step_shows_the_same_table(server, page):
    base, app = server
    page.goto(f"{base}/view/{stored(app, DISPUTED)}?deal=1&step=4")
    page.wait_for_selector("#table .seat")
    assert current_step(page) == "4"
    assert "Zhao Min (seat 3) plays 9♠" in page.inner_text("#action")
    page.fill("#step", "2")
    page.keyboard.press("Enter")
    assert "Chen Jing (seat 1) plays 6♣" in page.inner_text("#action")
    assert urlsplit(page.url).query == "deal=1&step=2"


def test_a_local_file_is_checked_and_never_stored(server, page, tmp_path):
    base, app = server
    before = app.test_client().get("/v1/records").get_json()["total"]
    lines = tmp_path / "two.jsonl"
    lines.write_bytes(
        orjson.dumps(orjson.loads(FIVE_SEATS.read_bytes()))
        + b"\n"
        + orjson.dumps(orjson.loads(DISPUTED.read_bytes()))
        + b"\n"
    )
    page.goto(f"{base}/view")
    page.set_input_files("#file", str(lines))
    page.wait_for_selector("#table .seat")
    assert page.locator("#table .seat").count() == 5
    assert "VALID" in page.inner_text("#record-title") and "Gan Deng Yan" in page.inner_text("#record-title")
    assert "none" in page.inner_text("#findings")
    page.keyboard.press("End")
    assert "winner" in page.inner_text("#outcome")
    shot(page, "viewer-five-seats-desktop")

    page.select_option("#line", "1")
    page.wait_for_selector("#table .seat >> nth=3")
    sync_api.expect(page.locator("#table .seat")).to_have_count(4)  # no wait_for_function: the CSP forbids eval
    assert "guandan.follow" in page.inner_text("#findings")
    page.focus("#file")
    page.keyboard.press("n")
    assert "guandan.follow" in page.inner_text("#dispute")
    assert app.test_client().get("/v1/records").get_json()["total"] == before


def test_a_bad_file_gets_the_findings_not_a_table_nor_the_record_before(server, page, tmp_path):
    base, _ = server
    bad = tmp_path / "bad.json"
    bad.write_text('{"cgr": 1, "game": "guandan"')
    page.goto(f"{base}/view")
    page.set_input_files("#file", str(DISPUTED))
    page.wait_for_selector("#table .seat")
    page.set_input_files("#file", str(bad))
    page.wait_for_selector("#status.error")
    assert "notation.json" in page.inner_text("#status")
    assert page.locator("#viewer").is_hidden()
    assert page.inner_text("#record-title") == "", "no header of the record before"


def test_an_unknown_record_id_is_said_plainly(server, page):
    base, _ = server
    page.goto(f"{base}/view/no-such-record")
    page.wait_for_selector("#status.error")
    assert "no record has this id" in page.inner_text("#status")
    assert page.locator("#viewer").is_hidden()


def test_the_viewer_is_readable_on_a_phone(server, browser):
    base, app = server
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{base}/view/{stored(app, DISPUTED)}?deal=1&step=24")
    page.wait_for_selector("#table .seat")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    boxes = [page.locator(f'#table .seat[data-seat="{seat}"]').bounding_box() for seat in range(4)]
    assert all(box["width"] > PHONE["width"] * 0.8 for box in boxes), "seats stack one per row"
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.card')).fontSize)")
    assert size >= 13
    page.evaluate("window.scrollTo(0, document.body.scrollHeight / 2)")
    assert page.evaluate("window.scrollY") > 500
    box = page.locator("#next").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], "the step controls stay on screen"
    shot(page, "viewer-disputed-phone")
    context.close()


def test_the_api_docs_work_offline(server, page):
    base, _ = server
    outside = []

    def only_loopback(route):
        if urlsplit(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_loopback)
    page.goto(f"{base}/docs")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "CGR/1 referee" in page.inner_text(".swagger-ui .info .title")
    assert page.locator(".opblock-summary-path", has_text="/v1/replay").count() == 1
    assert outside == []
    shot(page, "api-docs")


def test_an_events_standings_page_links_each_match(server, page):
    base, app = server
    ids = {path.name: stored(app, path) for path in sorted((ROOT / "samples/event").glob("*.json"))}
    page.goto(f"{base}/view/events/Desk%20Cup%202026")
    page.wait_for_selector("table.standings")
    assert page.locator("table.standings").count() == 3
    first = page.locator("table.standings").nth(2).locator("tbody tr").first.inner_text()
    assert first.split("\t")[:2] == ["1", "Fay & Hal"] and first.rstrip().endswith("margin")
    assert "Round 2, table 3 · gandengyan · Lin won by 24" in page.inner_text("#matches")
    part = page.locator(f'#matches a[href="/view/{ids["r2-t3-part2.json"]}"]')
    assert part.inner_text() == "part 2"
    shot(page, "standings")
    tab_to(page, f'#matches a[href="/view/{ids["r1-t1.json"]}"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("#table .seat")
    assert urlsplit(page.url).path == f"/view/{ids['r1-t1.json']}"
    page.goto(f"{base}/view/events/Nobody")
    page.wait_for_selector("#status.error")
    assert page.inner_text("#status") == "no stored record belongs to this event"


def test_names_with_bidi_controls_or_nul_are_shown_escaped_never_reordered(server, page):
    base, app = server
    record = orjson.loads(DISPUTED.read_bytes())
    record["players"][0] = "Wang\u202eieL gnaW"
    record["players"][1] = "Chen\x00Jing"
    answer = app.test_client().post("/v1/records", data=orjson.dumps(record), content_type="application/json")
    page.goto(f"{base}/view/{answer.get_json()['id']}")
    page.wait_for_selector("#table .seat")
    text = page.inner_text("body")
    assert "Wang⟨U+202E⟩ieL gnaW" in text and "Chen⟨U+0000⟩Jing" in text
    assert "\u202e" not in text and "\x00" not in text
    assert "\u202e" not in page.evaluate("document.body.innerHTML")


@pytest.mark.parametrize("path", ["/docs", "/view"])
def test_the_pages_run_under_their_content_security_policy(server, browser, path):
    base, _ = server
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    refused = []
    page.on("console", lambda message: "Content Security Policy" in message.text and refused.append(message.text))
    answer = page.goto(base + path)
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
    page.wait_for_selector(".swagger-ui .info .title" if path == "/docs" else "#open")
    context.close()
    assert refused == []


def test_a_truncated_pretty_printed_file_is_one_broken_record_placed_as_the_cli_places_it(server, page, tmp_path):
    """Issue 19: the file picker reads a file as the command line does, not as JSON Lines."""
    base, _ = server
    truncated = tmp_path / "cut.json"
    truncated.write_text(DISPUTED.read_text()[:400])
    cli = CliRunner().invoke(main, ["validate", "--json", str(truncated)])
    place = re.search(r"line:column \d+:\d+", json.loads(cli.stdout)["findings"][0]["message"]).group(0)
    page.goto(f"{base}/view")
    page.set_input_files("#file", str(truncated))
    page.wait_for_selector("#status.error")
    assert "notation.json" in page.inner_text("#status") and place in page.inner_text("#status")
    assert page.locator("#line-pick").is_hidden()


# ---------------------------------------------------------------- issue 21: the viewer as the place of a ruling

SAMPLES = ROOT / "samples"


def gouji_wrong_return() -> dict:
    """A return sent to the wrong seat (gouji.return.to): no sample has one."""
    record = orjson.loads((SAMPLES / "gouji/disputed-wrong-tribute-card.json").read_bytes())
    record["deals"][1]["actions"][3]["to"] = 1
    return record


def store_record(app, record) -> str:
    body = record.read_bytes() if isinstance(record, Path) else orjson.dumps(record)
    return app.test_client().post("/v1/records", data=body, content_type="application/json").get_json()["id"]


def open_finding(page, server, record, rule, query="") -> tuple[str, int]:
    """The viewer at the first finding of `rule`, opened by the link the findings list gives."""
    base, app = server
    record_id = store_record(app, record)
    findings = app.test_client().get(f"/v1/records/{record_id}/report").get_json()["findings"]
    n = next(i for i, f in enumerate(findings) if f["rule"] == rule)
    page.goto(f"{base}/view/{record_id}?finding={n + 1}{query}")
    page.wait_for_selector(f'#dispute article[data-rule="{rule}"]')
    return record_id, n


# (record, rule, seat, offending cards, names of the marked cards): a tribute, a return, a play in each game
ACTION_DISPUTES = [
    (SAMPLES / "guandan/disputed-wrong-tribute-card.json", "guandan.tribute.card", 2, ["3 of diamonds"]),
    (SAMPLES / "guandan/disputed-return-above-ten.json", "guandan.return.card", 0, ["queen of hearts"]),
    (SAMPLES / "guandan/disputed-illegal-follow.json", "guandan.follow", 0, ["queen of spades"]),
    (SAMPLES / "gouji/disputed-wrong-tribute-card.json", "gouji.tribute.card", 5, ["3 of diamonds"]),
    (gouji_wrong_return(), "gouji.return.to", 2, ["3 of clubs"]),
    (
        SAMPLES / "gouji/disputed-re-entry-after-pass.json",
        "gouji.turn",
        5,
        ["2 of diamonds, wild card", "2 of clubs, wild card", "7 of spades"],
    ),
    (SAMPLES / "gandengyan/disputed-two-ranks-higher.json", "gandengyan.follow", 1, ["6 of diamonds", "6 of clubs"]),
    (
        SAMPLES / "gandengyan/disputed-lone-joker-following.json",
        "gandengyan.joker.alone",
        1,
        ["black joker, wild card"],
    ),
]


@pytest.mark.parametrize("record, rule, seat, marked", ACTION_DISPUTES, ids=[case[1] for case in ACTION_DISPUTES])
def test_the_dispute_panel_marks_the_offending_cards_in_the_hand_before(server, page, record, rule, seat, marked):
    open_finding(page, server, record, rule)
    panel = page.locator(f'#dispute article[data-rule="{rule}"]')
    assert rule in panel.locator("h3").inner_text()
    before = panel.locator("dd.before .card.marked")
    assert sorted(before.evaluate_all("cards => cards.map(c => c.getAttribute('aria-label'))")) == sorted(
        f"{name}, marked" for name in marked
    )
    offending = panel.locator("dd.offending .card").evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))"
    )
    assert [label.removesuffix(", wild card") for label in offending] == [
        name.removesuffix(", wild card") for name in marked
    ]
    player = page.evaluate("s => document.querySelector(`#table .seat[data-seat='${s}'] .name`).textContent", seat)
    assert player in panel.locator("dd.action").inner_text()
    assert panel.locator("dd.to-act").inner_text() not in ("", "—")
    hand_before = panel.locator("dd.before .card").count()
    assert panel.locator("dd.after .card").count() == hand_before - len(marked)
    shot(page, f"dispute-{rule}")


def test_only_one_copy_of_a_card_held_twice_is_marked(server, page):
    """Gou Ji plays with four decks: seat 5 holds 7♠ twice and played one."""
    open_finding(page, server, SAMPLES / "gouji/disputed-re-entry-after-pass.json", "gouji.turn")
    before = page.locator('#dispute dd.before .card[aria-label^="7 of spades"]')
    assert before.count() == 2
    assert page.locator('#dispute dd.before .card.marked[aria-label^="7 of spades"]').count() == 1
    assert "Wang (seat 0)" in page.inner_text("#dispute dd.to-act"), "the seat that was to act, not the one that played"


def test_a_tribute_finding_says_who_was_to_act_and_why(server, page):
    open_finding(page, server, SAMPLES / "guandan/disputed-wrong-tribute-card.json", "guandan.tribute.card")
    panel = page.locator("#dispute")
    assert "Wu Qiang (seat 2)" in panel.locator("dd.to-act").inner_text()
    assert "phase: tribute" in panel.locator("dd.why").inner_text()
    assert "Wu Qiang (seat 2) pays tribute 3♦" in panel.locator("dd.action").inner_text()


def test_the_legal_alternatives_are_drawn_as_cards_grouped_as_legal_groups_them(server, page):
    open_finding(page, server, DISPUTED, "guandan.follow")
    groups = page.locator("#dispute .alternatives li")
    assert [groups.nth(i).locator(".group").inner_text() for i in range(groups.count())] == [
        "pass",
        "single",
        "bomb",
        "straight flush",
    ]
    assert groups.nth(1).locator(".alternative").count() == 1
    assert groups.nth(1).locator('.card[aria-label="2 of clubs"]').count() == 1
    assert groups.nth(2).locator(".alternative").count() == 4
    assert groups.nth(2).locator(".alternative").first.locator(".card").count() == 4
    assert groups.nth(3).locator(".alternative").count() == 3, "the straight flushes to 9, J and K"
    assert "7S 7H" not in page.inner_text("#dispute .alternatives"), "cards, not codes"


CLAIM_DISPUTES = [
    (
        SAMPLES / "guandan/disputed-false-level.json",
        "guandan.result.levels",
        {
            "before the deal (computed)": ["4", "2"],
            "claimed, after the deal": ["A", "3"],
            "computed, after the deal": ["4", "3"],
        },
    ),
    (
        SAMPLES / "gouji/disputed-wrong-claimed-order.json",
        "gouji.result.order",
        {
            "claimed, after the deal": [
                "Liu (seat 3)",
                "Zhang (seat 2)",
                "Yang (seat 5)",
                "Chen (seat 4)",
                "Wang (seat 0)",
                "",
            ],
            "computed, after the deal": [
                "Liu (seat 3)",
                "Yang (seat 5)",
                "Zhang (seat 2)",
                "Chen (seat 4)",
                "Wang (seat 0)",
                "Li (seat 1)",
            ],
        },
    ),
    (
        SAMPLES / "gandengyan/disputed-ace-multiplier-ignored.json",
        "gandengyan.result.scores",
        {"claimed, after the deal": ["10", "-5", "-5"], "computed, after the deal": ["30", "-20", "-10"]},
    ),
]


@pytest.mark.parametrize("record, rule, rows", CLAIM_DISPUTES, ids=[case[1] for case in CLAIM_DISPUTES])
def test_a_claim_finding_shows_claimed_beside_computed_labelled_before_and_after(server, page, record, rule, rows):
    open_finding(page, server, record, rule)
    table = page.locator(f'#dispute article[data-rule="{rule}"] table.claim')
    shown = {}
    for i in range(table.locator("tbody tr").count()):
        row = table.locator("tbody tr").nth(i)
        shown[row.locator("th").inner_text()] = [cell.strip() for cell in row.locator("td").all_inner_texts()]
    assert shown == rows
    assert table.locator("td.differs").count() >= 1
    shot(page, f"dispute-{rule}")


# ---------------------------------------------------------------- the moves of a deal and the deals at a glance

FALSE_LEVEL = SAMPLES / "guandan/disputed-false-level.json"


def test_the_move_list_has_a_row_per_trick_with_its_winner_linked_to_its_steps(server, page):
    base, app = server
    page.goto(f"{base}/view/{store_record(app, DISPUTED)}?deal=1&step=0")
    page.wait_for_selector("#moves li")
    first = page.locator("#moves li").first
    assert first.locator(".trick-no").inner_text() == "Trick 1"
    assert "Wang Lei (seat 0) 5♣" in first.inner_text() and "won by Liu Yang (seat 2)" in first.inner_text()
    finding_rows = page.locator("#moves li.finding")
    assert finding_rows.count() == 1 and "Rejected: Wang Lei (seat 0) plays Q♠" in finding_rows.inner_text()
    assert page.locator("#marks .mark").count() == 1, "the finding is marked on the slider"
    first.locator("a").last.click()  # the pass that ends the trick
    assert page.inner_text("#action").endswith("Chen Jing (seat 1) passes")
    trick = page.inner_text("#table .trick")
    assert "won by Liu Yang (seat 2)" in trick and "Wang Lei (seat 0)" in trick, (
        "the finished trick stays with its winner"
    )
    page.keyboard.press("ArrowRight")
    assert "won by" not in page.inner_text("#table .trick")
    page.locator("#marks .mark").click()
    assert "guandan.follow" in page.inner_text("#dispute")


@pytest.mark.parametrize(
    "record, column, deal_row",
    [
        (
            FALSE_LEVEL,
            "levels",
            [
                "Deal 2",
                "Zhao Min (seat 3), Wang Lei (seat 0), Liu Yang (seat 2), Chen Jing (seat 1)",
                "single tribute; Chen Jing (seat 1) → Liu Yang (seat 2): 4♣; return Liu Yang (seat 2) → Chen Jing (seat 1): 2♠",
                "team 0: 4; team 1: 3",
                "finishing order ✓; levels ✗ claimed team 0: A; team 1: 3, computed team 0: 4; team 1: 3; tribute ✓",
                "1",
            ],
        ),
        (SAMPLES / "gouji/disputed-wrong-claimed-order.json", "totals", None),
        (SAMPLES / "gandengyan/wenshan-session.json", "totals", None),
    ],
)
def test_the_deal_summary_shows_each_deal_and_opens_it(server, page, record, column, deal_row):
    base, app = server
    record_id = store_record(app, record)
    report = app.test_client().get(f"/v1/records/{record_id}/report").get_json()
    page.goto(f"{base}/view/{record_id}?deal=1&step=0")
    page.wait_for_selector("#deals tbody tr")
    heads = page.locator("#deals thead th").all_inner_texts()
    assert column in heads and heads[-2:] == ["Claimed against computed", "Findings"]
    rows = page.locator("#deals tbody tr")
    assert rows.count() == len(report["deals"])
    last = report["deals"][-1]
    cells = rows.nth(rows.count() - 1).locator("th, td").all_inner_texts()
    assert cells[heads.index(column)] == "; ".join(
        f"team {i}: {v}" if len(last[column]) == 2 else f"{name} (seat {i}): {v}"
        for i, (v, name) in enumerate(zip(last[column], orjson.loads(record.read_bytes())["players"]))
    )
    if deal_row:
        assert cells == deal_row
    claims = rows.nth(0).locator("td").nth(len(heads) - 3).inner_text()
    assert "✗" not in claims, "the first deal's claims hold (a claimed order may leave out the last seat)"
    rows.nth(rows.count() - 1).locator("a").click()
    sync_api.expect(page.locator("#deal")).to_have_value(str(rows.count() - 1))
    assert current_step(page) == "0"


# ---------------------------------------------------------------- navigation that holds


@pytest.mark.parametrize("control", ["#deal", "#step", "#slider", "#next", "#file-free"])
def test_the_arrow_keys_step_whatever_control_has_the_focus(server, page, control):
    base, app = server
    page.goto(f"{base}/view/{store_record(app, FALSE_LEVEL)}?deal=2&step=5")
    page.wait_for_selector("#table .seat")
    if control != "#file-free":
        page.focus(control)
    page.keyboard.press("ArrowRight")
    assert current_step(page) == "6"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert current_step(page) == "4"
    sync_api.expect(page.locator("#deal")).to_have_value("1")
    assert urlsplit(page.url).query == "deal=2&step=4"


def test_the_current_move_stays_in_sight_in_a_long_list(server, page):
    base, app = server
    page.goto(f"{base}/view/{store_record(app, FALSE_LEVEL)}?deal=2&step=150")
    page.wait_for_selector("#moves li.current")
    inside = page.evaluate("""(() => { const list = document.querySelector('#moves ol');
        const row = list.querySelector('li.current').getBoundingClientRect(), box = list.getBoundingClientRect();
        return row.top >= box.top && row.bottom <= box.bottom; })()""")
    assert inside
    assert page.evaluate("window.scrollY") == 0, "the page itself stays where it was"


def test_n_and_p_cross_deals(server, page):
    base, app = server
    page.goto(f"{base}/view/{store_record(app, FALSE_LEVEL)}?deal=1&step=0")
    page.wait_for_selector("#table .seat")
    page.keyboard.press("n")
    page.wait_for_selector('#dispute article[data-rule="guandan.result.levels"]')
    sync_api.expect(page.locator("#deal")).to_have_value("1")
    page.keyboard.press("Home")
    page.keyboard.press("p")
    assert current_step(page) == "0", "no finding before: it stays"


def test_a_link_without_a_finding_opens_the_first_deal_with_no_finding_chosen(server, page):
    base, app = server
    page.goto(f"{base}/view/{store_record(app, FALSE_LEVEL)}")
    page.wait_for_selector("#table .seat")
    sync_api.expect(page.locator("#deal")).to_have_value("0")
    assert current_step(page) == "0"
    assert page.locator("#findings li.current").count() == 0 and page.locator("#dispute").is_hidden()


@pytest.mark.parametrize(
    "query, words",
    [
        ("deal=7", "deal 7, but the record has 2 deals"),
        ("deal=x", "deal x"),
        ("deal=2&step=999", "step 999 of deal 2, but its steps run from 0 to 153"),
        ("finding=9", "finding 9"),
        ("deal=0", "deal 0, but the record has 2 deals (from 1)"),
        ("finding=0", "finding 0"),
    ],
)
def test_a_bad_deal_step_or_finding_in_the_link_is_said_not_replaced_by_deal_0(server, page, query, words):
    base, app = server
    page.goto(f"{base}/view/{store_record(app, FALSE_LEVEL)}?{query}")
    page.wait_for_selector("#status.error")
    assert words in page.inner_text("#status")
    assert page.locator("#viewer").is_hidden()


def test_back_and_forward_move_between_the_views_visited(server, page):
    base, app = server
    record_id = store_record(app, FALSE_LEVEL)
    page.goto(f"{base}/view/{record_id}/?deal=1&step=3")
    page.wait_for_selector("#table .seat")
    page.locator("#findings a").click()
    page.wait_for_selector("#dispute article")
    sync_api.expect(page.locator("#deal")).to_have_value("1")
    page.go_back()
    sync_api.expect(page.locator("#deal")).to_have_value("0")
    sync_api.expect(page.locator("#step")).to_have_value("3")
    page.go_forward()
    sync_api.expect(page.locator("#deal")).to_have_value("1")
    sync_api.expect(page.locator("#step")).to_have_value("153")


def contrast(first: str, second: str) -> float:
    """WCAG 2 contrast ratio of two rgb() colours."""

    def luminance(colour):
        channels = [int(c) / 255 for c in re.findall(r"\d+", colour)[:3]]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_focus_ring_and_wild_badge_have_aa_contrast(server, page):
    base, app = server
    page.goto(f"{base}/view/{store_record(app, DISPUTED)}?deal=1&step=3")
    page.wait_for_selector("#table .seat")
    tab_to(page, "#next")
    ring = page.evaluate("getComputedStyle(document.activeElement).outlineColor")
    for background in ("rgb(255, 255, 255)", "rgb(243, 241, 236)"):  # a button, the page
        assert contrast(ring, background) >= 3, (ring, background)
    badge = page.evaluate("getComputedStyle(document.querySelector('.card.wild'), '::after').backgroundColor")
    assert contrast(badge, "rgb(255, 255, 255)") >= 4.5, badge
    mark = page.evaluate("getComputedStyle(document.querySelector('.card.wild'), '::after').content")
    assert mark == '"*"', mark  # as `replay` marks a wild card, in every language (it was an English W)


def test_one_main_landmark_and_headings_in_order(server, page):
    base, app = server
    for url in (f"{base}/view", f"{base}/view/{store_record(app, FALSE_LEVEL)}?deal=2&step=153"):
        page.goto(url)
        page.wait_for_selector("#open:not([hidden]), #dispute article")
        assert page.locator("main, [role=main]").count() == 1
        levels = page.evaluate("""[...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
            .filter(h => h.getClientRects().length || h.classList.contains('visually-hidden')).map(h => Number(h.tagName[1]))""")
        assert levels[0] == 1 and all(b - a <= 1 for a, b in itertools.pairwise(levels)), levels


# ---------------------------------------------------------------- the viewer in Chinese (issue 22)


def test_the_viewer_in_chinese_writes_chinese_separators(server, page):
    """A list in Chinese is 、-separated and a series of parts ；-separated, as the command line writes them."""
    base, app = server
    page.goto(f"{base}/view/{store_record(app, DISPUTED)}?deal=1&step=25&lang=zh")
    page.wait_for_selector("#dispute article")
    text = page.inner_text("body")
    assert "0队：2；1队：2" in text  # the teams' levels
    assert not re.search("[\u4e00-\u9fff）], |; ", text), re.findall(".{12}(?:, |; ).{12}", text)[:3]


def test_the_open_page_is_titled_in_its_language(server, page):
    base, _ = server
    page.goto(f"{base}/view?lang=zh")
    page.wait_for_selector("#open")
    page.wait_for_function("document.title !== 'Replay viewer · CGR/1 referee'")
    assert page.title() == "牌局复盘 · CGR/1 裁判"


def test_the_viewer_speaks_chinese_and_keeps_the_choice_in_the_url(server, page):
    base, app = server
    record_id = store_record(app, DISPUTED)
    page.goto(f"{base}/view/{record_id}?deal=1&step=25&lang=zh")
    page.wait_for_selector("#dispute article")
    assert page.evaluate("document.documentElement.lang") == "zh-Hans"
    assert page.inner_text("#dispute-title") == "争议"
    assert page.inner_text("#dispute dd.to-act") == "Wang Lei（0号位）"
    assert page.locator('#dispute dd.before .card.marked[aria-label="黑桃Q，已标出"]').count() == 1
    assert "第1局，第25步：" in page.inner_text("#action")
    assert page.inner_text("#findings-title") == "判定" and page.inner_text("#table .trick h3") == "本墩"
    assert "lang=zh" in urlsplit(page.url).query
    shot(page, "viewer-zh")
    page.keyboard.press("ArrowLeft")
    assert "lang=zh" in urlsplit(page.url).query, "the choice stays as the viewer moves"
    page.select_option("#lang", "en")
    sync_api.expect(page.locator("#findings-title")).to_have_text("Findings")
    assert "lang=en" in urlsplit(page.url).query


def test_the_viewer_follows_the_browsers_language(server, browser):
    base, app = server
    context = browser.new_context(viewport=DESKTOP, locale="zh-CN")
    page = context.new_page()
    page.goto(f"{base}/view/{store_record(app, DISPUTED)}")
    page.wait_for_selector("#table .seat")
    assert page.inner_text("#findings-title") == "判定"
    assert "lang" not in urlsplit(page.url).query
    context.close()


def test_axe_core_reports_no_serious_issue(server, page):
    """axe-core (shipped inside the PyPI package axe-playwright-python: no download at test time)."""
    axe = pytest.importorskip(
        "axe_playwright_python.sync_playwright",
        reason="axe-playwright-python is not installed: pip install -e '.[browser]'",
    ).Axe()
    base, app = server
    for url in (
        f"{base}/view",
        f"{base}/view/{store_record(app, FALSE_LEVEL)}?deal=2&step=153",
        f"{base}/view/{store_record(app, DISPUTED)}?deal=1&step=25&lang=zh",
    ):
        page.goto(url)
        page.wait_for_selector("#open:not([hidden]), #dispute article")
        violations = axe.run(page).response["violations"]
        serious = [
            (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
            for v in violations
            if v["impact"] in ("serious", "critical")
        ]
        assert serious == [], url


def guandan_wrong_report() -> dict:
    record = orjson.loads((SAMPLES / "guandan/disputed-wrong-tribute-card.json").read_bytes())
    record["deals"][0]["actions"][62]["count"] = 9  # seat 2 held 10
    return record


def gouji_false_revolution() -> dict:
    record = orjson.loads((SAMPLES / "gouji/session-tribute-and-returns.json").read_bytes())
    record["deals"][0]["actions"].insert(0, {"seat": 0, "declare": "revolution"})  # seat 0 holds a 2
    return record


@pytest.mark.parametrize(
    "record, rule, words",
    [
        (guandan_wrong_report(), "guandan.report.count", "Wu Qiang (seat 2) reports 9 cards left"),
        (gouji_false_revolution(), "gouji.revolution", "Wang (seat 0) declares revolution"),
    ],
    ids=["report", "revolution"],
)
def test_a_declaration_finding_shows_the_declaration_in_words_and_the_hand(server, page, record, rule, words):
    open_finding(page, server, record, rule)
    panel = page.locator(f'#dispute article[data-rule="{rule}"]')
    assert panel.locator("dd.action").inner_text() == words
    cards = panel.locator("dd.before .card").count()
    assert cards > 0 and panel.locator("dd.after .card").count() == cards, "a declaration moves no card"
    shot(page, f"dispute-{rule}")


def test_a_findings_card_parameters_choose_the_cards_marked(server, page):
    """Findings that carry their parameters (issue 22: "params") mark the cards they name: for a
    declaration, which moves no card, those its hand holds."""
    base, app = server
    record_id = store_record(app, gouji_false_revolution())

    def with_params(route):
        answer = route.fetch()
        report = answer.json()
        for finding in report["findings"]:
            if finding["rule"] == "gouji.revolution":
                finding.update(
                    template="seat {seat} declared revolution, but its dealt hand holds {cards} (§6.5)",
                    params={"seat": 0, "cards": "2C RJ"},
                )
        route.fulfill(response=answer, json=report)

    page.route("**/report", with_params)
    page.goto(f"{base}/view/{record_id}?finding=1")
    page.wait_for_selector('#dispute article[data-rule="gouji.revolution"]')
    marked = page.locator("#dispute dd.before .card.marked").evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))"
    )
    assert marked == ["2 of clubs, wild card, marked", "red joker, wild card, marked"]


def test_a_stored_records_dispute_links_to_its_ruling_in_the_viewers_language(server, page):
    base, app = server
    page.goto(f"{base}/view/{stored(app, DISPUTED)}?finding=1&lang=zh")
    page.wait_for_selector("#dispute .ruling a")
    href = page.get_attribute("#dispute .ruling a", "href")
    assert href.endswith("/ruling?finding=0&lang=zh")
    answer = app.test_client().get(href)
    assert answer.status_code == 200 and answer.mimetype == "text/html"
    assert "guandan.follow" in answer.get_data(as_text=True)


def test_a_file_opened_from_disk_has_no_ruling_link(server, page):
    base, _app = server
    page.goto(f"{base}/view")
    page.set_input_files("#file", str(DISPUTED))
    page.click("#findings a")
    page.wait_for_selector("#dispute article")
    assert page.locator("#dispute .ruling").count() == 0


def test_the_dispute_panel_shows_the_arbiters_decision(server, page):
    """A finding a ruling decided (notation §10): its decision, arbiter, date and reason."""
    record = json.loads(DISPUTED.read_text())
    record["rulings"] = [
        {
            "rule": "guandan.follow",
            "at": "/deals/0/actions/24",
            "decision": "stands",
            "by": "Li Wei, chief arbiter",
            "date": "2026-05-02T15:40+08:00",
            "reason": "not challenged before the next play",
        }
    ]
    open_finding(page, server, record, "guandan.follow")
    panel = page.locator('#dispute article[data-rule="guandan.follow"] .dispute-decision')
    assert panel.locator(".decision").inner_text() == "the action stands"
    assert panel.locator(".arbiter").inner_text() == "Li Wei, chief arbiter"
    assert panel.locator(".date").inner_text() == "2026-05-02T15:40+08:00"
    assert panel.locator(".reason").inner_text() == "not challenged before the next play"
    assert "ruling 1" in panel.locator("h4").inner_text()


def test_people_count_deals_actions_and_findings_from_1(server, page):
    """Issue 35: the viewer numbers what people read as the reports do, and its URL as the page shows it."""
    base, app = server
    page.goto(f"{base}/view/{stored(app, DISPUTED)}?finding=1")
    page.wait_for_selector("#dispute article")
    assert "(action 25)" in page.inner_text("#dispute h3")
    assert "(deal 1, action 25, Wang Lei (seat 0))" in page.inner_text("#findings")
    assert page.inner_text("#deal option") == "1" and "Deal 1, step 25" in page.inner_text("#action")
    page.locator("#findings a").click()
    assert urlsplit(page.url).query == "deal=1&step=25"


# ---------------------------------------------------------------- issue 35: on a phone, and what the dispute shows


@pytest.fixture
def phone(browser):
    yield from watched_page(browser, viewport=PHONE, is_mobile=True, has_touch=True)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_on_a_phone_labels_stand_above_values_and_hands_take_the_width(server, phone, lang):
    base, app = server
    phone.goto(f"{base}/view/{stored(app, DISPUTED)}?finding=1&lang={lang}")
    phone.wait_for_selector("#dispute dd.before .card")
    label, value = (
        phone.locator(
            f"#dispute dl.dispute-action {tag}.before" if tag == "dd" else "#dispute dl.dispute-action dt >> nth=4"
        ).bounding_box()
        for tag in ("dt", "dd")
    )
    assert abs(label["x"] - value["x"]) < 2 and value["y"] >= label["y"] + label["height"] - 1, "label above value"
    panel = phone.locator("#dispute").bounding_box()
    assert value["width"] > panel["width"] * 0.8, "the hand takes the panel's width"
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, f"viewer-dispute-phone-{lang}")


@pytest.mark.parametrize("width", [PHONE["width"], 1440])
def test_chinese_units_are_never_broken(server, browser, width):
    """ "1队" and "（5号位）" stay whole at any width (they broke as "0\\n队" and "（5号\\n位）")."""
    base, app = server
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{base}/view/{store_record(app, SAMPLES / 'gouji/disputed-wrong-claimed-order.json')}?finding=1&lang=zh")
    page.wait_for_selector("#deals tbody tr")
    lines = page.eval_on_selector_all(".unit", "units => units.map(u => u.getClientRects().length)")
    texts = page.eval_on_selector_all(".unit", "units => units.map(u => u.textContent)")
    assert any(t.endswith("队") for t in texts) and any(t.startswith("（") for t in texts)
    assert lines and set(lines) == {1}, "every unit on one line"
    heads = page.eval_on_selector_all("#deals thead th", "hs => hs.map(h => h.getClientRects().length)")
    assert set(heads) == {1}
    shot(page, f"viewer-units-zh-{width}")
    context.close()


@pytest.mark.parametrize(
    "deals, rule", [("none", "notation.deals"), ([5], "notation.structure"), ([], "notation.deals")]
)
def test_a_structural_error_shows_its_finding(server, page, tmp_path, deals, rule):
    """A local record whose deals cannot be replayed: the finding is shown, not "Checking the record…"."""
    base, _ = server
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({**json.loads(DISPUTED.read_text()), "deals": deals}), encoding="utf-8")
    page.goto(f"{base}/view")
    page.set_input_files("#file", str(broken))
    page.wait_for_selector("#status.error li")
    said = page.inner_text("#status")
    assert rule in said and "/deals" in said and "Checking the record" not in said
    assert "INVALID" in page.inner_text("#record-title")


def test_legal_plays_mark_their_wild_cards_and_light_them_in_the_hand(server, page):
    base, app = server
    page.goto(f"{base}/view/{stored(app, DISPUTED)}?finding=1")
    page.wait_for_selector("#dispute .alternative")
    bomb = page.locator("#dispute .alternative", has=page.locator('[aria-label="9 of clubs"]'))
    assert bomb.locator('[aria-label="2 of hearts, wild card"]').count() == 1, "9♥ 9♦ 9♣ 2♥: the 2♥ is wild"
    bomb.focus()
    lit = page.eval_on_selector_all("#dispute dd.before .card.candidate", "cards => cards.map(c => c.dataset.code)")
    assert sorted(lit) == ["2H", "9C", "9D", "9H"]
    assert page.locator('#table .seat[data-seat="0"] .card.candidate').count() == 4, "and in the seat's hand"
    page.locator("#dispute .alternative").first.hover()
    assert sorted(
        page.eval_on_selector_all("#dispute dd.before .card.candidate", "cards => cards.map(c => c.dataset.code)")
    ) == ["2C"]
    shot(page, "viewer-legal-lit")


@pytest.mark.parametrize(
    "record, deal, step, seats, badge",
    [
        (SAMPLES / "guandan/disputed-return-above-ten.json", 2, 1, [0], "owes a return"),
        (SAMPLES / "gouji/disputed-wrong-tribute-card.json", 2, 0, [1, 3, 5], "owes tribute"),
    ],
)
def test_the_seat_that_owes_tribute_or_a_return_is_badged_so(server, page, record, deal, step, seats, badge):
    base, app = server
    page.goto(f"{base}/view/{store_record(app, record)}?deal={deal}&step={step}")
    page.wait_for_selector("#table .seat")
    for seat in seats:
        node = page.locator(f'#table .seat[data-seat="{seat}"]')
        assert node.locator(".badge.turn").inner_text() == badge and badge in node.get_attribute("aria-label")
    assert "to act" not in page.inner_text("#table")


# ---------------------------------------------------------------- issue 35: discards, autoplay, the stored list


def test_each_seat_shows_what_it_played_this_deal(server, page):
    """A discard row per seat (as Tenhou's viewer has): the seat's plays up to the step shown."""
    base, app = server
    actions = json.loads(DISPUTED.read_text())["deals"][0]["actions"]
    page.goto(f"{base}/view/{stored(app, DISPUTED)}?deal=1&step=20")
    page.wait_for_selector("#table .seat .discards")
    for seat in range(4):
        plays = [a["play"] for a in actions[:20] if a["seat"] == seat and "play" in a]
        row = page.locator(f'#table .seat[data-seat="{seat}"] .discards')
        assert row.locator("[role=listitem]").count() == len(plays)
        assert row.locator(".card").count() == sum(map(len, plays))
    page.keyboard.press("Home")
    assert page.locator("#table .discards .card").count() == 0, "nothing played as dealt"


def test_autoplay_steps_on_and_stops_when_the_user_moves(server, page):
    base, app = server
    page.goto(f"{base}/view/{stored(app, DISPUTED)}?deal=1&step=3")
    page.wait_for_selector("#table .seat")
    page.click("#play")
    sync_api.expect(page.locator("#play")).to_have_attribute("aria-pressed", "true")
    sync_api.expect(page.locator("#step")).to_have_value("5", timeout=4000)
    page.keyboard.press("ArrowLeft")
    sync_api.expect(page.locator("#play")).to_have_attribute("aria-pressed", "false")
    stopped = current_step(page)
    page.wait_for_timeout(1500)
    assert current_step(page) == stopped
    page.keyboard.press("End")
    page.click("#play")
    assert page.get_attribute("#play", "aria-pressed") == "false", "nothing to play at the last step"


def test_the_stored_list_tells_the_records_of_an_event_apart(server, page):
    """Round, table, verdict and the first finding: a dozen links to one event are no longer alike."""
    base, app = server
    disputed, valid = stored(app, DISPUTED), stored(app, SAMPLES / "event/r1-t2.json")
    page.goto(f"{base}/view")
    page.wait_for_selector("#stored li.stored")
    row = page.locator("#stored li.stored", has=page.locator(f'a[href="/view/{disputed}"]'))
    text = row.inner_text()
    assert "round 1, table 11" in text and "INVALID" in text
    assert "first finding: error guandan.follow (deal 1, action 25)" in text
    other = page.locator("#stored li.stored", has=page.locator(f'a[href="/view/{valid}"]')).inner_text()
    assert "round 1, table 2" in other and "VALID" in other and "first finding" not in other
    shot(page, "viewer-stored-list")


# ---------------------------------------------------------------- issue 35: each game, both languages, phone and desktop

GAME_DISPUTES = {
    "guandan": DISPUTED,
    "gouji": SAMPLES / "gouji/disputed-non-duellist-plays-into-duel.json",
    "gandengyan": SAMPLES / "gandengyan/disputed-two-ranks-higher.json",
}


@pytest.mark.parametrize("width", [PHONE["width"], 1440])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("game", GAME_DISPUTES)
def test_every_game_reads_on_a_phone_and_a_desktop_in_both_languages(server, browser, game, lang, width):
    """The screenshots an arbiter would look at (build/artifacts/viewer-GAME-LANG-WIDTH.png): nothing wider
    than the screen, the dispute and its legal plays shown, the step controls in sight, no unit broken."""
    base, app = server
    context = browser.new_context(viewport={"width": width, "height": 844}, is_mobile=width < 760)
    page = context.new_page()
    page.goto(f"{base}/view/{store_record(app, GAME_DISPUTES[game])}?finding=1&lang={lang}")
    page.wait_for_selector("#dispute article")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.locator("#table .seat .discards").count() == page.locator("#table .seat").count()
    assert set(page.eval_on_selector_all(".unit", "units => units.map(u => u.getClientRects().length)")) <= {1}
    page.evaluate("window.scrollTo(0, document.body.scrollHeight / 2)")
    if width < 760:
        box = page.locator("#next").bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, "the step controls stay on screen"
    shot(page, f"viewer-{game}-{lang}-{width}")
    context.close()


def test_the_standings_page_speaks_chinese_by_url_browser_and_switch(server, browser):
    """Issue 34: ?lang=zh, else the browser's language, and the viewer's switch, which keeps the choice."""
    from tests.test_chinese_everywhere import english_words, kept_words, record_words

    base, app = server
    paths = sorted((ROOT / "samples/event").glob("*.json"))
    for path in paths:
        stored(app, path)
    allowed = set(kept_words()).union(*(record_words(orjson.loads(path.read_bytes())) for path in paths))
    context = browser.new_context(viewport=DESKTOP, locale="zh-CN")
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(f"{base}/view/events/Desk%20Cup%202026")
    page.wait_for_selector("table.standings")
    text = page.inner_text("#event-title") + "\n" + page.inner_text("main")  # not the switch's "English"
    assert "名次" in text and "第2轮第3桌 · 干瞪眼 · Lin以24的净胜获胜" in text and page.input_value("#lang") == "zh"
    assert english_words(text, allowed) == []
    shot(page, "standings-zh")
    page.select_option("#lang", "en")
    page.wait_for_selector("table.standings")
    assert "lang=en" in page.url and "Round 2, table 3 · gandengyan · Lin won by 24" in page.inner_text("#matches")
    context.close()


@pytest.mark.parametrize(
    "sample",
    [
        "guandan/disputed-illegal-follow",
        "gouji/disputed-wrong-tribute-card",
        "gandengyan/disputed-ace-multiplier-ignored",
    ],
)
def test_the_viewer_in_chinese_shows_no_english(server, page, sample):
    from tests.test_chinese_everywhere import english_words, kept_words, record_words

    base, app = server
    path = ROOT / "samples" / f"{sample}.json"
    page.goto(f"{base}/view/{stored(app, path)}?lang=zh&deal=1")
    page.wait_for_selector("#table .seat")
    if sample.startswith("guandan"):  # the heart level card is 逢人配 in Guandan, a wild card 百搭 elsewhere
        assert page.locator('#table [aria-label="红桃2，逢人配"]').count() >= 1
    for key in ("End", "n"):  # the last step (the outcome) and the finding
        page.keyboard.press(key)
        text = page.inner_text("main")
        assert english_words(text, set(kept_words()) | record_words(orjson.loads(path.read_bytes()))) == [], text
