"""cli/ has no import circle (issue 24): the subcommands share exit codes and message helpers
through cli/common.py, only cli/main.py imports the subcommands, and only the installed command (cli/start.py,
which runs the commonest validate command lines without click) imports cli/main.py."""

import ast
from pathlib import Path

CLI = Path(__file__).parent.parent / "cli"


def cli_imports(path: Path) -> set[str]:
    """The cli modules a module imports, at any depth of its code (lazy imports too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found |= {node.module} if node.module else {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cli."):
            found.add(node.module.split(".")[1])
    return found


def test_the_cli_modules_import_no_circle():
    graph = {path.stem: cli_imports(path) for path in CLI.glob("*.py")}

    def reaches(start, target, seen=()):
        return any(n == target or (n not in seen and reaches(n, target, (*seen, n))) for n in graph.get(start, ()))

    circles = sorted(name for name in graph if reaches(name, name))
    assert circles == []
    assert [name for name, used in graph.items() if "main" in used] == ["start"]
    assert {"validate", "fmt", "store", "audit", "importing"} <= {n for n, used in graph.items() if "common" in used}
