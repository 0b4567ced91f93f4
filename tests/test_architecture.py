"""The import architecture of wmbench, read from the source with :mod:`ast` (no wmbench module is imported).

Card
----
- :func:`import_graph` turns every module under ``wmbench/`` into its wmbench imports (:class:`ImportSite`):
  where it stands (module level, inside a function, under ``if TYPE_CHECKING:``) and what it names
  (``from wmbench.harness import run`` names the submodule ``wmbench.harness.run``). A lazily registered
  subcommand (``lazy("wmbench.harness.cli.run_command:run_command")``, ``lazy_command(..., "module:COMMAND")``:
  :data:`LAZY_LOADERS`) counts as a module-level import of the module its string names, so the command line's
  dependencies stay in the layer, cycle and import-table checks although nothing imports them until they run.
- **No cycles** (:func:`find_cycles`): among module-level imports, ``TYPE_CHECKING`` ones included (an
  annotation-only import is still a dependency), no strongly connected component of more than one module and no
  module importing itself.
- **Layers** (:func:`layer_violations`): every module belongs to a part (:func:`part_of`: ``core``, ``envs``, ...,
  and the harness subpackages as ``harness.run``, ``harness.cli``, ...); each part may import only the parts
  :data:`ALLOWED_IMPORTS` lists for it. So ``core`` imports nothing of ours, ``scoring`` never imports the
  harness, ``envs``/``scenarios``/``body``/``brain`` never import the harness, and inside the harness the
  composition root (``cli``) is imported by nobody. ``docs/architecture.md`` draws the same picture.
- **Function-level imports** (:func:`unexplained_lazy_imports`): an ``import`` of a wmbench module inside a
  function is allowed only where :data:`LAZY_IMPORTS` names the optional dependency it guards, and the imported
  module must import that dependency at module level (so the reason cannot go stale).
- **No facades** (:func:`pass_through_imports`): ``from M import N`` where ``M`` is a module (not a package
  ``__init__``, which is a part's public surface) must name something ``M`` defines, not a name ``M`` only
  imports; and a module's ``__all__`` lists only names it defines. One import path per name.
- **Docs**: every subpackage on disk is named in ``docs/architecture.md``.

Each check is also run on a tiny synthetic package to show it can fail.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from tests.source_tree import tree_of

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "wmbench"

#: The parts below the harness (and the root package, imported for ``__version__``) and what each may import.
_LOWER = {"core", "protocol", "scenarios", "body", "brain", "envs"}
_BELOW_HARNESS = _LOWER | {"scoring", "root"}
ALLOWED_IMPORTS: dict[str, set[str]] = {
    "root": {"envs"},
    "core": set(),
    "protocol": {"core"},
    "scenarios": {"core"},
    "body": {"core", "scenarios"},
    "brain": {"core", "protocol", "scenarios", "body"},
    "envs": {"core", "protocol", "scenarios", "body"},
    "scoring": {"core", "protocol", "scenarios", "body"},
    "harness": set(),
    "harness.run": _BELOW_HARNESS,
    "harness.video": _BELOW_HARNESS,
    "harness.live": _BELOW_HARNESS | {"harness.run", "harness.video"},
    "harness.transfer": _BELOW_HARNESS | {"harness.run"},
    "harness.report": _BELOW_HARNESS | {"harness.run", "harness.live"},
    "harness.validity": _BELOW_HARNESS | {"harness.run", "harness.transfer"},
    "harness.inspect_task": _BELOW_HARNESS | {"harness.run"},
    "harness.gym_entry": _BELOW_HARNESS,
    "harness.counterfactual": _BELOW_HARNESS | {"harness.run"},
    "harness.frontier": _BELOW_HARNESS | {"harness.run", "harness.live", "harness.report"},
    "harness.executors": _BELOW_HARNESS | {"harness.run"},
    "harness.dataset": _BELOW_HARNESS | {"harness.run"},
    "harness.suite": _BELOW_HARNESS | {"harness.run", "harness.live", "harness.transfer", "harness.report",
                                       "harness.executors"},
    "harness.sweep": _BELOW_HARNESS | {"harness.run", "harness.executors", "harness.suite"},
    "harness.official": _BELOW_HARNESS | {"harness.run", "harness.report"},
    "harness.leaderboard": _BELOW_HARNESS | {"harness.run", "harness.report", "harness.official"},
    "harness.verify": _BELOW_HARNESS | {"harness.run"},
    "harness.cli": _BELOW_HARNESS | {"harness.run", "harness.video", "harness.live", "harness.transfer",
                                     "harness.report", "harness.validity", "harness.suite",
                                     "harness.counterfactual", "harness.frontier", "harness.official",
                                     "harness.leaderboard", "harness.verify", "harness.executors",
                                     "harness.sweep", "harness.dataset"},
}

#: Function-level imports of wmbench modules that are allowed: (importer, imported) -> the optional dependency
#: the imported module loads at module level (the import is deferred so wmbench works without that extra).
LAZY_IMPORTS: dict[tuple[str, str], str] = {
    ("wmbench.body.motion.diffusion.generator", "wmbench.body.motion.diffusion.denoiser_torch"): "torch",
    ("wmbench.body.motion.diffusion.train", "wmbench.body.motion.diffusion.denoiser_torch"): "torch",
}


@dataclass(frozen=True)
class ImportSite:
    """One import of a wmbench module: who imports what, on which line, and where the statement stands."""

    importer: str
    imported: str
    line: int
    in_function: bool
    type_checking: bool


def module_name(path: Path, root: Path) -> str:
    """``wmbench/harness/run/episode.py`` -> ``wmbench.harness.run.episode`` (a package is its ``__init__``)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


