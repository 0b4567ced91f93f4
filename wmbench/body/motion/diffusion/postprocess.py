"""Contact-aware, limit-respecting post-process of the diffusion model's frames (numpy, no training needed).

Card
----
- **Smoothing** (:class:`FrameSmoother`): a causal one-pole low-pass (``alpha`` = :data:`SMOOTHING`) on the
  denormalised frame vectors the body is shown. The model's own context keeps the raw samples (so its input
  stays in its training distribution); only what is shown is filtered. It removes the sample-to-sample
  noise of 4-step DDIM that makes jerk high; it lags by about ``(1 - alpha) / alpha`` frames.
- **Joint limits** (:func:`limit_knees`): a knee may flex at most :data:`KNEE_MAX_FLEX` (rad); a shin folded
  further behind the knee is rotated back (about the knee, in the leg's plane) to the limit and the foot
  follows its ankle (against the folded-shin sprint sample). A geometric clamp (bone lengths kept: the shin
  and foot are rotated rigidly); it is kept rather than an IK limit because it leaves hip, thigh and knee
  where the model put them.
- **Root lock** (:func:`lock_feet`, ``clip`` only, where the root's travel is the model's): a foot joint that
  is planted (within ``FOOT_CONTACT_HEIGHT`` of its lowest height in the clip) in two consecutive frames
  shifts the whole body horizontally against :data:`LOCK_STRENGTH` of its slide (averaged over
  :data:`LOCK_WINDOW` frames, so no velocity step). It handles a root that glides faster than the model's
  stride, which no leg can reach; a stronger lock costs intent fidelity (1.0 -> 0.92 at 0.75).
- **Foot pinning** (:func:`pin_feet` on ``clip``'s global frames after the root lock; :class:`LivePinner` on
  the live stream): a foot joint in contact (within ``FOOT_CONTACT_HEIGHT`` of its lowest height and slower
  than :data:`CONTACT_SPEED`, in the live stream or than the body's ground speed where that is larger)
  stays where it touched down; the knee and ankle are re-solved by analytic two-bone IK
  (``leg_ik.solve_legs``) so the leg reaches the pinned foot
  with its bone lengths kept, and the pin fades out over :data:`RELEASE_FRAMES` after lift-off. A leg's
  two foot joints (ankle, ball) share one offset, their pins weighted by :func:`contact_weights` (a heel
  rising through the contact band lets go gradually, so the leg passes to the ball without a jump). A pin is
  followed only as far as the leg reaches (:data:`PIN_REACH` of its length from the hip; in the live stream
  continuously, so a near-straight standing leg does not flicker); beyond that the foot slides on the
  floor (it is not lifted: a pinned foot's height is the model's, so a foot cannot leave the "planted" set by
  being pulled up; only the live stream's re-steps, below, lift a foot, by a whole step's arc).
  The root is not moved by pinning. In the live loop the frames are root-local and the body owns the root,
  so the stream passes the root's travel per frame and the pinner pins the feet causally on that ground
  track (the floor of a joint is its lowest height over the last second). There the stream also passes the
  stride's *shortfall* (how much slower than the body the model's planted feet move even at the playback
  warp's clamped rate): each swing then lands half a stance's shortfall further along the travel (stride
  lengthening, :class:`LivePinner`), so the next stance sweeps past the hip instead of running out of reach.
  **Re-steps** (live stream only): a foot whose pin the leg can no longer hold (the body has left it behind)
  is stepped anew, and a swing the stride lengthening carries far goes through the air; a re-step is the only
  thing that changes a foot height, and it lifts ankle and ball together by a whole step's arc
  (:data:`RESTEP_CLEARANCE` at mid-swing), never by a hover just above the contact band. **Toe-off**
  (live stream only, round 8): a joint keeps its pin through the frame in which it rises out of the contact
  band, so a foot leaves the floor without horizontal speed and its release starts from there.
- **Kneel guard** (:func:`lift_kneel`, every frame): an upright pose with a knee near the floor is lifted to a
  crouch (pelvis raised, shins stood up by IK); crawls, rolls and other non-upright poses keep their knees
  on the floor.
"""

from __future__ import annotations

import numpy as np

from wmbench.body.motion.diffusion.leg_ik import solve_legs
from wmbench.body.motion.stream import smoothstep
from wmbench.body.skeleton import FOOT_CONTACT_HEIGHT, FOOT_CONTACT_JOINTS, JOINT_NAMES

#: Weight of the newest frame in the causal low-pass on shown frames.
SMOOTHING = 0.5
#: Largest knee flexion (rad): 150 degrees, about the human range with the hip flexed.
KNEE_MAX_FLEX = np.deg2rad(150.0)
#: Fraction of a planted foot's slide that the root lock removes, and the frames its correction is averaged over.
LOCK_STRENGTH = 0.5
LOCK_WINDOW = 5

