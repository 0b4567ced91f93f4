"""Reading an episode dataset back (numpy and json only) and checking it against the traces it came from.

Card
----
- :func:`load_episode` — one episode: its npz arrays (``np.load``, no pickles) and its json, after checking
  both files' SHA-256 against the frozen manifest (:class:`~wmbench.harness.dataset.export.DatasetError` if a
  file changed).
- :func:`check_dataset` — every episode of every embodiment against the ``episodes.jsonl`` line it came
  from: the root and NPC trajectories equal the trace's pose log, the per-decision body states and times
  equal the trace's, the captions equal the replies; returns the number of episodes checked, raises
  :class:`~wmbench.harness.dataset.export.DatasetError` naming the first mismatch.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from wmbench.harness.dataset.export import EPISODES_DIR, MANIFEST, DatasetError, episode_files, iter_manifest
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


def check_dataset(dataset: Path | str) -> int:
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
        checked += 1
    if checked == 0:
        raise DatasetError(f"{dataset}: no episodes found (expected <body>/{MANIFEST} files)")
    return checked
