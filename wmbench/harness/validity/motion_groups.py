"""Constant replies that share a MOTION share their episodes: each world is run once, each reply scored on its own.

::

    groups = motion_groups(["constant:beast-ahead/still", "constant:wall-ahead/still", "reference"])
    # -> (("constant:beast-ahead/still", "constant:wall-ahead/still"), ("reference",))
    scores = group_job(groups[0], seed=1, include_c10=True)     # {name: [ScenarioScore, ...]}, as panel_job's

Card
----
- **Why it is exact.** A constant brain (:class:`~wmbench.brain.panel.brains.ConstantBrain`) sends the same reply
  at every decision whatever it is shown, and the env acts out only the reply's MOTION (the intent, or standing
  still when the reply cannot be read): the PREDICT line is parsed, recorded, and shown back to the brain as
  ``last_prediction``, and moves nothing. So two constants whose replies have the same MOTION and are read alike
  (:func:`motion_key`) live through the same world, decision for decision.
- :func:`motion_groups`: the brains of a panel, the constants grouped by :func:`motion_key` (the quick panel's
  15 constant replies have 10 motions, the full sweep's 65 have 13); every other brain alone.
- :func:`with_reply`: an episode's trace as another constant of its group would have recorded it: every decision's
  reply, its parse (read by the env's own :func:`~wmbench.envs.decisions.read_reply`) and the ``last_prediction``
  its scene shows are that constant's. The rest (scene, truth, intent, body, events) is the shared world.
  Refuses a reply of another motion. Not carried over: the brain's measured latency (the first member's; no
  bench or transfer rule reads it) and the episode's wall time.
- :func:`group_job`: :func:`~wmbench.harness.validity.runner.panel_job` for every brain of a group at once:
  each bench episode and each C10 run (:func:`~wmbench.harness.transfer.outcome.run_bodies`, score-only) is run
  with the group's first constant, and every member's scores come from its own traces by the same scorers
  (paired rules applied, evidence cut to the failure labels), so ``group_job(g, ...)[name]`` equals
  ``panel_job(name, ...)[1]`` (``tests/harness/validity/test_motion_groups.py`` checks both the traces and the
  scores against members run alone). C10's score-only runs stop where a body's quality is settled, which reads
  only the physical outcome and whether each reply was read: the same for every member of a group.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from wmbench.brain.panel.brains import ConstantBrain, get_panel_brain
from wmbench.envs.decisions import parse_record, prediction_line, read_reply
from wmbench.harness.run.episode import run_episode
from wmbench.harness.run.results import EpisodeLine, episode_line
from wmbench.harness.run.scores import paired_trace, score_line
from wmbench.harness.transfer.outcome import TRANSFER_BODIES, run_bodies
from wmbench.harness.validity.runner import BENCH_CATEGORIES, SOURCE_BODY, labels_only
from wmbench.protocol.trace import Trace, TraceDict
from wmbench.scenarios import all_scenarios, get_scenario
from wmbench.scoring.c10.diagnostics import C10_IDS
from wmbench.scoring.c10.rule import score_brain_transfer
from wmbench.scoring.pairs import rescore_pairs
from wmbench.scoring.report_types import ScenarioScore

#: what decides a constant's world: its MOTION line as the env reads it, and whether its reply is read
MotionKey = tuple[str | None, bool, str]


def constant_reply(name: str) -> str | None:
    """The reply panel brain ``name`` sends at every decision, or None if it is not a constant reply."""
    if not name.startswith("constant:"):
        return None
    brain = get_panel_brain(name)
    try:
        return brain.reply if isinstance(brain, ConstantBrain) else None
    finally:
        brain.close()


def motion_key(reply: str) -> MotionKey:
    """What the env takes from ``reply`` to move the body: its MOTION line, whether the reply was read, and the
    intent (:func:`~wmbench.envs.decisions.read_reply`, the env's own reader)."""
    reading = read_reply(reply, max(len(reply), 1))
    return reading.motion, bool(reading.parsed.ok), json.dumps(reading.intent.to_dict(), sort_keys=True)


def motion_groups(names: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """``names`` in groups that share their episodes: constants by :func:`motion_key` (in the order of their
    first member), every other brain alone."""
    groups: dict[object, list[str]] = {}
    for name in dict.fromkeys(names):
        reply = constant_reply(name)
        groups.setdefault(("constant", motion_key(reply)) if reply is not None else ("brain", name), []).append(name)
    return tuple(tuple(group) for group in groups.values())


def with_reply(trace: TraceDict, reply: str) -> TraceDict:
    """``trace`` (an episode of a constant reply of the same motion) as constant ``reply`` records it (see the
    card); a copy, ``trace`` is not changed."""
    if not trace["decisions"]:
        return copy.deepcopy(trace)
    first = trace["decisions"][0]["reply"]
    if motion_key(first) != motion_key(reply):
        raise ValueError(f"with_reply: {reply!r} does not move as the trace's reply {first!r} (another MOTION)")
    theirs, mine = read_reply(first, max(len(first), 1)), read_reply(reply, max(len(reply), 1))
    # what each was shown as its last PREDICT from its second decision on (None before any was read)
    shown = {None: None, prediction_line(getattr(theirs.parsed, "prediction", None)):
             prediction_line(getattr(mine.parsed, "prediction", None))}
    out = copy.deepcopy(trace)
    for decision in out["decisions"]:
        recorded = decision["scene"].get("last_prediction")
        if decision["reply"] != first or recorded not in shown:
            raise ValueError(f"with_reply: decision {decision['index']} of the trace is not a constant reply's "
                             f"({decision['reply']!r} shown {recorded!r}; expected {first!r})")
        if "last_prediction" in decision["scene"]:
            decision["scene"]["last_prediction"] = shown[recorded]
        decision["reply"] = mine.reply
        decision["parse"] = parse_record(mine.parsed, mine.reply_chars)
    return out


def _member_line(line: EpisodeLine, name: str, reply: str) -> EpisodeLine:
    trace = line.get("trace")
    return {**line, "brain": name, "trace": with_reply(trace, reply) if trace else trace}


def group_job(names: Sequence[str], seed: int, include_c10: bool, body: str = SOURCE_BODY,
              bench: Sequence[str] = BENCH_CATEGORIES, transfer: Sequence[str] = C10_IDS
              ) -> dict[str, list[ScenarioScore]]:
    """:func:`~wmbench.harness.validity.runner.panel_job` for every brain of one :func:`motion_groups` group
    (see the card): ``{name: scores}``, each brain's scores as ``panel_job(name, ...)`` gives them.
    ``transfer``: the C10 scenarios measured when ``include_c10`` (all of them, as ``panel_job``)."""
    replies = {name: constant_reply(name) for name in names}
    if not names or any(reply is None for reply in replies.values()) or len(
            {motion_key(reply) for reply in replies.values() if reply is not None}) != 1:
        raise ValueError(f"group_job needs constant replies of one motion (a group of motion_groups), got "
                         f"{list(names)!r}")
    first = names[0]
    brain = get_panel_brain(first)
    lines: list[EpisodeLine] = []
    try:
        for record in all_scenarios():
            if record.mode == "bench" and record.category in bench:
                lines.append(episode_line(run_episode(record.id, brain, body, seed, brain_label=first,
                                                      reuse_env=True)))
        runs = {sid: run_bodies(get_scenario(sid), brain, seed, TRANSFER_BODIES, brain_label=first,
                                score_only=True) for sid in (transfer if include_c10 else ())}
    finally:
        brain.close()
    out: dict[str, list[ScenarioScore]] = {}
    for name in names:
        reply = replies[name]
        assert reply is not None  # checked above
        by_scenario: dict[str, list[Any]] = {}
        paired = []
        for line in lines:
            own = line if name == first else _member_line(line, name, reply)
            by_scenario[own["scenario"]] = [score_line(own)]
            trace = paired_trace(own)
            if trace is not None:
                paired.append(trace)
        rescore_pairs(paired, by_scenario)
        for sid, per_body in runs.items():
            own_runs = per_body if name == first else {
                body_name: [(variant, None if trace is None else Trace.from_dict(with_reply(trace.to_dict(), reply)),
                             error) for variant, trace, error in body_runs]
                for body_name, body_runs in per_body.items()}
            by_scenario[sid] = [score_brain_transfer(sid, seed, own_runs, {})]
        out[name] = [replace(score, evidence=labels_only(score.evidence), seed=seed)
                     for entries in by_scenario.values() for score in entries]
    return out
