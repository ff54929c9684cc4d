"""The ruling document in a real headless Chromium (as tests/test_viewer_browser.py runs it): opened
from file:// with every request beyond the file refused, nothing asked of any server, the table
drawn, and printed to PDF one finding per page. Screenshots and PDFs are kept in build/artifacts/."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from tests.test_viewer_browser import ARTIFACTS, WAIT_MS, browser    # noqa: F401 (browser: the fixture)

ROOT = Path(__file__).resolve().parent.parent
DISPUTES = {"guandan": ("samples/guandan/disputed-wrong-tribute-card.json", 4),
            "gouji": ("samples/gouji/disputed-non-duellist-plays-into-duel.json", 6),
            "gandengyan": ("samples/gandengyan/disputed-lone-joker-following.json", 3)}


def written(tmp_path: Path, sample: str, *args) -> Path:
    out = tmp_path / "ruling.html"
    result = CliRunner().invoke(main, ["ruling", str(ROOT / sample), "-o", str(out), *args])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture
def offline(browser):     # noqa: F811
    """A page whose every request but for file:// is refused and noted, as are failed requests and
    the console's errors (a load the Content-Security-Policy blocks is one)."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    asked, failed, errors = [], [], []

    def refuse(route):
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            asked.append(route.request.url)
            route.abort()
    context.route("**/*", refuse)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert (asked, failed, errors) == ([], [], []), "the ruling asked for something beyond its file"


@pytest.mark.parametrize("game", DISPUTES)
def test_the_ruling_opens_offline_and_prints_one_finding_per_page(offline, tmp_path, game):
    sample, seats = DISPUTES[game]
    path = written(tmp_path, sample)
    offline.goto(path.as_uri())
    findings = offline.locator("section.finding")
    assert findings.count() >= 1
    first = findings.first
    assert first.locator(".table .seat").count() == seats
    assert first.locator(".card.marked").count() >= 1, "the cards in question are marked"
    assert "The rule" in first.inner_text() and "docs/" in first.inner_text()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    offline.screenshot(path=str(ARTIFACTS / f"ruling-{game}.png"), full_page=True)

    offline.set_viewport_size({"width": 718, "height": 1000})      # A4's width less its margins, in CSS pixels
    offline.emulate_media(media="print")
    breaks = offline.eval_on_selector_all("section.finding", "s => s.map(e => getComputedStyle(e).breakBefore)")
    assert set(breaks) == {"page"}
    columns = offline.eval_on_selector_all("section.finding >> nth=0 >> .table .seat",
                                           "s => new Set(s.map(e => Math.round(e.getBoundingClientRect().x))).size")
    assert columns >= 2, "on paper the seats sit around the trick, as in the viewer"
    pdf = offline.pdf(path=str(ARTIFACTS / f"ruling-{game}.pdf"), format="A4", print_background=True)
    assert pdf.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page\b", pdf)) >= 1 + findings.count()


def test_a_hostile_name_is_text_in_the_browser(offline, tmp_path):
    sample = ROOT / DISPUTES["gandengyan"][0]
    record = sample.read_text(encoding="utf-8").replace('"P1"', '"<img src=https://example.com/x onerror=alert(1)>"')
    hostile = tmp_path / "hostile.json"
    hostile.write_text(record, encoding="utf-8")
    path = written(tmp_path, str(hostile), "--lang", "zh")
    offline.goto(path.as_uri())
    assert offline.locator("img").count() == 0
    assert "<img src=https://example.com/x onerror=alert(1)>" in offline.inner_text("section.identity")
