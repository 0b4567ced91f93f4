"""The Body contract is the only way the framework reads a body: no ``getattr``/``hasattr`` probing of bodies
(or of the world handle a body is given) comes back in wmbench's source."""

from __future__ import annotations

import re
from pathlib import Path

import wmbench

SOURCE = Path(wmbench.__file__).resolve().parent
#: The checker probes on purpose: finding what a body lacks is its job.
CHECKER = "body/checker.py"
#: ``getattr(body, ...)``, ``hasattr(self.body, ...)``, ``getattr(get_body(name), ...)``, ``getattr(world, ...)``.
PROBE = re.compile(r"\b(?:getattr|hasattr)\(\s*(?:(?:self\.|env\.)?_?(?:body|world)\b|get_body\()")


def probes_in(text: str) -> list[int]:
    """Line numbers of undeclared reads of a body or a world handle."""
    return [number for number, line in enumerate(text.splitlines(), 1) if PROBE.search(line)]


def test_the_pattern_finds_the_0_2_probes():
    old = ('sync = getattr(self.body, "sync_visuals", None)\n'
           'return dict(getattr(get_body(body), "envelope", SPEED_CLASS_SPEEDS))\n'
           'ground = getattr(world, "ground_id", -1)\nnames = getattr(world.walls, "x")\n')
    assert probes_in(old) == [1, 2, 3, 4]
    assert probes_in("getattr(brain, 'name', '?')\nself.body.envelope\nbody_state = getattr(x, 'body')") == []


def test_no_module_probes_a_body_or_a_world():
    found = {str(path.relative_to(SOURCE)): lines for path in sorted(SOURCE.rglob("*.py"))
             if (lines := probes_in(path.read_text(encoding="utf-8")))
             and path.relative_to(SOURCE).as_posix() != CHECKER}
    assert found == {}, f"declare these in wmbench.body.base (Body / WorldHandle) instead: {found}"
