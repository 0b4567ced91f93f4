"""The test split: which instances a run scores, and the spec-fidelity instance it reports apart.

Card
----
- **Spec fidelity.** Seed 0 of every family is the spec's canonical, published instance. Anybody can
  memorise it, so it never counts in the WM Score: a run reports it apart (``scores.json``'s
  ``spec_fidelity``, the report's "Spec fidelity" section) and scores the WM Score over its *test
  instances*, every other seed.
- **Drawn instances** (the default of ``wmbench run``): a per-run random ``nonce`` (63 bits, recorded in
  ``run.json``, ``scores.json`` and ``leaderboard_entry.json``) draws :data:`DEFAULT_INSTANCES` test seeds from a
  large seed space (:func:`draw_test_seeds`). Instance ``i`` gets seed ``4 * base + i % 4``, one ``base`` per block
  of four drawn from the nonce: the families' counterbalancing reads the low bits of the seed (the mirror takes bit
  0, the turned front ``seed // 2``, the C02 creature ``seed // 4 + seed``), so every block of four instances (one
  base) covers both mirror sides, two fronts and every creature exactly, as seeds 0-3 do, while every range
  (distances, times) is a fresh draw per seed. The same nonce always gives the same seeds, so ``--seed-list`` (or
  ``--instances-from``) reproduces a run exactly.
- **Explicit seeds** (``--seeds N`` = 0..N-1, ``--seed-list``): no nonce, the seeds as given; seed 0 among
  them is spec fidelity, the others are the test instances. A run of seed 0 alone has no test instance: its
  WM Score is the canonical instance's, and the ``split`` block says ``canonical_only`` (not comparable with a
  test-split score; the leaderboard entry carries it).
- **Resuming**: a rerun into the same ``--out`` without explicit seeds reuses the nonce recorded in its
  ``run.json`` (:func:`resume_or_draw`) — it never draws new instances. ``--instances-from RUN`` takes another
  run's instances (nonce and count, or its explicit seeds) so two brains are compared on the same worlds.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wmbench.core.errors import ConfigError
from wmbench.harness.run.results import RUN_FILE, read_json
from wmbench.harness.run.selection import MAX_SEED
from wmbench.scoring.scores_file import SplitBlock

#: the canonical instance of every family: reported as spec fidelity, never in the WM Score
SPEC_FIDELITY_SEED = 0
#: drawn test instances per scenario in a default run (the issue asks for at least 4)
DEFAULT_INSTANCES = 4
#: the seed space a base is drawn from: ``4 * base + i % 4`` stays within the seeds a run accepts
_BASES = MAX_SEED // 4 - 1
#: a nonce is a non-negative integer below this (63 bits: fits a signed 64-bit JSON reader)
NONCE_LIMIT = 2**63


class InstancesError(ConfigError):
    """The instances to run cannot be found or do not fit (``--instances-from``, ``--instances``)."""


@dataclass(frozen=True)
class InstanceDraw:
    """A run's drawn instances: ``count`` test seeds drawn from ``nonce``, plus seed 0 (``spec_fidelity``)."""

    nonce: int
    count: int = DEFAULT_INSTANCES
    spec_fidelity: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.nonce, bool) or not isinstance(self.nonce, int) or not 0 <= self.nonce < NONCE_LIMIT:
            raise InstancesError(f"the instance nonce must be an integer from 0 to 2**63-1, got {self.nonce!r}")
        if isinstance(self.count, bool) or not isinstance(self.count, int) or not 1 <= self.count <= 10_000:
            raise InstancesError(f"--instances must be between 1 and 10,000, got {self.count!r}")

    @classmethod
    def fresh(cls, count: int = DEFAULT_INSTANCES, spec_fidelity: bool = True) -> InstanceDraw:
        """A new draw with a random nonce (``secrets``: not the env's generator, which it must not touch)."""
        return cls(secrets.randbelow(NONCE_LIMIT), count, spec_fidelity)

    @property
    def test_seeds(self) -> tuple[int, ...]:
        return draw_test_seeds(self.nonce, self.count)

    @property
    def seeds(self) -> tuple[int, ...]:
        """Every seed the run plays: seed 0 first (when spec fidelity is on), then the test seeds."""
        return ((SPEC_FIDELITY_SEED,) if self.spec_fidelity else ()) + self.test_seeds

    def record(self) -> SplitBlock:
        return SplitBlock(nonce=self.nonce, count=self.count, test_seeds=list(self.test_seeds),
                               spec_fidelity_seed=SPEC_FIDELITY_SEED if self.spec_fidelity else None,
                               canonical_only=False)