_LEGS = tuple((JOINT_NAMES.index(f"{s}_hip"), JOINT_NAMES.index(f"{s}_knee"), JOINT_NAMES.index(f"{s}_ankle"),
               JOINT_NAMES.index(f"{s}_foot")) for s in ("left", "right"))


class FrameSmoother:
    """Causal one-pole low-pass over frame vectors (see the module card); :meth:`reset` forgets the past."""

    def __init__(self, alpha: float = SMOOTHING) -> None:
        if not 0.0 < alpha <= 1.0:
            raise ValueError(f"alpha must be in (0, 1], got {alpha}")
        self.alpha = alpha
        self.state: np.ndarray | None = None

    def reset(self) -> None:
        self.state = None

    def __call__(self, frame: np.ndarray) -> np.ndarray:
        if self.state is None:
            self.state = np.array(frame, dtype=float)
        else:
            self.state = self.alpha * np.asarray(frame, dtype=float) + (1.0 - self.alpha) * self.state
        return self.state.copy()


def _rotate(v: np.ndarray, axis: np.ndarray, angle: float) -> np.ndarray:
    """``v`` rotated by ``angle`` about the unit ``axis`` (Rodrigues)."""
    c, s = np.cos(angle), np.sin(angle)
    return v * c + np.cross(axis, v) * s + axis * float(axis @ v) * (1.0 - c)


def limit_knees(joints: np.ndarray, max_flex: float = KNEE_MAX_FLEX) -> np.ndarray:
    """A copy of one (22, 3) pose whose knees flex at most ``max_flex`` (see the module card)."""
    out = np.array(joints, dtype=float)
    for hip, knee, ankle, foot in _LEGS:
        thigh = out[knee] - out[hip]
        shin = out[ankle] - out[knee]
        nt, ns = np.linalg.norm(thigh), np.linalg.norm(shin)
        if nt < 1e-6 or ns < 1e-6:
            continue
        cos_flex = float(np.clip(thigh @ shin / (nt * ns), -1.0, 1.0))
        flex = float(np.arccos(cos_flex))
        if flex <= max_flex:
            continue
        axis = np.cross(thigh, shin)
        norm = np.linalg.norm(axis)
        if norm < 1e-9:
            continue
        turn = -(flex - max_flex)  # rotate the shin back towards the thigh's line
        axis /= norm
        new_ankle = out[knee] + _rotate(shin, axis, turn)
        out[foot] = new_ankle + _rotate(out[foot] - out[ankle], axis, turn)
        out[ankle] = new_ankle
    return out


#: A foot joint moving slower than this (m/s, horizontally) while low counts as in contact (:func:`pin_feet`).
CONTACT_SPEED = 3.0
#: Frames over which a released foot's pin offset fades back to the model's own foot path (smoothstep).
RELEASE_FRAMES = 12
#: A pinned ankle is kept within this fraction of the leg's length (thigh + shin) from its hip.
PIN_REACH = 0.99
#: Seconds over which the live pinner takes a foot joint's lowest height as its floor.
LIVE_FLOOR_SECONDS = 1.0
#: Largest horizontal pin offset (m): a foot never drifts further than this from where the model put it.
MAX_PIN_OFFSET = 0.5


def contacts(clip: np.ndarray, fps: float = 30.0, contact_height: float = FOOT_CONTACT_HEIGHT,
             contact_speed: float = CONTACT_SPEED) -> np.ndarray:
    """(T, 4) bool: each foot joint (``FOOT_CONTACT_JOINTS`` order) of a global (T, 22, 3) clip is in contact
    when it is within ``contact_height`` of its lowest height in the clip *and* moves slower than
    ``contact_speed`` horizontally (backward difference; the first frame uses the forward one)."""
    feet = np.asarray(clip, dtype=float)[:, list(FOOT_CONTACT_JOINTS)]
    low = feet[..., 1] < feet[..., 1].min(axis=0) + contact_height
    if len(feet) < 2:
        return low
    step = np.linalg.norm(np.diff(feet[..., [0, 2]], axis=0), axis=-1) * fps
    speed = np.concatenate((step[:1], step))
    return low & (speed < contact_speed)


def contact_weights(heights: np.ndarray, floor: np.ndarray, contact_height: float = FOOT_CONTACT_HEIGHT
                    ) -> np.ndarray:
    """How firmly foot joints at ``heights`` above their ``floor`` hold their pins: 1 on the floor, falling
    linearly to 0 at ``contact_height`` above it (where contact ends), so a rising heel lets go gradually."""
    return np.clip((np.asarray(floor) + contact_height - np.asarray(heights)) / contact_height, 0.0, 1.0)


