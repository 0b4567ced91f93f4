"""ProceduralGenerator: gait against speed, style postures, transitions, clips, determinism, bone lengths."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from wmbench.body.intent.record import STYLE_TAGS, MotionIntent
from wmbench.body.motion.contract import POSTURES, MotionFrame, MotionGenerator
from wmbench.body.motion.procedural.generator import ProceduralGenerator
from wmbench.body.skeleton import DEFAULT_SKELETON, JOINT_NAMES, PARENTS, Skeleton
from wmbench.core.speed import SpeedClass

FPS = 30.0
J = {name: i for i, name in enumerate(JOINT_NAMES)}
MOVING = [c for c in SpeedClass if c is not SpeedClass.STILL]


def intent(speed_class: SpeedClass = SpeedClass.WALK, *styles: str, heading: float = 0.0,
           face_travel: bool = True) -> MotionIntent:
    if speed_class is SpeedClass.STILL:
        return MotionIntent.still(styles=frozenset(styles))
    return MotionIntent("fwd", heading, speed_class, frozenset(styles), face_travel=face_travel)


def run(it: MotionIntent, n: int = 90, seed: int = 0, speed: float | None = None) -> list[MotionFrame]:
    gen = ProceduralGenerator(fps=FPS)
    gen.reset(seed)
    gen.set_intent(it)
    v = it.speed if speed is None else speed
    return [gen.next_frame(v) for _ in range(n)]


def joints_of(frames: list[MotionFrame]) -> np.ndarray:
    return np.stack([f.joints for f in frames])


def cycles_per_second(signal: np.ndarray) -> float:
    """Gait cycles per second from upward mean crossings of a periodic signal sampled at FPS."""
    centred = signal - signal.mean()
    ups = np.flatnonzero((centred[:-1] < 0) & (centred[1:] >= 0))
    assert len(ups) >= 3, "signal is not periodic"
    return (len(ups) - 1) / ((ups[-1] - ups[0]) / FPS)


def knee_flexion(joints: np.ndarray, hip: int, knee: int, ankle: int) -> np.ndarray:
    thigh = joints[:, knee] - joints[:, hip]
    shin = joints[:, ankle] - joints[:, knee]
    cos = np.sum(thigh * shin, axis=1) / np.linalg.norm(thigh, axis=1) / np.linalg.norm(shin, axis=1)
    return np.arccos(np.clip(cos, -1.0, 1.0))


# --- protocol and frame format -----------------------------------------------------------------------------


def test_implements_the_protocol():
    gen = ProceduralGenerator()
    assert isinstance(gen, MotionGenerator)
    assert gen.name == "procedural" and gen.fps == 30.0


def test_frames_are_root_local_and_on_the_floor():
    for it in (intent(SpeedClass.SPRINT), intent(SpeedClass.WALK, "crouch"), intent(SpeedClass.STILL)):
        frames = run(it, 60)
        joints = joints_of(frames)
        assert joints.shape == (60, 22, 3)
        np.testing.assert_allclose(joints[:, 0, [0, 2]], 0.0, atol=1e-12)
        assert joints[:, :, 1].min() > 0.0, "no joint below the floor"
        assert all(0.0 <= f.gait_phase < 1.0 for f in frames)
        assert all(f.posture in POSTURES for f in frames)
        assert not frames[0].joints.flags.writeable


def test_standing_frame_faces_plus_z_with_left_at_plus_x():
    joints = run(intent(SpeedClass.STILL), 1)[0].joints
    assert joints[J["left_hip"], 0] > 0 > joints[J["right_hip"], 0]
    assert joints[J["left_foot"], 2] > joints[J["left_ankle"], 2], "toes point +z"
    assert joints[J["head"], 1] == joints[:, 1].max()


# --- gait against speed ------------------------------------------------------------------------------------


def gait_measures(speed_class: SpeedClass) -> dict[str, float]:
    frames = joints_of(run(intent(speed_class), 180))
    ankle_z = frames[:, J["left_ankle"], 2]
    cycle_hz = cycles_per_second(ankle_z)
    return {
        "steps_per_s": 2.0 * cycle_hz,
        "stride": speed_class.speed / cycle_hz,
        "ankle_range": float(np.ptp(ankle_z)),
        "knee_flexion": float(knee_flexion(frames, J["left_hip"], J["left_knee"], J["left_ankle"]).max()),
    }


@pytest.fixture(scope="module")
def gaits() -> dict[SpeedClass, dict[str, float]]:
    return {c: gait_measures(c) for c in MOVING}


@pytest.mark.parametrize("measure", ["steps_per_s", "stride", "ankle_range", "knee_flexion"])
def test_gait_grows_with_speed_class(gaits, measure):
    values = [gaits[c][measure] for c in MOVING]
    assert all(a < b for a, b in itertools.pairwise(values)), f"{measure} not increasing: {values}"


def test_cadence_matches_human_numbers(gaits):
    assert gaits[SpeedClass.WALK]["steps_per_s"] == pytest.approx(1.8, rel=0.1)
    assert gaits[SpeedClass.SPRINT]["steps_per_s"] == pytest.approx(3.0, rel=0.1)


def airborne_fraction(joints: np.ndarray) -> float:
    rest = DEFAULT_SKELETON.rest_pose()

    def lifted(ankle: int, foot: int) -> np.ndarray:
        return (joints[:, ankle, 1] > rest[ankle, 1] + 0.05) & (joints[:, foot, 1] > rest[foot, 1] + 0.05)

    both = lifted(J["left_ankle"], J["left_foot"]) & lifted(J["right_ankle"], J["right_foot"])
    return float(both.mean())


@pytest.mark.parametrize(("speed_class", "flies"), [(SpeedClass.WALK, False), (SpeedClass.RUN, True),
                                                     (SpeedClass.SPRINT, True)])
def test_flight_phase_only_when_running(speed_class, flies):
    fraction = airborne_fraction(joints_of(run(intent(speed_class), 120)))
    assert (fraction > 0.05) == flies, fraction


def test_arms_swing_in_counter_phase_with_legs():
    joints = joints_of(run(intent(SpeedClass.WALK), 120))
    corr = np.corrcoef(joints[:, J["left_wrist"], 2], joints[:, J["left_ankle"], 2])[0, 1]
    assert corr < -0.5
    corr_cross = np.corrcoef(joints[:, J["left_wrist"], 2], joints[:, J["right_ankle"], 2])[0, 1]
    assert corr_cross > 0.5


def test_planted_foot_does_not_slide_in_a_clip():
    clip = ProceduralGenerator().clip(intent(SpeedClass.WALK), 120)
    for side in ("left", "right"):
        ankle_foot = clip[:, [J[f"{side}_ankle"], J[f"{side}_foot"]]]
        speed = np.linalg.norm(np.diff(ankle_foot, axis=0), axis=-1).min(axis=1) * FPS
        # heel strike rolls about the ankle, the flat foot stands still, heel-off rolls about the toe tip
        assert np.mean(speed < 0.01) > 0.25, f"{side} foot planted for a good part of the cycle"


def test_bad_speeds_are_survived():
    gen = ProceduralGenerator()
    gen.set_intent(intent(SpeedClass.WALK))
    standing = gen.next_frame(0.0).joints
    for bad in (float("nan"), float("inf"), -3.0, "fast", None):
        frame = gen.next_frame(bad)  # type: ignore[arg-type]
        assert np.all(np.isfinite(frame.joints))
    np.testing.assert_allclose(gen.next_frame(-1.0).joints[:, 1], standing[:, 1], atol=0.02)
    assert np.all(np.isfinite(gen.next_frame(1e9).joints))


# --- bone lengths and determinism --------------------------------------------------------------------------


@pytest.mark.parametrize("style", sorted(STYLE_TAGS))
@pytest.mark.parametrize("speed_class", list(SpeedClass))
def test_every_frame_keeps_bone_lengths(speed_class, style):
    frames = joints_of(run(intent(speed_class, style), 40))
    error = np.abs(DEFAULT_SKELETON.measure_bone_lengths(frames) - DEFAULT_SKELETON.bone_lengths())
    assert error.max() < 1e-3


def test_bone_lengths_kept_through_transitions_and_speed_changes():
    gen = ProceduralGenerator()
    rng = np.random.default_rng(5)
    tags = sorted(STYLE_TAGS)
    frames = []
    for k in range(30):
        gen.set_intent(intent(list(SpeedClass)[k % 5], tags[k % len(tags)], tags[(3 * k) % len(tags)]))
        frames += [gen.next_frame(float(rng.uniform(0.0, 8.0))).joints for _ in range(4)]
    error = np.abs(DEFAULT_SKELETON.measure_bone_lengths(np.stack(frames)) - DEFAULT_SKELETON.bone_lengths())
    assert error.max() < 1e-3


@pytest.mark.parametrize("styles", [(), ("caution",), ("fear", "glance_back"), ("relief",)])
def test_same_seed_same_frames(styles):
    it = intent(SpeedClass.JOG, *styles)
    a, b = joints_of(run(it, 45, seed=7)), joints_of(run(it, 45, seed=7))
    np.testing.assert_array_equal(a, b)


def test_reset_restarts_the_stream():
    gen = ProceduralGenerator()
    gen.reset(3)
    gen.set_intent(intent(SpeedClass.WALK, "caution"))
    first = [gen.next_frame(1.4).joints for _ in range(20)]
    gen.reset(3)
    gen.set_intent(intent(SpeedClass.WALK, "caution"))
    again = [gen.next_frame(1.4).joints for _ in range(20)]
    np.testing.assert_array_equal(np.stack(first), np.stack(again))


def test_seed_changes_the_random_rhythms():
    it = intent(SpeedClass.WALK, "caution")
    assert not np.allclose(joints_of(run(it, 30, seed=1)), joints_of(run(it, 30, seed=2)))


# --- styles ------------------------------------------------------------------------------------------------


def test_freeze_holds_still():
    joints = joints_of(run(intent(SpeedClass.STILL, "freeze"), 90))
    assert np.abs(joints - joints[0]).max() < 0.005
    # and it stops the gait even if the body is still moving (decelerating)
    moving = joints_of(run(intent(SpeedClass.STILL, "freeze"), 30, speed=1.0))
    assert np.abs(moving - moving[0]).max() < 0.005


@pytest.mark.parametrize("speed_class", [SpeedClass.STILL, SpeedClass.WALK])
def test_crouch_lowers_the_pelvis(speed_class):
    plain = joints_of(run(intent(speed_class), 60))[:, 0, 1].mean()
    crouched = joints_of(run(intent(speed_class, "crouch"), 60))[:, 0, 1].mean()
    assert crouched < plain - 0.15
    knees = joints_of(run(intent(SpeedClass.STILL, "crouch"), 10))[-1]
    flex = knee_flexion(knees[None], J["left_hip"], J["left_knee"], J["left_ankle"])[0]
    assert flex > 0.8, "knees clearly bent"


@pytest.mark.parametrize("speed_class", [SpeedClass.STILL, SpeedClass.WALK])
def test_defensive_raises_forearms_in_front_of_the_chest(speed_class):
    it = intent(speed_class, "defensive", "backstep", heading=math.pi, face_travel=False)
    joints = joints_of(run(it, 60))[15:]
    for side in ("left", "right"):
        assert np.all(joints[:, J[f"{side}_wrist"], 1] > joints[:, J[f"{side}_elbow"], 1] + 0.05)
        assert np.all(joints[:, J[f"{side}_wrist"], 2] > joints[:, J["spine3"], 2] + 0.1), "in front"
    assert np.all(joints[:, J["neck"], 2] < joints[:, 0, 2]), "slight backward lean"


def trunk_lean(joints: np.ndarray) -> np.ndarray:
    trunk = joints[:, J["neck"]] - joints[:, 0]
    return np.arctan2(trunk[:, 2], trunk[:, 1])


def test_fear_leans_forward_when_running():
    plain = trunk_lean(joints_of(run(intent(SpeedClass.SPRINT), 30))).mean()
    frames = run(intent(SpeedClass.SPRINT, "fear"), 30)
    afraid = trunk_lean(joints_of(frames)).mean()
    assert afraid > plain + 0.15
    assert frames[-1].posture == "lean_forward"
    assert run(intent(SpeedClass.SPRINT), 10)[-1].posture == "upright"


def head_turn(joints: np.ndarray) -> np.ndarray:
    """Sideways offset of the head from the neck in the facing frame (the head sits a little forward)."""
    return joints[:, J["head"], 0] - joints[:, J["neck"], 0]


def test_glance_back_turns_the_head_over_a_shoulder():
    plain = np.abs(head_turn(joints_of(run(intent(SpeedClass.SPRINT, "fear"), 30)))).mean()
    glancing = np.abs(head_turn(joints_of(run(intent(SpeedClass.SPRINT, "fear", "glance_back"), 30))[10:]))
    assert glancing.min() > plain + 0.02


def test_caution_scans_and_shortens_steps(gaits):
    frames = joints_of(run(intent(SpeedClass.WALK, "caution"), 150))
    assert np.ptp(head_turn(frames)) > 0.03, "head scans left-right"
    plain_walk = joints_of(run(intent(SpeedClass.WALK), 150))
    assert np.ptp(head_turn(plain_walk)) < 0.02
    cautious_hz = cycles_per_second(frames[:, J["left_ankle"], 2])
    assert SpeedClass.WALK.speed / cautious_hz < 0.9 * gaits[SpeedClass.WALK]["stride"]


def test_relief_slumps_with_head_down_and_slow_breathing():
    upright = joints_of(run(intent(SpeedClass.STILL), 450))
    relieved = joints_of(run(intent(SpeedClass.STILL, "relief"), 450))
    assert relieved[:, J["head"], 1].mean() < upright[:, J["head"], 1].mean() - 0.03
    assert relieved[:, J["left_shoulder"], 1].mean() < upright[:, J["left_shoulder"], 1].mean() - 0.01
    breath = relieved[:, J["left_shoulder"], 1]
    assert np.ptp(breath) > np.ptp(upright[:, J["left_shoulder"], 1])
    assert cycles_per_second(breath) < 0.22


@pytest.mark.parametrize(
    ("styles", "speed_class", "label"),
    [((), SpeedClass.WALK, "upright"), (("crouch",), SpeedClass.WALK, "crouch"),
     (("freeze",), SpeedClass.STILL, "freeze"), (("defensive",), SpeedClass.STILL, "defensive"),
     (("relief",), SpeedClass.WALK, "slump"), (("caution",), SpeedClass.WALK, "cautious"),
     (("vigilant",), SpeedClass.STILL, "cautious"), (("terror",), SpeedClass.RUN, "lean_forward")],
)
def test_posture_labels(styles, speed_class, label):
    assert run(intent(speed_class, *styles), 10)[-1].posture == label


# --- transitions -------------------------------------------------------------------------------------------


def test_new_intent_blends_in_over_a_fifth_of_a_second():
    gen = ProceduralGenerator()
    gen.set_intent(intent(SpeedClass.STILL))
    frames = [gen.next_frame(0.0).joints for _ in range(10)]
    gen.set_intent(intent(SpeedClass.STILL, "defensive"))
    frames += [gen.next_frame(0.0).joints for _ in range(20)]
    joints = np.stack(frames)
    wrist_y = joints[:, J["left_wrist"], 1]
    assert wrist_y[11] < wrist_y[-1] - 0.2, "not yet raised right after the change"
    assert abs(wrist_y[10 + 7] - wrist_y[-1]) < 0.02, "fully raised after ~0.2 s"
    assert np.abs(np.diff(joints, axis=0)).max() < 0.15, "no jumps between frames"


@pytest.mark.parametrize("stop_after", [20, 23, 26, 29])
def test_a_sudden_stop_eases_the_feet_out_instead_of_snapping(stop_after):
    gen = ProceduralGenerator()
    gen.set_intent(intent(SpeedClass.SPRINT))
    frames = [gen.next_frame(6.5).joints for _ in range(stop_after)]
    frames += [gen.next_frame(0.0).joints for _ in range(15)]  # the body hit a wall
    stopping = np.abs(np.diff(np.stack(frames[stop_after - 1:]), axis=0))
    assert stopping.max() < 0.45, "a snap to standing would move a foot ~0.7 m in one frame"
    assert stopping[-1].max() < 1e-3, "and then it stands"


# --- clips -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("speed_class", MOVING)
def test_clip_root_travels_at_the_intent_speed(speed_class):
    n = 91
    clip = ProceduralGenerator().clip(intent(speed_class), n)
    assert clip.shape == (n, 22, 3)
    travelled = np.linalg.norm(clip[-1, 0, [0, 2]] - clip[0, 0, [0, 2]])
    assert travelled == pytest.approx(speed_class.speed * (n - 1) / FPS, rel=0.05)
    assert clip[-1, 0, 2] > 0.0, "straight ahead is +z"


DIRECTIONS = {"fwd": 0.0, "left": math.pi / 2, "right": -math.pi / 2, "back": math.pi}


@pytest.mark.parametrize("speed_class", [SpeedClass.WALK, SpeedClass.SPRINT])
@pytest.mark.parametrize("face_travel", [True, False])
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_clip_root_travels_along_the_travel_direction_from_the_first_frame(direction, face_travel,
                                                                           speed_class):
    """The root goes straight along the travel heading while the facing turns (no arc): the whole clip and
    each of its halves point that way, and the length is the intent's speed times the duration."""
    heading = DIRECTIONS[direction]
    n = 31                                                           # 1 s of travel between 31 frames
    root = ProceduralGenerator().clip(intent(speed_class, heading=heading, face_travel=face_travel), n)[:, 0]
    expected = np.array([math.sin(heading), math.cos(heading)])     # (x, z): +x is left, +z ahead
    half = n // 2
    for a, b in ((0, n - 1), (0, half), (half, n - 1)):
        moved = root[b, [0, 2]] - root[a, [0, 2]]
        assert moved @ expected / np.linalg.norm(moved) > 0.99, f"frames {a}..{b} went {moved}"
    travelled = np.linalg.norm(root[-1, [0, 2]] - root[0, [0, 2]])
    assert travelled == pytest.approx(speed_class.speed * (n - 1) / FPS, rel=0.05)


