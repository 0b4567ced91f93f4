"""How a rerun with another selection joins the run already in its folder.

Card
----
- :func:`merge_with_previous`: a rerun into a finished run with another selection *adds* to it: the
  scenarios and seeds of both selections are recorded in ``run.json``, every finished episode of this brain
  and body is scored (so a narrower rerun never silently rescored a 999-point run down to one category),
  and non-bench scenarios of the earlier selection are measured again with the merged plan.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from wmbench.harness.run.results import RUN_FILE, EpisodeKey, read_json
from wmbench.harness.run.selection import SuitePlan, plan_suite


def previous_selection(out: Path | str) -> tuple[tuple[str, ...], tuple[int, ...]] | None:
    """The scenarios and seeds recorded in ``out/run.json`` by an earlier run, or None."""
    path = Path(out) / RUN_FILE
    if not path.is_file():
        return None
    try:
        old = read_json(path)
        return tuple(str(s) for s in old.get("scenarios", ())), tuple(int(s) for s in old.get("seeds", ()))
    except (OSError, ValueError, TypeError):
        return None


def merge_with_previous(plan: SuitePlan, previous: tuple[tuple[str, ...], tuple[int, ...]] | None
                        ) -> tuple[SuitePlan, dict[str, Any]]:
    """The plan to *score* (this selection plus the earlier one) and the run.json fields that record it."""
    if previous is None or (set(previous[0]) <= set(plan.scenario_ids) and set(previous[1]) <= set(plan.seeds)):
        return plan, {}
    scenario_ids = sorted(set(previous[0]) | set(plan.scenario_ids))
    seeds = tuple(sorted(set(previous[1]) | set(plan.seeds)))
    union = plan_suite(",".join(scenario_ids), seeds)
    merged = replace(plan, selection=f"{plan.selection} (merged with the earlier {','.join(previous[0])})",
                     seeds=seeds, by_mode=union.by_mode)
    return merged, {"scenarios": scenario_ids, "seeds": list(seeds), "selection": merged.selection}


def keys_to_score(planned: Iterable[EpisodeKey], done: Iterable[EpisodeKey], body: str, brain: str
                  ) -> set[EpisodeKey]:
    """This run's planned episodes plus every finished episode of the same body and brain in the folder."""
    return set(planned) | {k for k in done if k.body == body and k.brain == brain}


def union_config(config: Mapping[str, Any], merged_fields: Mapping[str, Any]) -> dict[str, Any]:
    """``config`` with the merged selection fields (see :func:`merge_with_previous`)."""
    return {**config, **merged_fields}