class _LegPin:
    """One leg's pin state (see :func:`pin_feet`): ``update`` takes which of its two foot joints (ankle, ball
    of the foot) touch and where they are (2, 2: x, z) and returns the leg's horizontal offset (x, z)."""

    def __init__(self, release: int, max_offset: float) -> None:
        self.release, self.max_offset = max(release, 1), max_offset
        self.pins: list[np.ndarray | None] = [None, None]
        self.offset = np.zeros(2)
        self.released = np.zeros(2)
        self.since = -1

    def update(self, touching: tuple[bool, bool], where: np.ndarray,
               weights: tuple[float, float] = (1.0, 1.0)) -> np.ndarray:
        """``weights``: how firmly each touching joint holds (see :func:`contact_weights`); the offset is the
        weighted mean of what keeps the pinned joints on their pins, so a joint whose weight has faded to
        nothing by the time it lifts off hands the leg to the other one without a jump."""
        for k in range(2):
            if not touching[k]:
                self.pins[k] = None
            elif self.pins[k] is None:
                self.pins[k] = where[k] + self.offset
        held = [(pin - where[k], max(weights[k], 1e-6)) for k, pin in enumerate(self.pins) if pin is not None]
        if held:
            offset = sum(w * d for d, w in held) / sum(w for _, w in held)
            norm = float(np.linalg.norm(offset))
            self.offset = offset * (self.max_offset / norm) if norm > self.max_offset else offset
            self.since = -1
        elif self.since >= 0 or np.any(self.offset):
            if self.since < 0:
                self.released, self.since = self.offset.copy(), 0
            self.since += 1
            self.offset = self.released * (1.0 - smoothstep(self.since / self.release))
            if self.since >= self.release:
                self.since, self.offset = -1, np.zeros(2)
        return self.offset.copy()


def _within_reach(leg: np.ndarray, shift: np.ndarray, reach: np.ndarray, continuous: bool = False
                  ) -> np.ndarray:
    """The largest ``s`` in [0, 1] with ``|leg + s * shift| <= reach`` (per row; ``leg`` = ankle - hip): a pin
    the leg cannot reach is followed only as far as the leg goes, so the foot slides on the floor instead of
    the leg straightening and lifting the foot off it. A leg the model already stretched beyond ``reach``
    follows no pin; with ``continuous`` (the live stream) it may still follow a pin that does not stretch it
    further (the bound is ``max(reach, |leg|)``), so ``s`` is continuous where ``|leg|`` crosses ``reach`` and
    a near-straight standing leg does not flicker between following its pin and dropping it (which streams
    as a foot jumping back and forth). ``clip`` keeps the plain rule: there the continuous one moved the
    held-out dance distance from 44.1 to 46.0 and its skating by 0.004 m/s only."""
    a = np.sum(shift * shift, axis=-1)
    b = np.sum(leg * shift, axis=-1)
    c = np.sum(leg * leg, axis=-1) - reach * reach
    if continuous:
        c = np.minimum(c, 0.0)
    root = np.sqrt(np.clip(b * b - a * c, 0.0, None))
    s = np.where(a > 1e-12, (-b + root) / np.maximum(a, 1e-12), 1.0)
    return np.clip(np.where(c > 0.0, 0.0, s), 0.0, 1.0)


def _shift_legs(joints: np.ndarray, offsets: np.ndarray, continuous_reach: bool = False,
                lifts: np.ndarray | None = None) -> np.ndarray:
    """``joints`` (..., 22, 3) with each leg's ankle moved by its horizontal offset (offsets: (..., 2 legs,
    2)) and, where ``lifts`` (..., 2 legs) is given, raised by it (the live pinner's re-steps); the leg is
    re-solved by two-bone IK (hip kept, bone lengths kept, knee bent towards the model's knee moved the same
    way); the foot joint moves rigidly with the ankle."""
    out = np.array(joints, dtype=float)
    for leg, (hip, knee, ankle, foot) in enumerate(_LEGS):
        lift = None if lifts is None else lifts[..., leg]
        if not np.any(offsets[..., leg, :]) and not np.any(lift):
            continue
        shift = np.zeros((*out.shape[:-2], 3))
        shift[..., 0], shift[..., 2] = offsets[..., leg, 0], offsets[..., leg, 1]
        if lift is not None:
            shift[..., 1] = lift
        thigh = np.linalg.norm(out[..., knee, :] - out[..., hip, :], axis=-1)
        shin = np.linalg.norm(out[..., ankle, :] - out[..., knee, :], axis=-1)
        shift *= _within_reach(out[..., ankle, :] - out[..., hip, :], shift, PIN_REACH * (thigh + shin),
                               continuous_reach)[..., None]
        new_knee, new_ankle = solve_legs(out[..., hip, :], out[..., ankle, :] + shift, thigh, shin,
                                         out[..., knee, :] + shift)
        out[..., foot, :] += new_ankle - out[..., ankle, :]
        out[..., knee, :], out[..., ankle, :] = new_knee, new_ankle
    return out


