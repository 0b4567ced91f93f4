"""The latency-bound case: C01–C08 against a local fake OpenAI-compatible endpoint with 1 s per reply.

A real HTTP server on 127.0.0.1 (:class:`SlowEndpoint`, ``ThreadingHTTPServer``, Nagle off like any real
API front end) answers every ``/v1/chat/completions`` request after ``latency`` seconds with a fixed two-line
reply, and logs every change of the number of requests it has in flight. ``run_suite("openai/fake",
scenarios="C01-C08", seeds=1, max_connections=8, live off)`` is timed end to end (brain start-up, episodes,
scoring, report), alternately, for ``--rounds`` rounds (median):

- **before**: one episode per connection (8 episode threads), longest first, brains built all at once —
  the 0.4 scheduler (``LocalExecutor(episodes_per_connection=1, serial_builds=False)``); ``--sorted`` adds
  0.3's (scenario, seed) order;
- **no-overlap**: the run before the overlap: twice as many episodes as connections under one connection budget of 8
  requests in flight (a slot is held only while a request is out), a free slot going to the episode with
  the most decisions to come, the threads' brains built one at a time; scoring and the report's plots
  after the last reply (``run_suite(..., overlap=False)``);
- **after**: the default run: as no-overlap, and each line is scored as it is written and the plots are
  drawn by helper processes started during the run, the intensity plot as soon as its episodes are in
  (:mod:`wmbench.harness.report.overlap`); ``--one-each`` adds the same with one episode per connection.

Beside them the **ideal** bound from the run's own decision counts: ``max(longest episode × latency,
decisions × latency / connections)``; target: after <= 1.3 × ideal. The endpoint's peak concurrency must not
exceed the connection budget.

**Where the wall time goes** (printed per configuration, medians): start-up (run start to the first
request), the episode span (first request to last reply) with the mean requests in flight and the idle
connection-seconds in it, the tail (from the last moment all connections were busy to the last reply),
scoring (last reply to ``scores.json``) and report (``scores.json`` to the end), and the CPU seconds per
decision of this process and its helper processes (``--log DIR`` writes every run's in-flight timeline as
CSV). The CPU floor
(all CPU seconds / 2 cores) is printed too: it shows whether the cores, not the endpoint, bound the run.

Run: ``.venv/bin/python -m benchmarks.bench_api_sweep [--quick] [--rounds N] [--log DIR]`` (quick: latency
0.2 s, 1 round).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import pairwise
from pathlib import Path
from typing import Any

from benchmarks.common import BenchRow, Target, format_rows, ratio

GROUP = "api"
REPLY = ("PREDICT: left=safe(open), right=safe(open), fwd=danger(wall), back=safe(open)\n"
         "MOTION: a person walks cautiously to the left, glancing back")
SCENARIOS = "C01,C02,C03,C04,C05,C06,C07,C08"
CONNECTIONS = 8
TARGET_RATIO = 1.3


class SlowEndpoint:
    """An OpenAI-compatible chat endpoint on 127.0.0.1 that answers after ``latency`` seconds."""

    def __init__(self, latency: float) -> None:
        self.latency = latency
        self.in_flight = 0
        self.peak = 0
        self.requests = 0
        #: (perf_counter, requests in flight) at every change
        self.timeline: list[tuple[float, int]] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def reset_log(self) -> None:
        with self._lock:
            self.timeline, self.peak, self.requests = [], 0, 0

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # else every reply waits ~40 ms for a delayed ACK (no real API does)

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
                with endpoint._lock:
                    endpoint.in_flight += 1
                    endpoint.requests += 1
                    endpoint.peak = max(endpoint.peak, endpoint.in_flight)
                    endpoint.timeline.append((time.perf_counter(), endpoint.in_flight))
                try:
                    time.sleep(endpoint.latency)
                finally:
                    with endpoint._lock:
                        endpoint.in_flight -= 1
                        endpoint.timeline.append((time.perf_counter(), endpoint.in_flight))
                data = json.dumps({
                    "id": "chatcmpl-slow", "object": "chat.completion", "created": 0, "model": body.get("model"),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": REPLY}}],
                    "usage": {"prompt_tokens": 900, "completion_tokens": 30, "total_tokens": 930},
                }).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler

    def __enter__(self) -> SlowEndpoint:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


@dataclass(frozen=True)
class Profile:
    """Where one run's wall time went (seconds unless said)."""

    wall: float
    startup: float      # run start -> first request at the endpoint
    span: float         # first request -> last reply
    tail: float         # last moment every connection was busy -> last reply
    idle_slot_s: float  # connection-seconds not used during the span
    mean_in_flight: float
    scoring: float      # last reply -> scores.json written
    report: float       # scores.json -> run_suite returned
    cpu_s: float        # CPU seconds of this process (endpoint threads included) and its ended children
    peak: int
    decisions: tuple[int, ...]
    in_flight_5s: tuple[float, ...]  # mean requests in flight per 5 s from the first request


