"""A sweep file's model: the grid of runs it describes, and the cells it expands to.

Card
----
- :class:`BrainEntry` — one brain of the grid: its spec (``reference``, ``openai/gpt-4o-mini``, ...), its
  options, and a label for the cell directory (default: the spec made safe for a file name).
- :class:`SweepSpec` — the whole file: brains, bodies, observation modes, motion models, the scenario
  selection, ``instances`` (a count) *or* ``seeds`` (explicit), live on/off, ``unpaced`` (the ``--unpaced``
  diagnostic for every cell: bench scenes at their own speeds on slow bodies), and how to run it (executor,
  Ray address, workers, API connections). A single run is a sweep of one cell (``wmbench run --config``).
- :class:`Cell` — one point of the grid: one run directory ``<out>/<cell.name>``; :meth:`SweepSpec.cells`
  expands the grid in file order (brains outermost, then bodies, observation modes, motion models).
- ``instances``/``seeds`` go to the run API unchanged (:meth:`SweepSpec.seed_arg`): how a count becomes
  drawn instances is the run's business, not the sweep's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wmbench.envs.pacing import SCENE_PACE

DEFAULT_OBSERVATION = "scene"
DEFAULT_MOTION_MODEL = "procedural"


def safe_name(text: str) -> str:
    """``text`` made safe for a directory name (``openai/gpt-4o`` -> ``openai_gpt-4o``)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_.") or "x"


@dataclass(frozen=True)
class BrainEntry:
    """One brain of the grid (see the module card)."""

    spec: str
    options: Mapping[str, Any] = field(default_factory=dict)
    label: str = ""

    @property
    def name(self) -> str:
        return safe_name(self.label or self.spec)


@dataclass(frozen=True)
class Cell:
    """One run of the sweep: a brain, a body, an observation mode and a motion model."""

    brain: BrainEntry
    body: str
    observation: str = DEFAULT_OBSERVATION
    motion_model: str = DEFAULT_MOTION_MODEL
    #: bench scenes at their own speeds on a slow body (``wmbench run --unpaced``)
    unpaced: bool = False

    @property
    def name(self) -> str:
        """The cell's directory name: ``<brain>__<body>[__<observation>][__<motion model>][__unpaced]`` (the
        defaults left out, so a plain grid reads ``reference__smpl``)."""
        parts = [self.brain.name, safe_name(self.body)]
        if self.observation != DEFAULT_OBSERVATION:
            parts.append(safe_name(self.observation))
        if self.motion_model != DEFAULT_MOTION_MODEL:
            parts.append(safe_name(self.motion_model))
        if self.unpaced:
            parts.append("unpaced")
        return "__".join(parts)

    @property
    def env_kwargs(self) -> dict[str, Any]:
        """The env options of this cell's run (only those off their default, as ``wmbench run`` records them)."""
        return {**({} if self.observation == DEFAULT_OBSERVATION else {"observation": self.observation}),
                **({"pace": SCENE_PACE} if self.unpaced else {})}


@dataclass(frozen=True)
class SweepSpec:
    """A sweep file (see the module card)."""

    brains: tuple[BrainEntry, ...]
    bodies: tuple[str, ...] = ("smpl",)
    observations: tuple[str, ...] = (DEFAULT_OBSERVATION,)
    motion_models: tuple[str, ...] = (DEFAULT_MOTION_MODEL,)
    scenarios: str = "all"
    instances: int | None = None
    seeds: tuple[int, ...] | None = None
    live: bool = False
    unpaced: bool = False
    out: Path = Path("runs/sweep")
    name: str = "sweep"
    executor: str = "local"
    ray_address: str | None = None
    workers: int = 2
    max_connections: int = 8
    #: Assumed seconds per API decision for the estimate (measure your endpoint and set it).
    latency_s: float = 1.0

    def cells(self) -> tuple[Cell, ...]:
        return tuple(Cell(brain, body, observation, motion, self.unpaced)
                     for brain in self.brains for body in self.bodies
                     for observation in self.observations for motion in self.motion_models)

    def seed_arg(self) -> int | tuple[int, ...]:
        """What the run API gets as ``seeds``: the explicit seeds, else the instance count (default 1)."""
        if self.seeds is not None:
            return self.seeds
        return self.instances if self.instances is not None else 1
