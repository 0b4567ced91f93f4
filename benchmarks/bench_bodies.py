"""Bench-mode throughput of each body in closed loop with the reference brain.

What is timed: :func:`wmbench.harness.run.episode.run_episode` — exactly what ``wmbench run`` does per episode
(reset of the worker's reused env to the next scenario, brain, ``env.step``, trace to dict; the env is built
once per workload, as ``wmbench run`` builds one per worker, see :mod:`wmbench.harness.run.env_reuse`) — over a
fixed workload of bench scenarios, one process, one thread. Reported per body:

- **frames/s per core** = motion frames simulated / process CPU seconds (median over repeats);
  targets: smpl >= 3000 (100x real time at 30 FPS), robot and drone >= 600;
- **real-time factor** = sim seconds / wall seconds (median over repeats);
- the split of wall time between ``env.step``, the brain, env set-up (construct + reset) and the rest;
- **env set-up: make + reset + close**, CPU ms of one short-lived env (``make_env``, ``reset``, ``close``: what
  ``gym.make`` loops, ``check_env`` and C10's runs do per env), with the process's idle PyBullet clients kept
  (:mod:`wmbench.envs.client_pool`) against none kept (every env connects a new client), alternately in the
  same run, median of the rounds (information).

Run: ``.venv/bin/python -m benchmarks.bench_bodies [--quick]``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from benchmarks.common import BenchRow, Target, lap, median_of, run_script

if TYPE_CHECKING:  # wmbench is imported where it is used (module card)
    from wmbench.protocol.observation import BrainInput

GROUP = "bodies"
BODIES: tuple[str, ...] = ("smpl", "robot", "drone")
FRAME_RATE = 30
#: frames/s per core each body must reach.
TARGET_FPS: dict[str, float] = {"smpl": 3000.0, "robot": 600.0, "drone": 600.0}
#: Full workload: every bench scenario (C01-C08), seed 0. Quick: the first scenario of each category.
FULL_WORKLOAD = "C01,C02,C03,C04,C05,C06,C07,C08"
QUICK_WORKLOAD = "S01,S06,S11,S16,S21,S26,S31,S36"
#: make + reset + close cycles per round of the env set-up row (quick: SETUP_CYCLES_QUICK), and its rounds
SETUP_CYCLES, SETUP_CYCLES_QUICK, SETUP_ROUNDS = 20, 5, 3


@dataclass
class _Split:
    """Wall seconds spent in each part of the loop (accumulated over a workload)."""

    setup: float = 0.0
    brain: float = 0.0
    step: float = 0.0


class _TimedEnv:
    """Times ``reset`` and ``step`` of the env it wraps; everything else passes through."""

    def __init__(self, env: Any, split: _Split, built_s: float, scenario_id: str, sim_seconds: list[float]) -> None:
        self._env, self._split, self._scenario, self._sim_seconds = env, split, scenario_id, sim_seconds
        split.setup += built_s

    @property
    def unwrapped(self) -> Any:
        return self._env.unwrapped

    def reset(self, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:  # the reused env is switched to this episode's scenario, as env_reuse does in `wmbench run`
            return self._env.reset(**kwargs, options={"scenario": self._scenario})
        finally:
            self._split.setup += time.perf_counter() - start

    def step(self, action: Any) -> Any:
        start = time.perf_counter()
        try:
            return self._env.step(action)
        finally:
            self._split.step += time.perf_counter() - start

    def close(self) -> None:
        """End of the episode: count its sim time; the env itself is kept for the next episode."""
        self._sim_seconds.append(self._env.unwrapped.sim_time)


class _TimedBrain:
    """Times ``decide`` of the brain it wraps."""

    def __init__(self, brain: Any, split: _Split) -> None:
        self._brain, self._split = brain, split
        self.name = brain.name

    def reset(self, seed: int | None = None) -> None:
        self._brain.reset(seed)

    def decide(self, scene: BrainInput) -> Any:
        start = time.perf_counter()
        try:
            return self._brain.decide(scene)
        finally:
            self._split.brain += time.perf_counter() - start

    def close(self) -> None:
        self._brain.close()


@dataclass(frozen=True)
class WorkloadRun:
    """One pass over the workload: frames simulated, CPU and wall seconds, the time split, failures."""

    frames: int
    cpu_s: float
    wall_s: float
    split: _Split
    errors: tuple[str, ...]


def run_workload(body: str, scenario_ids: tuple[str, ...], brain: Any, seed: int = 0) -> WorkloadRun:
    """Every scenario once through ``run_episode`` with ``body``; frames counted from each env's clock."""
    from wmbench.harness.run.episode import make_env, run_episode

    split = _Split()
    held: list[Any] = []
    sim_seconds: list[float] = []

    def factory(scenario_id: str, body_name: str, **kwargs: Any) -> _TimedEnv:
        start = time.perf_counter()
        if not held:
            held.append(make_env(scenario_id, body_name, **kwargs))
        return _TimedEnv(held[0], split, time.perf_counter() - start, scenario_id, sim_seconds)

    timed_brain = _TimedBrain(brain, split)

    def work() -> list[Any]:
        return [run_episode(sid, timed_brain, body, seed, {"frame_rate": FRAME_RATE}, env_factory=factory)
                for sid in scenario_ids]

    try:
        timing, results = lap(work)
    finally:
        for env in held:
            env.close()
    frames = sum(round(seconds * FRAME_RATE) for seconds in sim_seconds)
    errors = tuple(f"{r.scenario}: {r.error.splitlines()[0]}" for r in results if r.error)
    return WorkloadRun(frames, timing.cpu_s, timing.wall_s, split, errors)


