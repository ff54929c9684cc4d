"""The `referee` command starts without what only some commands need (issue 10: start-up under
0.15 s; benchmarks/startup.py measures it)."""

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
