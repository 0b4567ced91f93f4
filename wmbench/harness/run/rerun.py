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

from wmbench.harness.run.results import RUN_FILE, EpisodeKey, JsonFileError, read_json
from wmbench.harness.run.selection import SuitePlan, plan_suite


def previous_selection(out: Path | str) -> tuple[tuple[str, ...], tuple[int, ...]] | None:
    """The scenarios and seeds recorded in ``out/run.json`` by an earlier run, or None when there is none;
    :class:`~wmbench.harness.run.results.JsonFileError` when it is not a run's (a damaged file is not guessed
    at: the run would be merged with, or rescored over, a selection no one made)."""
    path = Path(out) / RUN_FILE
    if not path.is_file():
        return None
    old = read_json(path)  # JsonFileError when it is not JSON
    scenarios = old.get("scenarios", []) if isinstance(old, dict) else None
    seeds = old.get("seeds", []) if isinstance(old, dict) else None
    if not (isinstance(scenarios, list) and all(isinstance(s, str) for s in scenarios)
            and isinstance(seeds, list) and all(type(s) is int for s in seeds)):
        got = "other values" if isinstance(old, dict) else f"a {type(old).__name__}"
        raise JsonFileError(f"{path}: expected a run's run.json (an object whose 'scenarios' is a list of ids and "
                            f"'seeds' a list of integers), got {got}")
    return tuple(scenarios), tuple(seeds)


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