def draw_test_seeds(nonce: int, count: int) -> tuple[int, ...]:
    """The ``count`` test seeds of ``nonce``: instance ``i`` is ``4 * base + i % 4``, one ``base`` per block of
    four instances drawn from SHA-256 of (nonce, block) in 1..2**30-2 (never seed 0; distinct; the same nonce
    gives the same seeds). A block shares its base so the families' per-seed cycles that read ``seed // 4``
    too (the C02 creature, ``Family.kinds``) play every entry once per block."""
    bases: list[int] = []
    for block in range((count + 3) // 4):
        attempt = 0
        while True:
            digest = hashlib.sha256(f"wmbench-instances:{nonce}:{block}:{attempt}".encode()).digest()
            base = 1 + int.from_bytes(digest[:8], "big") % _BASES
            if base not in bases:
                break
            attempt += 1
        bases.append(base)
    return tuple(4 * bases[i // 4] + i % 4 for i in range(count))


def split_record(seeds: Iterable[int], draw: InstanceDraw | None = None) -> SplitBlock:
    """The ``split`` of a run that plays ``seeds``: the test seeds (all but 0) and whether seed 0 is reported
    apart; a run of seed 0 alone is ``canonical_only`` (its WM Score is the canonical instance's)."""
    played = list(dict.fromkeys(int(s) for s in seeds))
    test = [s for s in played if s != SPEC_FIDELITY_SEED]
    canonical_only = not test and SPEC_FIDELITY_SEED in played
    fidelity = SPEC_FIDELITY_SEED if SPEC_FIDELITY_SEED in played and test else None
    return SplitBlock(nonce=None if draw is None else draw.nonce, count=len(test),
                           test_seeds=test if test else played, spec_fidelity_seed=fidelity,
                           canonical_only=canonical_only)


def scored_seeds(seeds: Iterable[int]) -> tuple[int, ...]:
    """The seeds scored in the WM Score: every seed but 0 (seed 0 itself when it is the only one)."""
    return tuple(split_record(seeds)["test_seeds"])


def recorded_draw(run_dir: Path | str) -> InstanceDraw | None:
    """The draw recorded in ``run_dir/run.json`` (None: no run there, or a run with explicit seeds)."""
    record = _recorded_instances(Path(run_dir))
    if record is None or record.get("nonce") is None:
        return None
    try:
        return InstanceDraw(int(record["nonce"]), int(record["count"]), record.get("spec_fidelity_seed") is not None)
    except (KeyError, TypeError, ValueError) as err:
        raise InstancesError(f"{Path(run_dir) / RUN_FILE}: expected an 'instances' record with nonce and count, "
                             f"got {record!r} ({err})") from None


def resume_or_draw(out: Path | str, count: int = DEFAULT_INSTANCES, spec_fidelity: bool = True) -> InstanceDraw:
    """The draw of a default run into ``out``: the one recorded there (a rerun resumes the same instances,
    whatever ``count`` says), else a fresh one."""
    return recorded_draw(out) or InstanceDraw.fresh(count, spec_fidelity)


def instances_from(run_dir: Path | str, spec_fidelity: bool = True) -> InstanceDraw | tuple[int, ...]:
    """The instances of the earlier run in ``run_dir`` (``--instances-from``): its draw (nonce and count), or
    its explicit seeds. :class:`InstancesError` when ``run_dir`` holds no wmbench run."""
    path = Path(run_dir) / RUN_FILE
    if not path.is_file():
        raise InstancesError(f"--instances-from {run_dir}: expected a wmbench run folder with {RUN_FILE}, "
                             f"found none")
    draw = recorded_draw(run_dir)
    if draw is not None:
        return InstanceDraw(draw.nonce, draw.count, spec_fidelity)
    try:
        seeds = [int(s) for s in read_json(path).get("seeds", ())]
    except (OSError, ValueError, TypeError) as err:
        raise InstancesError(f"--instances-from {run_dir}: cannot read its seeds from {RUN_FILE} ({err})") from None
    if not seeds:
        raise InstancesError(f"--instances-from {run_dir}: {RUN_FILE} records no seeds")
    return tuple(seeds)


def _recorded_instances(run_dir: Path) -> Mapping[str, Any] | None:
    path = run_dir / RUN_FILE
    if not path.is_file():
        return None
    try:
        record = read_json(path).get("instances")
    except (OSError, ValueError, AttributeError):
        return None
    return record if isinstance(record, Mapping) else None