def _cannot_hold(joints: np.ndarray, leg: tuple[int, int, int, int], offset: np.ndarray) -> bool:
    """Whether a leg (hip, knee, ankle, foot indices) of root-local ``joints`` should give up its pin, whose
    horizontal ``offset`` from the model's foot it holds: the pin has drifted :data:`RESTEP_OFFSET` from the
    model's foot, or holding it stretches the leg beyond :data:`RESTEP_REACH` of its length and further than
    the model's own leg is stretched."""
    if float(np.hypot(*offset)) > RESTEP_OFFSET:
        return True
    hip, knee, ankle, _ = leg
    length = float(np.linalg.norm(joints[knee] - joints[hip]) + np.linalg.norm(joints[ankle] - joints[knee]))
    reach = joints[ankle] - joints[hip]
    pinned = reach + np.array([offset[0], 0.0, offset[1]])
    return bool(np.linalg.norm(pinned) > max(RESTEP_REACH * length, float(np.linalg.norm(reach))))


def lock_feet(clip: np.ndarray, contact_height: float = FOOT_CONTACT_HEIGHT, strength: float = LOCK_STRENGTH,
              window: int = LOCK_WINDOW) -> np.ndarray:
    """A copy of a global (T, 22, 3) clip whose whole body is shifted against part of its planted feet's slide
    (see the module card; :func:`pin_feet` then pins the feet within the legs' reach)."""
    out = np.array(clip, dtype=float)
    feet = list(FOOT_CONTACT_JOINTS)
    floor = out[:, feet, 1].min(axis=0)
    planted = out[:, feet, 1] < floor + contact_height
    steps = np.zeros((len(out), 2))
    for i in range(1, len(out)):
        both = planted[i - 1] & planted[i]
        if both.any():
            slide = out[i, feet][both][:, [0, 2]] - out[i - 1, feet][both][:, [0, 2]]
            steps[i] = -strength * slide.mean(axis=0)
    offset = np.cumsum(steps, axis=0)
    if window > 1 and len(out) > window:  # centred moving average: no velocity step where a contact starts
        pad = window // 2
        padded = np.concatenate((np.repeat(offset[:1], pad, 0), offset, np.repeat(offset[-1:], pad, 0)))
        kernel = np.ones(window) / window
        offset = np.stack([np.convolve(padded[:, k], kernel, mode="valid") for k in range(2)], axis=1)
    out[:, :, 0] += offset[:, None, 0]
    out[:, :, 2] += offset[:, None, 1]
    return out


def pin_feet(clip: np.ndarray, fps: float = 30.0, contact_height: float = FOOT_CONTACT_HEIGHT,
             contact_speed: float = CONTACT_SPEED, release: int = RELEASE_FRAMES,
             max_offset: float = MAX_PIN_OFFSET) -> np.ndarray:
    """A copy of a global (T, 22, 3) clip whose feet stay where they touched down (see the module card).

    Per leg, a horizontal offset ``o(t)`` is added to the model's ankle and foot: while a foot joint is in
    contact (:func:`contacts`) it is pinned where it was (with the offset it had) when the contact began, and
    ``o`` is what keeps the contacting joints on their pins (their mean; a pin starts where the joint is, so
    ``o`` is continuous); after a contact ``o`` fades to zero over ``release`` frames (smoothstep, so the foot
    lifts off without a velocity step). The knee and ankle
    are then re-solved by two-bone IK (``leg_ik.solve_legs``) from the model's hip to the shifted ankle with
    the frame's own thigh and shin lengths, bending towards the model's knee; the foot joint moves rigidly
    with the ankle. The root, spine, arms and every height the model chose are kept, so the clip's travel
    (its intent fidelity) is unchanged; a pin is followed only as far as :data:`PIN_REACH` of the leg lets
    the ankle go, so an unreachable one leaves the foot sliding on the floor (never lifted)."""
    out = np.array(clip, dtype=float)
    touching = contacts(out, fps, contact_height, contact_speed)
    feet = out[:, list(FOOT_CONTACT_JOINTS), 1]
    weights = contact_weights(feet, feet.min(axis=0), contact_height)
    offsets = np.zeros((len(out), 2, 2))
    for leg, (_, _, ankle, foot) in enumerate(_LEGS):
        pin = _LegPin(release, max_offset)
        for t in range(len(out)):
            now = (bool(touching[t, 2 * leg]), bool(touching[t, 2 * leg + 1]))
            offsets[t, leg] = pin.update(now, out[t][[ankle, foot]][:, [0, 2]],
                                         (float(weights[t, 2 * leg]), float(weights[t, 2 * leg + 1])))
    return _shift_legs(out, offsets)


