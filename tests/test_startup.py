"""The `referee` command starts without what only some commands need (issue 10: start-up under
0.15 s; benchmarks/startup.py measures it), and the commonest validate command lines without click (issue 36:
start-up counts in the whole process), read as click reads them."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent

# rendering (rich), rule inference, the ruling document, the API with its store, the cluster, and logging
# (which Dask uses)
ONLY_SOME_COMMANDS = (
    "rich",
    "referee.infer",
    "referee.ruling",
    "referee.api",
    "flask",
    "sqlite_utils",
    "pandas",
    "dask",
    "distributed",
    "logging",
)


def loaded_by(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running `code`, from the repository's root."""
    environ = {name: value for name, value in os.environ.items() if name not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    shown = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint(' '.join(sys.modules))"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env=environ,
    )
    return set(shown.stdout.split())


def test_the_command_line_loads_no_module_that_only_some_commands_need():
    loaded = loaded_by("import referee.cli.main")
    assert sorted(loaded & (set(ONLY_SOME_COMMANDS) | command_modules())) == []


@pytest.mark.parametrize("options", [[], ["--json"]])  # --json: the summary on standard error, not a terminal
def test_validate_into_a_file_loads_no_other_command_no_console_and_no_progress_bar(options):
    loaded = loaded_by(
        "import contextlib, io, sys\nfrom cli.main import main\n"
        f"sys.argv = ['referee', 'validate', '-j', '1', *{options}, "
        "'samples/guandan/disputed-illegal-follow.json']\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n    main()"
    )
    assert "referee.cli.validate" in loaded and "referee.cli.plain" in loaded  # it ran, ...
    others = command_modules() - {"referee.cli.validate_command"}
    only_some = set(ONLY_SOME_COMMANDS) - {"rich"} | {"rich.console"}  # rich.cells measures severities' width
    assert sorted(loaded & (others | only_some)) == []  # ... with only its own


def test_checking_a_record_of_one_game_loads_only_that_game():
    loaded = loaded_by(
        "from referee.batch import check_one\n"
        "assert check_one(open('samples/gouji/disputed-wrong-tribute-card.json').read(), 'x').findings"
    )
    assert "referee.gouji" in loaded and not loaded & {"referee.guandan", "referee.gandengyan"}


def command_modules() -> set[str]:
    """The modules of the commands that cli.main loads when they run."""
    from referee.cli.main import COMMANDS

    return {target.split(":")[0] for target in COMMANDS.values()}


def test_validate_help_loads_no_module_that_only_some_commands_need():
    loaded = loaded_by(
        "from click.testing import CliRunner\nfrom cli.main import main\n"
        "assert CliRunner().invoke(main, ['validate', '--help']).exit_code == 0"
    )
    assert sorted(loaded & set(ONLY_SOME_COMMANDS)) == []


def test_the_commonest_validate_runs_without_click():
    """The installed command (cli/start.py) reads `validate -j 1 --json FILE` itself: no click, no difflib (click
    looks -j up among the long options first, and suggests one close to it before it tries the short ones)."""
    loaded = loaded_by(
        "import contextlib, io, sys\nfrom referee.cli.start import main\n"
        "sys.argv = ['referee', 'validate', '-j', '1', '--json', 'samples/guandan/disputed-illegal-follow.json']\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n    main()"
    )
    assert "referee.cli.validate" in loaded and not loaded & {"click", "difflib", "referee.cli.main"}


PURE = "import os\nos.environ['REFEREE_PURE_PYTHON'] = '1'\n"  # the pure-Python build, where it is compiled


@pytest.mark.parametrize("build", ["", PURE], ids=["as installed", "pure Python"])
def test_checking_records_of_every_game_imports_no_typing(build):
    """typing takes about 4 ms of CPU to import, a tenth of a process's start-up (docs/internals.md, "Two builds"):
    the checks name its words for mypy only, and the game contract (referee/contract.py) is the tests' and mypy's."""
    loaded = loaded_by(
        f"{build}import contextlib, io, sys\nfrom referee.cli.start import main\n"
        "sys.argv = ['referee', 'validate', '-j', '1', '--json', 'samples/guandan', 'samples/gouji', "
        "'samples/gandengyan']\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n    main()"
    )
    assert {"referee.guandan", "referee.gouji", "referee.gandengyan"} <= loaded
    assert sorted(loaded & {"typing", "mypy_extensions", "referee.contract"}) == []


def test_importing_records_into_the_store_imports_no_typing(tmp_path):
    loaded = loaded_by(
        "import contextlib, os, sys\nfrom referee.cli.start import main\n"
        f"sys.argv = ['referee', 'store', 'import', '--db', {str(tmp_path / 'store.db')!r}, 'samples/gandengyan']\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(open(os.devnull, 'w')):\n    main()"
    )
    assert "referee.api.store" in loaded and "referee.gandengyan" in loaded
    assert sorted(loaded & {"typing", "mypy_extensions", "referee.contract"}) == []


