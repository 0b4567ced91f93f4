"""Submission bundles and their verification: ``wmbench export RUN --bundle DIR``, ``wmbench verify DIR``.

Card
----
A bundle is a directory holding a run's ``episodes.jsonl``, ``run.json``, ``scores.json`` (when the run has
one) and ``manifest.json``::

    {"format": "wmbench-bundle/1", "wmbench_version": "0.3.0",
     "files": {"run.json": sha256, "scores.json": sha256},
     "episodes": [{"line": 1, "scenario": "S01", "seed": 0, "sha256": ...}, ...],
     "scenarios": {"S01": sha256 of the canonical JSON of the frozen record, ...},
     "track_a_files": {"track_a/0_wm_bench.jsonl": sha256},      # a physical Track-A run: its file
     "motion_model": {"name": "procedural" | "diffusion", "weights": {"denoiser.npz": sha256, ...}}}

:func:`verify_bundle` checks, naming whatever differs:

1. every episode line against its hash (``episodes.jsonl line 3 (S01 seed 1) was edited``), lines added or
   removed, and ``run.json``/``scores.json`` against theirs;
2. every scenario record the run used against the installed wmbench's record (``scenario S03: record differs``);
3. the motion model's weights against the installed ones (``motion weights denoiser.npz differ``);
4. re-scoring: ``scores.json``'s per-seed points against the lines scored again;
5. for deterministic brains (:data:`DETERMINISTIC_BRAINS`: the scripted ones, the validity panel's, replay),
   re-simulation: every episode is run again with the same brain, body, seed and settings, and its trace must
   equal the stored one bit for bit (after :data:`VOLATILE_KEYS`, the wall-clock timings, are removed). A trace
   without a recorded ``pace`` is replayed at the scene's own pace (:func:`replay_env_kwargs`): on a slower body
   it was made before bench scenes were paced to the body (``wmbench.envs.pacing``), or with ``--unpaced``.

The verdict is ``verified`` when all five pass, ``consistent`` when 1–4 pass but the brain cannot be re-run
(an API model: its replies are only checked for consistency with the scores), ``FAILED`` otherwise.
Simplified: cached API brains (``--option cache=...``) are not re-run from their cache.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import wmbench
from wmbench.body.motion.diffusion import generator as diffusion_generator
from wmbench.body.motion.registry import MOTION_MODEL_ENV, select_generator
from wmbench.brain.registry import get_brain
from wmbench.core.errors import ConfigError
from wmbench.envs.pacing import SCENE_PACE
from wmbench.harness.run.episode import run_episode
from wmbench.harness.run.results import (
    EPISODES_FILE,
    RUN_FILE,
    SCORES_FILE,
    EpisodeLine,
    plain_json,
    read_json,
    write_json,
)
from wmbench.harness.run.scores import score_lines
from wmbench.scenarios import Scenario, get_scenario, select
from wmbench.scenarios.track_a import canonical_json, looks_like_track_a

BUNDLE_FORMAT = "wmbench-bundle/1"
MANIFEST_FILE = "manifest.json"
#: brain specs whose replies are a function of the scene and seed (re-simulated bit for bit)
DETERMINISTIC_BRAINS: tuple[str, ...] = ("reference", "null", "random", "panel:", "replay:")
#: keys whose values are wall-clock measurements, removed before traces are compared
VOLATILE_KEYS: frozenset[str] = frozenset({"latency_s", "wall_s", "latency_ms"})


class BundleError(ConfigError):
    """A bundle that cannot be read or made (missing files, unreadable manifest)."""


@dataclass(frozen=True)
class Check:
    """One verification step: its name, whether it passed, and what differs (one line per finding)."""

    name: str
    ok: bool
    findings: tuple[str, ...] = ()
    skipped: str = ""


@dataclass(frozen=True)
class VerifyReport:
    bundle: str
    checks: tuple[Check, ...]

    @property
    def verdict(self) -> str:
        if any(not c.ok for c in self.checks):
            return "FAILED"
        return "consistent" if any(c.skipped and c.name == "re-simulation" for c in self.checks) else "verified"


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def scenario_sha256(record: Scenario) -> str:
    """The sha256 of a frozen scenario record's canonical JSON (its dataclass fields, tuples as lists)."""
    return sha256_bytes(canonical_json(plain_json(asdict(record))).encode())


