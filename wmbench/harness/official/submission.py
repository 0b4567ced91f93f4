"""The official submission file: per-scenario replies in the official two-line format, with a track label.

Card
----
``submission.json`` (schema: ``wmbench/harness/official/schemas/submission.schema.json``)::

    {"format": "wm-bench-submission/1", "model_name": "...", "track": "A" | "C", "generator": "wmbench 0.3.0",
     "source": "<Track-A file or run directory>",
     "responses": [{"id": "S001", "category": "C01", "response": "PREDICT: ...\\nMOTION: ...", "seed": null}]}

- Track **A** (text only): written from a static Track-A run, one response per upstream record.
- Track **C** (harness-measured): written from a wmbench run directory: the *first decision* of each episode
  (scenario, seed) — the reply to the scene the scenario opens with, which is what a text-only scorer grades.
- Track **B** is what a user self-reports; wmbench never writes it (:func:`check_track` refuses it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypedDict

import wmbench
from wmbench.core.errors import ConfigError

SUBMISSION_FORMAT = "wm-bench-submission/1"
WRITTEN_TRACKS = ("A", "C")


class SubmissionResponse(TypedDict):
    id: str
    category: str
    response: str
    seed: int | None


class Submission(TypedDict):
    format: str
    model_name: str
    track: str
    generator: str
    source: str
    responses: list[SubmissionResponse]


def check_track(track: str) -> str:
    """``A`` or ``C``; B is self-reported and never written by wmbench."""
    up = track.strip().upper()
    if up not in WRITTEN_TRACKS:
        hint = " (Track B is self-reported: wmbench never writes it)" if up == "B" else ""
        raise ConfigError(f"track: expected A (static) or C (harness-measured), got {track!r}{hint}")
    return up


def submission(model_name: str, track: str, source: str, responses: Iterable[SubmissionResponse]) -> Submission:
    return {"format": SUBMISSION_FORMAT, "model_name": model_name, "track": check_track(track),
            "generator": f"wmbench {wmbench.__version__}", "source": source, "responses": list(responses)}


def static_responses(result: Mapping[str, Any]) -> list[SubmissionResponse]:
    """The responses of a static Track-A result (``track_a_static.json``)."""
    return [{"id": str(r["id"]), "category": str(r["category"]), "response": str(r["reply"]), "seed": None}
            for r in result["records"]]


def run_responses(lines: Iterable[Mapping[str, Any]]) -> list[SubmissionResponse]:
    """The first reply of every episode line with a trace, in (scenario, seed) order."""
    out: list[SubmissionResponse] = []
    for line in sorted(lines, key=lambda ln: (str(ln["scenario"]), int(ln["seed"]))):
        trace = line.get("trace") or {}
        decisions = trace.get("decisions") or []
        if not decisions:
            continue
        category = str((trace.get("meta") or {}).get("category") or "")
        out.append({"id": str(line["scenario"]), "category": category,
                    "response": str(decisions[0].get("reply") or ""), "seed": int(line["seed"])})
    return out
