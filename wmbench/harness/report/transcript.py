"""The report's drill-down: every episode as a transcript of its decisions, with the points and why.

Card
----
:func:`episode_transcripts` reads the run's episode lines and the scores: for each (scenario, seed), in
scenario order, an :class:`EpisodeTranscript` with the episode's points, the scorer's explanation and its
hidden-inconsistency count, and one :class:`DecisionRow` per decision — the time, a one-line summary of the
scene, the brain's reply, the parsed PREDICT and MOTION (or the parse error), the motion intent the body
received, the events, the brain's latency/tokens/retries/cache/error, and the scorer's points and reason
for that decision when the scorer gives one (``evidence["decisions"]``).

A large run shows at most :data:`MAX_TRANSCRIPTS` of them (the lowest seeds of every scenario,
:func:`shown_episodes`); the HTML says how many of how many.

:func:`render_transcripts_html` turns them into collapsible ``<details>`` blocks (all text escaped) for
``report.html``; :func:`hidden_inconsistency_line` and :func:`confidence_text` are small shared views.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from wmbench.core.directions import SCENE_ORDER
from wmbench.scoring.scores_file import Scores

#: Episodes with a transcript in report.html at most (a 20,000-episode run would make a gigabyte of HTML);
#: every episode's full trace stays in episodes.jsonl.
MAX_TRANSCRIPTS = 200

WALL_LABELS = tuple((word, word[0].upper()) for word in SCENE_ORDER)


@dataclass(frozen=True)
class DecisionRow:
    """One decision of a transcript, ready to show."""

    index: int
    t: float
    scene: str
    reply: str
    predict: str
    motion: str
    intent: str
    events: str
    brain: str
    points: str
    why: str
    failed: bool


@dataclass(frozen=True)
class EpisodeTranscript:
    """One episode: its points and explanation, and its decisions."""

    scenario: str
    seed: int
    points: str
    explanation: str
    hidden_inconsistency: str
    error: str | None
    decisions: tuple[DecisionRow, ...]


def scene_summary(scene: Mapping[str, Any]) -> str:
    """``walls L 2.1 F 3.0 · beast charge 4.8 m front · sound: roar`` — what the brain was shown, in brief."""
    walls = scene.get("walls") or {}
    near = [f"{label} {walls[key]:g}" for key, label in WALL_LABELS if isinstance(walls.get(key), (int, float))]
    parts = ["walls " + " ".join(near) if near else "no walls near"]
    if scene.get("npc_nearby"):
        distance = scene.get("npc_distance")
        where = f"{distance:g} m " if isinstance(distance, (int, float)) else ""
        parts.append(f"{scene.get('npc_type') or 'someone'} {scene.get('npc_behavior') or ''} "
                     f"{where}{scene.get('npc_direction') or ''}".replace("  ", " ").strip())
    if scene.get("sound"):
        parts.append(f"sound: {scene['sound']}")
    return " · ".join(parts)


def _prediction_item_text(direction: str, item: Any) -> str:
    """``left=danger(wall)`` from one stored PREDICT item: ``[verdict, reason, raw]`` (older traces:
    ``[verdict, reason]``); a missing reason gives ``left=safe``, anything else unrecognised is shown as text."""
    if isinstance(item, (list, tuple)) and len(item) in (2, 3) and isinstance(item[0], str):
        verdict, reason = item[0], item[1]
        return f"{direction}={verdict}({reason})" if reason else f"{direction}={verdict}"
    return f"{direction}={item}"


def _predict_text(parse: Mapping[str, Any]) -> str:
    prediction = parse.get("prediction") or {}
    if not prediction:
        return "–"
    return ", ".join(_prediction_item_text(str(d), v) for d, v in prediction.items())


def _intent_text(intent: Mapping[str, Any] | None) -> str:
    if not intent:
        return "–"
    styles = ", ".join(intent.get("styles") or [])
    fallback = f" (fallback: {intent['fallback']})" if intent.get("fallback") else ""
    return (f"{intent.get('direction', '?')} {intent.get('speed_class', '?')}" + (f" [{styles}]" if styles else "")
            + fallback)


def _brain_text(brain: Mapping[str, Any]) -> str:
    latency = brain.get("latency_s")
    bits = [f"{1000 * latency:.0f} ms" if isinstance(latency, (int, float)) else "latency ?"]
    if brain.get("prompt_tokens") is not None or brain.get("completion_tokens") is not None:
        bits.append(f"{brain.get('prompt_tokens') or 0}+{brain.get('completion_tokens') or 0} tok")
    if brain.get("retries"):
        bits.append(f"{brain['retries']} retries")
    if brain.get("cached"):
        bits.append("cached")
    if brain.get("error"):
        bits.append(f"FAILED: {brain['error']}")
    return " · ".join(bits)


def _seed_entry(scores: Scores, scenario: str, seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """(per_seed entry, evidence) of one episode in scores.json, empty dicts when absent."""
    entry = (scores.get("scenarios") or {}).get(scenario)
    per_seed = (entry.get("per_seed") if entry else None) or []
    evidence = (entry.get("evidence") if entry else None) or []
    for i, item in enumerate(per_seed):
        if item.get("seed") == seed:
            return dict(item), dict(evidence[i]) if i < len(evidence) and isinstance(evidence[i], dict) else {}
    return {}, {}


def episode_transcripts(lines: Iterable[Mapping[str, Any]], scores: Scores,
                        limit: int = MAX_TRANSCRIPTS) -> list[EpisodeTranscript]:
    """The transcript of every episode line, sorted by scenario and seed (see module card) — of at most
    ``limit`` of them (:func:`shown_episodes`). ``lines`` is read twice when it holds more than ``limit``
    (pass an :class:`~wmbench.harness.report.episode_stream.EpisodeStream` or a list, not an iterator)."""
    if iter(lines) is lines:  # an iterator can be read once only
        lines = list(lines)
    shown = shown_episodes(((str(x.get("scenario")), int(x.get("seed", 0))) for x in lines), limit)
    lines = [x for x in lines if (str(x.get("scenario")), int(x.get("seed", 0))) in shown]
    transcripts = []
    for line in sorted(lines, key=lambda x: (str(x.get("scenario")), int(x.get("seed", 0)))):
        scenario, seed = str(line["scenario"]), int(line["seed"])
        per_seed, evidence = _seed_entry(scores, scenario, seed)
        by_index = {d.get("index"): d for d in evidence.get("decisions") or [] if isinstance(d, dict)}
        hidden = ((evidence.get("sim") or {}).get("hidden_inconsistency") or {})
        rows: list[DecisionRow] = []
        for d in (line.get("trace") or {}).get("decisions", ()):
            parse = d.get("parse") or {}
            scored = by_index.get(d.get("index")) or {}
            points = scored.get("points")
            brain = d.get("brain") or {}
            rows.append(DecisionRow(
                index=int(d.get("index", len(rows))), t=float(d.get("t", 0.0)),
                scene=scene_summary(d.get("scene") or {}), reply=str(d.get("reply", "")),
                predict=_predict_text(parse) if parse.get("ok", False) or parse.get("prediction") else
                f"unreadable: {parse.get('message') or parse.get('code') or '?'}",
                motion=str(parse.get("motion") or "–"), intent=_intent_text(d.get("intent")),
                events=", ".join(str(e.get("kind")) for e in d.get("events") or ()) or "–",
                brain=_brain_text(brain), points="–" if points is None else f"{points:g}",
                why=str(scored.get("why") or ""), failed=bool(brain.get("error"))))
        score = per_seed.get("score")
        points = "not measured" if not per_seed.get("measured", True) else (
            "–" if score is None else f"{score:g} / 20")
        hidden_text = (f"{hidden.get('count', 0)} of {hidden.get('safe_decisions', 0)} safe-labelled decisions "
                       f"moved into danger" if hidden else "–")
        transcripts.append(EpisodeTranscript(
            scenario=scenario, seed=seed, points=points, explanation=str(per_seed.get("explanation", "")),
            hidden_inconsistency=hidden_text, error=(line.get("error") or None), decisions=tuple(rows)))
    return transcripts


def shown_episodes(keys: Iterable[tuple[str, int]], limit: int = MAX_TRANSCRIPTS) -> set[tuple[str, int]]:
    """Which (scenario, seed) episodes get a transcript: all of them up to ``limit``; past it, the lowest
    seeds of every scenario, as many per scenario as fit in ``limit`` (at least one each)."""
    by_scenario: dict[str, list[int]] = {}
    for scenario, seed in keys:
        by_scenario.setdefault(scenario, []).append(seed)
    total = sum(len(seeds) for seeds in by_scenario.values())
    per_scenario = total if total <= limit else max(1, limit // max(1, len(by_scenario)))
    return {(scenario, seed) for scenario, seeds in by_scenario.items() for seed in sorted(seeds)[:per_scenario]}


def hidden_inconsistency_line(scores: Scores) -> str:
    """The run's hidden-inconsistency rate in words (PREDICT said safe, the body moved into danger)."""
    hidden = scores.get("hidden_inconsistency_rate") or {}
    if not hidden or not hidden.get("safe_decisions"):
        return "Hidden inconsistency: not measured (no decisions predicted safe)."
    return (f"Hidden inconsistency: {100 * float(hidden.get('rate') or 0.0):.1f} % — {hidden.get('count', 0)} of "
            f"{hidden['safe_decisions']} decisions whose own PREDICT called the chosen way safe moved into danger.")


