"""Shared vocabulary lives once, in ``wmbench/core/``: an AST scan of every other wmbench module fails when a
copy of a core table reappears (issue 10 item 1). Each detector is also fed a snippet with a copy (it must
fire) and one without (it must stay quiet), so none of them is a check that cannot fail.

What counts as a copy (outside ``wmbench/core/``):

- **directions**: a tuple/list/set literal holding all four grammar words (fwd/left/right/back) or all four
  scene words (front/left/right/back); a dict literal keyed by all four whose values are data (numbers,
  angles, vectors, direction words) rather than wording; a left <-> right swap table; a dict of side words
  to angles.
- **entities**: a literal holding three or more NPC behaviours (as elements or keys), or all three NPC kinds.
- **speed classes**: a literal made only of speed-class names (four or more), as elements or keys.
- **taxonomy**: a dict keyed by three or more category ids (or by all pillars) whose values are taxonomy data
  (titles, pillar ids, category tuples, numbers); a literal of three or more category ids; a category or
  pillar title as a string on its own; a grade table (letter, score) pairs.
- **thresholds**: a module constant named like a moved/travel/displacement distance or a human danger
  range; a float literal equal to a named distance compared with a distance expression.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import wmbench
from tests.source_tree import source_of, tree_of
from wmbench.core.directions import DIRECTIONS, SCENE_ORDER
from wmbench.core.entities import BEHAVIORS, NPC_KINDS
from wmbench.core.speed import SPEED_CLASS_SPEEDS
from wmbench.core.taxonomy import CATEGORY_TITLES, PILLAR_TITLES, PILLARS
from wmbench.core.thresholds import HUMAN_DANGER_RANGE_M, MOVED_DISTANCE_M, SCORED_DISPLACEMENT_M

PACKAGE_ROOT = Path(wmbench.__file__).parent
CORE = PACKAGE_ROOT / "core"

GRAMMAR_WORDS = frozenset(DIRECTIONS)
SCENE_WORDS = frozenset(SCENE_ORDER)
DIRECTION_WORDS = GRAMMAR_WORDS | SCENE_WORDS
SIDE_WORDS = frozenset({"left", "right"})
BEHAVIOR_WORDS = frozenset(BEHAVIORS)
KIND_WORDS = frozenset(NPC_KINDS)
SPEED_WORDS = frozenset(SPEED_CLASS_SPEEDS)
CATEGORY_ID = re.compile(r"C\d\d")
PILLAR_IDS = frozenset(PILLARS)
TITLES = frozenset(CATEGORY_TITLES.values()) | frozenset(PILLAR_TITLES.values())
GRADE_LETTERS = frozenset("SABCDF")
THRESHOLD_VALUES = (MOVED_DISTANCE_M, SCORED_DISPLACEMENT_M, HUMAN_DANGER_RANGE_M)
THRESHOLD_NAME = re.compile(r"(MOVE|MOVED|TRAVEL|DISPLACEMENT|HUMAN_DANGER)", re.IGNORECASE)
DISTANCE_WORDS = re.compile(r"(hypot|norm|dist|displacement|travel)", re.IGNORECASE)

Finding = str
Detector = Callable[[ast.AST, str], Iterator[Finding]]


# ---------------------------------------------------------------------------------------------- AST helpers
def _strings(nodes: list[ast.expr | None]) -> list[str]:
    return [n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _sequences(tree: ast.AST) -> Iterator[ast.Tuple | ast.List | ast.Set]:
    yield from (n for n in ast.walk(tree) if isinstance(n, (ast.Tuple, ast.List, ast.Set)))


def _dicts(tree: ast.AST) -> Iterator[ast.Dict]:
    yield from (n for n in ast.walk(tree) if isinstance(n, ast.Dict))


def _is_number(node: ast.expr) -> bool:
    """A number, an angle such as ``math.pi / 2`` or ``-math.pi``, or a tuple of those."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return _is_number(node.operand)
    if isinstance(node, ast.BinOp):
        return _is_number(node.left) and _is_number(node.right)
    if isinstance(node, ast.Attribute):
        return node.attr == "pi"
    if isinstance(node, ast.Tuple):
        return bool(node.elts) and all(_is_number(e) for e in node.elts)
    return False


