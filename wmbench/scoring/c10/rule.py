"""C10 · Cross-body Transferability, the rule: how much of the brain's outcome on the character carries over to
the other bodies (the runs themselves: :mod:`wmbench.harness.transfer.outcome`).

Card
----
- **Runs** (:func:`wmbench.harness.transfer.outcome.run_bodies`): for each C10 scenario and seed, the
  brain under test drives each body (the SMPL character first, then the robot and the drone; a plugin body
  can be passed by name) through every scene variant of :data:`SCENE_VARIANTS` — the scene as recorded and with
  the protagonist starting turned a quarter left, around, and a quarter right. The variants make the right
  direction depend on the scene: a brain that always moves the same way, whatever it perceives, meets the
  beast or the wall in some of them.
- **Body-normalised threats**: on a body slower than the character every NPC speed is scaled by the body's pace (its
  sprint / the character's) and every duration and event time divided by it (:func:`wmbench.envs.pacing.paced_record`,
  the function every bench scene is paced with): the same scene in slow motion, on the body's own clock, so "carried"
  measures the brain's decisions, not the body's top speed; the unnormalised runs are a body diagnostic.
- **Decision fit** (:func:`decision_fit`): a decision fits when its reply was read, there was no collision
  and no catch, the body did what the brain asked (a travelling intent realised in the asked sector), and
  the action suits the scene — with a beast nearby the body moved into a truly safe sector (standing still
  in front of an approaching beast does not fit); with none nearby, a safe move or a freeze fits, except
  that with a person nearby (no beast) the move must be calm (a walk or a jog, no run or sprint: she is no
  threat) and must not head into the person's sector (:func:`person_fit`).
- **Outcome** of a body (:func:`body_outcome`): a run's quality is its mean decision fit; a run in which the
  protagonist was caught counts 0; a run that did not hold the beast off (:func:`held_off`: at the end more
  than :data:`ESCAPE_TOLERANCE_M` closer than at first sight) counts :data:`LOST_GROUND_FACTOR` of its fit.
  Q of the body is its WORST variant's quality (the mean is reported as ``mean_quality``): the variants
  exist to tell a brain that reads the scene from one that always moves the same way, and a mean over them
  paid such a brain for the orientations in which its fixed direction happened to be safe.
- **Score** (:func:`score_brain_transfer`): ``20 x Q_smpl x carried``, where ``carried`` = the mean over the
  other bodies of ``min(1, Q_body / Q_smpl)``: full points need a brain that acts right for the scene on the
  character AND keeps doing so on every other body. Equivalently, 20 x the mean over the target bodies of
  ``min(Q_smpl, Q_body)``. A brain that never moves earns only where standing still is right.
- **Diagnostics** (outside the brain's score): the pipeline checks of the scenario — replay on other bodies
  (S46), retarget pose error (S47), servo tracking (S48), generator agreement (S49), direction agreement
  across bodies (S50) — are measured as before (:mod:`wmbench.scoring.c10.diagnostics`,
  run by :mod:`wmbench.harness.transfer.measure`) and reported in the
  score's ``evidence["diagnostics"]`` with the points they would have had, never added to the score.

Simplified: the speed class each body realised is reported per body (``speed_class_realised``) but not
required for a fit (bodies have different envelopes; the direction is the part every body must keep).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from wmbench.core.directions import DIRECTION_READINGS
from wmbench.protocol.trace import DecisionRecord, Trace
from wmbench.scoring.evidence import beast_nearby, mean
from wmbench.scoring.movement import contact, into_danger, moved_safe, realized, trace_caught
from wmbench.scoring.registry import measured_category
from wmbench.scoring.reply import parse_ok
from wmbench.scoring.report_types import Evidence, ScenarioScore

CATEGORY = "C10"
SCENE_VARIANTS: tuple[str, ...] = ("as_recorded", "turned_left", "turned_around", "turned_right")
SCENARIO_MAX = 20.0
#: escape: a run may end at most this much (m) closer to the beast than it started, else its Q is scaled
ESCAPE_TOLERANCE_M = 1.0
LOST_GROUND_FACTOR = 0.5
#: asked speed classes that are panic when only a (neutral) person is near
PANIC_SPEEDS: frozenset[str] = frozenset({"run", "sprint"})

RULE_TEXT = (
    "The brain itself runs closed loop on the character, the robot and the drone, in the scene as recorded "
    "and with the protagonist starting turned a quarter left, around and a quarter right; on a slower body "
    "every threat's speed is scaled by the body's sprint over the character's and every duration by its inverse "
    "(the same distances, the scene in slow motion on the body's own clock). "
    "A decision fits "
    "when the reply was read, nothing was hit and nobody was caught, the body went where the brain asked, "
    "and with a beast nearby it moved into a truly safe sector (with none nearby a safe move or a freeze "
    "fits; with a person nearby and no beast, only a freeze or a calm walk or jog that does not head toward "
    "her fits). A run's fit is its mean decision fit (a caught run counts 0; a run that ends more than "
    f"{ESCAPE_TOLERANCE_M:g} m closer to the beast than it began counts "
    f"{'half' if LOST_GROUND_FACTOR == 0.5 else f'x {LOST_GROUND_FACTOR:g}'}); Q = a body's worst run over the "
    f"four starts. Score = {SCENARIO_MAX:g} x Q(character) x carried, carried = mean over the other bodies "
    "of min(1, Q(body) / Q(character)). Pipeline checks are body diagnostics, reported but not scored: "
)
DIAGNOSTIC_OF: dict[str, str] = {
    "S46": "the character's replies replayed on the other bodies (ran, collided, caught).",
    "S47": "the retarget pose error (HumanML3D round trip, SMPL-24, stubby and robot rigs).",
    "S48": "the robot's servo tracking error and limit violations.",
    "S49": "agreement of the procedural and keyframe generators on each intent.",
    "S50": "agreement of the bodies' realized directions and speed-class orderings.",
}


@dataclass(frozen=True)
class DecisionFit:
    """One decision: whether it fits the scene (see the card) and why not."""

    index: int
    fits: bool
    why: str


@dataclass(frozen=True)
class BodyOutcome:
    """One body over every scene variant: Q (worst run's fit), runs, catches, collisions, direction realised."""

    body: str
    quality: float
    runs: int
    failed_runs: int
    caught_runs: int
    decisions: int
    fitting: int
    direction_realised: float | None
    speed_class_realised: float | None
    errors: tuple[str, ...] = ()
    lost_ground_runs: int = 0
    #: the mean over the runs (Q itself is the worst run)
    mean_quality: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"quality": round(self.quality, 4), "runs": self.runs, "failed_runs": self.failed_runs,
                "caught_runs": self.caught_runs, "decisions": self.decisions, "fitting": self.fitting,
                "direction_realised": self.direction_realised,
                "speed_class_realised": self.speed_class_realised, "errors": list(self.errors),
                "lost_ground_runs": self.lost_ground_runs, "mean_quality": round(self.mean_quality, 4)}