def test_clip_turns_towards_its_heading_and_backsteps_keep_facing():
    gen = ProceduralGenerator()
    left = gen.clip(intent(SpeedClass.WALK, heading=math.pi / 2), 60)
    assert left[-1, 0, 0] > 0.5 and abs(left[-1, 0, 2]) < 1e-9, "goes straight left (+x)"
    assert left[-1, J["left_hip"], 2] < left[-1, J["right_hip"], 2], "and ends up facing +x (its left hip back)"
    back = gen.clip(intent(SpeedClass.WALK, "backstep", heading=math.pi, face_travel=False), 60)
    assert back[-1, 0, 2] < -0.5
    assert np.all(back[:, J["left_hip"], 0] > back[:, J["right_hip"], 0]), "still facing +z"


def test_clip_still_stays_put_and_leaves_the_stream_alone():
    gen = ProceduralGenerator()
    gen.set_intent(intent(SpeedClass.WALK))
    before = [gen.next_frame(1.4).joints for _ in range(5)]
    clip = gen.clip(intent(SpeedClass.STILL, "freeze"), 30)
    np.testing.assert_allclose(clip[:, 0, [0, 2]], 0.0, atol=1e-12)
    after = gen.next_frame(1.4).joints
    reference = ProceduralGenerator()
    reference.set_intent(intent(SpeedClass.WALK))
    expected = [reference.next_frame(1.4).joints for _ in range(6)]
    np.testing.assert_array_equal(np.stack([*before, after]), np.stack(expected))


