"""The MOTION that belongs to the answer: trailing remarks never replace it; several MOTION labels warn."""

from __future__ import annotations

import json

import pytest

from wmbench.brain.reference.brain import ReferenceBrain
from wmbench.harness.run.episode import run_episode
from wmbench.protocol.grammar import parse_reply
from wmbench.protocol.trace import Trace

ANSWER = "PREDICT: left=danger(wall), right=safe(open), fwd=danger(beast), back=safe(open)\n" \
         "MOTION: a person sprints to the right in terror"


@pytest.mark.parametrize("remark", [
    "\n\n*Note on the motion: the person keeps the beast in view while moving away from it.*",
    "\n\nExplanation of the motion: running forward toward the beast would be fatal, so it goes right.",
    "\n\n**Note on the motion:** moving forward is not an option.",
])
def test_a_trailing_remark_never_replaces_the_answers_motion(remark):
    parsed = parse_reply(ANSWER + remark)
    assert parsed.ok and parsed.motion == "a person sprints to the right in terror"
    assert parsed.warnings and "2 MOTION labels" in parsed.warnings[0]


def test_drafts_then_answer_still_take_the_final_block():
    reply = "PREDICT: fwd=safe\nMOTION: a person walks forward\n\nFinal answer:\n" + ANSWER
    assert parse_reply(reply).motion == "a person sprints to the right in terror"


def test_one_motion_label_gives_no_warning_and_motion_first_replies_still_parse():
    assert parse_reply(ANSWER).warnings == ()
    flipped = parse_reply("MOTION: a person backs away\nPREDICT: fwd=danger(beast)")
    assert flipped.ok and flipped.motion == "a person backs away" and flipped.warnings == ()


class RemarkingReference(ReferenceBrain):
    """The reference brain, then a remark naming the wrong direction (real episode, real parse)."""

    def _respond(self, scene):
        out = super()._respond(scene)
        return type(out)(text=out.text + "\n\nExplanation of the motion: moving forward toward the beast "
                                          "would be fatal.")


def test_a_remark_costs_a_correct_brain_nothing_in_a_real_episode_and_is_recorded():
    plain = Trace.from_dict(run_episode("S12", ReferenceBrain()).trace)
    remarked = Trace.from_dict(run_episode("S12", RemarkingReference()).trace)
    assert [d.intent for d in plain.decisions] == [d.intent for d in remarked.decisions]
    assert all(d.parse["warnings"] for d in remarked.decisions)
    assert not any(d.parse["warnings"] for d in plain.decisions)


def test_last_prediction_is_the_parsed_line_even_for_a_json_reply():
    class JsonBrain(ReferenceBrain):
        def _respond(self, scene):
            return type(super()._respond(scene))(text=json.dumps(
                {"PREDICT": "left=safe(open), right=safe(open), fwd=danger(beast), back=safe(open)",
                 "MOTION": "a person backs away"}))

    trace = Trace.from_dict(run_episode("S06", JsonBrain()).trace)
    shown = trace.decisions[1].scene["last_prediction"]
    assert shown == "PREDICT: left=safe(open), right=safe(open), fwd=danger(beast), back=safe(open)"
