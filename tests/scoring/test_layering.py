"""scoring's modules import one another in one direction only, and nothing outside scoring."""

import ast
from pathlib import Path

import dicecam.scoring

ROOT = Path(dicecam.scoring.__file__).parent
PREFIX = "dicecam.scoring."


def _imports(path: Path) -> set[str]:
    """Every module this file imports, at any level (also under TYPE_CHECKING or in a function)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
    return out


def _graph() -> dict[str, set[str]]:
    """Module -> the scoring modules it imports; `__init__` is the package itself, which
    `from dicecam.scoring import x` runs (and which imports nearly every module)."""
    modules = {p.stem: p for p in ROOT.glob("*.py")}

    def local(name: str) -> str | None:
        if name == PREFIX.rstrip("."):
            return "__init__"
        rest = name.removeprefix(PREFIX)
        return rest if name.startswith(PREFIX) and rest in modules else None

    return {name: {dep for m in _imports(path) if (dep := local(m)) is not None and dep != name}
            for name, path in modules.items()}


def test_no_import_circles_in_scoring():
    graph = _graph()
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, "import circle: " + " -> ".join((*path, name))
        if name in done:
            return
        for dep in graph[name]:
            visit(dep, (*path, name))
        done.add(name)

    for name in graph:
        visit(name, ())


def test_scoring_knows_nothing_of_pixels_or_http():
    foreign = ("dicecam.vision", "dicecam.webapp", "dicecam.training", "cv2", "onnxruntime",
               "flask", "torch", "numpy")
    for path in ROOT.glob("*.py"):
        bad = {m for m in _imports(path) if m.startswith(foreign)}
        assert not bad, f"{path.name} imports {sorted(bad)}"