def smootherstep(x: float) -> float:
    """Quintic ease of ``x`` clamped to [0, 1]: 0 -> 0, 1 -> 1, flat velocity *and* acceleration at both ends
    (a swing blended with it adds no acceleration step where it starts or ends)."""
    x = min(max(x, 0.0), 1.0)
    return x * x * x * (x * (6.0 * x - 15.0) + 10.0)


#: Stride adaptation of the live stream (:class:`LivePinner`): first guesses of a leg's stance and swing
#: (seconds) until its own have been timed, the weight of each newly timed phase in their running means, and
#: the bounds of the duration (seconds) a swing's landing is blended over.
STANCE_SECONDS, SWING_SECONDS = 0.4, 0.4
STEP_TIMING_FOLLOW = 0.5
SWING_MIN_SECONDS, SWING_MAX_SECONDS = 0.1, 0.5


#: Re-steps of the live stream (:class:`LivePinner`): a pinned foot is stepped anew when holding it would take
#: its ankle beyond this fraction of the leg's length from the hip, or when its pin has drifted this far (m)
#: from where the model puts the foot; the step's clearance (m, the peak lift of ankle and foot), the bounds
#: of its duration (seconds; the leg's own running swing time in between), and the stance frames a landed
#: foot holds before it may be stepped again.
RESTEP_REACH = 0.95
RESTEP_OFFSET = 0.3
RESTEP_CLEARANCE = 0.08
RESTEP_MIN_SECONDS, RESTEP_MAX_SECONDS = 0.3, 0.5
RESTEP_MIN_STANCE = 3
RESTEP_CARRY = 0.1


def lift_profile(u: float) -> float:
    """The re-step's lift over its progress ``u`` in [0, 1] as a fraction of its clearance: 0 at both ends with
    zero vertical speed there, 1 at mid-swing (``16 u^2 (1 - u)^2``)."""
    u = min(max(u, 0.0), 1.0)
    return 16.0 * u * u * (1.0 - u) * (1.0 - u)


