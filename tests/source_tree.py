"""One read and one parse of each source file per test session, shared by every test that reads the tree.

The architecture test (import graph, pass-through imports), the single-source scan (five detectors) and the
error-hierarchy walk each used to read and ``ast.parse`` the whole package again — the same 200+ files parsed
about ten times per session. :func:`tree_of` and :func:`source_of` cache per (path, size, mtime), so a file
written by a test (``tmp_path`` packages) or edited between runs is parsed afresh, and an unchanged one once.

The trees are shared: callers must only read them (``ast.walk``, ``iter_child_nodes``), never modify them.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def _read(path: str, size: int, mtime_ns: int) -> tuple[str, ast.Module]:
    source = Path(path).read_text(encoding="utf-8")
    return source, ast.parse(source, filename=path)


def _key(path: Path) -> tuple[str, int, int]:
    stat = path.stat()
    return str(path.resolve()), stat.st_size, stat.st_mtime_ns


def source_of(path: Path) -> str:
    """The text of a source file (read once per session while it is unchanged)."""
    return _read(*_key(path))[0]


def tree_of(path: Path) -> ast.Module:
    """The parsed module of a source file (parsed once per session while it is unchanged; read-only)."""
    return _read(*_key(path))[1]