def profile_of(timeline: list[tuple[float, int]], t0: float, t_scores: float, t_end: float, cpu: float,
               peak: int, decisions: list[int], connections: int) -> Profile:
    """A :class:`Profile` from the endpoint's in-flight timeline and the run's clock marks."""
    first, last = timeline[0][0], timeline[-1][0]
    full_until = max((t_next for (t, n), (t_next, _) in pairwise(timeline) if n >= connections),
                     default=first)
    used = sum(n * (t_next - t) for (t, n), (t_next, _) in pairwise(timeline))
    span = last - first
    return Profile(wall=t_end - t0, startup=first - t0, span=span, tail=last - full_until,
                   idle_slot_s=connections * span - used, mean_in_flight=used / span if span else 0.0,
                   scoring=max(0.0, t_scores - last), report=t_end - max(t_scores, last), cpu_s=cpu, peak=peak,
                   decisions=tuple(decisions), in_flight_5s=tuple(in_flight_by_bucket(timeline, 5.0)))


def in_flight_by_bucket(timeline: list[tuple[float, int]], bucket_s: float) -> list[float]:
    """Mean requests in flight per ``bucket_s`` seconds from the first request."""
    if len(timeline) < 2:
        return []
    first = timeline[0][0]
    sums = [0.0] * (int((timeline[-1][0] - first) / bucket_s) + 1)
    for (t, n), (t_next, _) in pairwise(timeline):
        while t < t_next:
            k = int((t - first) / bucket_s)
            edge = min(t_next, first + (k + 1) * bucket_s)
            sums[k] += n * (edge - t)
            t = edge
    return [total / bucket_s for total in sums]


def timed_run(endpoint: SlowEndpoint, out: Path, config: str, log: Path | None = None) -> Profile:
    """One run_suite against ``endpoint`` under ``config`` (``sorted``, ``before`` or ``after``), profiled."""
    from wmbench.harness.executors.local import LocalExecutor
    from wmbench.harness.suite import run_suite

    executor = {"sorted": LocalExecutor(order="given", episodes_per_connection=1, serial_builds=False),
                "before": LocalExecutor(order="longest", episodes_per_connection=1, serial_builds=False),
                "one-each": LocalExecutor(order="longest", episodes_per_connection=1), "after": None,
                "no-overlap": None}[config]
    endpoint.reset_log()
    t0, cpu0 = time.perf_counter(), _cpu_s()
    run_suite("openai/fake", "smpl", SCENARIOS, 1, 2, out, progress=False, live=False, measurers={},
              brain_options={"base_url": endpoint.url, "api_key": "EMPTY", "cache": False, "timeout_s": 30},
              max_connections=CONNECTIONS, executor=executor,
              overlap=config not in ("before", "sorted", "no-overlap"))
    t_end, cpu = time.perf_counter(), _cpu_s() - cpu0
    t_scores = t_end - (time.time() - (out / "scores.json").stat().st_mtime)
    decisions = [json.loads(raw)["summary"]["decisions"]
                 for raw in (out / "episodes.jsonl").read_text(encoding="utf-8").splitlines()]
    timeline = list(endpoint.timeline)
    if log is not None:
        log.mkdir(parents=True, exist_ok=True)
        rows = "".join(f"{t - t0:.4f},{n}\n" for t, n in timeline)
        (log / f"{out.name}.csv").write_text("t_s,in_flight\n" + rows, encoding="utf-8")
    return profile_of(timeline, t0, t_scores, t_end, cpu, endpoint.peak, decisions, CONNECTIONS)


