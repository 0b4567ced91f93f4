"""The shipped diffusion generator: it loads without torch, streams deterministic frames, switches on a new
intent, and its clips go where the intent says at the intent's speed class (the model's own root motion)."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from wmbench.body.envelope import classify_speed
from wmbench.body.intent.reader import parse_motion
from wmbench.body.motion.contract import MotionFrame
from wmbench.body.motion.diffusion.generator import WEIGHTS_DIR, DiffusionGenerator
from wmbench.body.motion.procedural.generator import ProceduralGenerator
from wmbench.body.motion.registry import describe_clip
from wmbench.body.skeleton import DEFAULT_SKELETON, JOINT_NAMES
from wmbench.core.speed import SPEED_CLASS_SPEEDS

#: text -> (travel sector, speed class) the realised clip must show.
INTENTS = {
    "a person walks forward": ("fwd", "walk"),
    "a person jogs to the left": ("left", "jog"),
    "a person runs to the right": ("right", "run"),
    "a person sprints forward in terror": ("fwd", "sprint"),
    "a person steps back defensively, arms raised": ("back", "walk"),
}


def test_shipped_model_files_are_small_and_say_how_they_were_made():
    config = json.loads((WEIGHTS_DIR / "config.json").read_text())
    assert config["command"].startswith("wmbench train-motion")
    assert (WEIGHTS_DIR / "DATA_CARD.md").is_file() and (WEIGHTS_DIR / "loss_curve.json").is_file()
    size = sum(p.stat().st_size for p in WEIGHTS_DIR.iterdir())
    assert size < 8_000_000


@pytest.mark.parametrize("text", list(INTENTS))
def test_clip_realises_the_intents_direction_and_speed_class(text):
    direction, speed_class = INTENTS[text]
    reading = describe_clip(DiffusionGenerator(30).clip(parse_motion(text), 90), 30.0)
    assert reading.direction == direction, reading
    assert classify_speed(reading.speed, SPEED_CLASS_SPEEDS) == speed_class, reading


def test_standing_still_stays_nearly_in_place():
    clip = DiffusionGenerator(30).clip(parse_motion("a person stands still"), 90)
    reading = describe_clip(clip, 30.0)
    assert classify_speed(reading.speed, SPEED_CLASS_SPEEDS) == "still"
    assert np.linalg.norm(clip[-1, 0, [0, 2]] - clip[0, 0, [0, 2]]) < 0.3   # learned root drift, not pinned


def test_stream_is_deterministic_per_seed_and_keeps_the_skeleton():
    def frames(seed: int) -> np.ndarray:
        g = DiffusionGenerator(30, seed=seed)
        g.set_intent(parse_motion("a person jogs forward"))
        out = []
        for _ in range(40):
            frame = g.next_frame(3.0)
            assert isinstance(frame, MotionFrame) and frame.joints.shape == (22, 3)
            out.append(frame.joints)
        return np.stack(out)

    a, b, c = frames(0), frames(0), frames(1)
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert np.all(np.isfinite(a))
    lengths = DEFAULT_SKELETON.measure_bone_lengths(a)[:, 1:]
    rest = DEFAULT_SKELETON.bone_lengths()[1:]
    assert np.median(np.abs(lengths - rest) / rest) < 0.1      # learned, not enforced: close, not exact
    assert np.allclose(a[:, 0, [0, 2]], 0.0)                    # root-local: pelvis above the origin


def test_a_new_intent_switches_the_stream_at_once():
    g = DiffusionGenerator(30)
    g.set_intent(parse_motion("a person stands still"))
    still = np.stack([g.next_frame(0.0).joints for _ in range(30)])
    g.set_intent(parse_motion("a person sprints forward in terror"))
    sprint = np.stack([g.next_frame(6.5).joints for _ in range(30)])
    effort = [np.linalg.norm(np.diff(clip[:, [7, 8, 20, 21]], axis=0), axis=-1).mean() * 30
              for clip in (still, sprint)]
    assert effort[1] > 3 * effort[0] and effort[1] > 1.0
    g.set_intent(parse_motion("a person crouches low and creeps forward"))
    crouch = np.stack([g.next_frame(1.4).joints for _ in range(30)])
    assert crouch[15:, 0, 1].mean() < still[:, 0, 1].mean() - 0.1   # the pelvis goes down


def test_other_frame_rates_are_interpolated():
    g = DiffusionGenerator(60)
    g.set_intent(parse_motion("a person walks forward"))
    frames = np.stack([g.next_frame(1.4).joints for _ in range(60)])
    assert np.all(np.isfinite(frames))
    assert np.linalg.norm(np.diff(frames, axis=0), axis=-1).max() < 0.2
    clip = g.clip(parse_motion("a person walks forward"), 120)
    assert clip.shape == (120, 22, 3) and describe_clip(clip, 60.0).direction == "fwd"


def test_inference_imports_neither_torch_nor_diffusers():
    code = ("import sys\n"
            "from wmbench.body.motion.diffusion.generator import DiffusionGenerator\n"
            "from wmbench.body.intent.reader import parse_motion\n"
            "g = DiffusionGenerator(30); g.set_intent(parse_motion('a person walks forward'))\n"
            "[g.next_frame(1.4) for _ in range(20)]\n"
            "bad = [m for m in ('torch', 'diffusers', 'onnxruntime') if m in sys.modules]\n"
            "assert not bad, bad\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr


def test_the_crouch_does_not_kneel():
    """Regression (issue 26): the shipped model's crouch put a knee 0.13 m above the floor, shin flat behind."""
    knees = [JOINT_NAMES.index("left_knee"), JOINT_NAMES.index("right_knee")]
    gen = DiffusionGenerator(30)
    gen.reset(0)
    gen.set_intent(parse_motion("a person crouches low and creeps forward cautiously"))
    frames = np.stack([gen.next_frame(1.0).joints for _ in range(60)])
    assert frames[:, knees, 1].min() > 0.25
    assert frames[30:, 0, 1].max() < 0.8   # once settled, still a crouch, not a stand


