"""The Ray executor: a run's bench episodes as Ray tasks, on a local Ray instance or an existing cluster.

Card
----
- **Start.** ``RayExecutor()`` starts a local Ray instance on first use (``ray.init(num_cpus=...)``, no
  dashboard) and shuts it down in :meth:`RayExecutor.close`; ``RayExecutor(address="ray://head:10001")`` (or
  ``"auto"``) joins an existing cluster and leaves it running. Ray is the optional extra ``ray``; without it
  the executor raises :class:`~wmbench.core.errors.MissingExtraError` naming the extra.
- **Tasks.** One task per episode, asking for one CPU, and one GPU for local-model brains (``hf/``,
  ``onnx/``) and learned motion models (``diffusion``) when the cluster has GPUs. A Ray worker process builds
  the brain once per (spec, options) and keeps it for the next task, registers the driver's scenario
  records (user scenarios travel with the task) and selects the driver's motion model, then runs
  :func:`~wmbench.harness.run.episode.run_episode` exactly as a local worker does (one reused env per
  process). Results stream back to the driver as they finish (``ray.wait``), and the driver writes
  ``episodes.jsonl``: the same lines, traces and scores as the local executor.
- **Budget.** At most ``window`` tasks are in flight: twice the cluster's CPUs for computed brains, the
  run's ``max_connections`` for API brains — so the connection budget to one endpoint holds for the whole
  cluster, however many nodes it has. API episodes are submitted longest first.
- **One pause.** For API brains the driver starts a :class:`PauseBoard` actor for the run (killed when the
  run's episodes are done) and hands it to every task, which shares its endpoint gates' pauses through it
  (:func:`~wmbench.brain.providers.endpoint_gate.shared_pauses`): a ``Retry-After`` answered to one task
  holds every task's requests to that endpoint, on every worker process and node.
- **Ctrl-C.** Tasks not yet started are cancelled; the driver raises ``KeyboardInterrupt`` at once (finished
  episodes are already written; a rerun resumes).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from wmbench.body.motion.registry import select_generator, selected_generator_name
from wmbench.brain.providers.endpoint_gate import shared_pauses
from wmbench.brain.registry import get_brain
from wmbench.core.errors import MissingExtraError, RunError
from wmbench.harness.executors.base import EpisodeJob, longest_first
from wmbench.harness.executors.local import LOCAL_MODEL_PREFIXES, REMOTE_PREFIXES
from wmbench.harness.run.episode import EpisodeResult, run_episode
from wmbench.harness.run.selection import EpisodeSpec
from wmbench.scenarios import Scenario, get_scenario, register
from wmbench.scenarios.registry import all_scenarios

#: Motion generators that run a learned model (a GPU helps them).
LEARNED_MOTION_MODELS: frozenset[str] = frozenset({"diffusion"})
#: Tasks in flight per cluster CPU for computed brains.
TASKS_PER_CPU = 2


def _ray() -> Any:
    try:
        import ray
    except ImportError as err:
        raise MissingExtraError("the Ray executor (--executor ray)", "ray", "ray", str(err)) from None
    return ray


class PauseBoard:
    """Each endpoint's pause end (wall clock) for one run; a Ray actor (``ray.remote(PauseBoard)``)."""

    def __init__(self) -> None:
        self._until: dict[str, float] = {}

    def until(self, endpoint: str) -> float:
        return self._until.get(endpoint, 0.0)

    def hold_until(self, endpoint: str, until: float) -> None:
        self._until[endpoint] = max(self._until.get(endpoint, 0.0), until)


class RayPauses:
    """A task's view of the run's :class:`PauseBoard` actor (a
    :class:`~wmbench.brain.providers.endpoint_gate.SharedPauses`): one blocking remote call per question."""

    def __init__(self, actor: Any) -> None:
        self.actor = actor

    def until(self, endpoint: str) -> float:
        return float(_ray().get(self.actor.until.remote(endpoint)))

    def hold_until(self, endpoint: str, until: float) -> None:
        _ray().get(self.actor.hold_until.remote(endpoint, until))


class RayStartError(RunError):
    """Ray could not be started or joined; the message says why in one line."""


