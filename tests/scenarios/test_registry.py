"""The scenario registry: ids, categories, pillars, selection, user registration, the @scenario decorator."""

from __future__ import annotations

import pytest

import wmbench.scenarios as package
from wmbench.core.errors import ConfigError, UnknownNameError
from wmbench.core.registry import Registry
from wmbench.core.taxonomy import CATEGORIES, CATEGORY_PILLARS, CATEGORY_SCENARIOS
from wmbench.scenarios import registry
from wmbench.scenarios.records import Expectations, NpcSpec, Phase, Scenario
from wmbench.scenarios.registry import all_scenarios, get_scenario, register, scenario, select

ALL_IDS = tuple(f"S{i:02d}" for i in range(1, 51))


def _ids(records: tuple[Scenario, ...]) -> list[str]:
    return [r.id for r in records]


def _user_record(sid: str = "X01") -> Scenario:
    return Scenario(
        id=sid, category="C03", name="User Scenario", setup="a beast ahead",
        phases=(Phase(name="only", duration=2.0, npcs=(NpcSpec("beast", "beast", (5.0, 0.0), "approach"),)),),
        expectations=Expectations(safe_directions=("back",)), card=f"{sid} · User Scenario (C03, easy)",
    )


@pytest.fixture
def isolated_registry(monkeypatch: pytest.MonkeyPatch) -> Registry[Scenario]:
    """A copy of the registry for tests that register things, so the global one is left untouched."""
    copy = registry.SCENARIOS.copy()
    monkeypatch.setattr(registry, "SCENARIOS", copy)
    return copy


def test_every_official_id_is_registered_exactly_once() -> None:
    ids = _ids(all_scenarios())
    official = [i for i in ids if i in ALL_IDS]
    assert official == list(ALL_IDS)
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize("category", CATEGORIES)
def test_each_category_holds_its_five_consecutive_scenarios(category: str) -> None:
    first = (int(category[1:]) - 1) * 5 + 1
    expected = [f"S{i:02d}" for i in range(first, first + 5)]
    records = [r for r in all_scenarios() if r.category == category]
    assert _ids(tuple(records)) == expected
    assert {r.pillar for r in records} == {CATEGORY_PILLARS[category]}


@pytest.mark.parametrize(("pillar", "count"), [("P1", 10), ("P2", 25), ("P3", 15)])
def test_pillar_sizes(pillar: str, count: int) -> None:
    records = select(pillar)
    assert len(records) == count
    assert {r.pillar for r in records} == {pillar}


def test_select_mixes_categories_and_ids_in_id_order_without_duplicates() -> None:
    assert _ids(select("C03,S01")) == ["S01", "S11", "S12", "S13", "S14", "S15"]
    assert _ids(select(" s12 , C03 ")) == ["S11", "S12", "S13", "S14", "S15"]
    assert _ids(select(["S5", "s02"])) == ["S02", "S05"]


def test_select_p1_is_c01_and_c02() -> None:
    assert _ids(select("P1")) == [f"S{i:02d}" for i in range(1, 11)]


def test_select_all_returns_every_record() -> None:
    assert _ids(select("all")) == _ids(all_scenarios())
    assert _ids(select("ALL")) == _ids(all_scenarios())


@pytest.mark.parametrize("token", ["S99", "C11", "P4", "bogus"])
def test_select_unknown_token_raises_value_error_naming_it(token: str) -> None:
    with pytest.raises(ValueError, match=token):
        select(f"S01,{token}")


@pytest.mark.parametrize("selection", ["", " , ", []])
def test_select_empty_selection_raises(selection: str | list[str]) -> None:
    with pytest.raises(ValueError, match="empty scenario selection"):
        select(selection)


def test_get_scenario_normalises_ids_and_names_unknown_ones() -> None:
    assert get_scenario("s5") is get_scenario("S05")
    with pytest.raises(UnknownNameError,
                       match=r"^unknown scenario 'S77'; did you mean 'S47'\? expected one of: S01, S02, .*S50$"):
        get_scenario("S77")


def test_user_scenario_can_be_registered_and_found(isolated_registry: Registry[Scenario]) -> None:
    record = register(_user_record())
    assert get_scenario("x01") is record
    assert "X01" in _ids(select("C03"))
    assert _ids(select("X01,S11")) == ["S11", "X01"]


def test_duplicate_registration_fails_unless_overwritten(isolated_registry: Registry[Scenario]) -> None:
    with pytest.raises(ValueError, match="S12"):
        register(get_scenario("S12"))
    register(_user_record())
    replacement = _user_record()
    assert register(replacement, overwrite=True) is replacement
    assert get_scenario("X01") is replacement


def test_user_registration_does_not_leak_into_the_global_registry() -> None:
    assert "X01" not in _ids(all_scenarios())


def test_scenario_decorator_attaches_the_docstring_as_card(isolated_registry: Registry[Scenario]) -> None:
    @scenario
    def x02_user() -> Scenario:
        """X02 · Decorated (C03, easy)

        Setup: a beast ahead.
        """
        return _user_record("X02")

    card = get_scenario("X02").card
    assert card.splitlines()[0] == "X02 · Decorated (C03, easy)"
    assert "Setup: a beast ahead." in card
    assert callable(x02_user)


def test_scenario_decorator_requires_a_card(isolated_registry: Registry[Scenario]) -> None:
    def x03_no_card() -> Scenario:
        return _user_record("X03")

    with pytest.raises(ValueError, match="docstring card"):
        scenario(x03_no_card)
    assert "X03" not in isolated_registry


def test_every_taxonomy_category_has_its_scenario_module_imported_by_the_package() -> None:
    registered = {s.id for s in package.all_scenarios()}
    assert all(set(CATEGORY_SCENARIOS[c]) <= registered for c in CATEGORIES)


def test_a_taxonomy_category_without_a_scenario_module_is_one_config_error(monkeypatch) -> None:
    monkeypatch.setattr(package, "CATEGORIES", (*CATEGORIES, "C11"))
    with pytest.raises(ConfigError, match=r"category C11 .*expected one scenario module "
                                          r"wmbench/scenarios/c11_<name>.py, got none"):
        package._import_category_modules()
