"""Reading an episode dataset back (numpy and json only) and checking it against the traces it came from.

Card
----
- :func:`load_episode` — one episode: its npz arrays (``np.load``, no pickles) and its json, after checking
  both files' SHA-256 against the frozen manifest (:class:`~wmbench.harness.dataset.export.DatasetError` if a
  file changed).
- :func:`check_dataset` — every episode of every embodiment against the ``episodes.jsonl`` line it came
  from: the root and NPC trajectories equal the trace's pose log, the per-decision body states and times
  equal the trace's, the captions equal the replies; the motion-rate root (when the episode was
  re-simulated) passes through every pose-log sample it shares a time with (to the log's 1 mm / 1 mrad), its
  NPCs likewise, and the articulation has one row per motion frame, finite; with ``resimulate=True`` every
  episode is re-simulated again and its motion-rate arrays must equal the files' exactly. Returns the
  number of episodes checked, raises :class:`~wmbench.harness.dataset.export.DatasetError` naming the
  first mismatch.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from wmbench.harness.dataset.export import (
    ARTICULATION_ARRAYS,
    EPISODES_DIR,
    MANIFEST,
    DatasetError,
    episode_files,
    iter_manifest,
    motion_arrays,
)
from wmbench.harness.dataset.resimulate import resimulate as resimulate_episode
from wmbench.harness.run.results import EPISODES_FILE, EpisodeLog


@dataclass(frozen=True)
class DatasetEpisode:
    """One episode of a dataset: its arrays and its json."""

    arrays: dict[str, np.ndarray]
    meta: dict[str, Any]


def load_episode(dataset: Path | str, body: str, stem: str) -> DatasetEpisode:
    """Load ``<dataset>/<body>/episodes/<stem>.npz|.json`` after checking them against the manifest."""
    base = Path(dataset) / body
    manifest = json.loads((base / MANIFEST).read_text(encoding="utf-8"))
    entry = next((e for e in manifest["episodes"] if e["stem"] == stem), None)
    if entry is None:
        raise DatasetError(f"{base / MANIFEST}: no episode {stem!r}")
    npz_path, json_path = base / EPISODES_DIR / f"{stem}.npz", base / EPISODES_DIR / f"{stem}.json"
    for path, key in ((npz_path, "npz_sha256"), (json_path, "json_sha256")):
        if hashlib.sha256(path.read_bytes()).hexdigest() != entry[key]:
            raise DatasetError(f"{path}: its SHA-256 differs from the manifest's; the dataset was changed")
    with np.load(npz_path, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    return DatasetEpisode(arrays, json.loads(json_path.read_text(encoding="utf-8")))


def iter_episodes(dataset: Path | str) -> Iterator[tuple[str, dict[str, Any], DatasetEpisode]]:
    """(body, manifest entry, episode) for every episode of the dataset."""
    for body, manifest in iter_manifest(Path(dataset)):
        for entry in manifest["episodes"]:
            yield body, entry, load_episode(dataset, body, entry["stem"])


def check_dataset(dataset: Path | str, *, resimulate: bool = False) -> int:
    """Check every episode against its source trace (see the module card); the number checked."""
    lines: dict[tuple[str, str, str, int], Any] = {}
    checked = 0
    for body, entry, episode in iter_episodes(dataset):
        key = (entry["source_run"], entry["brain"], entry["scenario"], entry["seed"])
        if key not in lines:
            for line in EpisodeLog(Path(entry["source_run"]) / EPISODES_FILE).iter_lines():
                if line["body"] == body and line["brain"] == entry["brain"] and line["scenario"] == entry["scenario"] \
                        and line["seed"] == entry["seed"]:
                    lines[key] = line
                    break
            else:
                raise DatasetError(f"{entry['stem']}: its source episode is not in {entry['source_run']}")
        line = lines.pop(key)
        trace = line["trace"]
        frames = trace["meta"]["poses"]["frames"]
        root = episode.arrays["root"]
        if root.shape != (len(frames), 4) or not np.array_equal(root, [[f[0], f[2], f[3], f[4]] for f in frames]):
            raise DatasetError(f"{body}/{entry['stem']}: root trajectory differs from the trace's pose log")
        _, expected_meta = episode_files(line)
        if episode.meta["captions"] != json.loads(json.dumps(expected_meta["captions"])):
            raise DatasetError(f"{body}/{entry['stem']}: captions differ from the trace's replies")
        if [c["reply"] for c in episode.meta["captions"]] != [d["reply"] for d in trace["decisions"]]:
            raise DatasetError(f"{body}/{entry['stem']}: captions differ from the trace's replies")
        for name, states in (("body_before", "body_before"), ("body_after", "body_after")):
            want = [[*d[states]["position"][:3], d[states]["heading"], d[states].get("speed", 0.0)]
                    for d in trace["decisions"]]
            if not np.array_equal(episode.arrays[name], np.array(want, dtype=np.float64).reshape(-1, 5)):
                raise DatasetError(f"{body}/{entry['stem']}: {name} differs from the trace")
        names = episode.meta["npc_names"]
        for i, frame in enumerate(frames):
            for npc_name, _kind, x, y, yaw in frame[5]:
                if not np.array_equal(episode.arrays["npcs"][i, names.index(npc_name)], [x, y, yaw]):
                    raise DatasetError(f"{body}/{entry['stem']}: NPC {npc_name} at sample {i} differs")
        if entry.get("resimulated"):
            check_motion(f"{body}/{entry['stem']}", episode, frames)
            if resimulate:
                replay = resimulate_episode(line, entry.get("env_kwargs") or {}, entry["motion_model"])
                for name, again in motion_arrays(replay).items():
                    if not np.array_equal(episode.arrays[name], again, equal_nan=again.dtype.kind == "f"):
                        raise DatasetError(f"{body}/{entry['stem']}: {name} differs from a new re-simulation")
        checked += 1
    if checked == 0:
        raise DatasetError(f"{dataset}: no episodes found (expected <body>/{MANIFEST} files)")
    return checked


def check_motion(label: str, episode: DatasetEpisode, frames: list[Any]) -> int:
    """Check an episode's motion-rate arrays against its pose log (see the module card); the number of pose
    samples matched (at least one, or :class:`DatasetError`)."""
    arrays, meta = episode.arrays, episode.meta
    t, root = arrays["motion_t"], arrays["motion_root"]
    rows = len(t)
    if root.shape != (rows, 5) or arrays["motion_npcs"].shape[0] != rows:
        raise DatasetError(f"{label}: motion arrays disagree on the frame count ({rows} times, root "
                           f"{root.shape}, npcs {arrays['motion_npcs'].shape})")
    kind = meta["articulation"]["kind"]
    for name in ARTICULATION_ARRAYS[kind]:
        if arrays[name].shape[0] != rows or not np.all(np.isfinite(arrays[name])):
            raise DatasetError(f"{label}: {name} has {arrays[name].shape[0]} rows for {rows} motion frames, "
                               f"or values that are not finite")
    at = {round(float(v), 6): i for i, v in enumerate(t)}
    times = [round(float(f[0]), 6) for f in frames]
    names = meta["motion_npc_names"]
    matched = 0
    for frame, when in zip(frames, times, strict=True):
        i = at.get(when)
        if i is None or times.count(when) > 1:  # a phase start logs the new start pose at the same time
            continue
        x, y, heading = (round(float(v), 3) for v in (root[i, 0], root[i, 1], root[i, 3]))
        if (x, y, heading) != (frame[2], frame[3], frame[4]):
            raise DatasetError(f"{label}: motion root at t={when} is ({x}, {y}, {heading}), the pose log says "
                               f"({frame[2]}, {frame[3]}, {frame[4]})")
        for npc_name, _kind, nx, ny, nyaw in frame[5]:
            got = tuple(round(float(v), 3) for v in arrays["motion_npcs"][i, names.index(npc_name)])
            if got != (nx, ny, nyaw):
                raise DatasetError(f"{label}: motion NPC {npc_name} at t={when} is {got}, the pose log says "
                                   f"{(nx, ny, nyaw)}")
        matched += 1
    if matched == 0:
        raise DatasetError(f"{label}: no pose-log sample falls on a motion frame; the motion arrays cannot be "
                           f"tied to the trace")
    return matched
