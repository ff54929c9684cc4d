"""The `referee` command starts without what only some commands need (issue 10: start-up under
0.15 s; benchmarks/startup.py measures it)."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent

# rendering (rich), rule inference, the ruling document, the API with its store, the cluster, and logging
# (which Dask uses)
ONLY_SOME_COMMANDS = ("rich", "referee.infer", "referee.ruling", "api", "flask", "sqlite_utils", "pandas", "dask",
                      "distributed", "logging")


def loaded_by(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running `code`, from the repository's root."""
    shown = subprocess.run([sys.executable, "-c", f"{code}\nimport sys\nprint(' '.join(sys.modules))"],
                           cwd=ROOT, capture_output=True, text=True, check=True)
    return set(shown.stdout.split())


def test_the_command_line_loads_no_module_that_only_some_commands_need():
    loaded = loaded_by("import cli.main")
    assert "cli.validate" in loaded      # every command is defined, ...
    assert sorted(loaded & set(ONLY_SOME_COMMANDS)) == []     # ... yet none of these is loaded


def test_validate_help_loads_no_module_that_only_some_commands_need():
    loaded = loaded_by("from click.testing import CliRunner\nfrom cli.main import main\n"
                       "assert CliRunner().invoke(main, ['validate', '--help']).exit_code == 0")
    assert sorted(loaded & set(ONLY_SOME_COMMANDS)) == []
