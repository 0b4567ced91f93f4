"""`wmbench verify`: an honest bundle is verified; an edited line, scenario or motion weight is caught and named."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace

import pytest

from wmbench.body.motion.diffusion import generator as diffusion_generator
from wmbench.harness.cli.main import main
from wmbench.harness.verify.bundle import MANIFEST_FILE, make_bundle, sha256_bytes, verify_bundle
from wmbench.scenarios import get_scenario
from wmbench.scenarios.registry import register


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("verify") / "run"
    assert main(["run", "--brain", "reference", "--scenarios", "S01,S12", "--seeds", "2", "--no-live",
                 "--no-progress", "--workers", "1", "--out", str(out)]) == 0
    return out


def _findings(report, name):
    return next(c for c in report.checks if c.name == name).findings


def test_an_honest_bundle_is_verified_bit_for_bit(run_dir, tmp_path, capsys):
    assert main(["export", str(run_dir), "--bundle", str(tmp_path / "b")]) == 0
    assert main(["verify", str(tmp_path / "b")]) == 0
    printed = capsys.readouterr().out
    assert printed.rstrip().endswith("verified") and "re-simulation          ok" in printed


def test_an_edited_episode_line_is_named_even_when_the_manifest_is_rehashed(run_dir, tmp_path):
    bundle = tmp_path / "b"
    make_bundle(run_dir, bundle)
    path = bundle / "episodes.jsonl"
    lines = path.read_bytes().splitlines()
    line = json.loads(lines[2])
    line["trace"]["decisions"][1]["reply"] = line["trace"]["decisions"][1]["reply"].replace("safe", "danger", 1)
    lines[2] = json.dumps(line).encode()
    path.write_bytes(b"\n".join(lines) + b"\n")
    report = verify_bundle(bundle)
    assert report.verdict == "FAILED"
    assert _findings(report, "files") == (f"episodes.jsonl line 3 ({line['scenario']} seed {line['seed']}) was edited",)
    # a forger who also rewrites the manifest's hash is caught by re-simulation (the brain is deterministic)
    manifest = json.loads((bundle / MANIFEST_FILE).read_text())
    manifest["episodes"][2]["sha256"] = sha256_bytes(lines[2])
    (bundle / MANIFEST_FILE).write_text(json.dumps(manifest))
    report = verify_bundle(bundle)
    assert _findings(report, "files") == ()
    resim = _findings(report, "re-simulation")
    assert resim == (f"episode {line['scenario']} seed {line['seed']}: re-simulated trace differs at "
                     "trace.decisions[1].reply",)
    assert report.verdict == "FAILED"


def test_a_run_made_with_an_edited_scenario_is_named(run_dir, tmp_path):
    original = get_scenario("S01")
    easier = replace(original, phases=(replace(original.phases[0], walls=()),))  # the wall taken away
    register(easier, overwrite=True)
    try:
        make_bundle(run_dir, tmp_path / "b")
    finally:
        register(original, overwrite=True)
    report = verify_bundle(tmp_path / "b", resimulate=False)
    assert report.verdict == "FAILED"
    assert [f.split(":")[0] for f in _findings(report, "scenario records")] == ["scenario S01"]
    assert "record differs" in _findings(report, "scenario records")[0]


def test_edited_motion_weights_are_named(run_dir, tmp_path, monkeypatch):
    run = tmp_path / "run"
    shutil.copytree(run_dir, run)
    config = json.loads((run / "run.json").read_text())
    (run / "run.json").write_text(json.dumps({**config, "motion_model": "diffusion"}))
    weights = tmp_path / "weights"
    shutil.copytree(diffusion_generator.WEIGHTS_DIR, weights)
    data = bytearray((weights / "denoiser.npz").read_bytes())
    data[-100] ^= 0xFF  # one byte of the submitter's weights differs from the installed model's
    (weights / "denoiser.npz").write_bytes(bytes(data))
    with monkeypatch.context() as patched:
        patched.setattr(diffusion_generator, "WEIGHTS_DIR", weights)
        make_bundle(run, tmp_path / "b")
    report = verify_bundle(tmp_path / "b", resimulate=False)
    assert _findings(report, "motion model weights") == (
        "motion weights denoiser.npz: differ from the installed model",)
    honest = tmp_path / "honest"
    make_bundle(run, honest)
    assert verify_bundle(honest, resimulate=False).checks[2].ok


def test_edited_scores_are_caught_by_rescoring(run_dir, tmp_path):
    bundle = tmp_path / "b"
    make_bundle(run_dir, bundle)
    scores = json.loads((bundle / "scores.json").read_text())
    entry = scores["scenarios"]["S12"]["per_seed"][0]  # the first scored instance (seed 0 is spec fidelity)
    entry["score"] = 20.0 if entry["score"] != 20.0 else 0.0
    (bundle / "scores.json").write_text(json.dumps(scores))
    report = verify_bundle(bundle, resimulate=False)
    assert _findings(report, "files") == ("scores.json was edited (sha256 differs from the manifest)",)
    assert _findings(report, "re-scoring")[0].startswith(f"scores.json S12 seed {entry['seed']}: says")


def test_the_cli_exits_1_on_a_tampered_bundle_and_2_on_what_is_not_a_bundle(run_dir, tmp_path, capsys):
    bundle = tmp_path / "b"
    make_bundle(run_dir, bundle)
    (bundle / "run.json").write_text((bundle / "run.json").read_text().replace('"reference"', '"null"', 1))
    assert main(["verify", str(bundle), "--no-resimulate"]) == 1
    out = capsys.readouterr().out
    assert "run.json was edited" in out and out.rstrip().endswith("FAILED")
    (tmp_path / "empty").mkdir()
    assert main(["verify", str(tmp_path / "empty")]) == 2
    assert "expected a bundle with manifest.json" in capsys.readouterr().err


def test_a_damaged_bundle_fails_verification_with_reasons_never_a_traceback(run_dir, tmp_path, capsys):
    """Round 11's battery: a cut episodes.jsonl was a JSONDecodeError traceback, a run.json that is a list an
    AttributeError, a manifest entry without its line number a KeyError."""
    bundle = tmp_path / "b"
    make_bundle(run_dir, bundle)
    path = bundle / "episodes.jsonl"
    path.write_bytes(path.read_bytes()[:300])  # the first line cut in the middle, the others gone
    report = verify_bundle(bundle, resimulate=False)
    assert report.verdict == "FAILED"
    files = _findings(report, "files")
    assert files[0] == "episodes.jsonl line 1 (None seed None) was edited: it is not a JSON object any more"
    assert "episodes.jsonl line 4 (S12 seed" in files[3] and files[3].endswith("was removed")
    make_bundle(run_dir, tmp_path / "c")
    manifest = json.loads((tmp_path / "c" / MANIFEST_FILE).read_text())
    del manifest["episodes"][0]["line"]
    (tmp_path / "c" / MANIFEST_FILE).write_text(json.dumps(manifest))
    assert _findings(verify_bundle(tmp_path / "c", resimulate=False), "files") == (
        "the bundle's data cannot be read here: KeyError: 'line'",)
    (tmp_path / "c" / "run.json").write_text("[]")
    assert main(["verify", str(tmp_path / "c")]) == 2
    assert capsys.readouterr().err.strip() == f"wmbench verify: error: {tmp_path / 'c'}/run.json: expected a JSON " \
                                              "object, got list"


def test_a_drone_run_made_before_pacing_still_re_simulates(tmp_path):
    """Regression: a drone run's traces from before bench scenes were paced (no ``pace`` in the trace, none in
    run.json's settings) must re-simulate at the scene's own pace, not fail verification as edited. Made here as
    an ``--unpaced`` run whose run.json then loses the setting, as an older run.json never had it."""
    out = tmp_path / "run"
    assert main(["run", "--brain", "reference", "--body", "drone", "--scenarios", "S17", "--seeds", "2",
                 "--no-live", "--no-progress", "--workers", "1", "--unpaced", "--out", str(out)]) == 0
    config = json.loads((out / "run.json").read_text())
    config["env_kwargs"].pop("pace")
    config.pop("pace")
    (out / "run.json").write_text(json.dumps(config))
    make_bundle(out, tmp_path / "b")
    report = verify_bundle(tmp_path / "b")
    assert _findings(report, "re-simulation") == () and report.verdict == "verified"