def test_clips_skate_no_more_than_the_procedural_gait():
    """Regression (issue 26): the diffusion clips' planted feet slid 0.53 m/s against procedural's 0.42."""
    from wmbench.body.motion import quality as mq

    skating = {}
    for name, gen in (("diffusion", DiffusionGenerator(30)), ("procedural", ProceduralGenerator(30))):
        gen.reset(0)
        clips = [gen.clip(parse_motion(text), 90) for text in mq.FIDELITY_TEXTS]
        skating[name] = float(np.mean([mq.foot_skating(c, 30) for c in clips]))
    assert skating["diffusion"] <= skating["procedural"]


def test_pinning_never_lifts_a_foot_off_the_floor():
    """The skating metric counts a foot joint as planted only near its lowest height: a fix that lifted feet
    (a leg straightened towards an unreachable pin) would look better without sliding less. Foot heights of
    the clips are exactly those before pinning."""
    import wmbench.body.motion.diffusion.generator as gm
    from wmbench.body.motion import quality as mq
    from wmbench.body.motion.diffusion.postprocess import lock_feet, pin_feet
    from wmbench.body.skeleton import FOOT_CONTACT_JOINTS

    feet = list(FOOT_CONTACT_JOINTS)
    gen = DiffusionGenerator(30)
    for text in mq.FIDELITY_TEXTS[::3]:
        gen.reset(0)
        pinned = gen.clip(parse_motion(text), 90)
        original = gm.pin_feet
        try:
            gm.pin_feet = lambda clip, fps: clip   # the same clip without pinning
            gen.reset(0)
            locked = gen.clip(parse_motion(text), 90)
        finally:
            gm.pin_feet = original
        assert np.allclose(pinned[:, feet, 1], locked[:, feet, 1], atol=1e-9)
        assert np.allclose(pin_feet(locked, 30), pinned) and lock_feet is gm.lock_feet


