"""The trace's typed records declare exactly the keys the env writes, and a trace round-trips through JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest

from wmbench.brain.registry import get_brain
from wmbench.harness.run.episode import run_episode
from wmbench.protocol.trace import (
    BodyStateRecord,
    BrainRecord,
    DecisionDict,
    InstanceRecord,
    IntentRecord,
    ParseRecord,
    RealizedRecord,
    Trace,
    TraceDict,
    TraceFormatError,
    TraceMeta,
)


def _keys(record: Any) -> set[str]:
    return set(record.__required_keys__) | set(record.__optional_keys__)


def _required(record: Any) -> set[str]:
    """Keys not declared ``NotRequired`` (the annotations are strings under ``from __future__``)."""
    return {key for key, kind in record.__annotations__.items()
            if not getattr(kind, "__forward_arg__", str(kind)).startswith("NotRequired")}


@pytest.fixture(scope="module")
def trace() -> TraceDict:
    """A real episode of a real PyBullet world (S07: a woman ahead and a beast at the side)."""
    result = run_episode("S07", get_brain("reference"), "smpl", seed=1)
    assert result.ok and result.trace is not None
    return result.trace


def test_every_decision_part_has_exactly_the_keys_its_record_declares(trace: TraceDict) -> None:
    parts: dict[str, Any] = {"parse": ParseRecord, "intent": IntentRecord, "body_before": BodyStateRecord,
                             "body_after": BodyStateRecord, "realized": RealizedRecord}
    assert trace["decisions"]
    for decision in trace["decisions"]:
        assert set(decision) == _keys(DecisionDict)
        for name, record in parts.items():
            assert _required(record) <= set(decision[name]) <= _keys(record), name  # type: ignore[literal-required]
        assert set(decision["brain"]) <= _keys(BrainRecord) and {"provider", "retries"} <= set(decision["brain"])
        assert all(len(entry) == 3 for entry in decision["parse"]["prediction"].values())


def test_the_meta_and_its_instance_have_the_keys_their_records_declare(trace: TraceDict) -> None:
    meta = trace["meta"]
    assert set(meta) <= _keys(TraceMeta) and {"decision_dt", "instance", "poses"} <= set(meta)
    # every key but ``pace``, which only a paced scene on a slower body has (tests/envs/test_pacing.py)
    assert set(meta["instance"]) == _keys(InstanceRecord) - {"pace"} and meta["instance"]["mirrored"] is True  # odd
    assert set(trace) == _keys(TraceDict)


def test_a_trace_round_trips_through_json(trace: TraceDict) -> None:
    text = json.dumps(trace)
    again = Trace.from_dict(json.loads(text))
    assert json.dumps(again.to_dict()) == text
    assert again.decisions[0].parse["ok"] is trace["decisions"][0]["parse"]["ok"]


@pytest.mark.parametrize("damage, reason", [
    (lambda t: t["decisions"][0].pop("index"), "a record has no field 'index'"),
    (lambda t: t.pop("meta"), "a record has no field 'meta'"),
    (lambda t: t["decisions"][0]["truth"].update(npcs=[{"kind": "beast", "bogus": 1}]), "unexpected keyword"),
    (lambda t: t.update(decisions="not a list"), "not a wmbench trace: "),
])
def test_data_that_is_not_a_trace_is_one_line_saying_what_is_wrong(trace: TraceDict, damage, reason) -> None:
    damaged = json.loads(json.dumps(trace))
    damage(damaged)
    with pytest.raises(TraceFormatError, match=r"^not a wmbench trace: ") as caught:
        Trace.from_dict(damaged)
    assert reason in str(caught.value) and "\n" not in str(caught.value)