class RayExecutor:
    """Episodes as Ray tasks (see the module card)."""

    name = "ray"

    def __init__(self, address: str | None = None, num_cpus: int | None = None) -> None:
        self.address = address
        self.num_cpus = num_cpus
        self._started_here = False

    # ------------------------------------------------------------------------------------ the cluster
    def _connect(self) -> Any:
        ray = _ray()
        if not ray.is_initialized():
            try:
                if self.address:
                    ray.init(address=self.address, log_to_driver=False)
                else:
                    ray.init(num_cpus=self.num_cpus or os.cpu_count() or 1, include_dashboard=False,
                             log_to_driver=False)
                    self._started_here = True
            except Exception as err:  # Ray's own start-up failures (timeouts, no cluster): one line, no traceback
                where = f"join the Ray cluster at {self.address}" if self.address else "start a local Ray instance"
                headline = str(err).splitlines()[0] if str(err) else type(err).__name__
                raise RayStartError(f"could not {where} ({headline}); finished episodes are kept, rerun to "
                                    f"resume") from None
        return ray

    def close(self) -> None:
        """Shut down the local Ray instance this executor started (a cluster it joined stays up)."""
        if not self._started_here:
            return
        ray = _ray()
        if ray.is_initialized():
            ray.shutdown()
        self._started_here = False

    # ------------------------------------------------------------------------------------ the episodes
    def results(self, todo: Sequence[EpisodeSpec], job: EpisodeJob) -> Iterator[EpisodeResult]:
        if not todo:
            return iter(())
        return self._stream(todo, job)

    def _stream(self, todo: Sequence[EpisodeSpec], job: EpisodeJob) -> Iterator[EpisodeResult]:
        ray = self._connect()
        remote_brain = job.brain.startswith(REMOTE_PREFIXES)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        gpus = float(ray.cluster_resources().get("GPU", 0))
        wants_gpu = job.brain.startswith(LOCAL_MODEL_PREFIXES) or job.motion_model in LEARNED_MOTION_MODELS
        task = ray.remote(_ray_episode).options(num_cpus=1, num_gpus=1 if wants_gpu and gpus >= 1 else 0,
                                                max_retries=0)
        window = max(1, job.max_connections if remote_brain else TASKS_PER_CPU * cpus)
        ordered = longest_first(todo) if remote_brain else list(todo)
        records = ray.put(tuple(get_scenario(sid) for sid in sorted({s.scenario for s in todo})))
        job_ref = ray.put(_plain_job(job))
        board = ray.remote(PauseBoard).options(num_cpus=0).remote() if remote_brain else None
        specs = iter(ordered)
        pending: list[Any] = []
        try:
            for spec in specs:
                pending.append(task.remote(spec, job_ref, records, board))
                if len(pending) >= window:
                    break
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                refill = next(specs, None)
                if refill is not None:
                    pending.append(task.remote(refill, job_ref, records, board))
                yield ray.get(done[0])
        except KeyboardInterrupt:
            for ref in pending:
                ray.cancel(ref, force=False)
            raise
        finally:
            if board is not None and ray.is_initialized():
                ray.kill(board)


def _plain_job(job: EpisodeJob) -> dict[str, Any]:
    """The job as plain data for the task (mappings copied to dicts)."""
    return {"brain": job.brain, "body": job.body, "brain_options": dict(job.brain_options),
            "env_kwargs": dict(job.env_kwargs), "motion_model": job.motion_model}


#: This Ray worker process's brains, by (spec, options): built once, reused by later tasks.
_BRAINS: dict[str, Any] = {}


def _ray_episode(spec: EpisodeSpec, job: Mapping[str, Any], records: Sequence[Scenario],
                 board: Any = None) -> EpisodeResult:
    """One episode inside a Ray worker process (see the module card)."""
    here = {r.id: r for r in all_scenarios()}
    for record in records:
        if here.get(record.id) != record:
            register(record, overwrite=True)
    if selected_generator_name() != job["motion_model"]:
        select_generator(job["motion_model"])
    key = json.dumps([job["brain"], job["brain_options"]], sort_keys=True, default=repr)
    brain = _BRAINS.get(key)
    if brain is None:
        brain = _BRAINS[key] = get_brain(job["brain"], **job["brain_options"])
    pauses = shared_pauses(RayPauses(board)) if board is not None else contextlib.nullcontext()
    with pauses:
        return run_episode(spec.scenario, brain, job["body"], spec.seed, job["env_kwargs"],
                           brain_label=job["brain"], reuse_env=True)
