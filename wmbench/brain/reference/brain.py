"""The reference brain: a scripted world model over the scene_context — proof that every scenario is solvable.

Card
----
provider ``reference``, model ``reference-v1``. Deterministic; reads only the scene_context; keeps a small
affect state per episode (cleared by :meth:`ReferenceBrain.reset`).

1. **Danger map** (the sim's ground-truth rule): per direction ``danger(beast)`` if a nearby beast is in that
   sector, else ``danger(wall)`` if the wall reading is a distance, else ``danger(human)`` if a human is there
   within 2 m, else ``safe(open)``.
2. **Threat**: the most threatening beast seen (charge > approach > wander/cross > stop > retreat, then
   nearest) or heard (``sound``: roar = charge, growl = approach, rustling = wander); else an approaching
   human.
3. **Escape direction**: never a danger direction. Ranked by: not remembered as blocked; no beast, heard
   beast or human within 3 m that way; no wall there at the previous decision (a wall end the narrow sensing
   cones no longer see); (first decision of an encounter only) remembered as the way that escaped; away from
   the threat (opposite, then lateral; at the first look at a beast ahead with a wall within 1.75 m along one
   side and the other side open and free of NPCs: that open side, the way out of the corridor, kept straight
   on while it stays safe, :func:`corridor_exit`); then
   keep going (fwd, left, right, back — turning around last).
   Memory frame rule: ``recent_decisions`` directions are read in the *current* frame, newest first, back to
   and including the most recent decision that turned the body (travel left/right/back that was not a
   back-step); older ones were said in a frame the body has since left and are ignored. (Seeded memories
   are the newest entries, so they are always read.)
4. **Intensity**: charge → sprint, escalating fear → terror → desperate → frantic → panic, one rung per
   decision while it persists (seen or heard). Approach: farther than 4.5 m (or only heard) → cautious
   back-step walk facing it; ≤ 4.5 m → run in fear; ≤ 3.5 m → sprint in terror; the level never drops
   while the same beast keeps coming and climbs one rung every two decisions once above a cautious retreat.
   Standing beast first seen ≥ 3 m → freeze (one decision; two when it appears mid-episode — a startle),
   then back away (walk, facing it); wander/cross → move off (jog when crossing or within 4 m); retreating
   → back away. Every direction dangerous → freeze crouched, ready to squeeze past (never into a wall).
   Approaching human → defensive back-step (walk, hands raised); stopped human or nothing → calm walk.
   Earlier encounters (this episode, or a flight remembered in ``recent_decisions``) sensitise: no freeze,
   one rung higher per earlier encounter (two at most; a standing beast is backed away from in fear), and
   the wording recalls the last flight. The MOTION names the NPC in view with its behaviour and distance
   ("the charging beast at 4.8 m").
5. **De-escalation** after a beast threat clears: vigilant ×2 → cautious ×2 → relieved ×2 → calm after
   fear or worse (vigilant ×3 → cautious ×3 → relieved ×2 when the encounter was sensitised); cautious ×6 →
   relieved ×2 after a milder one; relieved ×8 when the beast was last seen
   walking off; nothing after a human. While recovering, the walk leads away from where the beast was last
   sensed (carried through the body's turns). A new beast threat re-activates at full intensity at once; a
   beast last *seen* near the 8 m edge that is back within 6 decisions is the same encounter (it slipped out
   of range), one that vanished closer was gone.
6. **Clean slate**: when the scene's memory is cleared (``recent_decisions`` shares nothing with the previous
   scene's), the affect state is cleared too — the brain invents no memory.

Simplified: an NPC's motion is not extrapolated (a crossing beast is fled like a wandering one: away from
where it is now); clearance beyond the 6 m wall range is unknown, so open directions rank equal; a phase
change that keeps memory is not noticed (remembered walls and threat directions may be stale for a decision).

Reading the scene (the danger map, the threat, the memory and its frame rule) lives in
:mod:`wmbench.brain.reference.scene_reading`, the MOTION wording in :mod:`wmbench.brain.reference.wording`; this module
chooses the direction and carries the affect state.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from wmbench.brain.providers.base import ProviderBrain, ProviderOutcome
from wmbench.brain.reference.scene_reading import (
    MemoryHints,
    SceneReading,
    Threat,
    danger_map,
    find_threat,
    read_scene,
    turned,
)
from wmbench.brain.reference.wording import (
    ESCALATION_LADDER,
    Gait,
    Mood,
    MotionPlan,
    NpcMention,
    compose_motion,
)
from wmbench.core.directions import DIRECTIONS, GRAMMAR_ORDER, LATERAL, OPPOSITE, Direction
from wmbench.core.speed import SpeedName
from wmbench.protocol import grammar
from wmbench.protocol.observation import BrainInput

__all__ = [
    "APPROACH_LADDER", "APPROACH_RUN_DISTANCE", "APPROACH_SPRINT_DISTANCE", "FREEZE_DECISIONS",
    "FREEZE_DISTANCE", "HUMAN_NEAR_DISTANCE", "LOST_FROM_VIEW_DECISIONS", "LOST_FROM_VIEW_DISTANCE",
    "PREFERENCE_ORDER", "RECOVERY_STAGES", "STARTLE_DECISIONS", "WANDER_JOG_DISTANCE",
    "AffectState", "ReferenceBrain", "ReferenceDecision", "choose_direction",
]

#: Tie-break among equally good directions: keep going (no turn), then left, right, and turning around last
#: (the record order of :data:`~wmbench.core.directions.DIRECTIONS`).
PREFERENCE_ORDER: tuple[Direction, ...] = DIRECTIONS
#: A human this close (m) makes a direction less attractive to walk into, even where it is not yet danger.
HUMAN_NEAR_DISTANCE = 3.0
#: a side wall this close (m) along the line to a beast ahead makes a corridor: leave it by the open side
CORRIDOR_WALL_M = 1.75
#: Approaching beast: within RUN (m) run in fear, within SPRINT sprint in terror; farther, a cautious
#: back-step. The thresholds sit between the scenario distances (3, 4, 5 m) so the 2 % start jitter
#: never flips a response.
APPROACH_RUN_DISTANCE = 4.5
APPROACH_SPRINT_DISTANCE = 3.5
#: A standing beast first seen at least this far (m) away (out of lunging range) makes the body freeze first.
FREEZE_DISTANCE = 3.0
#: How many decisions the first-sight freeze lasts: one for a beast in view from the start, two (a startle)
#: for one that appears while the episode is under way.
FREEZE_DECISIONS = 1
STARTLE_DECISIONS = 2
#: A beast last sensed at least this far (m) away that is back within this many decisions is the same
#: encounter (it had only slipped out of range); one that vanished closer was gone.
LOST_FROM_VIEW_DISTANCE = 7.0
LOST_FROM_VIEW_DECISIONS = 6
#: A wandering beast this close (m) is moved away from at a jog rather than a walk.
WANDER_JOG_DISTANCE = 4.0
#: De-escalation stages after a beast threat (one mood per decision, then calm), by how the encounter went:
#: ``strong`` after fear or worse (``sensitized`` when the encounter was sensitised by a remembered or earlier
#: flight: on edge for longer); ``receded`` when the beast was last seen walking off; ``mild`` otherwise.
RECOVERY_STAGES: dict[str, tuple[Mood, ...]] = {
    "strong": (Mood.VIGILANT,) * 2 + (Mood.CAUTIOUS,) * 2 + (Mood.RELIEVED,) * 2,
    "sensitized": (Mood.VIGILANT,) * 3 + (Mood.CAUTIOUS,) * 3 + (Mood.RELIEVED,) * 2,
    "receded": (Mood.RELIEVED,) * 8,
    "mild": (Mood.CAUTIOUS,) * 6 + (Mood.RELIEVED,) * 2,
}
#: The approach response ladder: index = closeness level (+ sensitisation).
APPROACH_LADDER: tuple[tuple[Mood, SpeedName], ...] = (
    (Mood.WARY, "walk"), (Mood.FEAR, "run"), (Mood.TERROR, "sprint"), (Mood.DESPERATE, "sprint"),
)
_TOP = len(ESCALATION_LADDER) - 1


@dataclass(frozen=True)
class ReferenceDecision:
    """Everything the reference decided for one scene (``text`` is the reply)."""

    verdicts: dict[str, tuple[str, str]]
    threat: Threat | None
    plan: MotionPlan
    text: str


# --------------------------------------------------------------------------------------------- choosing


def occupied_directions(reading: SceneReading) -> set[str]:
    """Directions with a beast seen or heard, or a human within ``HUMAN_NEAR_DISTANCE``."""
    occupied = {s.direction for s in reading.beasts}
    occupied |= {h.direction for h in reading.humans if h.distance <= HUMAN_NEAR_DISTANCE}
    if reading.sound is not None and reading.sound.kind == "beast" and reading.sound.direction:
        occupied.add(reading.sound.direction)
    return occupied


def choose_direction(
    verdicts: dict[str, tuple[str, str]], reading: SceneReading, away_from: str | None, *,
    trust_escape_memory: bool = False, recent_walls: frozenset[str] = frozenset(), prefer: str | None = None,
) -> str | None:
    """The best safe direction (None if every direction is dangerous); ranking in the module card.
    ``prefer``: a direction taken first when it is safe and free of NPCs (a corridor exit under way)."""
    safe = [d for d in GRAMMAR_ORDER if verdicts[d][0] == "safe"]
    if not safe:
        return None
    occupied = occupied_directions(reading)
    if prefer in safe and prefer not in occupied:
        return prefer

    def relation(d: str) -> int:
        if away_from is None or d == OPPOSITE[away_from]:
            return 0
        return 1 if d in LATERAL[away_from] else 2

    def rank(d: str) -> tuple[int, ...]:
        remembered_escape = trust_escape_memory and d in reading.memory.escaped
        blocked = d in reading.memory.blocked
        return (blocked, d in occupied, d in recent_walls, not remembered_escape, relation(d),
                PREFERENCE_ORDER.index(d))

    return min(safe, key=rank)


def corridor_exit(verdicts: dict[str, tuple[str, str]], reading: SceneReading, away_from: str | None
                  ) -> str | None:
    """A beast seen ahead and a wall close along one side (within ``CORRIDOR_WALL_M``), the other side open
    and free of NPCs: that open side, the way out of the corridor — backing off along the wall keeps the beast
    on the same line (S12/S13: the spec's "flank right"). None otherwise (a beast at the side is fled straight
    away, S18; a wall farther off leaves room to back away along it, S28)."""
    if away_from != "fwd" or away_from not in {s.direction for s in reading.beasts}:
        return None
    occupied = occupied_directions(reading)
    sides = LATERAL[away_from]
    walled = [s for s in sides if verdicts[s] == ("danger", "wall")
              and (reading.walls.get(s) or float("inf")) <= CORRIDOR_WALL_M]
    open_sides = [s for s in sides if verdicts[s][0] == "safe" and s not in occupied]
    return open_sides[0] if len(walled) == 1 and len(open_sides) == 1 else None


@dataclass
class AffectState:
    """What the reference carries between decisions of one episode."""

    decisions: int = 0
    beast_streak: int = 0          # consecutive decisions under a beast threat (seen or heard)
    charge_streak: int = 0         # consecutive decisions under a charge
    encounters: int = 0            # beast encounters begun (a remembered flight counts as one)
    sensitization: int = 0         # 0..2, fixed when an encounter begins
    peak: int = 0                  # peak intensity of the current encounter
    last_behavior: str = ""        # what the beast was last doing in the current encounter
    approach_peak: int = 0         # closest approach level reached in the current encounter (0..2)
    approach_hot: int = 0          # decisions spent above a cautious retreat from an approaching beast
    last_seen_distance: float | None = None  # of the beast when last sensed (None: it was only heard)
    last_threat_direction: str | None = None  # where the beast was last sensed, in the current frame
    decisions_since_threat: int = 0  # decisions since the last beast threat ended
    recent_walls: frozenset[str] = frozenset()  # walls sensed last decision, in the current frame
    encounter_began_at: int = 0    # decision count when the current encounter began
    leaving_corridor: bool = False  # the last escape was a corridor exit (kept straight on while safe)
    recovery: tuple[Mood, ...] = ()  # de-escalation stages still to go
    previous_memory: tuple[tuple[str, str], ...] = field(default_factory=tuple)


class ReferenceBrain(ProviderBrain):
    """The scripted reference world model. See the module card for its rules."""

    name = "reference"
    provider = "reference"
    model = "reference-v1"

    def __init__(self) -> None:
        super().__init__()
        self._state = AffectState()
        self.seed: int | None = None

    def reset(self, seed: int | None = None) -> None:
        """Start a new episode: forget the affect state (the reference is deterministic; ``seed`` is kept only
        for the record)."""
        with self._lock:
            self._state = AffectState()
            self.seed = seed

    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        return ProviderOutcome(text=self.think(scene).text)

    def think(self, scene: Any) -> ReferenceDecision:
        """Decide for one scene and advance the affect state (``decide`` without the reply wrapper; call it
        from one thread at a time)."""
        reading = read_scene(scene)
        self._notice_memory(reading.memory)
        verdicts = danger_map(reading)
        threat = find_threat(reading)
        if not reading.valid:
            plan = MotionPlan(Mood.CALM, Gait.STAND, "still", None)
        elif threat is not None and threat.kind == "beast":
            plan = self._react_to_beast(threat, verdicts, reading)
        else:
            plan = self._go_about(threat, verdicts, reading)
        primary = reading.primary
        if primary is not None:  # name what is in view, with its behaviour and distance
            plan = replace(plan, npc=NpcMention(primary.noun, primary.behavior, primary.distance))
        self._carry_into_next_frame(plan, reading)
        motion = compose_motion(plan, variant=self._state.decisions)
        self._state.decisions += 1
        text = grammar.format_reply(verdicts, motion)
        return ReferenceDecision(verdicts=verdicts, threat=threat, plan=plan, text=text)

    def _carry_into_next_frame(self, plan: MotionPlan, reading: SceneReading) -> None:
        """Remember the walls just sensed and where the beast was, in the frame of the next decision (the
        body turns to face its travel direction; back-steps and staying put keep the frame)."""
        st = self._state
        facing = plan.direction if plan.gait is Gait.TRAVEL else None
        st.recent_walls = frozenset(turned(d, facing) for d, w in reading.walls.items() if w is not None)
        if st.last_threat_direction is not None:
            st.last_threat_direction = turned(st.last_threat_direction, facing)

    def _choose(self, verdicts: dict, reading: SceneReading, away_from: str | None, **kw: Any) -> str | None:
        return choose_direction(verdicts, reading, away_from, recent_walls=self._state.recent_walls, **kw)

    def _escape_direction(self, threat: Threat, verdicts: dict, reading: SceneReading) -> str | None:
        """Where to flee the beast: a corridor exit is chosen at the first look (:func:`corridor_exit`) and
        kept (straight on, the body faces it) while it stays safe; otherwise the ranking of the card."""
        st = self._state
        first = st.beast_streak == 1
        prefer = "fwd" if st.leaving_corridor else (corridor_exit(verdicts, reading, threat.direction)
                                                    if first else None)
        away = self._choose(verdicts, reading, threat.direction, trust_escape_memory=first, prefer=prefer)
        st.leaving_corridor = prefer is not None and away == prefer
        return away

    # -- affect -------------------------------------------------------------------------------------

    def _notice_memory(self, memory: MemoryHints) -> None:
        st = self._state
        cleared = bool(st.previous_memory) and not set(st.previous_memory) & set(memory.entries)
        if cleared:  # the env wiped recent_decisions (a clean-slate phase): so does the brain's affect
            self._state = st = AffectState(decisions=st.decisions)
        if (st.decisions == 0 or cleared) and memory.fled_before:
            # a remembered flight: still on edge, and sensitised to the next beast (a new encounter)
            st.encounters = 1
            st.decisions_since_threat = LOST_FROM_VIEW_DECISIONS + 1
            st.recovery = RECOVERY_STAGES["strong"]
        st.previous_memory = memory.entries

    def _begin_encounter(self) -> None:
        st = self._state
        st.sensitization = min(2, st.encounters)
        st.encounters += 1
        st.encounter_began_at = st.decisions
        st.leaving_corridor = False
        st.peak = st.approach_peak = st.approach_hot = 0
        st.recovery = ()

    def _end_encounter(self) -> None:
        st = self._state
        if st.peak >= Mood.FEAR.intensity:  # a remembered or earlier flight: on edge for longer
            st.recovery = RECOVERY_STAGES["sensitized" if st.sensitization else "strong"]
        elif st.last_behavior == "retreat":
            st.recovery = RECOVERY_STAGES["receded"]
        else:
            st.recovery = RECOVERY_STAGES["mild"]
        st.beast_streak = st.charge_streak = st.decisions_since_threat = 0
        st.leaving_corridor = False

    # -- plans --------------------------------------------------------------------------------------

    def _react_to_beast(self, threat: Threat, verdicts: dict, reading: SceneReading) -> MotionPlan:
        st = self._state
        if st.beast_streak == 0:
            if self._lost_from_view_recently():  # the same beast back in range: the encounter goes on
                st.recovery = ()
            else:
                self._begin_encounter()
        st.beast_streak += 1
        st.last_seen_distance = threat.distance
        if threat.direction is not None:
            st.last_threat_direction = threat.direction
        st.charge_streak = st.charge_streak + 1 if threat.behavior == "charge" else 0
        if threat.seen or threat.behavior != "wander":  # a rustle cannot tell wandering from walking off
            st.last_behavior = threat.behavior
        elif st.last_behavior == "retreat":
            threat = replace(threat, behavior="retreat")
        plan = self._beast_plan(threat, verdicts, reading)
        st.peak = max(st.peak, plan.intensity)
        return plan

    def _beast_plan(self, threat: Threat, verdicts: dict, reading: SceneReading) -> MotionPlan:
        """The response to a beast (the card's intensity table), then the way to carry it out."""
        st = self._state
        sens = st.sensitization
        near = threat.distance if threat.distance is not None else float("inf")
        behavior = threat.behavior
        if behavior == "stop" and self._first_sight(threat):
            return MotionPlan(Mood.TENSE, Gait.FREEZE, "still", None)
        speed: SpeedName
        if behavior == "charge":
            mood, speed = ESCALATION_LADDER[min(_TOP, st.charge_streak - 1 + sens)], "sprint"
        elif behavior == "approach":
            mood, speed = self._approach_response(near)
        elif behavior in ("wander", "cross") and sens:
            mood, speed = Mood.FEAR, "run"
        elif sens:  # standing or walking off, but it has happened before: back away in fear, watching it
            mood, speed = Mood.FEAR, "walk"
        elif behavior in ("wander", "cross"):  # move off its path, briskly if it is close or passing
            brisk = behavior == "cross" or near <= WANDER_JOG_DISTANCE
            mood, speed = Mood.WARY, "jog" if brisk else "walk"
        else:  # standing (after the first look) or walking off: back away, keeping it in view
            mood, speed = Mood.WARY, "walk"
        away = self._escape_direction(threat, verdicts, reading)
        if away is None:  # every direction is dangerous: do not run into a wall; crouch and look for a gap
            cornered = Mood.TERROR if mood.intensity >= Mood.TERROR.intensity else Mood.FEAR
            return MotionPlan(cornered, Gait.CORNERED, "still", None, recalls_past=sens > 0)
        if speed == "walk" and away == "back" and threat.direction == "fwd":
            return MotionPlan(mood, Gait.BACKSTEP, "walk", "back", recalls_past=sens > 0)
        if mood is Mood.FEAR and speed == "walk":  # a fearful retreat that has to turn away goes at a jog
            speed = "jog"
        return MotionPlan(mood, Gait.TRAVEL, speed, away, recalls_past=sens > 0)

    def _approach_response(self, distance: float) -> tuple[Mood, SpeedName]:
        """Closer is more intense; the level never drops while the same beast keeps coming, and once it is
        past a cautious retreat it climbs one rung every two further decisions (escalation)."""
        st = self._state
        closeness = 2 if distance <= APPROACH_SPRINT_DISTANCE else int(distance <= APPROACH_RUN_DISTANCE)
        st.approach_peak = max(st.approach_peak, closeness)
        st.approach_hot = st.approach_hot + 1 if st.approach_peak else 0
        climb = (st.approach_hot - 1) // 2 if st.approach_peak else 0
        return APPROACH_LADDER[min(len(APPROACH_LADDER) - 1, st.approach_peak + st.sensitization + climb)]

    def _first_sight(self, threat: Threat) -> bool:
        """A standing beast, seen out of lunging range in the first moments of a first encounter: freeze."""
        st = self._state
        far = threat.distance is not None and threat.distance >= FREEZE_DISTANCE
        hold = STARTLE_DECISIONS if st.encounter_began_at > 0 else FREEZE_DECISIONS
        return far and threat.seen and not st.sensitization and st.beast_streak <= hold

    def _lost_from_view_recently(self) -> bool:
        """A beast last *seen* at the edge of sensing range a few decisions ago has most likely just slipped
        out of range, not gone: object permanence, not a new encounter. (One last only heard went silent:
        it stopped far away or is gone.)"""
        st = self._state
        edge = st.last_seen_distance is not None and st.last_seen_distance >= LOST_FROM_VIEW_DISTANCE
        return st.encounters > 0 and st.decisions_since_threat <= LOST_FROM_VIEW_DECISIONS and edge

    def _go_about(self, threat: Threat | None, verdicts: dict, reading: SceneReading) -> MotionPlan:
        """No beast threat: defensive caution towards an approaching human, else recovery or a calm walk
        (while recovering, away from where the beast was last known to be)."""
        st = self._state
        if st.beast_streak:
            self._end_encounter()
        st.decisions_since_threat += 1
        recovering = bool(st.recovery)
        mood = st.recovery[0] if recovering else Mood.CALM
        st.recovery = st.recovery[1:]
        remembered = st.last_threat_direction if recovering else None
        if not recovering:
            st.last_threat_direction = None
        if threat is not None:  # an approaching human: proportionate, defensive, never terror
            away = self._choose(verdicts, reading, threat.direction)
            if away == "back" and threat.direction == "fwd":
                return MotionPlan(Mood.DEFENSIVE, Gait.BACKSTEP, "walk", "back")
            if away is None:
                return MotionPlan(Mood.DEFENSIVE, Gait.STAND, "still", None)
            return MotionPlan(Mood.DEFENSIVE, Gait.TRAVEL, "walk", away)
        way = self._choose(verdicts, reading, remembered)
        if way is None:
            return MotionPlan(mood, Gait.STAND, "still", None)
        if way == "back" and remembered == "fwd" and mood.intensity >= Mood.CAUTIOUS.intensity:
            return MotionPlan(mood, Gait.BACKSTEP, "walk", "back")  # keep facing where it was
        return MotionPlan(mood, Gait.TRAVEL, "walk", way)
