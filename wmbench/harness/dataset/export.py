"""Writing an episode dataset: per embodiment a frozen manifest and, per episode, an ``.npz`` and a ``.json``.

Card
----
- **Input**: run directories (a run, or every cell of a sweep: any folder below the given one holding
  ``episodes.jsonl`` and ``run.json``). Episodes are read one at a time (streaming); error episodes and
  lines without a pose log are skipped and counted in the manifest.
- **Layout** (``DIR/<body>/``): ``manifest.json`` (frozen once written: format version, wmbench version,
  body, and per episode the scenario, instance, seed, brain, motion model, source run and the SHA-256 of its
  two files) and ``episodes/<brain>__<scenario>__seed<seed>.npz|.json``.
- **npz** (numpy arrays, float64 unless said): ``root`` (N×4: t, x, y, heading) and ``npcs`` (N×K×3: x, y,
  yaw; NaN where NPC k is absent) at the pose log's rate (``root_hz``, 15 Hz by default), ``npc_kinds``
  (K, str); ``decision_t`` (D), ``body_before``/``body_after`` (D×5: x, y, z, heading, speed) per decision;
  ``camera_extrinsics`` (N×4×4×4: for each pose sample, the world-from-camera matrix of each egocentric
  panorama panel, in ``camera_panels`` order; camera axes x right, y up, z backwards — OpenGL) and
  ``camera_intrinsics`` (3×3 pinhole matrix of one square panel, ``camera_panel_px`` pixels).
- **At the motion frame rate** (``motion_hz``, 30 by default; read by re-simulating the episode from its
  trace, :mod:`wmbench.harness.dataset.resimulate`, which must reproduce the trace or the export stops):
  ``motion_t`` (F), ``motion_root`` (F×5: x, y, z, heading, speed), ``motion_npcs`` (F×K'×3, names in the
  json's ``motion_npc_names``) and the body's articulation: ``joints`` (character: F×22×3 world joint
  positions, m), ``servo_angles`` + ``servo_command`` (robot: F×S, rad, names in the json), ``rotor_rpm`` +
  ``attitude_xyzw`` (drone: F×4 each). ``resimulate=False`` leaves these out (pose-log trajectories only).
- **json**: the captions (per decision: t, the reply, the parsed PREDICT and MOTION, the events), the
  instance, the NPC names, the articulation (kind, channel names, units) and the camera parameters in words.
- **Videos** (``video=``: a renderer, ``(trace, path) -> path``; the CLI passes
  :func:`wmbench.harness.video.replay.render_episode`, the ``video`` extra): ``<stem>.mp4``, the episode
  rendered from its pose log (chase and top-down views, captions), in the manifest with its SHA-256. The
  protagonist is drawn as a stand-in figure (the renderer draws no joints). Passed in, not imported: the
  dataset layer sits below the video one.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import wmbench
from wmbench.core.errors import ConfigError
from wmbench.envs.cameras import FAR_PLANE, NEAR_PLANE
from wmbench.harness.dataset.resimulate import Replay
from wmbench.harness.dataset.resimulate import resimulate as resimulate_episode
from wmbench.harness.run.results import EPISODES_FILE, RUN_FILE, EpisodeLine, EpisodeLog, read_json
from wmbench.protocol.camera_layout import EYE_HEIGHT, PANEL_FOV_DEG, PANEL_YAWS, PanoramaSpec

FORMAT = "wmbench-episodes/1"
MANIFEST = "manifest.json"
EPISODES_DIR = "episodes"


#: Renders one episode's trace to an mp4 at the given path and returns the path.
VideoRenderer = Callable[[Any, Path], Path]


class DatasetError(ConfigError):
    """The dataset cannot be written or read as asked; one line saying why."""


@dataclass(frozen=True)
class ExportSummary:
    """What an export wrote: episodes per body, and the lines skipped (errors, no pose log)."""

    out: Path
    episodes: dict[str, int]
    skipped: int


def run_dirs(source: Path) -> list[Path]:
    """The run directories at or below ``source`` (a run, or a sweep's cells), sorted."""
    if (source / EPISODES_FILE).is_file():
        return [source]
    found = sorted(p.parent for p in source.glob(f"**/{EPISODES_FILE}") if (p.parent / RUN_FILE).is_file())
    if not found:
        raise DatasetError(f"{source}: no run found; expected a run directory (episodes.jsonl, run.json) or a "
                           f"sweep directory holding them")
    return found


def export_episodes(source: Path | str, out: Path | str, *, resimulate: bool = True,
                    video: VideoRenderer | None = None) -> ExportSummary:
    """Write the dataset of every run at or below ``source`` into ``out`` (see the module card).
    ``resimulate``: add the motion-rate trajectories and the articulation (one re-simulation per episode);
    ``video``: render an mp4 per episode with it."""
    source, out = Path(source), Path(out)
    if (out / MANIFEST).exists() or any(out.glob(f"*/{MANIFEST}")):
        raise DatasetError(f"{out} already holds a dataset (manifests are frozen); expected a new folder")
    entries: dict[str, list[dict[str, Any]]] = {}
    skipped = 0
    for run in run_dirs(source):
        config = read_json(run / RUN_FILE)
        for line in EpisodeLog(run / EPISODES_FILE).iter_lines():
            trace = line.get("trace")
            stored = trace.get("meta") if isinstance(trace, dict) else None
            if line.get("error") or not isinstance(stored, dict) or not stored.get("poses"):  # nothing to export
                skipped += 1
                continue
            body_dir = out / line["body"] / EPISODES_DIR
            body_dir.mkdir(parents=True, exist_ok=True)
            stem = f"{_safe(line['brain'])}__{line['scenario']}__seed{line['seed']}"
            motion_model = config.get("motion_model") or "procedural"
            replay = resimulate_episode(line, config.get("env_kwargs") or {}, motion_model) if resimulate else None
            npz, meta = episode_files(line, replay)
            npz_path, json_path = body_dir / f"{stem}.npz", body_dir / f"{stem}.json"
            npz_path.write_bytes(npz)
            json_path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
            entry = {
                "stem": stem, "scenario": line["scenario"], "seed": line["seed"], "brain": line["brain"],
                "instance": line.get("instance"), "motion_model": motion_model,
                "env_kwargs": config.get("env_kwargs") or {}, "resimulated": replay is not None,
                "source_run": str(run), "npz_sha256": _sha256(npz_path), "json_sha256": _sha256(json_path)}
            if video is not None:
                mp4 = video(trace, body_dir / f"{stem}.mp4")
                entry["mp4_sha256"] = _sha256(Path(mp4))
            entries.setdefault(line["body"], []).append(entry)
    for body, items in entries.items():
        manifest = {"format": FORMAT, "wmbench_version": wmbench.__version__, "body": body,
                    "episodes": sorted(items, key=lambda e: e["stem"])}
        (out / body / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return ExportSummary(out, {body: len(items) for body, items in sorted(entries.items())}, skipped)


def episode_files(line: EpisodeLine, replay: Replay | None = None) -> tuple[bytes, dict[str, Any]]:
    """The ``.npz`` bytes and the ``.json`` object of one episode line, with the motion-rate arrays of its
    re-simulation ``replay`` if given (see the module card)."""
    trace = line["trace"]
    assert trace is not None
    poses = trace["meta"]["poses"]
    frames = poses["frames"]
    names = sorted({npc[0] for frame in frames for npc in frame[5]})
    kinds = {npc[0]: npc[1] for frame in frames for npc in frame[5]}
    root = np.array([[f[0], f[2], f[3], f[4]] for f in frames], dtype=np.float64).reshape(-1, 4)
    npcs = np.full((len(frames), len(names), 3), np.nan)
    column = {name: k for k, name in enumerate(names)}
    for i, frame in enumerate(frames):
        for name, _kind, x, y, yaw in frame[5]:
            npcs[i, column[name]] = (x, y, yaw)
    decisions = trace["decisions"]
    arrays = {
        "root": root, "root_hz": np.array(float(poses["hz"])), "npcs": npcs,
        "npc_kinds": np.array([kinds[n] for n in names], dtype=str),
        "decision_t": np.array([d["t"] for d in decisions], dtype=np.float64),
        "body_before": _body_states([d["body_before"] for d in decisions]),
        "body_after": _body_states([d["body_after"] for d in decisions]),
        "camera_extrinsics": panorama_extrinsics(root),
        "camera_intrinsics": panel_intrinsics(PanoramaSpec().panel),
        "camera_panel_px": np.array(PanoramaSpec().panel),
        "camera_panels": np.array([word for word, _ in PANEL_YAWS], dtype=str),
    }
    if replay is not None:
        arrays.update(motion_arrays(replay))
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]
    meta = {
        "format": FORMAT, "scenario": line["scenario"], "seed": line["seed"], "body": line["body"],
        "brain": line["brain"], "instance": line.get("instance"), "npc_names": names,
        "captions": [{"t": d["t"], "reply": d["reply"], "predict": d["parse"].get("prediction"),
                      "motion": d["parse"].get("motion"), "events": [e.get("kind") for e in d.get("events") or ()]}
                     for d in decisions],
        "cameras": {"egocentric_panorama": {
            "panels": [word for word, _ in PANEL_YAWS], "panel_yaw_rad": [yaw for _, yaw in PANEL_YAWS],
            "fov_deg": PANEL_FOV_DEG, "panel_px": PanoramaSpec().panel, "eye_height_m": EYE_HEIGHT,
            "near_m": NEAR_PLANE, "far_m": FAR_PLANE,
            "convention": "world-from-camera 4x4, camera x right, y up, looking along -z (OpenGL)"}},
    }
    if replay is not None:
        kind = replay.articulation.kind
        meta["motion_hz"] = replay.frame_rate
        meta["motion_npc_names"] = list(replay.npc_names)
        meta["articulation"] = {"kind": kind, "names": list(replay.articulation.names),
                                "arrays": list(ARTICULATION_ARRAYS.get(kind, ())), "units": ARTICULATION_UNITS[kind]}
    return buffer.getvalue(), meta


#: The npz arrays of each articulation kind (main, extra).
ARTICULATION_ARRAYS: dict[str, tuple[str, ...]] = {
    "joints": ("joints",), "servos": ("servo_angles", "servo_command"), "rotors": ("rotor_rpm", "attitude_xyzw"),
    "none": ()}
ARTICULATION_UNITS: dict[str, str] = {
    "joints": "m, world frame (x, y, z up); 22 SMPL joints, pelvis first",
    "servos": "rad, measured angle and last command, servo-map order",
    "rotors": "rpm per rotor; attitude as a unit quaternion x, y, z, w", "none": "no articulation readings"}


def motion_arrays(replay: Replay) -> dict[str, np.ndarray]:
    """The motion-rate arrays of a re-simulation (see the module card)."""
    arrays = {"motion_t": replay.t, "motion_hz": np.array(replay.frame_rate), "motion_root": replay.root,
              "motion_npcs": replay.npcs, "motion_npc_kinds": np.array(replay.npc_kinds, dtype=str)}
    names = ARTICULATION_ARRAYS[replay.articulation.kind]
    if names:
        arrays[names[0]] = replay.articulation.values
    if len(names) > 1:
        arrays[names[1]] = replay.articulation.extra
    return arrays


def panel_intrinsics(panel_px: int, fov_deg: float = PANEL_FOV_DEG) -> np.ndarray:
    """The 3×3 pinhole matrix of a square panel of ``panel_px`` pixels and ``fov_deg`` field of view."""
    focal = panel_px / 2 / math.tan(math.radians(fov_deg) / 2)
    return np.array([[focal, 0.0, panel_px / 2], [0.0, focal, panel_px / 2], [0.0, 0.0, 1.0]])


def panorama_extrinsics(root: np.ndarray) -> np.ndarray:
    """N×P×4×4 world-from-camera matrices of the panorama's panels for root poses (t, x, y, heading)."""
    out = np.zeros((len(root), len(PANEL_YAWS), 4, 4))
    for i, (_t, x, y, heading) in enumerate(root):
        for j, (_word, yaw) in enumerate(PANEL_YAWS):
            a = heading + yaw
            forward = np.array([math.cos(a), math.sin(a), 0.0])
            up = np.array([0.0, 0.0, 1.0])
            right = np.cross(forward, up)
            out[i, j, :3, 0], out[i, j, :3, 1], out[i, j, :3, 2] = right, up, -forward
            out[i, j, :3, 3] = (x, y, EYE_HEIGHT)
            out[i, j, 3, 3] = 1.0
    return out


def _body_states(states: Sequence[Mapping[str, Any]]) -> np.ndarray:
    return np.array([[*s["position"][:3], s["heading"], s.get("speed", 0.0)] for s in states],
                    dtype=np.float64).reshape(-1, 5)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _safe(text: str) -> str:
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in text).strip("_.") or "brain"


def iter_manifest(out: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """(body, manifest) of every embodiment in the dataset ``out``."""
    for path in sorted(out.glob(f"*/{MANIFEST}")):
        yield path.parent.name, json.loads(path.read_text(encoding="utf-8"))