def setup_cpu_ms(body: str, scenario_id: str, cycles: int, keep_idle_clients: bool) -> float:
    """CPU ms of one ``make_env`` + ``reset`` + ``close`` of ``body`` on ``scenario_id`` (median over
    ``cycles``): with the process's idle PyBullet clients kept as usual, or with none kept (the kept ones are
    disconnected first and ``IDLE_CLIENTS_MAX`` is 0 meanwhile, so every env connects a new client)."""
    from wmbench.envs import client_pool
    from wmbench.harness.run.episode import make_env

    saved = client_pool.IDLE_CLIENTS_MAX
    if not keep_idle_clients:
        client_pool.IDLE_CLIENTS_MAX = 0
        client_pool.forget_idle_clients()
    samples = []
    try:
        for _ in range(cycles):
            start = time.process_time()
            env = make_env(scenario_id, body, frame_rate=FRAME_RATE)
            try:
                env.reset(seed=0)
            finally:
                env.close()
            samples.append(time.process_time() - start)
    finally:
        client_pool.IDLE_CLIENTS_MAX = saved
    return 1000.0 * median_of(samples)


def setup_row(body: str, scenario_id: str, quick: bool) -> BenchRow:
    """The env set-up row of ``body``: kept idle clients against a new client per env, alternately."""
    cycles = SETUP_CYCLES_QUICK if quick else SETUP_CYCLES
    setup_cpu_ms(body, scenario_id, 2, True)  # warm-up: imports, URDF, the first client
    kept, new = [], []
    for _ in range(SETUP_ROUNDS):
        new.append(setup_cpu_ms(body, scenario_id, cycles, False))
        kept.append(setup_cpu_ms(body, scenario_id, cycles, True))
    kept_ms, new_ms = median_of(kept), median_of(new)
    return BenchRow(GROUP, f"{body}: env set-up (make + reset + close)", kept_ms, "ms CPU", None,
                    f"{scenario_id}; a new PyBullet client per env: {new_ms:.1f} ms, x{new_ms / kept_ms:.2f} of this; "
                    f"median of {SETUP_ROUNDS} alternating rounds of {cycles}")


def body_unavailable(body: str) -> str | None:
    """Why ``body`` cannot be built here (None when it can)."""
    from wmbench.body.registry import get_body

    try:
        get_body(body)
    except Exception as exc:
        return f"body {body!r} is not available yet ({type(exc).__name__}: {exc})"
    return None


def measure(quick: bool, bodies: tuple[str, ...] = BODIES, workload: str | None = None,
            repeats: int | None = None) -> list[BenchRow]:
    """Rows for each body: frames/s per core (CPU time) and the real-time factor (wall time)."""
    from wmbench.brain.registry import get_brain
    from wmbench.scenarios import select

    scenario_ids = tuple(s.id for s in select(workload or (QUICK_WORKLOAD if quick else FULL_WORKLOAD)))
    repeats = repeats or 3
    rows: list[BenchRow] = []
    for body in bodies:
        fps_target = Target(">=", TARGET_FPS.get(body, 600.0))
        rtf_target = Target(">=", fps_target.bound / FRAME_RATE)
        name_fps, name_rtf = f"{body}: frames/s per core", f"{body}: real-time factor"
        why = body_unavailable(body)
        if why:
            rows += [BenchRow.skip(GROUP, name_fps, "frames/s", why, fps_target),
                     BenchRow.skip(GROUP, name_rtf, "x", why, rtf_target)]
            continue
        brain = get_brain("reference")
        try:
            run_workload(body, scenario_ids[:1], brain)  # warm-up: imports, URDF caches, first client
            runs = [run_workload(body, scenario_ids, brain) for _ in range(repeats)]
        finally:
            brain.close()
        fps = median_of(r.frames / r.cpu_s for r in runs)
        wall_fps = median_of(r.frames / r.wall_s for r in runs)
        rtf = median_of(r.frames / FRAME_RATE / r.wall_s for r in runs)
        mid = sorted(runs, key=lambda r: r.wall_s)[len(runs) // 2]
        total = mid.wall_s
        parts = mid.split
        rest = total - parts.step - parts.brain - parts.setup
        split = (f"wall split: step {100 * parts.step / total:.0f}%, brain {100 * parts.brain / total:.0f}%, "
                 f"setup {100 * parts.setup / total:.0f}%, rest {100 * rest / total:.0f}%")
        errors = sorted({e for r in runs for e in r.errors})
        error_note = f"; {len(errors)} episode error(s): {errors[0]}" if errors else ""
        rows.append(BenchRow(
            GROUP, name_fps, fps, "frames/s", fps_target,
            f"median of {repeats}; {mid.frames} frames in {len(scenario_ids)} episodes; wall {wall_fps:,.0f} "
            f"frames/s; {split}{error_note}"))
        rows.append(BenchRow(GROUP, name_rtf, rtf, "x", rtf_target,
                             f"sim s per wall s at {FRAME_RATE} FPS, median of {repeats}"))
        rows.append(setup_row(body, scenario_ids[0], quick))
    return rows


if __name__ == "__main__":
    raise SystemExit(run_script(measure, __doc__.splitlines()[0]))
