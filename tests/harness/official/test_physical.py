"""Track-A records run physically: closed loop in PyBullet, scored by their category's rule, rebuilt and
verified in fresh processes (the worlds live in the file, the category in the id)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.track_a_worlds import forget_track_a_worlds  # noqa: F401  (autouse fixture)
from wmbench.harness.cli.main import main

FIXTURE = Path(__file__).parents[2] / "scenarios" / "data" / "track_a_fixture.jsonl"


def test_records_run_as_worlds_and_survive_a_rebuild_and_a_verify_in_fresh_processes(tmp_path):
    subset = tmp_path / "wm_bench.jsonl"
    lines = FIXTURE.read_text().splitlines()
    subset.write_text("\n".join(line for line in lines if json.loads(line)["id"] in ("S001", "S021", "S081")) + "\n")
    out = tmp_path / "run"
    assert main(["run", "--scenarios", str(subset), "--seeds", "1", "--no-live", "--no-progress", "--workers", "1",
                 "--out", str(out)]) == 0
    extra = json.loads((out / "scores.json").read_text())["extra_scenarios"]
    assert set(extra) == {"TA-C01-S001", "TA-C03-S021"}  # the C09 record is N/A physically
    assert all(e["measured"] and e["category"] == sid[3:6] for sid, e in extra.items())
    before = {sid: e["score"] for sid, e in extra.items()}
    bundle = tmp_path / "bundle"
    assert main(["export", str(out), "--bundle", str(bundle)]) == 0
    assert (bundle / "track_a" / "0_wm_bench.jsonl").read_bytes() == subset.read_bytes()
    subset.unlink()  # the bundle carries the file: nothing outside it is needed any more
    code = ("import sys; from wmbench.harness.cli.main import main; "
            "sys.exit(main(sys.argv[1:]))")
    report = subprocess.run([sys.executable, "-c", code, "report", str(out)], capture_output=True, text=True)
    assert report.returncode == 0, report.stderr
    rebuilt = json.loads((out / "scores.json").read_text())["extra_scenarios"]
    assert {sid: e["score"] for sid, e in rebuilt.items()} == before
    verify = subprocess.run([sys.executable, "-c", code, "verify", str(bundle)], capture_output=True, text=True)
    assert verify.returncode == 0 and verify.stdout.rstrip().endswith("verified"), verify.stdout + verify.stderr