def test_streamed_feet_slide_far_less_on_the_bodys_root():
    """Regression (issue 26): in the live loop the diffusion stream's planted feet slid 0.58 m/s over the
    body's own root track (procedural 0.20); the live pinner brought it to 0.39, playback-rate warping and
    the pinner's fixes (heel-to-ball hand-over, no flicker near full stretch, feet slower than the body held)
    to about 0.25, round 7's re-steps and candidate selection by default to 0.212 (seed 0; 0.23 with one
    sample per chunk), round 8's toe-off (a foot leaves the floor on its pin) to 0.206 (seeds 0-2: 0.196,
    procedural 0.200). The loop's jerk stays near the procedural gait's (230 m/s^3) though the cadence is
    warped."""
    from wmbench.body.motion import quality as mq

    skating, jerk = mq.loop_metrics(DiffusionGenerator(30))
    assert skating < 0.21
    assert jerk < 1.2 * mq.loop_metrics(ProceduralGenerator(30))[1]


def test_a_streamed_back_step_keeps_its_planted_feet_on_the_ground():
    """Regression (issue 26, motion6): streaming "steps back defensively" the model shuffles (its planted feet
    move back at 0.3-0.45 m/s under a 1.4 m/s body; the warp's 1.6x cadence cannot make that up), so its
    pinned feet ran out of the legs' reach and slid: 0.50, 1.02 and 1.30 m/s of loop skating for seeds 0-2
    (mean 0.94). Stride lengthening in the live pinner (each swing lands half a stance's shortfall further
    along the travel) brings the mean to about 0.71 (0.46, 0.54, 1.13). Its feet are low while they move
    *with* the body, which pinning cannot hold; round 6's candidate selection (of 8 chunks sampled for the
    same context, the one whose feet near the floor slide least over the body's ground track) follows the
    samples that step in phase: 0.39 (procedural 0.24), and "backs away slowly" 0.22 -> 0.18 (procedural
    0.10). Round 7's re-steps (a foot the body has left behind steps anew) and the selection, now the default,
    read 0.35 and 0.17. With one sample per chunk and no re-steps (round 6's default) both bounds fail."""
    from wmbench.body.motion import quality as mq

    gen = DiffusionGenerator(30)

    def skating(text: str) -> float:
        return float(np.mean([mq.foot_skating(mq.stream_clip(gen, text, 120, seed)[30:], 30) for seed in (0, 1, 2)]))

    assert skating("a person steps back defensively, arms raised") < 0.45
    assert skating("a person backs away slowly") < 0.2


def _warp_frames(foot_speed: float, n: int) -> list[np.ndarray]:
    """Raw model frames (FRAME_DIM,) of a rest pose whose feet slide back under the root at ``foot_speed`` m/s
    (30 fps) while planted, each lifted and brought forward every 10th frame (the right half a cycle later)."""
    from wmbench.body.motion.diffusion.dataset import FRAME_DIM

    rest = np.array(DEFAULT_SKELETON.rest_pose(), dtype=float)
    rest[:, [0, 2]] -= rest[0, [0, 2]]
    rest[:, 1] -= rest[:, 1].min()
    frames = []
    for i in range(n):
        pose = rest.copy()
        for side, phase in (("left", 0), ("right", 5)):
            step = (i + phase) % 10
            for joint in (f"{side}_ankle", f"{side}_foot"):
                pose[JOINT_NAMES.index(joint), 2] -= foot_speed * step / 30
                pose[JOINT_NAMES.index(joint), 1] += 0.1 if step == 9 else 0.0
        raw = np.zeros(FRAME_DIM)
        raw[3] = pose[0, 1]
        raw[4:] = pose[1:].reshape(-1)
        frames.append(raw)
    return frames


@pytest.mark.parametrize(("foot_speed", "body_speed", "rate"), [(2.0, 3.0, 1.5), (3.0, 3.0, 1.0),
                                                                (4.0, 3.0, 0.75), (1.0, 3.0, 1.6)])
