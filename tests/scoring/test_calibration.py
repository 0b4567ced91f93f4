"""Calibration targets of the C01–C08 scorers, checked in the real env (slow: ~200 short episodes).

The brief's targets (out of 800): a constant keyword-stuffed reply <= 300, the null brain <= 150, the seeded
random brain <= 250, the reference (scripted) brain >= 760 with every scenario >= 15.
"""

from __future__ import annotations

import pytest

from tests.scoring.calibrate import run
from wmbench.scoring import summarize

pytestmark = pytest.mark.slow

CEILINGS = {"null": 150.0, "random": 250.0, "stuffed": 300.0, "stuffed_left": 300.0, "stuffed_back": 300.0}
REFERENCE_FLOOR = 760.0
SCENARIO_FLOOR = 15.0


@pytest.fixture(scope="module")
def table():
    return run(["reference", *CEILINGS], seeds=[0])


@pytest.mark.parametrize("brain", sorted(CEILINGS))
def test_uninformed_brains_stay_low(table, brain) -> None:
    total = summarize(table[brain])["wm_score"]
    print(f"{brain}: {total:.1f} / 800 on C01-C08 (ceiling {CEILINGS[brain]:.0f})")
    assert total <= CEILINGS[brain], f"{brain} scored {total} on C01-C08"


def test_reference_brain_scores_high_everywhere(table) -> None:
    result = summarize(table["reference"])
    print(f"reference: {result['wm_score']:.1f} / 800 on C01-C08 (floor {REFERENCE_FLOOR:.0f}); lowest scenario "
          f"{min(e['score'] for e in result['scenarios'].values() if e['measured']):.1f} / 20")
    low = {sid: e["score"] for sid, e in result["scenarios"].items()
           if e["measured"] and e["score"] < SCENARIO_FLOOR}
    assert result["wm_score"] >= REFERENCE_FLOOR and not low, (result["wm_score"], low)
    assert all(result["scenarios"][f"S{i:02d}"]["measured"] for i in range(1, 41))