def weights_sha256(weights_dir: Path | None = None) -> dict[str, str]:
    """sha256 of each file of the diffusion motion model's weights directory (the installed one by default)."""
    directory = Path(weights_dir) if weights_dir is not None else diffusion_generator.WEIGHTS_DIR
    return {p.name: sha256_bytes(p.read_bytes()) for p in sorted(directory.iterdir()) if p.is_file()}


def _lines(path: Path) -> list[bytes]:
    return [line for line in path.read_bytes().splitlines() if line.strip()]


def make_bundle(run_dir: Path | str, out: Path | str) -> Path:
    """Copy a run's files into ``out`` with their ``manifest.json``; returns the manifest path."""
    run_dir, out = Path(run_dir), Path(out)
    if not (run_dir / EPISODES_FILE).is_file() or not (run_dir / RUN_FILE).is_file():
        raise BundleError(f"{run_dir}: expected a run directory with {EPISODES_FILE} and {RUN_FILE}")
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, str] = {}
    for name in (RUN_FILE, SCORES_FILE, EPISODES_FILE):
        if (run_dir / name).is_file():
            data = (run_dir / name).read_bytes()
            (out / name).write_bytes(data)
            if name != EPISODES_FILE:
                files[name] = sha256_bytes(data)
    config = read_json(out / RUN_FILE)
    track_a = _bundle_track_a_files(str(config.get("selection") or ""), out)
    episodes = []
    used: dict[str, str] = {}
    for number, raw in enumerate(_lines(out / EPISODES_FILE), start=1):
        line = json.loads(raw)
        episodes.append({"line": number, "scenario": line["scenario"], "seed": line["seed"],
                         "sha256": sha256_bytes(raw)})
        used.setdefault(line["scenario"], _record_hash(line["scenario"]))
    for sid in config.get("scenarios", []):
        used.setdefault(sid, _record_hash(sid))
    motion = str(config.get("motion_model") or "procedural")
    manifest = {"format": BUNDLE_FORMAT, "wmbench_version": wmbench.__version__, "files": files,
                "episodes": episodes, "scenarios": dict(sorted(used.items())), "track_a_files": track_a,
                "motion_model": {"name": motion, "weights": weights_sha256() if motion == "diffusion" else {}}}
    return write_json(out / MANIFEST_FILE, manifest)


def _record_hash(scenario_id: str) -> str:
    try:
        return scenario_sha256(get_scenario(scenario_id))
    except KeyError:
        return "unknown (not registered when the bundle was made)"


def _bundle_track_a_files(selection: str, out: Path) -> dict[str, str]:
    """Copy the Track-A files a run selected into ``out/track_a/`` (registering their worlds); name -> sha256.

    A physical Track-A run's worlds exist only in its file, so the bundle carries the file."""
    copied: dict[str, str] = {}
    for token in (t.strip() for t in selection.split(",")):
        if not token or not looks_like_track_a(token):
            continue
        source = Path(token)
        if not source.is_file():
            raise BundleError(f"the run selected the Track-A file {token}, which is no longer there; expected it "
                              "to bundle the worlds the run used")
        select(token)  # registers its worlds, so their records can be hashed
        data = source.read_bytes()
        name = f"track_a/{len(copied)}_{source.name}"
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
        copied[name] = sha256_bytes(data)
    return copied


