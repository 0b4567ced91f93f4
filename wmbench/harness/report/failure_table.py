"""The report's failure-label table: why points were lost, per category and overall.

Reads ``scores.json``'s ``failure_labels`` (:func:`wmbench.scoring.failure_labels.count_labels`): one row per
label of the taxonomy that occurred, one column per category that has labels, and the total. A scores file
without the block (written before 0.4) gets a line saying so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wmbench.scoring.failure_labels import FAILURE_LABELS


def failure_label_lines(scores: Mapping[str, Any]) -> list[str]:
    """Markdown lines of the failure-label section (heading included)."""
    block = scores.get("failure_labels")
    out = ["## Failure labels", ""]
    if not isinstance(block, Mapping):
        return [*out, "Not recorded (this scores.json was written before failure labels existed)."]
    overall: Mapping[str, int] = block.get("overall") or {}
    if not overall:
        return [*out, "No scored decision lost points."]
    categories: Mapping[str, Mapping[str, int]] = block.get("categories") or {}
    cats = sorted(categories)
    labels = [str(label) for label in FAILURE_LABELS if str(label) in overall]
    labels += [label for label in overall if label not in labels]
    out += ["Each scored decision that lost points carries one label (`wmbench/scoring/failure_labels.py`); "
            "counts over all seeds.", "",
            "| label | " + " | ".join(cats) + " | total |", "|---" * (len(cats) + 2) + "|"]
    for label in labels:
        cells = [str(categories[c].get(label, 0) or "") for c in cats]
        out.append(f"| {label} | " + " | ".join(cells) + f" | {overall[label]} |")
    return out