#: functions whose ``"wmbench.module:attribute"`` string argument imports that module when called
#: (:func:`wmbench.harness.cli.base.lazy` and :func:`~wmbench.harness.cli.base.lazy_command`)
LAZY_LOADERS = frozenset({"lazy", "lazy_command"})
_LAZY_TARGET = re.compile(rf"^({PACKAGE}(?:\.\w+)+):\w+$")


def _lazy_targets(node: ast.Call, modules: set[str]) -> list[str]:
    """The wmbench modules a :data:`LAZY_LOADERS` call names in its string arguments."""
    func = node.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    if name not in LAZY_LOADERS:
        return []
    found = [m.group(1) for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
             and (m := _LAZY_TARGET.match(arg.value))]
    return [module for module in found if module in modules]


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool, modules: set[str]) -> list[str]:
    """The wmbench modules an import statement loads (``from pkg import sub`` counts as ``pkg.sub``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name.split(".")[0] == PACKAGE]
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        source = ".".join([*base, *([node.module] if node.module else [])])
    else:
        source = node.module or ""
    if source.split(".")[0] != PACKAGE:
        return []
    submodules = [f"{source}.{alias.name}" for alias in node.names if f"{source}.{alias.name}" in modules]
    return submodules or [source]


def import_sites(path: Path, module: str, modules: set[str]) -> list[ImportSite]:
    """Every wmbench import in one source file."""
    is_package = path.name == "__init__.py"
    sites: list[ImportSite] = []

    def visit(node: ast.AST, in_function: bool, type_checking: bool) -> None:
        for child in ast.iter_child_nodes(node):
            child_in_function = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            child_type_checking = type_checking or (isinstance(child, ast.If) and _is_type_checking(child))
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                sites.extend(ImportSite(module, target, child.lineno, in_function, type_checking)
                             for target in _targets(child, module, is_package, modules))
            elif isinstance(child, ast.Call):
                sites.extend(ImportSite(module, target, child.lineno, in_function, type_checking)
                             for target in _lazy_targets(child, modules))
            visit(child, child_in_function, child_type_checking)

    visit(tree_of(path), False, False)
    return sites


def package_sources(root: Path) -> dict[str, Path]:
    """Module name -> source file, for every module of the package under ``root``."""
    return {module_name(path, root): path for path in sorted((root / PACKAGE).rglob("*.py"))}


def import_graph(root: Path) -> list[ImportSite]:
    """Every wmbench import of every module under ``root/wmbench``."""
    sources = package_sources(root)
    modules = set(sources)
    return [site for module, path in sources.items() for site in import_sites(path, module, modules)]


def module_level_edges(sites: Iterable[ImportSite]) -> dict[str, set[str]]:
    """importer -> the modules it imports when it is imported (module level, ``TYPE_CHECKING`` included)."""
    edges: dict[str, set[str]] = {}
    for site in sites:
        edges.setdefault(site.importer, set())
        if not site.in_function:
            edges[site.importer].add(site.imported)
    return edges


def find_cycles(edges: Mapping[str, set[str]]) -> list[list[str]]:
    """The import cycles: strongly connected components of more than one module, or a module importing itself
    (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    nodes = sorted(set(edges) | {t for targets in edges.values() for t in targets})
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, ())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in edges.get(node, ()):
                        cycles.append(sorted(component))
    return cycles