def verify_bundle(bundle: Path | str, *, resimulate: bool = True) -> VerifyReport:
    """Verify a bundle (see the module card). Track-A files it carries are read (their worlds registered)
    first, after their hashes are checked with the other files."""
    bundle = Path(bundle)
    try:
        manifest = read_json(bundle / MANIFEST_FILE)
        config = read_json(bundle / RUN_FILE)
        raw_lines = _lines(bundle / EPISODES_FILE)
    except (OSError, ValueError) as err:
        raise BundleError(f"{bundle}: expected a bundle with {MANIFEST_FILE}, {RUN_FILE} and {EPISODES_FILE} "
                          f"({err})") from None
    for name, value in ((MANIFEST_FILE, manifest), (RUN_FILE, config)):
        if not isinstance(value, dict):
            raise BundleError(f"{bundle}/{name}: expected a JSON object, got {type(value).__name__}")
    if manifest.get("format") != BUNDLE_FORMAT:
        raise BundleError(f"{bundle}/{MANIFEST_FILE}: expected format {BUNDLE_FORMAT}, got {manifest.get('format')!r}")
    lines: list[Mapping[str, Any]] = [_episode_line(raw) for raw in raw_lines]
    readable = [line for line in lines if line]
    for name in manifest.get("track_a_files", {}):
        if (bundle / name).is_file():
            select(str(bundle / name))
    checks = [
        _guarded("files", lambda: _check_files(bundle, manifest, raw_lines, lines)),
        _guarded("scenario records", lambda: _check_scenarios(manifest)),
        _guarded("motion model weights", lambda: _check_weights(manifest)),
        _guarded("re-scoring", lambda: _check_rescore(bundle, readable)),
        _guarded("re-simulation", lambda: _check_resimulate(config, readable)) if resimulate  # type: ignore[arg-type]
        else Check("re-simulation", True, skipped="not asked"),
    ]
    return VerifyReport(str(bundle), tuple(checks))


def _episode_line(raw: bytes) -> dict[str, Any]:
    """An episode line as an object; ``{}`` for a line that is not one (a damaged bundle: the files check names
    it, and the checks that read episodes skip it)."""
    try:
        line = json.loads(raw)
    except ValueError:
        return {}
    return line if isinstance(line, dict) else {}


def _guarded(name: str, check: Callable[[], Check]) -> Check:
    """``check()``, or a failed check saying why when a damaged bundle's data stops it (a verification that
    fails, never a traceback)."""
    try:
        return check()
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        return Check(name, False, (f"the bundle's data cannot be read here: {type(err).__name__}: {err}",))


def _check_files(bundle: Path, manifest: Mapping[str, Any], raw_lines: list[bytes],
                 lines: list[Mapping[str, Any]]) -> Check:
    findings = []
    for name, digest in {**manifest.get("files", {}), **manifest.get("track_a_files", {})}.items():
        path = bundle / name
        if not path.is_file():
            findings.append(f"{name} is missing")
        elif sha256_bytes(path.read_bytes()) != digest:
            findings.append(f"{name} was edited (sha256 differs from the manifest)")
    recorded = manifest.get("episodes", [])
    for entry in recorded:
        number = int(entry["line"])
        if number > len(raw_lines):
            findings.append(f"episodes.jsonl line {number} ({entry['scenario']} seed {entry['seed']}) was removed")
        elif sha256_bytes(raw_lines[number - 1]) != entry["sha256"]:
            line = lines[number - 1]
            findings.append(f"episodes.jsonl line {number} ({line.get('scenario')} seed {line.get('seed')}) "
                            "was edited" + ("" if line else ": it is not a JSON object any more"))
    if len(raw_lines) > len(recorded):
        findings.append(f"episodes.jsonl has {len(raw_lines) - len(recorded)} line(s) the manifest does not list")
    return Check("files", not findings, tuple(findings))


def _check_scenarios(manifest: Mapping[str, Any]) -> Check:
    findings = []
    for sid, digest in manifest.get("scenarios", {}).items():
        try:
            here = scenario_sha256(get_scenario(sid))
        except KeyError:
            findings.append(f"scenario {sid}: not known to this wmbench, cannot check its record")
            continue
        if here != digest:
            findings.append(f"scenario {sid}: the run's record differs from wmbench {wmbench.__version__}'s "
                            f"(sha256 {digest[:12]}… vs {here[:12]}…)")
    return Check("scenario records", not findings, tuple(findings))


def _check_weights(manifest: Mapping[str, Any]) -> Check:
    motion = manifest.get("motion_model") or {}
    recorded = motion.get("weights") or {}
    if not recorded:
        return Check("motion model weights", True, skipped=f"motion model {motion.get('name')!r} has no weights")
    here = weights_sha256()
    findings = [f"motion weights {name}: differ from the installed model" for name, digest in recorded.items()
                if here.get(name) != digest]
    findings += [f"motion weights {name}: missing from the bundle's manifest" for name in here if name not in recorded]
    return Check("motion model weights", not findings, tuple(findings))


