"""The report's plots keep every label inside the picture with their fixed margins (``plots.Margins``; until round
14 ``tight_layout`` measured them on an extra draw). Every plotting function a worker may be asked for is drawn
with the widest labels a report gives it: tick labels up to "100", "(n/m)" under a category, a log-scaled
latency axis, one to eight stacked intensity panels."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("matplotlib")

from wmbench.harness.report import plots
from wmbench.harness.report.plot_workers import PLOT_FUNCTIONS

CATEGORIES = [f"C{i:02d}" for i in range(1, 11)]
PILLARS = {"P1": CATEGORIES[:3], "P2": CATEGORIES[3:7], "P3": CATEGORIES[7:]}


def _categories(measured: bool) -> dict[str, dict[str, Any]]:
    return {c: {"score": 100.0 if i % 2 else 0.0, "max": 100.0, "measured": measured or i < 5,
                "ci95": [90.0, 100.0] if i % 2 else None, "measured_max": 40.0 if i == 9 else None}
            for i, c in enumerate(CATEGORIES)}


def _intensity(panels: int) -> dict[str, dict[str, list[tuple[float, float]]]]:
    return {c: {f"S{5 * i + j:02d}": [(0.5 * t, (t % 7) / 7) for t in range(30)] for j in range(1, 6)}
            for i, c in enumerate(CATEGORIES[:panels])}


CASES: dict[str, list[tuple[Any, ...]]] = {
    "pillar_radar": [(_categories(m), PILLARS, {p: {"rescaled": 250.0, "rescaled_max": 450.0} for p in PILLARS},
                      "WM Score 1000/1000 · grade S provisional") for m in (True, False)],
    "category_bars": [(_categories(m), PILLARS) for m in (True, False)],
    "intensity_over_time": [(_intensity(n),) for n in (1, 3, 8)],
    "latency_histogram": [({"S41": [0.01, 5.0, 900.0], "S42": [16.0, 17.5]},), ({"S41": [15.0, 16.0, 19.8]},)],
    "horizon_curve": [({0.5: 0.9, 1.0: 0.8, 4.0: 0.3}, {0.5: 0.85, 1.0: None, 4.0: 0.2})],
    "frontier_curves": [([{"think_time_s": t, "token_budget": b, "categories": {c: 100.0 - 10 * t for c in CATEGORIES}}
                          for t in (0.0, 0.5, 2.0) for b in (None, 4096)], "a-brain-with-a-long-name-v2")],
}


def test_every_plot_function_has_its_cases():
    assert set(CASES) == PLOT_FUNCTIONS


@pytest.mark.parametrize("name", sorted(PLOT_FUNCTIONS))
def test_every_label_stays_inside_the_picture(name, monkeypatch):
    drawn: list[Any] = []
    real_png = plots._png

    def keep(fig: Any, *args: Any) -> bytes:
        data = real_png(fig, *args)
        drawn.append(fig)
        return data

    monkeypatch.setattr(plots, "_png", keep)
    for args in CASES[name]:
        assert getattr(plots, name)(*args)
    assert len(drawn) == len(CASES[name])
    for fig in drawn:
        # what is drawn (tick labels, titles, legends; what bbox_inches="tight" would crop to), in inches
        box = fig.get_tightbbox(fig.canvas.get_renderer())
        width, height = fig.get_size_inches()
        slack = 1.0 / plots.DPI  # a pixel
        assert box.x0 >= -slack and box.y0 >= -slack and box.x1 <= width + slack and box.y1 <= height + slack, (
            f"{name}: drawn over {[round(float(v), 2) for v in box.extents]} in, outside the {width} x {height} in "
            "picture")
