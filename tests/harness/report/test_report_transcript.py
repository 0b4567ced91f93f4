"""The report's drill-down: transcripts of real runs, token totals, run status, one-seed CIs, no matplotlib."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.brain.fault_servers import FaultServer
from wmbench.harness.report.transcript import confidence_text, episode_transcripts, scene_summary
from wmbench.harness.suite import run_suite

REPLY = ("PREDICT: left=safe(open), right=safe(open), fwd=safe(open), back=safe(open)\n"
         "MOTION: walks <b>forward</b> calmly")


@pytest.fixture(scope="module")
def api_run(tmp_path_factory) -> Path:
    pytest.importorskip("openai")
    out = tmp_path_factory.mktemp("api-run")
    with FaultServer.reply(REPLY) as server:
        run_suite("openai/m", out=out, scenarios="S01", seeds=1, workers=1, progress=False, live=False,
                  brain_options={"base_url": server.url, "cache": False})
    return out


def test_html_holds_each_decision_with_reply_parse_intent_and_points(api_run):
    html = (api_run / "report.html").read_text()
    lines = [json.loads(x) for x in (api_run / "episodes.jsonl").read_text().splitlines()]
    decisions = lines[0]["trace"]["decisions"]
    assert "<section id=transcripts><h2>Transcripts</h2>" in html and html.count("<details") == 1
    assert html.count("<tr><td class=num>") + html.count("<tr class=failed>") >= len(decisions)
    assert "walks &lt;b&gt;forward&lt;/b&gt; calmly" in html and "<b>forward</b>" not in html  # escaped
    assert "left=safe(open)" in html  # the parsed PREDICT
    assert "11+7 tok" in html  # tokens per decision
    assert f"Brain: {len(decisions)} decisions · tokens {11 * len(decisions)} in / {7 * len(decisions)} out" in html
    assert "not measured (1 seed)" in html
    assert "Hidden inconsistency:" in html
    markdown = (api_run / "report.md").read_text()
    assert "not measured (1 seed)" in markdown and "Hidden inconsistency:" in markdown


def test_transcripts_carry_the_scorers_points_and_why(api_run):
    lines = [json.loads(x) for x in (api_run / "episodes.jsonl").read_text().splitlines()]
    scores = json.loads((api_run / "scores.json").read_text())
    (transcript,) = episode_transcripts(lines, scores)
    assert transcript.scenario == "S01" and transcript.points.endswith("/ 20")
    assert transcript.explanation == scores["scenarios"]["S01"]["per_seed"][0]["explanation"]
    scored = scores["scenarios"]["S01"]["evidence"][0].get("decisions") or []
    with_why = [d for d in scored if d.get("why")]
    assert with_why  # S01 explains every decision
    assert [row.why for row in transcript.decisions if row.why] == [d["why"] for d in with_why]


def test_a_report_without_matplotlib_still_has_transcripts(api_run, tmp_path):
    copy = tmp_path / "run"
    copy.mkdir()
    for name in ("episodes.jsonl", "scores.json", "run.json"):
        (copy / name).write_bytes((api_run / name).read_bytes())
    code = ("import sys; sys.modules['matplotlib'] = None\n"
            "import warnings; warnings.simplefilter('ignore')\n"
            f"from wmbench.harness.report.writer import write_reports; write_reports({str(copy)!r})")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=300)
    html = (copy / "report.html").read_text()
    assert "<section id=transcripts><h2>Transcripts</h2>" in html and "data:image/png" not in html


def test_scene_summary_and_confidence_text():
    scene = {"walls": {"left": 2.5, "right": None, "front": 3.0, "back": None}, "npc_nearby": True,
             "npc_type": "beast", "npc_behavior": "charge", "npc_distance": 4.8, "npc_direction": "front",
             "sound": "roar"}
    assert scene_summary(scene) == "walls L 2.5 F 3 · beast charge 4.8 m front · sound: roar"
    assert scene_summary({"walls": {}}) == "no walls near"
    assert confidence_text([1.0, 2.0], 1) == "not measured (1 seed)"
    assert confidence_text([1.0, 2.0], 3) == "1.0–2.0"
    assert confidence_text([100.0, 100.0], 2) == "100.0–100.0 (all 2 seeds alike)"  # issue 24 item 22


def test_each_category_ci_cell_counts_its_own_seeds(tmp_path):
    """Issue 24 item 22: a two-seed run's C01 cell is an interval over its two seeds while a category whose
    scenarios ran once says so (the run's seed count is not every category's)."""
    out = tmp_path / "run"
    # seed 0 is spec fidelity, outside the score: seeds 1-2 are the two scored seeds of S01, seed 1 S06's only one
    run_suite("reference", out=out, scenarios="S01", seeds=3, workers=1, progress=False, live=False)
    run_suite("reference", out=out, scenarios="S06", seeds=[1], workers=1, progress=False, live=False)
    markdown = (out / "report.md").read_text()
    c01 = next(line for line in markdown.splitlines() if line.startswith("| C01 "))
    c02 = next(line for line in markdown.splitlines() if line.startswith("| C02 "))
    assert re.search(r"\| \d+\.\d–\d+\.\d( \(all 2 seeds alike\))? \|$", c01), c01
    assert c02.endswith("| not measured (1 seed) |"), c02
    html = (out / "report.html").read_text()
    assert "{&#x27;" not in html and "not measured (1 seed)" in html  # cells hold text, never a dict


def test_parsed_predict_cell_reads_as_the_grammar_writes_it(tmp_path):
    """Issue 24 item 14: the trace stores ``[verdict, reason, raw]`` per direction; the cell must show
    ``left=safe(open)`` (or ``left=safe`` without a reason), never the Python list."""
    replies = tmp_path / "replies.jsonl"
    reply = ("PREDICT: left=safe, right=danger(wall), fwd=danger(beast), back=safe(open)\n"
             "MOTION: a person walks to the left, glancing back")
    replies.write_text(json.dumps({"text": reply}) + "\n")
    out = tmp_path / "run"
    run_suite(f"replay:{replies}", out=out, scenarios="S01", seeds=1, workers=1, progress=False, live=False,
              brain_options={"on_exhausted": "cycle"})
    html = (out / "report.html").read_text()
    cell = ("<td>left=safe, right=danger(wall), fwd=danger(beast), back=safe(open)"
            "<br><b>MOTION</b> a person walks to the left, glancing back</td>")
    lines = [json.loads(x) for x in (out / "episodes.jsonl").read_text().splitlines()]
    n_decisions = len(lines[0]["trace"]["decisions"])
    assert n_decisions >= 1 and html.count(cell) == n_decisions
    assert "[&#x27;" not in html and "[&#39;" not in html  # no list repr anywhere in the page
