"""Out-of-vocabulary MOTION lines fall back to the nearest doable motion with a recorded note, never silently."""

from __future__ import annotations

import json

import pytest

from wmbench.body.intent.fallback import doable_motion, fallback_note
from wmbench.body.intent.reader import parse_motion
from wmbench.body.intent.record import MotionIntent
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.harness.report.transcript import episode_transcripts

PREDICT = "PREDICT: left=safe(open), right=safe(open), fwd=danger(wall), back=safe(open)"

#: The out-of-vocabulary fallback table of docs/motion_models.md (20 phrasings).
OOV_TABLE = [
    ("a person does a cartwheel", "cartwheel -> stand still: no such motion"),
    ("crawls on all fours", "crawl -> stand still: no quadruped motion"),
    ("waves both arms", "wave -> stand still: no arm gestures"),
    ("limps forward, injured", "limp -> walk fwd: no such gait"),
    ("jumps over the log", "jump -> stand still: no jumps"),
    ("kicks the door", "kick -> stand still: no such motion"),
    ("rolls to the left", "roll -> walk left: no such motion"),
    ("dances", "dance -> stand still: no such motion"),
    ("swims away", "swim -> walk back: no such motion"),
    ("does a backflip", "backflip -> stand still: no such motion"),
    ("crouches low and crawls left", "crawl -> walk left, crouch: no quadruped motion"),
    ("punches the air", "punch -> stand still: no arm gestures"),
    ("sits down", "sit -> stand still: no seated pose"),
    ("lies down on the floor", "lie down -> stand still: no lying pose"),
    ("spins around", "spin -> stand still: no such motion"),
    ("hops on one leg to the right", "hop -> walk right: no jumps"),
    ("skips forward happily", "skip -> walk fwd: no such gait"),
    ("gets up slowly", "get up -> stand still: no such motion"),
    ("does push-ups", "push-up -> stand still: no such motion"),
    ("leaps to the right in terror", "jump -> jog right: no jumps"),
]


@pytest.mark.parametrize(("text", "note"), OOV_TABLE)
def test_out_of_vocabulary_lines_carry_a_fallback_note(text, note):
    intent = parse_motion(text)
    assert intent.fallback == note
    assert note.split(" -> ")[1].split(":")[0] == doable_motion(intent)  # the note names what the body does


@pytest.mark.parametrize("text", ["a person sprints to the left in terror, glancing back over the shoulder",
                                  "backs away slowly, arms raised defensively", "freezes in place",
                                  "walks forward calmly", ""])
def test_doable_lines_have_no_note_and_records_stay_as_before(text):
    intent = parse_motion(text)
    assert intent.fallback is None and fallback_note(text, intent) is None
    assert "fallback" not in intent.to_dict()  # traces without fallbacks keep their old bytes


def test_the_note_round_trips_through_the_intent_record():
    intent = parse_motion("does a cartwheel to the left")
    assert intent.moving and intent.direction == "left"
    record = json.loads(json.dumps(intent.to_dict()))
    assert record["fallback"] == "cartwheel -> walk left: no such motion"
    assert MotionIntent.from_dict(record).fallback == intent.fallback  # (to_dict rounds the heading)


def test_the_note_is_recorded_in_the_env_trace():
    env = WMBenchEnv("S01")
    try:
        env.reset(seed=0)
        env.step(f"{PREDICT}\nMOTION: a person does a cartwheel")
        env.step(f"{PREDICT}\nMOTION: a person walks to the left")
        first, second = env.trace.decisions[:2]
        trace = env.trace.to_dict()
    finally:
        env.close()
    assert first.intent["fallback"] == "cartwheel -> stand still: no such motion"
    assert first.intent["speed_class"] == "still"
    assert "fallback" not in second.intent
    # and the report's transcript shows it next to the intent
    rows = episode_transcripts([{"scenario": "S01", "seed": 0, "trace": trace}], {})[0].decisions
    assert rows[0].intent.endswith("(fallback: cartwheel -> stand still: no such motion)")
    assert "fallback" not in rows[1].intent
