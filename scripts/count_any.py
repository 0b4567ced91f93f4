"""Count how much of wmbench's typing is ``Any``, read from the source with :mod:`ast` (nothing is imported).

::

    python scripts/count_any.py            # the totals and a line per part, for wmbench/ of this checkout
    python scripts/count_any.py SRC_ROOT   # another checkout's wmbench/ (e.g. an older commit, for before/after)

Two numbers, over every ``*.py`` under ``wmbench/``:

- ``dict[str, Any]``: annotations (of parameters, returns, variables and attributes) that contain
  ``dict[str, Any]`` (also spelled ``Dict[str, Any]`` or ``typing.Any``), counted once per occurrence;
- ``Any in signatures``: the ``Any`` names in function signatures (parameter and return annotations), counted
  once per occurrence (``Mapping[str, Any] | None`` counts 1, ``(a: Any) -> Any`` counts 2).

String annotations (``"dict[str, Any]"``) are parsed like written ones. Type aliases (``X = dict[str, Any]``)
are not annotations and are not counted; what uses the alias is counted only if it spells ``Any`` itself.
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Counts:
    """The two counts of one file or one tree."""

    dict_str_any: int = 0
    any_in_signatures: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.dict_str_any + other.dict_str_any, self.any_in_signatures + other.any_in_signatures)


def _expanded(node: ast.expr) -> ast.expr:
    """A string annotation parsed into its expression (other annotations as they are)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return node
    return node


def _is_any(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id == "Any") or (
        isinstance(node, ast.Attribute) and node.attr == "Any")


def _is_dict_str_any(node: ast.AST) -> bool:
    if not isinstance(node, ast.Subscript):
        return False
    base = node.value
    name = base.id if isinstance(base, ast.Name) else base.attr if isinstance(base, ast.Attribute) else ""
    if name not in {"dict", "Dict"} or not isinstance(node.slice, ast.Tuple) or len(node.slice.elts) != 2:
        return False
    key, value = node.slice.elts
    return isinstance(key, ast.Name) and key.id == "str" and _is_any(value)


def _walk(annotation: ast.expr) -> Iterator[ast.AST]:
    for node in ast.walk(_expanded(annotation)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node is not annotation:
            yield from _walk(node)   # a quoted part inside a written annotation
        else:
            yield node


def _signature_annotations(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.expr]:
    args = function.args
    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
        if arg is not None and arg.annotation is not None:
            yield arg.annotation
    if function.returns is not None:
        yield function.returns


def count_source(source: str) -> Counts:
    """The counts of one module's source text."""
    tree = ast.parse(source)
    dict_any = any_in_signatures = 0
    for node in ast.walk(tree):
        annotations: list[ast.expr] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            signature = list(_signature_annotations(node))
            annotations = signature
            any_in_signatures += sum(1 for a in signature for n in _walk(a) if _is_any(n))
        elif isinstance(node, ast.AnnAssign):
            annotations = [node.annotation]
        dict_any += sum(1 for a in annotations for n in _walk(a) if _is_dict_str_any(n))
    return Counts(dict_any, any_in_signatures)


def part_of(path: Path, package: Path) -> str:
    """``wmbench/scoring/c03.py`` -> ``scoring``; a module at the package root -> ``(root)``."""
    parts = path.relative_to(package).parts
    return parts[0] if len(parts) > 1 else "(root)"


def count_tree(root: Path) -> dict[str, Counts]:
    """Per part of ``root/wmbench``: the summed counts of its modules."""
    package = root / "wmbench"
    if not package.is_dir():
        raise SystemExit(f"expected a checkout with a wmbench/ package at {root}, got no {package}")
    totals: dict[str, Counts] = {}
    for path in sorted(package.rglob("*.py")):
        part = part_of(path, package)
        totals[part] = totals.get(part, Counts()) + count_source(path.read_text(encoding="utf-8"))
    return totals


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else Path(__file__).resolve().parents[1]
    per_part = count_tree(root)
    total = sum(per_part.values(), Counts())
    print(f"wmbench under {root}: dict[str, Any] annotations {total.dict_str_any}, "
          f"Any in signatures {total.any_in_signatures}")
    ranked = Counter({part: c.dict_str_any + c.any_in_signatures for part, c in per_part.items()})
    for part, _ in ranked.most_common():
        c = per_part[part]
        print(f"  {part:<12} dict[str, Any] {c.dict_str_any:>4}   Any in signatures {c.any_in_signatures:>4}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