def test_playback_warp_plays_the_model_at_the_rate_its_planted_feet_keep_pace_with_the_body(
        foot_speed, body_speed, rate):
    """The live stream's rate warping (``PlaybackWarp``): a model whose planted foot slides back at 2 m/s
    under a body moving at 3 m/s is played 1.5 times as fast, one at 4 m/s 0.75 times; the rate is clamped
    (``WARP_MAX`` 1.6), stays at 1 while the body stands, and a new intent forgets the stride."""
    from wmbench.body.motion.diffusion.generator import WARP_MAX, PlaybackWarp

    warp = PlaybackWarp()
    assert warp.rate(body_speed) == 1.0   # no samples yet: the recorded rate
    for raw in _warp_frames(foot_speed, 40):
        warp.observe(raw, (0.0, 1.0))
    assert warp.stride_speed == pytest.approx(foot_speed, rel=1e-6)
    for _ in range(80):
        current = warp.rate(body_speed)
    assert current == pytest.approx(min(rate, WARP_MAX), abs=1e-3)
    for _ in range(80):
        standing = warp.rate(0.0)
    assert standing == pytest.approx(1.0, abs=1e-3)
    warp.restart()
    assert warp.stride_speed is None


def test_a_standing_stream_keeps_its_feet_still():
    """Regression (issue 26, live loop): standing, the pinned feet of some seeds jumped back and forth (2-4 m/s
    in single frames: a near-straight leg dropped and took up its pin, and a heel lifting handed the leg to
    the ball with a jump), 0.24 and 0.16 m/s of skating for seeds 1 and 2; now under 0.1."""
    from wmbench.body.motion import quality as mq

    gen = DiffusionGenerator(30)
    for seed in (1, 2):
        frames = mq.stream_clip(gen, "a person stands still", 120, seed)[30:]
        assert mq.foot_skating(frames, 30) < 0.1, seed


def test_a_60_fps_stream_is_no_rougher_than_the_procedural_gait():
    """Regression: a body faster than the model's 30 fps got model frames linearly interpolated, which kinks
    the velocity at every model frame; at 60 fps the streamed walk, run and sprint had 1.45 times the
    procedural gait's jerk (907 vs 625 m/s^3). A Catmull-Rom spline between model frames brings it to 593."""
    from wmbench.body.motion import quality as mq

    texts = ("a person walks forward", "a person runs forward", "a person sprints forward in terror")

    def jerk(gen) -> float:
        return float(np.mean([mq.jerk(mq.stream_clip(gen, t, 120, 0)[60:], 60) for t in texts]))

    assert jerk(DiffusionGenerator(60)) < 1.1 * jerk(ProceduralGenerator(60))


def test_catmull_rom_passes_through_its_middle_points_with_a_continuous_velocity():
    from wmbench.body.motion.diffusion.generator import catmull_rom

    p = [np.array([float(k * k)]) for k in range(5)]   # samples of x^2
    assert np.allclose(catmull_rom(*p[:4], 0.0), p[1]) and np.allclose(catmull_rom(*p[:4], 1.0), p[2])
    h = 1e-6   # the slope leaving p2 on one segment equals the slope arriving on the next
    left = (catmull_rom(*p[:4], 1.0) - catmull_rom(*p[:4], 1.0 - h)) / h
    right = (catmull_rom(*p[1:], h) - catmull_rom(*p[1:], 0.0)) / h
    assert np.allclose(left, right, atol=1e-4)


def test_the_live_stream_samples_candidates_and_clip_does_not():
    """The live stream draws ``candidates`` noise chunks per chunk from its seeded generator and keeps one
    (deterministic per seed); ``clip`` (the model's own root: the table's skating and distances) samples one,
    so its frames do not depend on the live setting; a bad count is refused."""
    from wmbench.body.motion.diffusion import generator as gm

    intent = parse_motion("a person steps back defensively, arms raised")
    one, eight = DiffusionGenerator(30, candidates=1), DiffusionGenerator(30, candidates=8)
    assert DiffusionGenerator(30).candidates == gm.LIVE_CANDIDATES == 8 and one.candidates == 1
    assert np.array_equal(one.clip(intent, 40), eight.clip(intent, 40))

    def frames(gen: DiffusionGenerator) -> np.ndarray:
        gen.reset(2)
        gen.set_intent(intent)
        return np.array([gen.next_frame(1.4).joints for _ in range(40)])

    assert np.array_equal(frames(eight), frames(DiffusionGenerator(30, candidates=8)))
    assert not np.allclose(frames(one), frames(eight))
    for bad in (0, 2.5, True):
        with pytest.raises(ValueError, match="candidates"):
            DiffusionGenerator(30, candidates=bad)