class _SteppingLegPin(_LegPin):
    """A live leg pin (:class:`_LegPin`) that also times the leg's steps, lengthens its stride and re-steps a
    foot it can no longer hold (see :class:`LivePinner`)."""

    def __init__(self, release: int, max_offset: float, fps: float) -> None:
        super().__init__(release, max_offset)
        self.fps = fps
        self.stance_frames, self.swing_frames = STANCE_SECONDS * fps, SWING_SECONDS * fps
        self.phase_frames = 0
        self.in_stance = False
        #: a re-step in progress: frames done, frames in all, and the offsets it starts from and lands at
        self.restep_at, self.restep_frames = -1, 0
        self.restep_from, self.restep_to = np.zeros(2), np.zeros(2)
        self.held_frames = 0

    @property
    def restepping(self) -> bool:
        """Whether a re-step is in progress."""
        return self.restep_at >= 0

    @property
    def holds(self) -> bool:
        """Whether either foot joint is on its pin."""
        return any(pin is not None for pin in self.pins)

    def start_restep(self, goal: np.ndarray) -> None:
        """Lift the foot off its pin and step it to ``goal`` (an (x, z) offset from the model's foot) over the
        leg's running swing time within the re-step bounds."""
        frames = min(max(self.swing_frames, RESTEP_MIN_SECONDS * self.fps), RESTEP_MAX_SECONDS * self.fps)
        self.restep_at, self.restep_frames = 0, max(2, round(frames))
        self.restep_from, self.restep_to = self.offset.copy(), np.array(goal, dtype=float)
        self.pins, self.since, self.held_frames = [None, None], -1, 0

    def advance_restep(self) -> tuple[np.ndarray, float]:
        """One frame of the re-step: (offset, lift fraction). The offset blends by :func:`smootherstep` and the
        lift follows :func:`lift_profile`; the last frame lands with the goal offset, which the next contact
        pins. (Simplified: the blend is of offsets from the model's foot, so the foot follows the model's own
        swing where there is one; a step blended over the ground instead, from the pin to a fixed landing
        point, fought the model's own stepping: loop skating 0.23 -> 0.31.)"""
        self.restep_at += 1
        u = self.restep_at / self.restep_frames
        blend = smootherstep(u)
        self.offset = self.restep_from * (1.0 - blend) + self.restep_to * blend
        lift = lift_profile(u)
        if self.restep_at >= self.restep_frames:
            self.restep_at = -1
        return self.offset.copy(), lift

    def time_step(self, touching: bool) -> None:
        """Count this frame into the current phase (stance while any foot joint touches); a phase that ends
        is folded into the running mean of its kind (:data:`STEP_TIMING_FOLLOW`)."""
        if touching == self.in_stance:
            self.phase_frames += 1
            return
        if self.phase_frames > 0:
            if self.in_stance:
                self.stance_frames += STEP_TIMING_FOLLOW * (self.phase_frames - self.stance_frames)
            else:
                self.swing_frames += STEP_TIMING_FOLLOW * (self.phase_frames - self.swing_frames)
        self.in_stance, self.phase_frames = touching, 1

    def step(self, touching: tuple[bool, bool], where: np.ndarray, weights: tuple[float, float],
             goal: np.ndarray | None) -> np.ndarray:
        """As :meth:`_LegPin.update`, except that a swing (no joint touching, an offset still held) blends
        from the offset it lifted off with to ``goal`` (the stride lengthening, an (x, z) offset) by
        :func:`smootherstep` over the leg's own running swing duration; ``goal`` None (a standing body) is
        :class:`_LegPin`'s plain fade back to the model's foot."""
        if goal is None or any(touching) or not (self.since >= 0 or np.any(self.offset)):
            return self.update(touching, where, weights)
        self.pins = [None, None]
        if self.since < 0:
            self.released, self.since = self.offset.copy(), 0
        self.since += 1
        span = min(max(self.swing_frames, SWING_MIN_SECONDS * self.fps), SWING_MAX_SECONDS * self.fps)
        blend = smootherstep(self.since / span)
        offset = self.released * (1.0 - blend) + goal * blend
        norm = float(np.linalg.norm(offset))
        self.offset = offset * (self.max_offset / norm) if norm > self.max_offset else offset
        return self.offset.copy()