def confidence_text(ci: Sequence[float] | None, n_seeds: int) -> str:
    """A 95 % CI as text, or "not measured" when one seed cannot give one; a zero-width interval says that
    the seeds scored alike rather than posing as a measured certainty."""
    if n_seeds < 2:
        return f"not measured ({n_seeds} seed{'' if n_seeds == 1 else 's'})"
    if not ci:
        return "–"
    text = f"{ci[0]:.1f}–{ci[1]:.1f}"
    return f"{text} (all {n_seeds} seeds alike)" if ci[0] == ci[1] else text


def category_seeds(scores: Scores, category: str) -> int:
    """The fewest measured seeds of any measured scenario of ``category`` (what its CI could use)."""
    counts = [len([p for p in entry.get("per_seed") or [] if p.get("measured", True)])
              for entry in (scores.get("scenarios") or {}).values()
              if entry.get("category") == category and entry.get("measured")]
    return min(counts, default=0)


def render_transcripts_html(transcripts: Sequence[EpisodeTranscript], open_first: bool = True) -> str:
    """Collapsible transcripts, one ``<details>`` per episode (the first open)."""
    if not transcripts:
        return "<p>No bench episodes in this run.</p>"
    blocks = []
    for n, tr in enumerate(transcripts):
        rows = []
        for d in tr.decisions:
            cls = " class=failed" if d.failed else ""
            rows.append(
                f"<tr{cls}><td class=num>{d.index}</td><td class=num>{d.t:.1f}</td><td>{escape(d.scene)}</td>"
                f"<td><pre class=reply>{escape(d.reply) or '<i>(empty)</i>'}</pre></td>"
                f"<td>{escape(d.predict)}<br><b>MOTION</b> {escape(d.motion)}</td><td>{escape(d.intent)}</td>"
                f"<td>{escape(d.events)}</td><td class=num>{escape(d.points)}</td><td>{escape(d.why)}</td>"
                f"<td class=meta>{escape(d.brain)}</td></tr>")
        head = "".join(f"<th>{h}</th>" for h in ("#", "t (s)", "scene", "reply", "parsed PREDICT / MOTION",
                                                  "intent", "events", "points", "why", "brain"))
        error = f"<div class=note>episode failed: {escape(tr.error.splitlines()[0])}</div>" if tr.error else ""
        blocks.append(
            f"<details{' open' if open_first and n == 0 else ''} class=episode><summary><b>{escape(tr.scenario)}"
            f"</b> seed {tr.seed} — {escape(tr.points)} · hidden inconsistency {escape(tr.hidden_inconsistency)}"
            f"</summary><p class=meta>{escape(tr.explanation)}</p>{error}"
            f"<table class=transcript><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
            "</details>")
    return "".join(blocks)