def _cpu_s() -> float:
    """CPU seconds of this process and of its children that have ended (the plot workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def warm_up(endpoint: SlowEndpoint, out: Path) -> None:
    """One untimed one-scenario run: the imports (openai, plotting) and first-use costs of the process."""
    from wmbench.harness.suite import run_suite

    run_suite("openai/fake", "smpl", "S01", 1, 2, out, progress=False, live=False, measurers={},
              brain_options={"base_url": endpoint.url, "api_key": "EMPTY", "cache": False, "timeout_s": 30},
              max_connections=CONNECTIONS)


def _median(profiles: list[Profile], field_name: str) -> float:
    return float(statistics.median(float(getattr(p, field_name)) for p in profiles))


def measure(quick: bool, latency: float | None = None, rounds: int | None = None, with_sorted: bool = False,
            log: Path | None = None, one_each: bool = False) -> list[BenchRow]:
    latency = latency if latency is not None else (0.2 if quick else 1.0)
    rounds = rounds if rounds is not None else (1 if quick else 3)
    configs = ((["sorted"] if with_sorted else []) + ["before"] + (["one-each"] if one_each else [])
               + ["no-overlap", "after"])
    runs: dict[str, list[Profile]] = {c: [] for c in configs}
    rows: list[BenchRow] = []
    with tempfile.TemporaryDirectory(prefix="wmbench-api-") as tmp, SlowEndpoint(latency) as endpoint:
        warm_up(endpoint, Path(tmp) / "warm-up")  # imports and first-use costs are paid by nobody timed
        for r in range(rounds):
            for config in configs:  # alternately: a busy neighbour slows both alike
                runs[config].append(timed_run(endpoint, Path(tmp) / f"{config}-{r}", config, log))
        decisions = list(runs["after"][0].decisions)
        ideal = max(max(decisions) * latency, sum(decisions) * latency / CONNECTIONS)
        walls = {c: _median(p, "wall") for c, p in runs.items()}
        cpu = _median(runs["after"], "cpu_s")
        rows.append(BenchRow(GROUP, "C01-C08 ideal bound", ideal, "s", None,
                             f"{len(decisions)} episodes, {sum(decisions)} decisions, longest {max(decisions)}; "
                             f"{latency:g} s latency, {CONNECTIONS} connections"))
        labels = {"sorted": "sorted order, 1 episode per connection (0.3)",
                  "before": "longest first, 1 episode per connection (0.4)",
                  "one-each": "as after, but 1 episode per connection",
                  "no-overlap": "as after, but scoring and plots after the last reply",
                  "after": "as no-overlap, lines scored as written, plots drawn early in helper processes"}
        for config in configs:
            ps = runs[config]
            target = Target("<=", TARGET_RATIO * ideal) if config == "after" else None
            rows.append(BenchRow(GROUP, f"C01-C08 {config}: {labels[config]}", walls[config], "s", target,
                                 f"{walls[config] / ideal:.2f} x ideal (median of {len(ps)}: "
                                 f"{', '.join(f'{p.wall:.1f}' for p in ps)} s)"))
            rows.append(BenchRow(GROUP, f"{config}: where the time goes", _median(ps, "span"), "s", None,
                                 f"episode span (first request to last reply); start-up "
                                 f"{_median(ps, 'startup'):.2f} s, scoring {_median(ps, 'scoring'):.2f} s, "
                                 f"report {_median(ps, 'report'):.2f} s, tail {_median(ps, 'tail'):.2f} s; "
                                 f"mean in flight {_median(ps, 'mean_in_flight'):.2f} of {CONNECTIONS}, idle "
                                 f"{_median(ps, 'idle_slot_s'):.1f} connection-s; CPU "
                                 f"{1000 * _median(ps, 'cpu_s') / sum(decisions):.1f} ms per decision"))
            typical = sorted(ps, key=lambda p: p.wall)[len(ps) // 2]
            rows.append(BenchRow(GROUP, f"{config}: in flight per 5 s", typical.mean_in_flight, "requests", None,
                                 "median run: " + " ".join(f"{n:.1f}" for n in typical.in_flight_5s)))
        rows.append(BenchRow(GROUP, "after vs before", ratio(walls["before"], walls["after"]), "x", None,
                             "before wall / after wall, medians of the same run"))
        rows.append(BenchRow(GROUP, "after vs no-overlap", ratio(walls["no-overlap"], walls["after"]), "x", None,
                             "no-overlap wall / after wall, medians of the same run"))
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        rows.append(BenchRow(GROUP, "load average at the end", load, "", None,
                             "1-minute load average of this machine when the rounds ended"))
        rows.append(BenchRow(GROUP, "CPU floor on 2 cores", cpu / 2, "s", None,
                             f"all CPU seconds of the after run ({cpu:.1f} s, endpoint threads included) / 2 "
                             f"cores: {cpu / 2 / ideal:.2f} x ideal, so the cores are "
                             f"{'not ' if cpu / 2 < ideal else ''}the bound"))
        peak = max(p.peak for ps in runs.values() for p in ps)
        rows.append(BenchRow(GROUP, "endpoint peak requests in flight", float(peak), "requests",
                             Target("<=", float(CONNECTIONS)), "the connection budget holds"))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--latency", type=float, default=None)
    parser.add_argument("--rounds", type=int, default=None, help="rounds of before/after (median; default 3)")
    parser.add_argument("--sorted", action="store_true", help="also time 0.3's sorted order")
    parser.add_argument("--one-each", action="store_true",
                        help="also time the after scheduler with one episode per connection")
    parser.add_argument("--log", type=Path, default=None, help="write each run's in-flight timeline (CSV) here")
    args = parser.parse_args()
    rows = measure(args.quick, args.latency, args.rounds, args.sorted, args.log, args.one_each)
    print(format_rows(rows))
    return 1 if any(r.status == "error" for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