def _is_word_in(node: ast.expr, words: frozenset[str]) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in words
    if isinstance(node, ast.Tuple):
        return bool(node.elts) and all(_is_word_in(e, words) for e in node.elts)
    return False


def _where(node: ast.AST) -> str:
    return f"line {getattr(node, 'lineno', '?')}"


# ---------------------------------------------------------------------------------------------- detectors
def direction_copies(tree: ast.AST, source: str) -> Iterator[Finding]:
    for seq in _sequences(tree):
        words = set(_strings(list(seq.elts)))
        if words >= GRAMMAR_WORDS or words >= SCENE_WORDS:
            yield f"{_where(seq)}: a literal of the four direction words (use wmbench.core.directions)"
    for d in _dicts(tree):
        keys = _strings(d.keys)
        pairs = {k.value: v for k, v in zip(d.keys, d.values) if isinstance(k, ast.Constant)}
        data_values = all(_is_number(v) or _is_word_in(v, DIRECTION_WORDS) for v in d.values)
        if (set(keys) >= GRAMMAR_WORDS or set(keys) >= SCENE_WORDS) and data_values:
            yield f"{_where(d)}: a direction table keyed by the four directions (use wmbench.core.directions)"
        elif all(isinstance(pairs.get(a), ast.Constant) and pairs[a].value == b
                 for a, b in (("left", "right"), ("right", "left"))):
            yield f"{_where(d)}: a left <-> right swap table (use wmbench.core.directions.mirrored)"
        elif len(keys) >= 2 and set(keys) <= DIRECTION_WORDS and all(_is_number(v) for v in d.values):
            yield f"{_where(d)}: direction angles/vectors (use wmbench.core.directions.DIRECTION_HEADINGS)"


def entity_copies(tree: ast.AST, source: str) -> Iterator[Finding]:
    entity_words = BEHAVIOR_WORDS | KIND_WORDS
    for seq in _sequences(tree):
        words = _strings(list(seq.elts))
        only_entities = len(words) == len(seq.elts) and set(words) <= entity_words
        if only_entities and (len(set(words) & BEHAVIOR_WORDS) >= 3 or set(words) >= KIND_WORDS):
            yield f"{_where(seq)}: a literal of NPC behaviours/kinds (use wmbench.core.entities)"
    for d in _dicts(tree):
        data_values = all(_is_number(v) or _is_word_in(v, entity_words) for v in d.values)
        if len(set(_strings(d.keys)) & BEHAVIOR_WORDS) >= 3 and data_values:
            yield f"{_where(d)}: a table of NPC behaviours (speeds, ranks; use wmbench.core.entities)"


def speed_class_copies(tree: ast.AST, source: str) -> Iterator[Finding]:
    for node in [*_sequences(tree), *_dicts(tree)]:
        items = list(node.keys) if isinstance(node, ast.Dict) else list(node.elts)
        words = _strings(items)
        data_values = not isinstance(node, ast.Dict) or all(
            _is_number(v) or _is_word_in(v, SPEED_WORDS) for v in node.values)
        if len(words) >= 4 and len(words) == len(items) and set(words) <= SPEED_WORDS and data_values:
            yield f"{_where(node)}: a speed-class table (use wmbench.core.speed)"
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and ast.unparse(node.value) in ("Literal", "typing.Literal"):
            words = _strings(list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice])
            if len(set(words) & SPEED_WORDS) >= 4:
                yield f"{_where(node)}: a Literal of speed classes (use wmbench.core.speed.SpeedName)"


