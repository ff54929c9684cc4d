"""The ruling document in a real headless Chromium (as tests/test_viewer_browser.py runs it): opened
from file:// with every request beyond the file refused, nothing asked of any server, the table
drawn, and printed to PDF one finding per page; `referee ruling -o FILE.pdf` prints it with the system
Chromium, and its pages are counted (issue 35: a finding on one or two A4 pages, the cover on one,
warnings in an appendix). Screenshots and PDFs are kept in build/artifacts/."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import main
from tests.test_viewer_browser import ARTIFACTS, WAIT_MS, browser  # noqa: F401 (browser: the fixture)

ROOT = Path(__file__).resolve().parent.parent
DISPUTES = {
    "guandan": ("samples/guandan/disputed-wrong-tribute-card.json", 4),
    "gouji": ("samples/gouji/disputed-non-duellist-plays-into-duel.json", 6),
    "gandengyan": ("samples/gandengyan/disputed-lone-joker-following.json", 3),
}


def written(tmp_path: Path, sample: str, *args) -> Path:
    out = tmp_path / "ruling.html"
    result = CliRunner().invoke(main, ["ruling", str(ROOT / sample), "-o", str(out), *args])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture
def offline(browser):  # noqa: F811
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


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("game", DISPUTES)
def test_the_ruling_opens_offline_and_prints_one_finding_per_page(offline, tmp_path, game, lang):
    sample, seats = DISPUTES[game]
    path = written(tmp_path, sample, "--lang", lang)
    offline.goto(path.as_uri())
    findings = offline.locator("section.finding")
    assert findings.count() >= 1
    first = findings.first
    assert first.locator(".table .seat").count() == seats
    assert first.locator(".card.marked").count() >= 1, "the cards in question are marked"
    assert ("The rule" if lang == "en" else "规则") in first.inner_text() and "docs/" in first.inner_text()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    offline.screenshot(path=str(ARTIFACTS / f"ruling-{game}-{lang}.png"), full_page=True)

    offline.set_viewport_size({"width": 718, "height": 1000})  # A4's width less its margins, in CSS pixels
    offline.emulate_media(media="print")
    breaks = offline.eval_on_selector_all("main > section.finding", "s => s.map(e => getComputedStyle(e).breakBefore)")
    assert set(breaks) == {"page"}
    columns = offline.eval_on_selector_all(
        "section.finding >> nth=0 >> .table .seat",
        "s => new Set(s.map(e => Math.round(e.getBoundingClientRect().x))).size",
    )
    assert columns >= 2, "on paper the seats sit around the trick, as in the viewer"
    pdf = offline.pdf(path=str(ARTIFACTS / f"ruling-{game}-{lang}.pdf"), format="A4", print_background=True)
    assert pdf.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page\b", pdf)) >= 1 + findings.count()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("game", DISPUTES)
def test_the_ruling_fits_a_phones_width(browser, tmp_path, game, lang):  # noqa: F811
    """Handed out as a file and opened on a phone (375 px), it scrolls down, never sideways: the decision's
    boxes wrap."""
    path = written(tmp_path, DISPUTES[game][0], "--lang", lang)
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True)
    page = context.new_page()
    page.goto(path.as_uri())
    wide = page.evaluate("document.documentElement.scrollWidth")
    page.screenshot(path=str(ARTIFACTS / f"ruling-phone-{game}-{lang}.png"), full_page=False)
    context.close()
    assert wide <= 375, wide


def test_a_hostile_name_is_text_in_the_browser(offline, tmp_path):
    sample = ROOT / DISPUTES["gandengyan"][0]
    record = sample.read_text(encoding="utf-8").replace('"P1"', '"<img src=https://example.com/x onerror=alert(1)>"')
    hostile = tmp_path / "hostile.json"
    hostile.write_text(record, encoding="utf-8")
    path = written(tmp_path, str(hostile), "--lang", "zh")
    offline.goto(path.as_uri())
    assert offline.locator("img").count() == 0
    assert "<img src=https://example.com/x onerror=alert(1)>" in offline.inner_text("section.identity")


# ---------------------------------------------------------------- the printed ruling (issue 35)

pypdf = pytest.importorskip("pypdf", reason="pypdf is not installed: pip install -e '.[test]'")
ALL_DISPUTES = sorted(ROOT.glob("samples/*/disputed-*.json"))


# The pages of each ruling printed, by its HTML: a document the command writes alike for other options (a
# sample's only finding asked for with --finding 1) is printed once (Chromium takes seconds to start).
PRINTED: dict[bytes, tuple[Path, int]] = {}


def printed(tmp_path: Path, sample: Path, *args) -> int:
    """The pages of the ruling `referee ruling -o FILE.pdf` prints (kept in build/artifacts/)."""
    from referee.cli.ruling import _chromium

    if _chromium() is None:
        pytest.skip("no Chromium on PATH to print a PDF with (make browser; or set REFEREE_CHROMIUM)")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    out = ARTIFACTS / (
        "ruling-" + "-".join([sample.parent.name, sample.stem, *(str(a).lstrip("-") for a in args)]) + ".pdf"
    )
    command = [*args[:2], "ruling", str(sample), *args[2:], "-o"]
    html = CliRunner().invoke(main, [*command, "-"])
    assert html.exit_code == 0, html.output
    document = hashlib.sha256(html.stdout_bytes).digest()
    if document in PRINTED:
        shutil.copyfile(PRINTED[document][0], out)
        return PRINTED[document][1]
    result = CliRunner().invoke(main, [*command, str(out)])
    assert result.exit_code == 0, result.output
    PRINTED[document] = out, len(pypdf.PdfReader(out).pages)
    return PRINTED[document][1]


def errors_and_notes(sample: Path) -> tuple[int, int]:
    report = json.loads(CliRunner().invoke(main, ["validate", "--json", str(sample)]).stdout.splitlines()[0])
    errors = sum(f["severity"] == "error" for f in report["findings"])
    return errors, len(report["findings"]) - errors


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("sample", ALL_DISPUTES, ids=[f"{p.parent.name}/{p.stem}" for p in ALL_DISPUTES])
def test_each_printed_finding_fits_one_or_two_pages(tmp_path, sample, lang):
    """A cover page, at most two A4 pages per error and one for the appendix of warnings and notes
    (an error and a routine "deal incomplete" warning took 9 pages before issue 35)."""
    errors, notes = errors_and_notes(sample)
    pages = printed(tmp_path, sample, "--lang", lang)
    assert errors + 1 + bool(notes) <= pages <= 1 + 2 * errors + bool(notes)
    assert printed(tmp_path, sample, "--lang", lang, "--finding", "1") <= 3


def test_a_pdf_without_chromium_is_refused_with_exit_2(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("REFEREE_CHROMIUM", raising=False)
    out = tmp_path / "ruling.pdf"
    result = CliRunner().invoke(main, ["ruling", str(ROOT / DISPUTES["guandan"][0]), "-o", str(out)])
    assert result.exit_code == 2 and "no Chromium to print a PDF with" in result.output
    assert not out.exists()


@pytest.mark.parametrize(
    "sample, lang",
    [("samples/guandan/disputed-false-level.json", "en"), ("samples/gouji/disputed-wrong-tribute-card.json", "zh")],
)
def test_tables_never_split_and_badges_read_at_aa_contrast(offline, tmp_path, sample, lang):
    """In print, the drawn table, a claim and a clause keep together; every badge and the verdict reach
    4.5:1 (the INVALID badge was 2.35:1); axe-core finds no serious issue."""
    path = written(tmp_path, sample, "--lang", lang)
    offline.goto(path.as_uri())
    offline.emulate_media(media="print")
    kept = offline.eval_on_selector_all(
        ".drawn, table.claim, .clause, .seat, .appendix .finding", "s => s.map(e => getComputedStyle(e).breakInside)"
    )
    assert kept and set(kept) == {"avoid"}
    ratios = offline.eval_on_selector_all(".badge, .verdict", CONTRAST)
    assert ratios and min(ratios) >= 4.5, ratios
    axe = pytest.importorskip(
        "axe_playwright_python.sync_playwright",
        reason="axe-playwright-python is not installed: pip install -e '.[browser]'",
    ).Axe()
    for media in ("screen", "print"):
        offline.emulate_media(media=media)
        serious = [
            (v["id"], [n["target"] for n in v["nodes"]][:3])
            for v in axe.run(offline).response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert serious == [], media


# the contrast of each element's text on its own background (WCAG 2: relative luminance)
CONTRAST = """nodes => nodes.map(node => {
  const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const style = getComputedStyle(node);
  const [a, b] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
})"""