def _check_rescore(bundle: Path, lines: list[Mapping[str, Any]]) -> Check:
    path = bundle / SCORES_FILE
    if not path.is_file():
        return Check("re-scoring", True, skipped="no scores.json in the bundle")
    stored = read_json(path)
    fresh = score_lines(lines)  # type: ignore[arg-type]
    findings = []
    for sid, entry in fresh["scenarios"].items():
        if not entry["per_seed"]:
            continue
        old = {s["seed"]: s["score"] for s in stored.get("scenarios", {}).get(sid, {}).get("per_seed", [])}
        for s in entry["per_seed"]:
            if s["seed"] in old and abs(float(old[s["seed"]]) - float(s["score"])) > 1e-9:
                findings.append(f"scores.json {sid} seed {s['seed']}: says {old[s['seed']]:g}, the episodes score "
                                f"{s['score']:g}")
            elif s["seed"] not in old:
                findings.append(f"scores.json {sid} seed {s['seed']}: missing")
    return Check("re-scoring", not findings, tuple(findings))


def is_deterministic(brain: str) -> bool:
    return any(brain == p or (p.endswith((":", "/")) and brain.startswith(p)) for p in DETERMINISTIC_BRAINS)


def strip_volatile(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: strip_volatile(v) for k, v in value.items() if k not in VOLATILE_KEYS}
    if isinstance(value, list):
        return [strip_volatile(v) for v in value]
    return value


def first_difference(a: Any, b: Any, where: str = "trace") -> str | None:
    """The path of the first place two JSON values differ (None when equal)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{where}.{key}"
            found = first_difference(a[key], b[key], f"{where}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{where}[{i}]")
            if found:
                return found
        return None if len(a) == len(b) else f"{where} (length {len(a)} vs {len(b)})"
    return None if a == b else where


def replay_env_kwargs(env_kwargs: Mapping[str, Any], line: EpisodeLine) -> dict[str, Any]:
    """The env settings to re-simulate ``line`` with: the run's, plus ``pace="scene"`` when neither they nor the
    stored trace name a pace — a trace without ``meta.instance.pace`` was played at the scene's own pace (on the
    character, whose pace is 1, and on a slower body in a run made before bench scenes were paced)."""
    kwargs = dict(env_kwargs)
    if "pace" not in kwargs and "pace" not in (line.get("instance") or {}):
        kwargs["pace"] = SCENE_PACE
    return kwargs


def _check_resimulate(config: Mapping[str, Any], lines: Iterable[EpisodeLine]) -> Check:
    brain_spec = str(config.get("brain", ""))
    if not is_deterministic(brain_spec):
        return Check("re-simulation", True, skipped=f"brain {brain_spec!r} is not deterministic (an API or local "
                                                     "model): its replies are checked against the scores only")
    brain = get_brain(brain_spec, **dict(config.get("brain_options") or {}))
    findings = []
    before = os.environ.get(MOTION_MODEL_ENV)
    select_generator(str(config.get("motion_model") or "procedural"))  # the run's motion model
    try:
        for line in lines:
            result = run_episode(str(line["scenario"]), brain, str(line["body"]), int(line["seed"]),
                                 replay_env_kwargs(config.get("env_kwargs") or {}, line), brain_label=brain_spec)
            fresh = strip_volatile(plain_json(result.trace))
            stored = strip_volatile(line.get("trace"))
            where = first_difference(stored, fresh)
            if where:
                findings.append(f"episode {line['scenario']} seed {line['seed']}: re-simulated trace differs at "
                                f"{where}")
    finally:
        brain.close()
        if before is None:
            os.environ.pop(MOTION_MODEL_ENV, None)
        else:
            os.environ[MOTION_MODEL_ENV] = before
    return Check("re-simulation", not findings, tuple(findings))


def format_report(report: VerifyReport) -> str:
    lines = [f"bundle: {report.bundle}"]
    for check in report.checks:
        state = "skipped" if check.skipped else ("ok" if check.ok else "FAILED")
        lines.append(f"  {check.name:<22} {state}" + (f" ({check.skipped})" if check.skipped else ""))
        lines += [f"    - {finding}" for finding in check.findings]
    lines.append(report.verdict)
    return "\n".join(lines)
