"""The report's failure-label table: why points were lost, per category and overall.

Reads ``scores.json``'s ``failure_labels`` (:func:`wmbench.scoring.failure_labels.count_labels`): one row per
label of the taxonomy that occurred, one column per category that has labels, and the total. A scores file
without the block (written before 0.4) gets a line saying so.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from wmbench.scoring.failure_labels import FAILURE_LABELS
from wmbench.scoring.scores_file import Scores


def failure_label_rows(scores: Scores) -> tuple[list[str], list[tuple[str, list[int], int]]]:
    """(the categories that have labels, one row per label: (label, count per category, total))."""
    block = scores.get("failure_labels")
    if not isinstance(block, Mapping) or not block.get("overall"):
        return [], []
    overall: Mapping[str, int] = block["overall"]
    categories: Mapping[str, Mapping[str, int]] = block.get("categories") or {}
    cats = sorted(categories)
    labels = [str(label) for label in FAILURE_LABELS if str(label) in overall]
    labels += [label for label in overall if label not in labels]
    return cats, [(label, [int(categories[c].get(label, 0)) for c in cats], int(overall[label])) for label in labels]


def failure_label_html(scores: Scores) -> str:
    """The failure-label section of report.html (heading included)."""
    cats, rows = failure_label_rows(scores)
    if not rows:
        return "<h2>Failure labels</h2><p class=meta>No labelled lost points.</p>"
    head = "".join(f"<th>{escape(c)}</th>" for c in cats)
    body = "".join(f"<tr><td>{escape(label)}</td>" + "".join(f"<td>{n or ''}</td>" for n in counts)
                   + f"<td>{total}</td></tr>" for label, counts, total in rows)
    return (f"<h2>Failure labels</h2><table><tr><th>label</th>{head}<th>total</th></tr>{body}</table>")


def failure_label_lines(scores: Scores) -> list[str]:
    """Markdown lines of the failure-label section (heading included)."""
    out = ["## Failure labels", ""]
    if not isinstance(scores.get("failure_labels"), Mapping):
        return [*out, "Not recorded (this scores.json was written before failure labels existed)."]
    cats, rows = failure_label_rows(scores)
    if not rows:
        return [*out, "No scored decision lost points."]
    out += ["Each scored decision that lost points carries one label (`wmbench/scoring/failure_labels.py`); "
            "counts over all seeds.", "",
            "| label | " + " | ".join(cats) + " | total |", "|---" * (len(cats) + 2) + "|"]
    out += [f"| {label} | " + " | ".join(str(n or "") for n in counts) + f" | {total} |"
            for label, counts, total in rows]
    return out
