"""Every provider's per-decision latency (and its provider name) lands in the trace.

One S01 episode per built-in provider through :func:`run_episode`: ``reference``, ``null``, ``random``,
``replay:<file>``, ``openai/<model>`` against a real ``wmbench serve`` endpoint (the reference brain behind
:func:`make_server` on 127.0.0.1, response cache off), ``hf/<tiny GPT-2>`` and ``onnx/<its export>``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.brain.tiny_models import tiny_gpt2_dir  # noqa: F401 — pytest fixture
from tests.extras import needs_extra
from wmbench.brain.providers.onnx_export import export_onnx
from wmbench.brain.registry import get_brain
from wmbench.brain.server.endpoint import BrainHTTPServer, make_server
from wmbench.harness.run.episode import run_episode

SCENARIO = "S01"
SEED = 0
MAX_NEW = 4
REPLAY_TEXT = (
    "PREDICT: left=safe(open), right=safe(open), fwd=danger(wall), back=safe(open)\n"
    "MOTION: a person walks to the left, calm\n"
)


@dataclass(frozen=True)
class ProviderCase:
    """A provider under test: the name its replies must carry, and how to build its spec and options."""

    provider: str
    build: Callable[[pytest.FixtureRequest], tuple[str, dict[str, Any]]]


@pytest.fixture(scope="module")
def reference_server() -> Iterator[BrainHTTPServer]:
    with make_server("reference") as server:
        server.start_in_thread()
        yield server


@pytest.fixture(scope="module")
def tiny_onnx_dir(tiny_gpt2_dir, tmp_path_factory) -> Path:  # noqa: F811
    return Path(export_onnx(tiny_gpt2_dir, tmp_path_factory.mktemp("tiny-gpt2-onnx")).out_dir)


def _replay(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    path = request.getfixturevalue("tmp_path") / "replies.txt"
    path.write_text("\n".join([REPLAY_TEXT] * 8), encoding="utf-8")  # blank-line separated, more than enough
    return f"replay:{path}", {}


def _openai(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    server = request.getfixturevalue("reference_server")
    return "openai/reference", {"base_url": server.url, "api_key": "test-key", "cache": False}


def _hf(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    return f"hf/{request.getfixturevalue('tiny_gpt2_dir')}", {"max_new_tokens": MAX_NEW, "device": "cpu"}


def _onnx(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    return f"onnx/{request.getfixturevalue('tiny_onnx_dir')}", {"max_new_tokens": MAX_NEW}


CASES: dict[str, ProviderCase] = {
    "reference": ProviderCase("reference", lambda request: ("reference", {})),
    "null": ProviderCase("null", lambda request: ("null", {})),
    "random": ProviderCase("random", lambda request: ("random", {})),
    "replay": ProviderCase("replay", _replay),
    "openai": ProviderCase("openai", _openai),
    "hf": ProviderCase("hf", _hf),
    "onnx": ProviderCase("onnx", _onnx),
}


#: The optional extra each provider case needs (skipped with the reason when it is missing).
CASE_EXTRAS: dict[str, str] = {"openai": "openai", "hf": "hf", "onnx": "onnx"}


@pytest.mark.parametrize("case_name", [
    pytest.param(name, marks=needs_extra(CASE_EXTRAS[name])) if name in CASE_EXTRAS else name for name in CASES])
def test_every_decision_records_latency_and_provider(case_name: str, request: pytest.FixtureRequest):
    case = CASES[case_name]
    spec, options = case.build(request)
    brain = get_brain(spec, **options)
    served_before = request.getfixturevalue("reference_server").requests_served if case_name == "openai" else 0
    try:
        result = run_episode(SCENARIO, brain, seed=SEED)
    finally:
        brain.close()
    assert result.ok, result.error
    assert result.failed_decisions == 0, [d["brain"].get("error") for d in result.trace["decisions"]]
    decisions = result.trace["decisions"]
    assert decisions and len(decisions) == result.n_decisions
    latencies = [d["brain"].get("latency_s") for d in decisions]
    providers = sorted({d["brain"].get("provider") for d in decisions}, key=str)
    print(f"\n{case_name}: {len(decisions)} decisions, provider {providers}, "
          f"latency_s {[round(x, 5) for x in latencies if isinstance(x, float)]}")
    for d in decisions:
        latency = d["brain"].get("latency_s")
        assert isinstance(latency, float) and latency >= 0.0, (
            f"{spec}: decision {d['index']} has brain latency {latency!r}; expected a float >= 0 ({d['brain']})")
        assert d["brain"].get("provider") == case.provider, (
            f"{spec}: decision {d['index']} names provider {d['brain'].get('provider')!r}, expected "
            f"{case.provider!r}")
    if case_name == "openai":  # the replies really came over HTTP, one request per decision (no cache)
        served = request.getfixturevalue("reference_server").requests_served - served_before
        assert served == len(decisions), f"the server answered {served} requests for {len(decisions)} decisions"
