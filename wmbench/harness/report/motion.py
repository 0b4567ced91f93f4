"""The report's "Motion model" section: which generator animated the body and how good its motion is.

For a run with a chosen ``--motion-model`` other than ``procedural`` the section measures the quality metrics
of :mod:`wmbench.body.motion.quality` for that generator and for ``procedural`` beside it (a few seconds);
a default run names the generator and points to ``wmbench bench --only motion`` instead, so ordinary reports
stay fast. Bodies that no generator animates (the drone) get one line saying so.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from wmbench.body.motion.quality import measure_generator
from wmbench.body.motion.registry import describe_generator, get_generator

#: Bodies whose limbs a motion generator animates.
ANIMATED_BODIES = ("smpl", "robot")


@lru_cache(maxsize=8)
def _quality(name: str) -> dict[str, Any]:
    return measure_generator(get_generator(name, 30)).to_dict()


def motion_model_section(config: Mapping[str, Any], body: str) -> list[str]:
    """Markdown lines of the section for a run's ``run.json`` ``config`` and ``body``."""
    name = str(config.get("motion_model") or "procedural")
    out = ["", "## Motion model", ""]
    if body not in ANIMATED_BODIES:
        return [*out, f"The {body} body is not animated by a motion generator (`--motion-model` does not apply)."]
    out.append(f"`{describe_generator(name)}`")
    if name == "procedural":
        return [*out, "", "Quality metrics per generator: `wmbench bench --only motion`."]
    out += ["", "| generator | intent fidelity | foot skating m/s | jerk m/s³ | dist. mocap walk | "
                "dist. mocap run (held out) |", "|---|---|---|---|---|---|"]
    for generator in (name, "procedural"):
        try:
            q = _quality(generator)
        except Exception as exc:  # the report must still be written
            out.append(f"| {generator} | not measured: {type(exc).__name__}: {exc} | | | | |")
            continue
        out.append(f"| {generator} | {q['intent_fidelity']:.2f} | {q['foot_skating']:.2f} | {q['jerk']:.0f} | "
                   f"{q['distance_walk']:.2f} | {q['distance_run']:.2f} |")
    return [*out, "", "Distances are a small FID-like Fréchet statistic over pose features (not FID). "
                      "Procedural/keyframe clips prescribe their root path, so their fidelity is by construction."]


def motion_model_html(config: Mapping[str, Any], body: str) -> str:
    """The same section as HTML (the Markdown lines' table, code line and notes, escaped)."""
    from html import escape

    html, rows = ["<h2>Motion model</h2>"], []
    for line in motion_model_section(config, body)[3:]:
        if line.startswith("|"):
            if not set(line) <= set("|-"):
                rows.append([escape(cell.strip()) for cell in line.strip("|").split("|")])
            continue
        if rows:
            head, *body_rows = rows
            html.append("<table><tr>" + "".join(f"<th>{c}</th>" for c in head) + "</tr>"
                        + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in body_rows)
                        + "</table>")
            rows = []
        if line.strip():
            text = escape(line.strip())
            html.append(f"<p><code>{text[1:-1]}</code></p>" if text.startswith("`") and text.endswith("`")
                        else f"<p class=meta>{text}</p>")
    return "\n".join(html)