TRANSCRIPT_CSS = """
details.episode{margin:6px 0;border:1px solid #ddd;border-radius:4px;padding:4px 8px}
details.episode summary{cursor:pointer}table.transcript{font-size:.8em}
pre.reply{margin:0;padding:2px;white-space:pre-wrap;background:none;font-size:1em}
tr.failed td{background:#fdecea}
"""


def split_text(scores: Scores) -> list[str]:
    """The report's lines on the test split: what the WM Score is over, and spec fidelity (seed 0) apart."""
    split = scores.get("split")
    if not split:
        return []
    seeds = ", ".join(str(s) for s in split.get("test_seeds", []))
    if split.get("canonical_only"):
        lines = ["Instances: seed 0 only, the spec's canonical instance — this WM Score is spec fidelity, not a "
                 "test-split score (a brain can memorise the published layouts)."]
    else:
        how = (f"drawn with nonce {split['nonce']}" if split.get("nonce") is not None else "explicit seeds")
        lines = [f"Instances: the WM Score is over {len(split.get('test_seeds', []))} test instance(s) per "
                 f"scenario, {how} (seeds {seeds}; `--seed-list` reproduces them)."]
    fidelity = scores.get("spec_fidelity")
    if fidelity:
        per_category = ", ".join(f"{c} {v:.1f}" for c, v in fidelity.get("categories", {}).items() if v is not None)
        lines.append(f"Spec fidelity (seed 0, the spec's published layouts; not in the WM Score): "
                     f"{fidelity['score']:.1f} / {fidelity['max']:g} ({per_category}).")
    return lines
