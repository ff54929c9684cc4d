"""The repository stands on its own: the notation and rules pages it cites are in docs/, in step
with the shared pages, and the outputs the README and docs/cli.md show are what the code prints today."""

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import main
from referee.game import games

ROOT = Path(__file__).parent.parent
SHARED = ROOT.parent / "shared"
COPIES = {
    "docs/notation.md": "notation.md",
    "docs/formats/competition-protocol.md": "formats/competition-protocol.md",
    "docs/formats/results-sheet.md": "formats/results-sheet.md",
    **{f"docs/rules/{g}.md": f"rules/{g}.md" for g in games()},
}
OUTPUT_BLOCK = re.compile(r"<!-- output of: (?P<command>.+?) -->\n```\n(?P<text>.*?)```", re.S)


def _body(copy: Path) -> str:
    """A copy without the one-paragraph note that opens it."""
    return copy.read_text(encoding="utf-8").split("\n\n", 1)[1]


@pytest.mark.parametrize("copy", sorted(COPIES))
def test_copies_of_the_shared_pages_are_word_for_word(copy):
    shared = SHARED / COPIES[copy]
    if not shared.exists():
        pytest.skip(f"{shared} is not beside this checkout")
    assert _body(ROOT / copy) == shared.read_text(encoding="utf-8")


def test_the_commitment_test_vectors_are_the_shared_file_byte_for_byte():
    shared = SHARED / "formats/deal-commitments.json"
    if not shared.exists():
        pytest.skip(f"{shared} is not beside this checkout")
    assert (ROOT / "docs/formats/deal-commitments.json").read_bytes() == shared.read_bytes()


def test_every_game_has_its_rules_page_in_docs():
    for name in games():
        assert (ROOT / "docs" / "rules" / f"{name}.md").exists(), name


# the README, and the pages it moved its long sections to
PAGES = [
    "README.md",
    "docs/cli.md",
    "docs/samples.md",
    "docs/performance.md",
    "docs/internals.md",
    "docs/python-api.md",
]


@pytest.mark.parametrize("page", PAGES)
def test_the_pages_link_only_files_in_the_repository(page):
    text = (ROOT / page).read_text(encoding="utf-8")
    assert "../shared" not in text
    for target in re.findall(r"\]\(([^)#:]+)\)", text):
        assert ((ROOT / page).parent / target).exists(), target


@pytest.mark.parametrize("page, blocks", [("README.md", 2), ("docs/cli.md", 5)])
def test_the_outputs_shown_are_what_the_code_prints(monkeypatch, page, blocks):
    monkeypatch.chdir(ROOT)
    shown = list(OUTPUT_BLOCK.finditer((ROOT / page).read_text(encoding="utf-8")))
    assert len(shown) == blocks, f"{page} shows {len(shown)} command outputs"
    for block in shown:
        words = shlex.split(block["command"])
        assert words[0] == "referee"
        result = CliRunner().invoke(main, words[1:])
        assert result.output == block["text"], block["command"]