class LivePinner:
    """Causal foot pinning and stride adaptation for streamed root-local frames (the live loop), see the
    module card.

    The body owns the root; the stream tells the pinner how far the root travelled in this frame, in the root's
    own frame (``ground_step``: x, z metres; the body's speed over the frame along the intent's travel
    direction). Foot joints are placed on that integrated ground track; a joint is in contact when it is
    within ``FOOT_CONTACT_HEIGHT`` of its lowest height over the last :data:`LIVE_FLOOR_SECONDS` and
    slower over the ground than ``contact_speed`` (default :data:`CONTACT_SPEED`) or than the body's own ground
    speed, whichever is larger: a foot moving forward slower than the body is not swinging, so one that comes
    down sliding at a sprint (the model's stride ending short of the body's) is held where it lands, while a
    swing foot skimming the floor (faster than the body) is not;
    pins, release and leg IK are those of :func:`pin_feet`, each joint holding with its
    :func:`contact_weights`.

    **Stride lengthening** (motion6; ``shortfall``, m/s: how much slower than the body the model's planted feet
    move back even at the playback warp's rate, see ``generator.PlaybackWarp``): while the body moves, each
    swing lands ``shortfall x (the leg's running stance duration) / 2`` further along the travel than the
    model put it, blended in over the swing (:func:`smootherstep` over the leg's running swing duration), so
    the stance that follows sweeps past the hip symmetrically and covers the body's ground instead of the
    pin running out of the leg's reach; the leg is re-solved by two-bone IK within its reach as for every pin
    (bone lengths unchanged). Stance and swing durations are timed from the leg's own
    contacts. A stride longer than the body's speed needs is not shortened (the warp's cadence handles
    that); a standing body's swing fades back to the model's foot as in :func:`pin_feet`.

    **Re-steps** (round 7; the back-step's model shuffled its feet while the body backed away, so a held pin
    ran out of the leg's reach and the foot slid with the body): while the body moves, a leg that has held its
    pin for more than :data:`RESTEP_MIN_STANCE` frames gives it up when holding it would stretch the leg past
    :data:`RESTEP_REACH` of its length (and past the model's own stretch) or the pin has drifted
    :data:`RESTEP_OFFSET` from the model's foot, provided the other leg stands on its pin and is not stepping
    (one leg at a time). The foot then steps to the stride goal over the leg's running swing time (within
    :data:`RESTEP_MIN_SECONDS`-:data:`RESTEP_MAX_SECONDS`), its offset blended by :func:`smootherstep` and
    ankle and ball lifted together by :data:`RESTEP_CLEARANCE` x :func:`lift_profile`; the next contact pins
    it where it lands. A model swing that the stride lengthening would carry more than :data:`RESTEP_CARRY`
    is stepped the same way instead of being dragged along the floor. Re-steps are the only change of a foot
    height, always a whole arc (tested), so a foot cannot hover out of the skating metric's planted set.

    **Toe-off** (round 8): a joint's contact is extended by the frame in which it rises out of the contact band
    (``touching`` is this frame's contact, or the last frame's where the joint is no longer low), so the joint
    leaves the floor on its pin, with no horizontal speed, and the release (or the swing's blend to its
    landing) starts from the next frame. Before, the frame that took a foot out of the band carried the
    model's own drift over the ground, at a sprint about half of the loop's skating: loop skating 0.213 ->
    0.196 m/s (3 cm band; 0.385 -> 0.364 at 5 cm, 0.685 -> 0.650 at 8 cm, the planted fraction unchanged),
    loop jerk 233 -> 242. A joint still low but faster than the contact speed (a swing skimming the floor) was
    never in contact and is not extended.

    Simplified: the root's turning is not known here (only its travel), so while the body turns a pinned foot
    can still slide by the turn."""

    def __init__(self, fps: float = 30.0, release: int = RELEASE_FRAMES, max_offset: float = MAX_PIN_OFFSET,
                 contact_speed: float = CONTACT_SPEED) -> None:
        self.fps = fps
        self.contact_speed = contact_speed
        self.release = max(1, round(release * fps / 30.0))
        self.max_offset = max_offset
        self.floor_frames = max(1, round(LIVE_FLOOR_SECONDS * fps))
        self.reset()

    def reset(self) -> None:
        self.ground = np.zeros(2)
        self.heights: list[np.ndarray] = []
        self.last: np.ndarray | None = None
        self.legs = [_SteppingLegPin(self.release, self.max_offset, self.fps) for _ in _LEGS]
        self.contact_before = np.zeros(len(FOOT_CONTACT_JOINTS), dtype=bool)

    def __call__(self, joints: np.ndarray, ground_step: tuple[float, float], shortfall: float = 0.0
                 ) -> np.ndarray:
        """``joints`` (22, 3) root-local -> a copy with the feet pinned and the stride lengthened by
        ``shortfall`` (m/s, see the class card; 0: the model's own stride)."""
        joints = np.array(joints, dtype=float)
        self.ground = self.ground + np.asarray(ground_step, dtype=float)
        feet = joints[list(FOOT_CONTACT_JOINTS)]
        world = feet[:, [0, 2]] + self.ground
        self.heights = [*self.heights[max(0, len(self.heights) + 1 - self.floor_frames):], feet[:, 1]]
        low = feet[:, 1] < np.min(self.heights, axis=0) + FOOT_CONTACT_HEIGHT
        speed = np.zeros(4) if self.last is None else np.linalg.norm(world - self.last, axis=1) * self.fps
        self.last = world
        limit = max(self.contact_speed, float(np.hypot(*ground_step)) * self.fps)
        contact = low & (speed < limit)
        touching = contact | (self.contact_before & ~low)   # toe-off: held through the frame it rises (card)
        self.contact_before = contact
        weights = contact_weights(feet[:, 1], np.min(self.heights, axis=0))
        for i, leg in enumerate(self.legs):
            leg.time_step(bool(touching[2 * i] or touching[2 * i + 1]))
        goals = self._stride_goals(ground_step, shortfall)
        offsets, lifts = np.zeros((2, 2)), np.zeros(2)
        for i, leg in enumerate(self.legs):
            goal, pair = goals[i], (bool(touching[2 * i]), bool(touching[2 * i + 1]))
            lifting_off = leg.holds and not any(pair)
            if (goal is not None and lifting_off and not leg.restepping
                    and float(np.linalg.norm(goal - leg.offset)) > RESTEP_CARRY):
                leg.start_restep(goal)   # a swing the stride lengthening carries far goes through the air
            if leg.restepping:
                offsets[i], lift = leg.advance_restep()
                lifts[i] = RESTEP_CLEARANCE * lift
                continue
            offsets[i] = leg.step(pair, world[2 * i:2 * i + 2], (float(weights[2 * i]), float(weights[2 * i + 1])),
                                  goal)
            leg.held_frames = leg.held_frames + 1 if leg.holds else 0
            other = self.legs[1 - i]
            if (goal is not None and leg.held_frames > RESTEP_MIN_STANCE and other.holds and not other.restepping
                    and _cannot_hold(joints, _LEGS[i], offsets[i])):
                leg.start_restep(goal)   # a foot the body has left behind steps anew
        return _shift_legs(joints, offsets, continuous_reach=True, lifts=lifts)

    def _stride_goals(self, ground_step: tuple[float, float], shortfall: float) -> list[np.ndarray | None]:
        """Per leg, the (x, z) offset its swing lands with (see the class card), or None while the body
        stands (a swing then fades back to the model's foot)."""
        step = np.asarray(ground_step, dtype=float)
        dist = float(np.linalg.norm(step))
        if dist < 1e-9:
            return [None, None]
        half = 0.5 * max(float(shortfall), 0.0) / self.fps   # metres per stance frame, halved
        return [step / dist * (half * leg.stance_frames) for leg in self.legs]


