"""The package's import graph, read from its source, and the stage diagram of ``docs/architecture.md`` drawn from it.

Every ``import`` and ``from ... import`` of ``src/lexigraph`` counts, those
made inside functions included; those under ``if TYPE_CHECKING:`` do not (they
never run). A module imported by name through ``importlib.import_module`` or
``support.lazy.Lazy`` with a literal name counts too. ``tests/test_layout.py``
holds the package to what this reads: no cycle among modules nor among stages,
and every import inside a function on its list of deferred imports.

A *stage* is a subpackage (``compiler``, ``engine``...) or a top-level module
(``lexicon``, ``errors``...); the package itself (``lexigraph/__init__.py``)
is the stage ``lexigraph``. The diagram draws an arrow from each stage to the
stages that import it, the way the data flows, leaving out an arrow that a
longer path already implies.

    python tools/import_graph.py            # the stages, their arrows, the imports made inside functions
    python tools/import_graph.py --diagram  # the Mermaid block docs/architecture.md holds
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "lexigraph"
#: Calls that import the module named by their first argument, when it is a literal.
IMPORTING_CALLS = ("import_module", "Lazy")


@dataclass(frozen=True)
class Import:
    """One import a module makes: the module it names, where, and whether a function holds it."""

    importer: str
    imported: str  # the module, or for a third-party import its top-level package
    line: int
    in_function: bool

    @property
    def of_package(self) -> bool:
        return self.imported.split(".")[0] == "lexigraph"


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by its dotted name."""
    return {module_name(p, package): p for p in sorted(package.rglob("*.py")) if "__pycache__" not in p.parts}


def _absolute(importer: str, is_package: bool, module: str | None, level: int) -> str:
    """The absolute name a relative ``from`` import names."""
    if not level:
        return module or ""
    base = importer.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - level + 1]
    return ".".join(base + ([module] if module else []))


def _known(name: str, names: Iterable[str]) -> str:
    """``name`` or the nearest enclosing module that exists (``a.b.C`` names the module ``a.b``)."""
    known = set(names)
    while name and name not in known and "." in name:
        name = name.rsplit(".", 1)[0]
    return name if name in known else ""


def _under_type_checking(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def _in_function(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return True
    return False


def _names(node: ast.AST, importer: str, is_package: bool, known: dict[str, Path]) -> list[str]:
    """The modules one import node names (for a third-party import, its top-level package)."""
    if isinstance(node, ast.Import):
        return [_known(a.name, known) or a.name.split(".")[0] for a in node.names]
    if isinstance(node, ast.ImportFrom):
        source = _absolute(importer, is_package, node.module, node.level)
        if not source.startswith("lexigraph"):
            return [source.split(".")[0]]
        return [_known(f"{source}.{a.name}", known) or _known(source, known) or source for a in node.names]
    assert isinstance(node, ast.Call)
    name = node.args[0].value if node.args and isinstance(node.args[0], ast.Constant) else None
    if not isinstance(name, str):
        return []
    if name.startswith("."):  # import_module(".x", __name__): relative to the package
        name = _absolute(importer, True, name.lstrip("."), len(name) - len(name.lstrip(".")))
    return [_known(name, known) or name.split(".")[0]]


def _is_importing_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name in IMPORTING_CALLS


def imports_of(path: Path, known: dict[str, Path] | None = None, package: Path = PACKAGE) -> list[Import]:
    """The imports the module at ``path`` makes, ``TYPE_CHECKING`` blocks aside."""
    known = modules(package) if known is None else known
    importer = module_name(path, package)
    tree = ast.parse(path.read_text("utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)) and not _is_importing_call(node):
            continue
        if _under_type_checking(node, parents):
            continue
        inside = _in_function(node, parents)
        for name in _names(node, importer, path.name == "__init__.py", known):
            if name and name != importer:
                found.append(Import(importer, name, getattr(node, "lineno", 0), inside))
    return found


def all_imports(package: Path = PACKAGE) -> list[Import]:
    """Every import the package's modules make."""
    known = modules(package)
    return [i for path in known.values() for i in imports_of(path, known, package)]


def stage(module: str) -> str:
    """The stage a module belongs to: ``lexigraph.compiler.cache`` -> ``compiler``; ``lexigraph`` -> ``lexigraph``.

    >>> stage("lexigraph.compiler.cache"), stage("lexigraph.lexicon"), stage("lexigraph")
    ('compiler', 'lexicon', 'lexigraph')
    """
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def module_graph(found: Iterable[Import]) -> dict[str, set[str]]:
    """Module -> the package modules it imports."""
    graph: dict[str, set[str]] = defaultdict(set)
    for i in found:
        if i.of_package:
            graph[i.importer].add(i.imported)
    return dict(graph)


def stage_graph(found: Iterable[Import]) -> dict[str, set[str]]:
    """Stage -> the other stages it imports."""
    graph: dict[str, set[str]] = defaultdict(set)
    for i in found:
        if i.of_package and stage(i.importer) != stage(i.imported):
            graph[stage(i.importer)].add(stage(i.imported))
    return dict(graph)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), each sorted: every cycle lies in one.

    >>> cycles({"a": {"b"}, "b": {"a", "c"}, "c": set()})
    [['a', 'b']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    nodes = sorted(set(graph) | {m for targets in graph.values() for m in targets})

    def connect(v: str) -> None:  # recursion depth is the longest import chain: a few dozen
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in nodes:
        if v not in index:
            connect(v)
    return sorted(found)


def reduced(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The transitive reduction of a DAG: an edge kept only when no longer path joins its ends.

    >>> reduced({"a": {"b", "c"}, "b": {"c"}})
    {'a': {'b'}, 'b': {'c'}}
    """
    def reachable(start: str, skip: str) -> set[str]:
        seen: set[str] = set()
        todo = [w for w in graph.get(start, ()) if w != skip]
        while todo:
            v = todo.pop()
            if v not in seen:
                seen.add(v)
                todo.extend(graph.get(v, ()))
        return seen

    return {v: {w for w in targets if w not in reachable(v, w)} for v, targets in graph.items()}


def diagram(found: Iterable[Import]) -> str:
    """The stages as a Mermaid flowchart, an arrow from each stage to those that import it (the data's direction)."""
    graph = reduced(stage_graph(found))
    lines = ["```mermaid", "flowchart BT"]
    for importer in sorted(graph):
        for imported in sorted(graph[importer]):
            lines.append(f"    {_node(imported)} --> {_node(importer)}")
    lines.append("```")
    return "\n".join(lines)


def _node(name: str) -> str:
    return f"{name.strip('_')}[{name}]" if name.startswith("_") else name


def _report(found: list[Import]) -> Iterator[str]:
    inside = [i for i in found if i.in_function]
    yield f"{len(found)} imports; {len(inside)} inside functions ({sum(i.of_package for i in inside)} of the package)"
    for c in cycles(module_graph(found)):
        yield f"module cycle: {' '.join(c)}"
    for c in cycles(stage_graph(found)):
        yield f"stage cycle: {' '.join(c)}"
    for i in inside:
        yield f"  inside a function: {i.importer}:{i.line} -> {i.imported}"


def main(argv: list[str]) -> int:
    found = all_imports()
    if argv[1:2] == ["--diagram"]:
        print(diagram(found))
        return 0
    for line in _report(found):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