def taxonomy_copies(tree: ast.AST, source: str) -> Iterator[Finding]:
    def taxonomy_value(v: ast.expr) -> bool:
        if isinstance(v, ast.Constant):
            return v.value in TITLES or v.value in PILLAR_IDS or _is_number(v)
        if isinstance(v, ast.Tuple):
            return all(isinstance(e, ast.Constant) and CATEGORY_ID.fullmatch(str(e.value)) for e in v.elts)
        return False

    for d in _dicts(tree):
        keys = set(_strings(d.keys))
        by_category = len({k for k in keys if CATEGORY_ID.fullmatch(k)}) >= 3
        if (by_category or keys >= PILLAR_IDS) and d.values and all(taxonomy_value(v) for v in d.values):
            yield f"{_where(d)}: a category/pillar table (use wmbench.core.taxonomy)"
    for seq in _sequences(tree):
        ids = [w for w in _strings(list(seq.elts)) if CATEGORY_ID.fullmatch(w)]
        if len(ids) >= 3:
            yield f"{_where(seq)}: a literal list of categories (use wmbench.core.taxonomy)"
        pairs = [e for e in seq.elts if isinstance(e, ast.Tuple) and len(e.elts) == 2]
        letters = {p.elts[0].value for p in pairs if isinstance(p.elts[0], ast.Constant)}
        if len(letters & GRADE_LETTERS) >= 3 and all(_is_number(p.elts[1]) for p in pairs):
            yield f"{_where(seq)}: a grade table (use wmbench.core.taxonomy.GRADE_THRESHOLDS)"
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in TITLES:
            yield f"{_where(node)}: the title {node.value!r} (use wmbench.core.taxonomy)"


def threshold_copies(tree: ast.AST, source: str) -> Iterator[Finding]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Constant):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if any(THRESHOLD_NAME.search(n) and n.isupper() for n in names) and _is_number(node.value):
                yield f"{_where(node)}: a distance threshold {names} defined here (use wmbench.core.thresholds)"
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            literal = [o for o in operands if isinstance(o, ast.Constant) and o.value in THRESHOLD_VALUES
                       and isinstance(o.value, float)]
            if not literal:
                continue
            other = " ".join(ast.unparse(o) for o in operands if o not in literal)
            if DISTANCE_WORDS.search(other):
                yield f"{_where(node)}: a distance compared with the literal {literal[0].value} " \
                      "(use wmbench.core.thresholds)"


DETECTORS: dict[str, Detector] = {
    "directions": direction_copies, "entities": entity_copies, "speed classes": speed_class_copies,
    "taxonomy": taxonomy_copies, "thresholds": threshold_copies,
}


def scan(source: str, detector: Detector) -> list[Finding]:
    return list(detector(ast.parse(source), source))


def _modules_outside_core() -> list[Path]:
    return [p for p in sorted(PACKAGE_ROOT.rglob("*.py")) if CORE not in p.parents]


# ---------------------------------------------------------------------------------------------- the scan
def test_the_scan_covers_the_package() -> None:
    modules = _modules_outside_core()
    assert len(modules) > 150 and not any(CORE in p.parents for p in modules)


@pytest.mark.parametrize("kind", DETECTORS)
def test_no_copy_of_the_core_vocabulary_outside_core(kind: str) -> None:
    findings = []
    for path in _modules_outside_core():
        found = DETECTORS[kind](tree_of(path), source_of(path))
        findings += [f"{path.relative_to(PACKAGE_ROOT.parent)} {f}" for f in found]
    assert not findings, "\n".join(findings)


