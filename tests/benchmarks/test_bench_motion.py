"""Smoke test of ``benchmarks/bench_motion.py`` on a tiny workload: every row has a number (never a speed
assertion), and a generator that fails becomes an error row instead of stopping the others."""

from __future__ import annotations

from benchmarks.bench_motion import measure


def test_motion_bench_rows_for_one_generator_and_a_broken_one():
    rows = measure(True, generators=("procedural", "no-such-model"), stream_seconds=0.5, repeats=1)
    procedural = [r for r in rows if r.name.startswith("procedural:")]
    assert len(procedural) == 6 and all(r.value is not None and r.group == "motion" for r in procedural)
    fidelity = next(r for r in procedural if r.name == "procedural: intent fidelity")
    assert fidelity.value == 1.0 and "prescribed" in fidelity.note
    broken = [r for r in rows if r.name.startswith("no-such-model")]
    assert len(broken) == 1 and broken[0].status == "error" and "unknown motion generator" in broken[0].error