@pytest.mark.parametrize("bad", [0, -1, 2.5])
def test_clip_rejects_bad_lengths(bad):
    with pytest.raises(ValueError, match="n_frames"):
        ProceduralGenerator().clip(intent(), bad)


def test_drives_a_smaller_skeleton_with_its_own_bone_lengths():
    child = Skeleton(JOINT_NAMES, PARENTS, DEFAULT_SKELETON.rest_offsets * 0.8)
    gen = ProceduralGenerator(skeleton=child)
    for it in (intent(SpeedClass.RUN, "fear"), intent(SpeedClass.STILL, "defensive")):
        gen.set_intent(it)
        frames = np.stack([gen.next_frame(it.speed).joints for _ in range(40)])
        assert np.abs(child.measure_bone_lengths(frames) - child.bone_lengths()).max() < 1e-3
        assert frames[:, :, 1].min() > 0.0
    assert frames[:, 0, 1].max() < 0.8


def test_rejects_bad_construction_and_intents():
    with pytest.raises(ValueError, match="22-joint"):
        ProceduralGenerator(skeleton=Skeleton(("a", "b"), (-1, 0), np.ones((2, 3))))
    with pytest.raises(ValueError, match="fps"):
        ProceduralGenerator(fps=0.0)
    with pytest.raises(TypeError, match="MotionIntent"):
        ProceduralGenerator().set_intent("run left")  # type: ignore[arg-type]


@pytest.mark.parametrize("styles", [(), ("crouch",), ("glance_back", "fear"), ("relief",)])
def test_frames_posed_on_read_are_the_frames_posed_at_once(styles):
    """Frames are posed when their joints are first read (a bench episode reads only the pelvis height): reading
    them late, after the stream has moved on, gives the same joints as reading each at once, and the pelvis
    height without the joints is the joints' own, to the bit."""
    it = intent(SpeedClass.RUN, *styles)
    at_once = [np.array(f.joints) for f in run(it, n=60, seed=5)]
    late = run(it, n=60, seed=5)
    heights = [f.pelvis_height for f in late]  # before any joint is posed
    for frame, joints, height in zip(late, at_once, heights, strict=True):
        assert np.array_equal(frame.joints, joints)
        assert height == float(joints[0][1])
        assert not frame.joints.flags.writeable