def part_of(module: str) -> str:
    """The architectural part of a module: ``wmbench.harness.run.episode`` -> ``harness.run``,
    ``wmbench.scoring.c01`` -> ``scoring``, ``wmbench`` -> ``root``."""
    parts = module.split(".")[1:]
    if not parts:
        return "root"
    if parts[0] == "harness" and len(parts) > 1:
        return f"harness.{parts[1]}"
    return parts[0]


def layer_violations(sites: Iterable[ImportSite], allowed: Mapping[str, set[str]]) -> list[str]:
    """Imports (any kind: module level, in a function, type-only) from one part into a part it may not use."""
    found = []
    for site in sites:
        source, target = part_of(site.importer), part_of(site.imported)
        if source == target:
            continue
        if source not in allowed:
            found.append(f"{site.importer}: part {source!r} is not in the layer table (add it to ALLOWED_IMPORTS)")
        elif target not in allowed[source]:
            found.append(f"{site.importer}:{site.line} imports {site.imported} ({source} may not import {target})")
    return found


def _imports_at_module_level(path: Path, dependency: str) -> bool:
    tree = tree_of(path)
    for node in tree.body:
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == dependency for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == dependency and not node.level:
            return True
    return False


def unexplained_lazy_imports(sites: Iterable[ImportSite], sources: Mapping[str, Path],
                             lazy: Mapping[tuple[str, str], str]) -> list[str]:
    """Function-level wmbench imports that no :data:`LAZY_IMPORTS` entry explains, and entries whose imported
    module does not import the named optional dependency at module level (or that match no import any more)."""
    found = []
    used: set[tuple[str, str]] = set()
    for site in sites:
        if not site.in_function:
            continue
        key = (site.importer, site.imported)
        if key not in lazy:
            found.append(f"{site.importer}:{site.line} imports {site.imported} inside a function; move it to the "
                         f"top, or name the optional dependency it guards in LAZY_IMPORTS")
            continue
        used.add(key)
    for (importer, imported), dependency in lazy.items():
        if (importer, imported) not in used:
            found.append(f"LAZY_IMPORTS entry ({importer}, {imported}) matches no function-level import")
        elif imported not in sources or not _imports_at_module_level(sources[imported], dependency):
            found.append(f"LAZY_IMPORTS says {imported} loads {dependency!r}, but it does not import it at the top")
    return found


def defined_names(tree: ast.Module) -> set[str]:
    """Names a module defines at top level (functions, classes, assignments; also under ``if``/``try``)."""
    names: set[str] = set()

    def walk(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
            elif isinstance(node, (ast.If, ast.Try)):
                walk(node.body)
                walk(node.orelse)
                for handler in getattr(node, "handlers", []):
                    walk(handler.body)

    walk(tree.body)
    return names


def pass_through_imports(files: Iterable[Path], sources: Mapping[str, Path]) -> list[str]:
    """``from M import N`` in ``files`` where the module ``M`` does not define ``N`` (it only imports it),
    and ``__all__`` entries of a module that it does not define."""
    trees = {module: tree_of(path) for module, path in sources.items()}
    defined = {module: defined_names(tree) for module, tree in trees.items()}
    packages = {module for module, path in sources.items() if path.name == "__init__.py"}
    found = []
    for path in files:
        for node in ast.walk(tree_of(path)):
            if not isinstance(node, ast.ImportFrom) or node.level or node.module is None:
                continue
            source = node.module
            if source not in sources or source in packages:
                continue
            for alias in node.names:
                if alias.name not in defined[source] and f"{source}.{alias.name}" not in sources:
                    found.append(f"{path}:{node.lineno} imports {alias.name} from {source}, which does not "
                                 f"define it; import it from where it is defined")
    for module, tree in trees.items():
        if module in packages:
            continue
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__"
                                                    for t in node.targets):
                listed = [str(e.value) for e in getattr(node.value, "elts", []) if isinstance(e, ast.Constant)]
                found.extend(f"{module}.__all__ lists {name}, which it does not define"
                             for name in listed if name not in defined[module])
    return found


def measured_import_table(sites: Iterable[ImportSite]) -> str:
    """The parts each part really imports (any kind of import), as the Markdown table docs/architecture.md holds
    between its ``import-table`` markers: measured from the code, so the picture there cannot go stale."""
    uses: dict[str, set[str]] = {}
    for site in sites:
        source, target = part_of(site.importer), part_of(site.imported)
        uses.setdefault(source, set())
        if source != target:
            uses[source].add(target)
    rows = ["| part | imports (measured) |", "|---|---|"]
    rows += [f"| `{part}` | {', '.join(f'`{t}`' for t in sorted(targets)) or '—'} |"
             for part, targets in sorted(uses.items())]
    return "\n".join(rows)


