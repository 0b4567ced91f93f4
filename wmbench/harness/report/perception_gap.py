"""Perception gap: the same brain's score from the JSON scene minus its score from pixels, per category.

::

    wmbench run --brain vision --scenarios C01,C02,C03 --out runs/json
    wmbench run --brain vision --scenarios C01,C02,C03 --observation image --out runs/image
    wmbench gap runs/json runs/image          # table, and perception_gap.json in runs/image

Card
----
- Reads both run directories' ``run.json`` (brain, body, scenarios, seeds, ``env_kwargs.observation``)
  and ``scores.json``. The runs must be the same brain, body, scenarios and seeds and differ in
  observation mode, else a :class:`GapError` says what differs — a gap between two different brains would
  measure nothing.
- Per category scored in both (fully, or the selected part of it): ``scene`` and ``image`` points
  (0–100), ``gap = scene - image`` and ``ratio = image / scene`` (None when the scene score is 0).
  Categories scored in only one run are listed as ``unmatched``, never scored as 0.
- :func:`write_gap` stores ``perception_gap.json`` in the pixel run's directory, next to its scores;
  :func:`gap_markdown` is the section ``report.md`` then ends with (``wmbench gap`` rebuilds the report).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from wmbench.core.errors import ConfigError

GAP_FILE = "perception_gap.json"


class GapError(ConfigError):
    """The two runs cannot be compared (missing files, different brain/body/seeds, same mode)."""


@dataclass(frozen=True)
class CategoryGap:
    category: str
    scene: float
    image: float
    gap: float
    ratio: float | None


@dataclass(frozen=True)
class PerceptionGap:
    brain: str
    body: str
    reference_mode: str
    pixel_mode: str
    categories: tuple[CategoryGap, ...]
    unmatched: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def table(self) -> str:
        lines = [f"perception gap of {self.brain} on {self.body}: {self.reference_mode} minus {self.pixel_mode}",
                 f"{'category':<9}{self.reference_mode:>12}{self.pixel_mode:>14}{'gap':>9}{'ratio':>8}"]
        for c in self.categories:
            ratio = "-" if c.ratio is None else f"{100 * c.ratio:.0f}%"
            lines.append(f"{c.category:<9}{c.scene:>12.1f}{c.image:>14.1f}{c.gap:>9.1f}{ratio:>8}")
        if self.categories:
            scene = sum(c.scene for c in self.categories)
            image = sum(c.image for c in self.categories)
            ratio = "-" if scene == 0 else f"{100 * image / scene:.0f}%"
            lines.append(f"{'total':<9}{scene:>12.1f}{image:>14.1f}{scene - image:>9.1f}{ratio:>8}")
        if self.unmatched:
            lines.append("measured in one run only: " + ", ".join(self.unmatched))
        return "\n".join(lines)


def _load(run_dir: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    try:
        run = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
        scores = json.loads((run_dir / "scores.json").read_text(encoding="utf-8"))
    except FileNotFoundError as err:
        raise GapError(f"{run_dir} is not a finished run directory: {err.filename} is missing") from None
    except json.JSONDecodeError as err:
        raise GapError(f"{run_dir}: unreadable JSON ({err})") from None
    return run, scores


def _scored(category: dict[str, Any]) -> bool:
    return bool(category.get("measured")) or float(category.get("measured_max") or 0) > 0


def _mode(run: dict[str, Any]) -> str:
    return str((run.get("env_kwargs") or {}).get("observation", "scene"))


def perception_gap(reference_dir: Path | str, pixel_dir: Path | str) -> PerceptionGap:
    """Compare two runs of one brain (see the card)."""
    ref_run, ref_scores = _load(Path(reference_dir))
    pix_run, pix_scores = _load(Path(pixel_dir))
    for key in ("brain", "body", "seeds", "scenarios"):
        if ref_run.get(key) != pix_run.get(key):
            raise GapError(f"the runs differ in {key}: {ref_run.get(key)!r} vs {pix_run.get(key)!r}; the gap "
                           "compares one brain, body, scenario and seed set across observation modes")
    if _mode(ref_run) == _mode(pix_run):
        raise GapError(f"both runs used observation {_mode(ref_run)!r}; expected e.g. scene vs image")
    gaps, unmatched = [], []
    ref_cats, pix_cats = ref_scores.get("categories", {}), pix_scores.get("categories", {})
    for cat in sorted(set(ref_cats) | set(pix_cats)):
        a, b = ref_cats.get(cat) or {}, pix_cats.get(cat) or {}
        if _scored(a) and _scored(b):  # fully, or in part (a selection of the category's scenarios)
            scene, image = float(a["score"]), float(b["score"])
            gaps.append(CategoryGap(cat, round(scene, 3), round(image, 3), round(scene - image, 3),
                                    None if scene == 0 else round(image / scene, 4)))
        elif _scored(a) or _scored(b):
            unmatched.append(cat)
    return PerceptionGap(str(ref_run.get("brain")), str(ref_run.get("body")), _mode(ref_run), _mode(pix_run),
                         tuple(gaps), tuple(unmatched))


def write_gap(gap: PerceptionGap, pixel_dir: Path | str) -> Path:
    path = Path(pixel_dir) / GAP_FILE
    path.write_text(json.dumps(gap.to_dict(), indent=2) + "\n", encoding="utf-8")
    return path


def gap_markdown(run_dir: Path | str) -> str:
    """A ``## Perception gap`` section from the run's ``perception_gap.json`` ("" when there is none)."""
    path = Path(run_dir) / GAP_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        rows = [CategoryGap(**c) for c in data["categories"]]
        modes = (str(data["reference_mode"]), str(data["pixel_mode"]))
    except (OSError, ValueError, KeyError, TypeError):
        return ""
    out = ["", "## Perception gap", "",
           f"Same brain, `{modes[0]}` run minus this `{modes[1]}` run (points per category, 0-100).", "",
           f"| category | {modes[0]} | {modes[1]} | gap | {modes[1]} / {modes[0]} |", "|---|---|---|---|---|"]
    for c in rows:
        ratio = "-" if c.ratio is None else f"{100 * c.ratio:.0f}%"
        out.append(f"| {c.category} | {c.scene:.1f} | {c.image:.1f} | {c.gap:.1f} | {ratio} |")
    return "\n".join(out) + "\n"