# ------------------------------------------------------------------------------------------------ fit


def _asked_direction(d: DecisionRecord) -> str | None:
    intent = d.intent
    if intent is None or intent.get("direction") is None or intent.get("speed_class") in (None, "still"):
        return None
    return DIRECTION_READINGS.get(str(intent["direction"]).lower())


def _beast_distance(d: DecisionRecord) -> float | None:
    near = [n.distance for n in d.truth.npcs if n.type == "beast" and n.nearby]
    return min(near) if near else None


def held_off(trace: Trace) -> bool:
    """The run kept its distance from the beast: at the last decision the beast is out of range, or no more
    than :data:`ESCAPE_TOLERANCE_M` closer than at the first decision that saw it nearby (True without one)."""
    seen = [x for x in (_beast_distance(d) for d in trace.decisions) if x is not None]
    if not seen:
        return True
    last = _beast_distance(trace.decisions[-1])
    return last is None or last >= seen[0] - ESCAPE_TOLERANCE_M


def person_fit(d: DecisionRecord) -> str | None:
    """Why a decision with a person nearby and no beast nearby does not fit, None when it does (or no person is
    nearby): the person is no threat, so a run or a sprint (:data:`PANIC_SPEEDS`, as asked) is panic, and a
    move into her sector walks at her; a freeze, or a calm move aside or away, fits."""
    people = [n for n in d.truth.npcs if n.type != "beast" and n.nearby]
    if not people or beast_nearby(d):
        return None
    asked_speed = str((d.intent.get("speed_class") if d.intent else None) or "still")
    if asked_speed in PANIC_SPEEDS:
        return f"person nearby, no beast: asked to {asked_speed} (panic at a neutral person)"
    done = realized(d)
    toward = [p.name for p in people if done.moved and done.direction == p.direction]
    if toward:
        return f"person nearby, no beast: moved {done.direction}, toward {toward[0]}"
    return None