# ---------------------------------------------------------------------------------------------- each detector fires
COPIES: dict[str, list[str]] = {
    "directions": [
        'DIRS = ("fwd", "left", "right", "back")',
        'WALLS = ["left", "right", "front", "back"]',
        'ANGLES = {"fwd": 0.0, "left": math.pi / 2, "right": -math.pi / 2, "back": math.pi}',
        'OPP = {"fwd": "back", "back": "fwd", "left": "right", "right": "left"}',
        'def f(w):\n    return {"left": "right", "right": "left"}.get(w, w)',
        'side = {"left": math.pi / 2, "right": -math.pi / 2}',
    ],
    "entities": [
        'RANK = {"charge": 0, "approach": 1, "wander": 2, "stop": 3}',
        'KINDS = ("beast", "woman", "man")',
        'if b in ("approach", "charge", "wander"):\n    pass',
    ],
    "speed classes": [
        'RANKS = {"still": 0, "walk": 1, "jog": 2, "run": 3, "sprint": 4}',
        'ORDER = ("walk", "jog", "run", "sprint")',
        'Speed = Literal["still", "walk", "jog", "run", "sprint"]',
    ],
    "taxonomy": [
        'PILLARS = {"P1": ("C01", "C02"), "P2": ("C03", "C04"), "P3": ("C08", "C09", "C10")}',
        'TITLES = {"C01": "Environmental Awareness", "C02": "Entity Recognition", "C03": "Predictive Reasoning"}',
        'BENCH = ("C01", "C02", "C03", "C04")',
        'title = "Contextual Memory"',
        'GRADES = (("S", 900.0), ("A", 750.0), ("B", 600.0), ("F", 0.0))',
    ],
    "thresholds": [
        'MIN_MOVE = 0.05',
        'MIN_DISPLACEMENT_M: float = 0.1',
        'moved = math.hypot(dx, dy) >= 0.05',
        'if dist < 0.1:\n    pass',
    ],
}
#: Ordinary code each detector must leave alone (wording keyed by direction, colours keyed by pillar, ...).
NOT_COPIES: dict[str, list[str]] = {
    "directions": [
        'TEMPLATES = {"left": "runs to the left", "right": "runs to the right", "fwd": "runs on", "back": "turns"}',
        'for side in ("left", "right"):\n    pass',
        'SIGNS = (("left", 1.0), ("right", -1.0))',
    ],
    "entities": [
        'NOISES = {"charge": "roar", "approach": "growl"}', 'x = ("beast", "human")',
        'ADJECTIVES = {"stop": "stationary", "approach": "approaching", "charge": "charging"}',
        'NOUNS = frozenset({"beast", "lion", "woman", "man", "person"})',
    ],
    "speed classes": [
        'SPEED_WORDS = {"sprint": "sprint", "dash": "sprint", "run": "run", "walk": "walk"}',
        'VERBS = {"walk": "walks", "jog": "jogs", "run": "runs", "sprint": "sprints"}',
    ],
    "taxonomy": [
        'COLORS = {"P1": "#3b7dd8", "P2": "#d8833b", "P3": "#3bab6a"}',
        'INTENSITY = ("C05", "C07")',
        'MODULES = {"C01": c01, "C02": c02, "C03": c03}',
    ],
    "thresholds": ['PREDICT_WEIGHT = 0.1', 'ok = ratio >= 0.1', 'near = math.hypot(dx, dy) <= RADIUS'],
}


@pytest.mark.parametrize(("kind", "snippet"), [(k, s) for k, snippets in COPIES.items() for s in snippets])
def test_each_detector_fires_on_a_copy(kind: str, snippet: str) -> None:
    assert scan(snippet, DETECTORS[kind]), f"the {kind} detector missed: {snippet}"


@pytest.mark.parametrize(("kind", "snippet"), [(k, s) for k, snippets in NOT_COPIES.items() for s in snippets])
def test_each_detector_leaves_ordinary_code_alone(kind: str, snippet: str) -> None:
    assert scan(snippet, DETECTORS[kind]) == []


def test_every_detector_has_snippets_both_ways() -> None:
    assert set(COPIES) == set(DETECTORS) == set(NOT_COPIES)


# ---------------------------------------------------------------------------------------------- core is a leaf
def imports_outside_core(source: str) -> list[str]:
    """The wmbench modules (other than ``wmbench.core.*``) a source imports, at any depth of the file."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
            [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
        found += [n for n in names if n.split(".")[0] == "wmbench" and not n.startswith("wmbench.core")]
    return found


def test_core_imports_nothing_of_ours() -> None:
    modules = sorted(CORE.rglob("*.py"))
    assert len(modules) >= 6
    assert {p.name: imports_outside_core(p.read_text(encoding="utf-8")) for p in modules} == {
        p.name: [] for p in modules}


def test_the_leaf_check_can_fail() -> None:
    source = ("import wmbench.envs\nfrom wmbench.core.speed import SpeedClass\n"
              "def f():\n    from wmbench.body import x\n")
    assert imports_outside_core(source) == ["wmbench.envs", "wmbench.body"]