#: A knee lower than this (m above the floor) in an upright pose starts the kneel guard (:func:`lift_kneel`);
#: at ``KNEE_MIN_HEIGHT - KNEE_BAND`` and below it acts fully.
KNEE_MIN_HEIGHT = 0.35
KNEE_BAND = 0.15
#: The kneel guard lifts the pelvis (and everything above the legs) to at least this height (m)...
PELVIS_MIN_HEIGHT = 0.65
#: ... and moves each foot ``w`` x ``SQUAT_PULL`` of the way to a point ``SQUAT_FORWARD`` (m) ahead of its hip,
#: so the shin stands instead of lying on the floor (a full kneel gets both feet under the body).
SQUAT_FORWARD = 0.12
SQUAT_PULL = 1.0
#: Only poses whose trunk leans less than this from vertical (rad) count as upright (a crawl or a roll is
#: meant to have its knees on the floor).
UPRIGHT_LEAN = np.deg2rad(45.0)
_SPINE3 = JOINT_NAMES.index("spine3")
_LEG_JOINTS = frozenset(j for leg in _LEGS for j in leg[1:])


def lift_kneel(joints: np.ndarray) -> np.ndarray:
    """A copy of one root-local (22, 3) pose (floor at y = 0) that crouches instead of kneeling.

    An upright pose (trunk within :data:`UPRIGHT_LEAN` of vertical) with a knee below
    :data:`KNEE_MIN_HEIGHT` is a kneel, which no MOTION line asks for (the shipped crouch samples, learned from
    the procedural crouch, put a shin flat on the floor). With ``w`` rising from 0 at that height to 1 at
    :data:`KNEE_BAND` lower (of the lowest knee), the pelvis and everything above the legs is lifted by ``w``
    times its shortfall below :data:`PELVIS_MIN_HEIGHT`; then each leg is re-solved by two-bone IK from its
    (lifted) hip to the model's ankle moved ``w`` x :data:`SQUAT_PULL` of the way to :data:`SQUAT_FORWARD`
    ahead of the hip, bending towards the model's knee pushed ``w`` m forward (a crouching knee points ahead;
    without the push a knee behind the hip-ankle line would bend backwards), bone lengths kept; the foot
    moves rigidly with its ankle. Feet keep their heights, so a planted foot stays on the floor. In the live
    stream the guard runs after foot pinning and overrides it (a full kneel's feet go under the body even if
    that slides them). ``w`` is continuous in the pose, so streaming frames do not jump when the
    guard starts. Any other pose is returned unchanged (equal values)."""
    out = np.array(joints, dtype=float)
    up = out[_SPINE3] - out[0]
    if np.arctan2(np.hypot(up[0], up[2]), up[1]) >= UPRIGHT_LEAN:
        return out
    knee_low = min(out[leg[1], 1] for leg in _LEGS)
    w = float(np.clip((KNEE_MIN_HEIGHT - knee_low) / KNEE_BAND, 0.0, 1.0))
    if w == 0.0:
        return out
    lift = w * max(0.0, PELVIS_MIN_HEIGHT - out[0, 1])
    lengths = [(float(np.linalg.norm(out[k] - out[h])), float(np.linalg.norm(out[a] - out[k]))) for h, k, a, _ in _LEGS]
    upper = [j for j in range(len(out)) if j not in _LEG_JOINTS]
    out[upper, 1] += lift
    for (hip, knee, ankle, foot), (thigh, shin) in zip(_LEGS, lengths):
        target = out[ankle].copy()
        target[2] += w * SQUAT_PULL * (out[hip, 2] + SQUAT_FORWARD - target[2])
        new_knee, new_ankle = solve_legs(out[hip], target, thigh, shin, out[knee] + np.array([0.0, lift, w]))
        out[foot] += new_ankle - out[ankle]
        out[knee], out[ankle] = new_knee, new_ankle
    return out