IMPORT_TABLE_START, IMPORT_TABLE_END = "<!-- import-table:start -->", "<!-- import-table:end -->"


def doc_with_import_table(text: str, table: str) -> str:
    """``text`` with the block between the import-table markers replaced by ``table``."""
    head, rest = text.split(IMPORT_TABLE_START, 1)
    _, tail = rest.split(IMPORT_TABLE_END, 1)
    return f"{head}{IMPORT_TABLE_START}\n{table}\n{IMPORT_TABLE_END}{tail}"


# ------------------------------------------------------------------------------------------ the real package


def test_no_import_cycles():
    cycles = find_cycles(module_level_edges(import_graph(ROOT)))
    assert not cycles, f"import cycles: {cycles}"


def test_parts_import_only_the_layers_below():
    violations = layer_violations(import_graph(ROOT), ALLOWED_IMPORTS)
    assert not violations, "\n".join(violations)


def test_function_level_imports_only_guard_optional_dependencies():
    problems = unexplained_lazy_imports(import_graph(ROOT), package_sources(ROOT), LAZY_IMPORTS)
    assert not problems, "\n".join(problems)


def test_no_name_has_a_second_import_path():
    files = [path for folder in ("wmbench", "tests", "benchmarks", "examples", "scripts")
             for path in sorted((ROOT / folder).rglob("*.py"))]
    problems = pass_through_imports(files, package_sources(ROOT))
    assert not problems, "\n".join(problems)


def test_every_part_has_a_layer_rule():
    parts = {part_of(module) for module in package_sources(ROOT)}
    assert parts <= set(ALLOWED_IMPORTS), f"parts without a rule: {sorted(parts - set(ALLOWED_IMPORTS))}"


def test_architecture_doc_names_every_subpackage():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    packages = sorted(module_name(init, ROOT) for init in (ROOT / PACKAGE).rglob("__init__.py")
                      if init.parent != ROOT / PACKAGE)
    slash = {name.removeprefix(f"{PACKAGE}.").replace(".", "/") for name in packages}
    missing = sorted(p for p in slash if not re.search(rf"(?<![\w/]){re.escape(p)}/", text))
    assert not missing, f"docs/architecture.md does not name these subpackages (as `path/`): {missing}"


def test_architecture_doc_import_table_is_measured_from_the_code():
    """Regenerate with ``python -m tests.test_architecture`` when the imports change."""
    doc = ROOT / "docs" / "architecture.md"
    text = doc.read_text(encoding="utf-8")
    table = measured_import_table(import_graph(ROOT))
    assert doc_with_import_table(text, table) == text, (
        f"docs/architecture.md's import table is stale; run `python -m tests.test_architecture`:\n{table}")


# ------------------------------------------------------------------- the checks fail on a synthetic package


