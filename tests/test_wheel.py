"""The built wheel stands alone (issue 32): installed in a fresh environment, with no checkout beside it
(run from a folder of its own, PYTHONPATH empty), every documented command answers as it does in the
checkout: the rules pages, rule ids and compiled catalogues ship inside the package, the compiled
modules too where the checkout has them, and a command whose extra is not installed says which it needs.

The wheel is the one `make wheel` builds into dist/ (`make test` builds it before the tests): made here
when out of date, skipped, and why, when there is none and it cannot be made."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
SAMPLE = "samples/guandan/match-won-at-a.json"
DISPUTED = "samples/guandan/disputed-illegal-follow.json"
CAPTURE = "tests/data/captures/wrong-tribute.jsonl"

# The README's commands, each run in both places; its exit status and standard output must agree.
COMMANDS = [
    ["--version"],
    ["validate", SAMPLE],
    ["validate", "samples/"],
    ["validate", "--json", DISPUTED],
    ["validate", "--rule", "guandan.follow", "-q", "samples/guandan/"],
    ["validate", "--rule", "guandan.no_such_rule", SAMPLE],
    ["validate", "--infer-rules", "samples/guandan/disputed-return-above-ten.json"],
    ["replay", SAMPLE, "--deal", "2", "--step", "3"],
    ["replay", DISPUTED, "--finding", "1"],
    ["explain", "guandan.follow"],
    ["explain", "notation.card"],
    ["ruling", DISPUTED, "-o", "-"],
    ["ruling", "samples/gouji/disputed-wrong-tribute-card.json", "--finding", "1", "--lang", "zh", "-o", "-"],
    ["rules", "guandan"],
    ["rules", "--json"],
    ["schema"],
    ["fmt", SAMPLE],
    ["fmt", "--check", "samples/"],
    ["deal", "--game", "guandan", "--seed", "00" * 32],
    ["deal", "--game", "gouji", "--seed", "ab" * 32, "--salt", "cd" * 16],
    ["integrity", "samples/"],
    ["integrity", "--json", "samples/gouji/"],
    ["import", "--from", "competition", CAPTURE],
    ["results", "check", "samples/event/sheet.csv", "samples/event/"],
    ["standings", "samples/event/"],
    [
        "decide",
        DISPUTED,
        "--finding",
        "1",
        "--decision",
        "stands",
        "--by",
        "Li Wei, chief arbiter",
        "--date",
        "2026-05-02T15:40+08:00",
        "--reason",
        "not challenged before the next play",
        "-o",
        "-",
    ],
    ["serve", "--help"],
    ["--lang", "zh", "validate", DISPUTED],
    ["--lang", "zh", "explain", "guandan.follow"],
    ["--lang", "zh", "--help"],
    ["--lang", "zh", "replay", SAMPLE, "--deal", "2", "--step", "3"],
]
# What the fresh environment leaves out: the API (flask) and Dask; each says which extra it needs.
WITHOUT_EXTRA = [(["serve", "--no-auth"], "api"), (["audit", "samples/", "-o", "reports"], "dask")]


@pytest.fixture(scope="module")
def wheel() -> Path:
    made = None
    if shutil.which("make") and (ROOT / ".venv").is_dir():
        made = subprocess.run(["make", "-s", "wheel"], cwd=ROOT, capture_output=True, text=True)
    wheels = sorted((ROOT / "dist").glob("cgr_referee-*.whl"))
    if made is not None and made.returncode != 0:
        if not wheels:
            pytest.skip(
                f"no wheel in dist/ and `make wheel` could not build one: {made.stdout[-800:]}{made.stderr[-800:]}"
            )
        pytest.fail(f"`make wheel` failed: {made.stdout[-2000:]}{made.stderr[-2000:]}")
    if not wheels:
        pytest.skip("no wheel in dist/ (`make wheel` builds it) and no make or .venv here to build one")
    return wheels[-1]


@pytest.fixture(scope="module")
def place(wheel, tmp_path_factory) -> dict:
    """A fresh environment with the wheel (and its integrity extra) installed, and a folder outside the
    checkout holding copies of the inputs."""
    work = tmp_path_factory.mktemp("installed")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    installed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(venv / "bin" / "python"),
            "install",
            "--quiet",
            f"{wheel}[integrity]",
        ],
        capture_output=True,
        text=True,
    )
    if installed.returncode != 0:
        pytest.skip(
            f"pip could not install the wheel's dependencies from the configured indexes: {installed.stderr[-800:]}"
        )
    inputs = work / "inputs"
    shutil.copytree(ROOT / "samples", inputs / "samples")
    (inputs / CAPTURE).parent.mkdir(parents=True)
    shutil.copy(ROOT / CAPTURE, inputs / CAPTURE)
    environ = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("REFEREE_", "PYTHON", "VIRTUAL_ENV", "LC_", "LANG", "FORCE_COLOR"))
    }
    environ.update(PYTHONPATH="", LANG="C.UTF-8", COLUMNS="100")
    return {"venv": venv, "inputs": inputs, "environ": environ}


def run_installed(place, args, env=None) -> subprocess.CompletedProcess:
    environ = env or {**place["environ"], "PATH": f"{place['venv'] / 'bin'}{os.pathsep}{place['environ']['PATH']}"}
    return subprocess.run(args, cwd=place["inputs"], env=environ, capture_output=True, text=True, timeout=300)


def run_in_checkout(place, args) -> subprocess.CompletedProcess:
    code = "import sys; from referee.cli.main import main; sys.argv[0] = 'referee'; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=place["inputs"],
        env={**place["environ"], "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_installed_package_is_read_from_the_environment_alone(place):
    code = (
        "import importlib.util, referee, referee.cli, referee.api, referee.guandan\n"
        "print(referee.__file__, referee.guandan.__file__)\n"
        "print(*(importlib.util.find_spec(name) is None for name in ('cli', 'api')))"
    )
    done = run_installed(place, ["python", "-c", code])
    assert done.returncode == 0, done.stderr
    package, guandan, no_cli, no_api = done.stdout.split()
    assert Path(package).is_relative_to(place["venv"]) and (no_cli, no_api) == ("True", "True")
    compiled_here = any((ROOT / "referee").glob("guandan.*.so"))
    assert guandan.endswith(".so") == compiled_here, guandan


def test_the_catalogues_ship_compiled(place):
    code = (
        "import os, referee.messages as m\nprint(*sorted(os.listdir(os.path.join(m.LOCALE_DIR, 'zh', 'LC_MESSAGES'))))"
    )
    done = run_installed(place, ["python", "-c", code])
    assert done.returncode == 0, done.stderr
    domains = sorted(po.stem for po in (ROOT / "referee/locale/zh/LC_MESSAGES").glob("*.po"))
    assert done.stdout.split() == [f"{domain}.mo" for domain in domains]


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_documented_command_answers_as_in_the_checkout(place, args):
    installed, checkout = run_installed(place, ["referee", *args]), run_in_checkout(place, args)
    assert "Traceback" not in installed.stderr, installed.stderr
    assert (installed.returncode, installed.stdout) == (checkout.returncode, checkout.stdout), installed.stderr
    assert installed.stdout or installed.stderr


def test_the_installed_ruling_quotes_its_rules_page(place):
    html = run_installed(place, ["referee", "ruling", DISPUTED, "-o", "-"]).stdout
    assert '<h4>docs/rules/guandan.md §3, item 3</h4><div class="rule-text"' in html  # its clause, quoted


def test_chinese_is_spoken_where_asked(place):
    done = run_installed(place, ["referee", "--lang", "zh", "validate", DISPUTED])
    english = run_installed(place, ["referee", "validate", DISPUTED])
    assert re.search(r"[\u4e00-\u9fff]", done.stdout) and not re.search(r"[\u4e00-\u9fff]", english.stdout)


def test_the_store_needs_no_extra(place, tmp_path):
    done = run_installed(place, ["referee", "store", "import", "--db", str(tmp_path / "r.db"), "samples/guandan/"])
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr
    listed = run_installed(place, ["referee", "store", "list", "--db", str(tmp_path / "r.db")])
    assert listed.returncode == 0 and len(listed.stdout.splitlines()) >= len(
        list((ROOT / "samples/guandan").glob("*.json"))
    )


@pytest.mark.parametrize("args, extra", WITHOUT_EXTRA)
def test_a_command_without_its_extra_says_which_to_install(place, args, extra):
    done = run_installed(place, ["referee", *args])
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"pip install 'cgr-referee[{extra}]'" in done.stderr


def test_a_pdf_without_chromium_says_what_to_do(place):
    done = run_installed(
        place,
        [str(place["venv"] / "bin" / "referee"), "ruling", DISPUTED, "-o", "ruling.pdf"],
        env={**place["environ"], "PATH": str(place["venv"] / "bin")},
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr and "REFEREE_CHROMIUM" in done.stderr, done.stderr
    assert not (place["inputs"] / "ruling.pdf").exists()