def decision_fit(d: DecisionRecord, following: DecisionRecord | None = None) -> DecisionFit:
    """Whether one decision fits its scene on this body (rule in the module card); ``following`` is the next
    decision of the same run (where the beast was then), None for the last one."""
    if not parse_ok(d):
        return DecisionFit(d.index, False, "reply not read")
    if contact(d):
        return DecisionFit(d.index, False, "collided or caught")
    asked, done = _asked_direction(d), realized(d)
    if asked is not None and done.moved and done.direction != asked:
        return DecisionFit(d.index, False, f"asked {asked}, the body went {done.direction}")
    if asked is not None and not done.moved:
        return DecisionFit(d.index, False, f"asked {asked}, the body did not travel")
    if beast_nearby(d):
        if moved_safe(d):
            return DecisionFit(d.index, True, f"beast nearby, moved {done.direction} into a safe sector")
        return DecisionFit(d.index, False, "beast nearby, " + (
            f"moved {done.direction} into danger" if done.moved else "stood still"))
    if into_danger(d):
        return DecisionFit(d.index, False, f"moved {done.direction} into danger")
    unfit_near_person = person_fit(d)
    if unfit_near_person is not None:
        return DecisionFit(d.index, False, unfit_near_person)
    return DecisionFit(d.index, True, "no beast nearby, " + (f"moved {done.direction} safely" if done.moved
                                                               else "stood still"))


def body_outcome(body: str, runs: Sequence[tuple[str, Trace | None, str | None]]) -> BodyOutcome:
    """Q of one body: its worst run (a failed run counts 0, a caught run 0); the mean is kept as well."""
    qualities: list[float] = []
    decisions = fitting = caught_runs = failed = lost_ground_runs = 0
    asked_dirs = kept_dirs = asked_speed = kept_speed = 0
    errors = []
    for variant, trace, error in runs:
        if trace is None or not trace.decisions:
            failed += 1
            qualities.append(0.0)
            errors.append(f"{variant}: {(error or 'no decisions').splitlines()[0]}")
            continue
        following = [*trace.decisions[1:], None]
        fits = [decision_fit(d, nxt) for d, nxt in zip(trace.decisions, following, strict=True)]
        decisions += len(fits)
        fitting += sum(f.fits for f in fits)
        caught = trace_caught(trace)
        caught_runs += caught
        quality = 0.0 if caught else mean([1.0 if f.fits else 0.0 for f in fits])
        if not held_off(trace):
            lost_ground_runs += 1
            quality *= LOST_GROUND_FACTOR
        qualities.append(quality)
        for d in trace.decisions:
            asked = _asked_direction(d)
            if asked is None:
                continue
            done = realized(d)
            asked_dirs += 1
            kept_dirs += done.moved and done.direction == asked
            asked_speed += 1
            kept_speed += done.speed_class == (d.intent.get("speed_class") if d.intent else None)
    return BodyOutcome(
        body, min(qualities) if qualities else 0.0, len(runs), failed, caught_runs, decisions, fitting,
        round(kept_dirs / asked_dirs, 4) if asked_dirs else None,
        round(kept_speed / asked_speed, 4) if asked_speed else None, tuple(errors), lost_ground_runs,
        mean(qualities))


def carried_over(outcomes: Mapping[str, BodyOutcome], source: str) -> tuple[float, dict[str, float]]:
    """``carried`` (see the card) and each target body's ratio."""
    q_source = outcomes[source].quality
    ratios = {b: (min(1.0, o.quality / q_source) if q_source > 0 else 0.0)
              for b, o in outcomes.items() if b != source}
    return (mean(list(ratios.values())) if ratios else 0.0), ratios


@measured_category("C10", mode="transfer")
def score_brain_transfer(scenario_id: str, seed: int,
                         runs: Mapping[str, Sequence[tuple[str, Trace | None, str | None]]],
                         diagnostics: Mapping[str, Any] | None = None) -> ScenarioScore:
    """The C10 score of one scenario and seed from the brain's own runs on every body (see the card)."""
    bodies = list(runs)
    source = bodies[0]
    outcomes = {b: body_outcome(b, runs[b]) for b in bodies}
    carried, ratios = carried_over(outcomes, source)
    q_source = outcomes[source].quality
    score = round(SCENARIO_MAX * q_source * carried, 3)
    per_body = ", ".join(f"{b} Q {o.quality:.2f}" for b, o in outcomes.items())
    explanation = (f"{scenario_id} [brain_transfer]: {per_body}; carried {carried:.2f} -> score "
                   f"{score:g}/20")
    evidence: Evidence = {"rule": "brain_transfer", "source_body": source,
                "bodies": {b: o.to_dict() for b, o in outcomes.items()},
                "carried": round(carried, 4), "ratios": {b: round(r, 4) for b, r in ratios.items()},
                "variants": list(SCENE_VARIANTS), "diagnostics": dict(diagnostics or {})}
    return ScenarioScore(scenario_id=scenario_id, category=CATEGORY, score=score, measured=True,
                         explanation=explanation, evidence=evidence, seed=seed)