def _write_package(root: Path, files: Mapping[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_cycle_check_finds_a_cycle_hidden_behind_type_checking(tmp_path):
    _write_package(tmp_path, {
        "wmbench/__init__.py": "",
        "wmbench/brain/__init__.py": "",
        "wmbench/brain/a.py": "from wmbench.brain import b\n",
        "wmbench/brain/b.py": ("from typing import TYPE_CHECKING\n"
                               "if TYPE_CHECKING:\n    from wmbench.brain.a import X\n"),
        "wmbench/brain/c.py": "def f():\n    from wmbench.brain import a\n",
    })
    edges = module_level_edges(import_graph(tmp_path))
    assert find_cycles(edges) == [["wmbench.brain.a", "wmbench.brain.b"]]
    assert find_cycles({"x": {"x"}}) == [["x"]]
    assert find_cycles({"x": {"y"}, "y": {"z"}, "z": set()}) == []


def test_layer_check_finds_scoring_importing_the_harness(tmp_path):
    _write_package(tmp_path, {
        "wmbench/__init__.py": "",
        "wmbench/scoring/__init__.py": "",
        "wmbench/scoring/c01.py": "def f():\n    from wmbench.harness.run import episode\n",
        "wmbench/harness/__init__.py": "",
        "wmbench/harness/run/__init__.py": "",
        "wmbench/harness/run/episode.py": "from wmbench.scoring import c01\n",
        "wmbench/core/__init__.py": "from ..envs import x\n",
        "wmbench/envs/__init__.py": "",
        "wmbench/envs/x.py": "",
    })
    violations = layer_violations(import_graph(tmp_path), ALLOWED_IMPORTS)
    assert len(violations) == 2, violations
    assert ("wmbench.scoring.c01:2 imports wmbench.harness.run.episode (scoring may not import harness.run)"
            in violations)
    assert "wmbench.core:1 imports wmbench.envs.x (core may not import envs)" in violations


def test_a_lazily_registered_command_still_counts_as_an_import(tmp_path):
    _write_package(tmp_path, {
        "wmbench/__init__.py": "",
        "wmbench/scoring/__init__.py": "",
        "wmbench/scoring/c01.py": ("from wmbench.harness.cli.base import lazy, lazy_command\n"
                                   "RUN = lazy('wmbench.harness.cli.go:run')\n"
                                   "CMD = lazy_command('go', 'help', 'wmbench.harness.cli.go:GO')\n"
                                   "TEXT = print('wmbench.harness.cli.go:run')\n"),
        "wmbench/harness/__init__.py": "",
        "wmbench/harness/cli/__init__.py": "",
        "wmbench/harness/cli/base.py": "",
        "wmbench/harness/cli/go.py": "",
    })
    sites = [s for s in import_graph(tmp_path) if s.imported == "wmbench.harness.cli.go"]
    assert [(s.importer, s.line, s.in_function) for s in sites] == [
        ("wmbench.scoring.c01", 2, False), ("wmbench.scoring.c01", 3, False)]  # print() is no loader
    violations = layer_violations(import_graph(tmp_path), ALLOWED_IMPORTS)
    assert "wmbench.scoring.c01:2 imports wmbench.harness.cli.go (scoring may not import harness.cli)" in violations


def test_lazy_import_check_wants_a_real_optional_dependency(tmp_path):
    _write_package(tmp_path, {
        "wmbench/__init__.py": "",
        "wmbench/body/__init__.py": "",
        "wmbench/body/heavy.py": "import torch\n",
        "wmbench/body/plain.py": "import json\n",
        "wmbench/body/user.py": ("def a():\n    from wmbench.body import heavy\n"
                                 "def b():\n    from wmbench.body.plain import x\n"),
    })
    sites = import_graph(tmp_path)
    sources = package_sources(tmp_path)
    assert unexplained_lazy_imports(sites, sources, {("wmbench.body.user", "wmbench.body.heavy"): "torch",
                                                     ("wmbench.body.user", "wmbench.body.plain"): "torch"}) == [
        "LAZY_IMPORTS says wmbench.body.plain loads 'torch', but it does not import it at the top"]
    problems = unexplained_lazy_imports(sites, sources, {("wmbench.body.gone", "wmbench.body.heavy"): "torch"})
    assert problems == [
        "wmbench.body.user:2 imports wmbench.body.heavy inside a function; move it to the top, or name the "
        "optional dependency it guards in LAZY_IMPORTS",
        "wmbench.body.user:4 imports wmbench.body.plain inside a function; move it to the top, or name the "
        "optional dependency it guards in LAZY_IMPORTS",
        "LAZY_IMPORTS entry (wmbench.body.gone, wmbench.body.heavy) matches no function-level import"]


def test_facade_check_finds_a_pass_through_import(tmp_path):
    _write_package(tmp_path, {
        "wmbench/__init__.py": "",
        "wmbench/body/__init__.py": "from wmbench.body.words import WORD\n",
        "wmbench/body/words.py": "WORD = 1\n",
        "wmbench/body/facade.py": "from wmbench.body.words import WORD\n__all__ = ['WORD', 'OWN']\nOWN = 2\n",
        "wmbench/body/user.py": ("from wmbench.body.facade import OWN, WORD\nfrom wmbench.body import WORD as W\n"
                                 "from wmbench.body import words\n"),
    })
    sources = package_sources(tmp_path)
    assert pass_through_imports([tmp_path / "wmbench/body/user.py"], sources) == [
        f"{tmp_path / 'wmbench/body/user.py'}:1 imports WORD from wmbench.body.facade, which does not define "
        "it; import it from where it is defined",
        "wmbench.body.facade.__all__ lists WORD, which it does not define"]


if __name__ == "__main__":  # python -m tests.test_architecture: rewrite docs/architecture.md's import table
    _doc = ROOT / "docs" / "architecture.md"
    _doc.write_text(doc_with_import_table(_doc.read_text(encoding="utf-8"), measured_import_table(import_graph(ROOT))),
                    encoding="utf-8")
    print(f"rewrote the import table of {_doc}")