F, G = "samples/guandan/match-won-at-a.json", "samples/gouji"
# command lines cli/start.py reads itself (each must be read as click reads it)
COMMONEST = [
    ["validate", F],
    ["validate", "--json", F],
    ["validate", F, "--json"],
    ["validate", "-j", "1", "--json", F],
    ["validate", "-j1", "--json", F],
    ["validate", "--jobs", "2", F, G],
    ["validate", "--jobs=3", F],
    ["validate", F, "-j", "256"],
    ["validate", "-j", "007", F],
    ["validate", "-j", "1", "-j", "2", F],
    ["validate", "--", F],
    ["validate", "--", "-j", "1"],
    ["validate", "--json", "--", "--json", "-", "--"],
    ["validate", "-"],
    ["validate", "-", "--json"],
    ["validate", ""],
    ["validate", "-q", F],
    ["validate", "--quiet", "--only-invalid", F],
    ["validate", "--json", "-q", F],
    ["validate", "--color", F],
    ["validate", "--no-color", F],
    ["validate", "--color", "--no-color", "--color", F],
    ["validate", "--infer-rules", F],
    ["validate", "--lang", "zh", F],
    ["validate", F, "--lang", "zh", "-j", "1"],
    ["validate", "--lang=zh", "--json", F],
    ["validate", "--lang", "en", F],
    ["validate", "--lang", "zh_CN.UTF-8", F],
    ["validate", "--lang", "C", F],
    ["validate", "--lang=", F],
    ["validate", "--", "--lang", "zh"],
]
# command lines it leaves to click: help, other options, values click refuses or reads otherwise, no file
TO_CLICK = [
    ["validate"],
    ["validate", "--json"],
    ["validate", "--"],
    ["validate", "-j", "0", F],
    ["validate", "-j", "257", F],
    ["validate", "-j", "x", F],
    ["validate", "-j", "+1", F],
    ["validate", "-j", " 1", F],
    ["validate", "-j", "1_0", F],
    ["validate", "-j", "\u0661", F],  # an Arabic-Indic one: a digit to Python's int()
    ["validate", "-j=1", F],
    ["validate", "--jobs=", F],
    ["validate", "-j"],
    ["validate", F, "-j"],
    ["validate", "-j", "--json", F],
    ["validate", "-j", "--lang", "zh", F],
    ["validate", "--jsn", F],
    ["validate", "--jobs1", F],
    ["validate", "-x", F],
    ["validate", "-5", F],
    ["validate", "--json=1", F],
    ["validate", "-qj1", F],
    ["validate", "-jq", F],
    ["validate", "--help"],
    ["validate", F, "-h"],
    ["validate", "--version", F],
    ["validate", "--severity", "error", F],
    ["validate", "--rule", "guandan", F],
    ["validate", "--summary-json", "summary.json", F],
    ["validate", "--lang", "xx", F],
    ["validate", "--lang", F],
    ["validate", F, "--lang"],
    ["validate", "--lang", "zh", "--lang", "en", F],
    ["validate", "--lang", "--json", F],
    ["validate", "--lang", "--", F],
    ["--lang", "zh", "validate", F],
    ["--json", "validate", F],
    ["valdate", F],
    ["explain", "guandan.follow"],
    [],
]


@pytest.mark.parametrize("args", COMMONEST + TO_CLICK)
@pytest.mark.parametrize("environment", ["en", "zh"])
def test_a_command_line_read_without_click_is_read_as_click_reads_it(monkeypatch, args, environment):
    """What cli/start.py makes of a command line, if it reads it, is what click gives validate's callback (the
    same function, cli/validate.py's `validate`), in the same language."""
    from click.testing import CliRunner

    from referee.cli import start, validate_command
    from referee.cli.main import main
    from referee.messages import chosen_language, language

    monkeypatch.setenv("REFEREE_LANG", environment)
    assert validate_command.validate.callback is start.validate
    given = []
    monkeypatch.setattr(validate_command.validate, "callback", lambda **values: given.append((values, language())))
    quick = start.quick_validate(args)
    assert (quick is not None) == (args in COMMONEST)
    CliRunner().invoke(main, args)
    if quick is not None:
        values, lang = quick
        assert given == [(values, chosen_language(lang) if lang is not None else environment)]


# cli/start.py's runs beside click's: the same output, errors and exit status
RUNS = [
    ["validate", "-j", "1", "--json", "samples/guandan/disputed-illegal-follow.json"],
    ["validate", "-j", "1", "samples/guandan/disputed-illegal-follow.json", "--lang", "zh"],
    ["validate", "-q", "samples", "--only-invalid"],
    ["validate", "--json", "-q", F],
    ["validate", "--json", "-", "--lang=zh"],
    ["validate", "no-such-file.json", "samples/empty-folder-that-is-not-there"],
    ["validate", "-j", "0", F],
]


@pytest.mark.parametrize("args", RUNS)
def test_a_command_line_run_without_click_runs_as_click_runs_it(args):
    def run(module):
        return subprocess.run(
            [
                sys.executable,
                "-c",
                f"import sys; sys.argv[0] = 'referee'; from referee.cli.{module} import main; main()",
                *args,
            ],
            cwd=ROOT,
            input=(ROOT / F).read_bytes(),
            capture_output=True,
            env={**os.environ, "REFEREE_LANG": "en"},
        )

    quick, full = run("start"), run("main")
    assert (quick.returncode, quick.stdout, quick.stderr) == (full.returncode, full.stdout, full.stderr)
