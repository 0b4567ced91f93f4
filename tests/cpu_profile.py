"""A pytest plugin that measures the CPU time (user + sys) of each test phase, children included. Off by default.

Card
----
- Enable: ``python -m pytest tests/harness/validity -p tests.cpu_profile`` (``--cpu-top N``: how many tests the
  summary lists, default 30; ``--cpu-json PATH``: every phase's numbers as JSON, for tables).
- What counts: ``getrusage(RUSAGE_SELF)`` deltas (this process) plus the CPU of child processes. A child's CPU
  reaches ``RUSAGE_CHILDREN`` only when it is waited for, so a long-lived child (the session's validity pool
  workers, a Ray instance) would be charged to whichever test happens to reap it. The plugin therefore also reads
  every live descendant's CPU with psutil (its own time and that of the children it reaped) at each phase edge
  and charges the growth to that phase; when an already-charged child is reaped, what was charged before is
  taken off the ``RUSAGE_CHILDREN`` growth, so no CPU second is counted twice. A child that starts and ends
  inside one phase is charged through ``RUSAGE_CHILDREN`` alone.
- Limits: a descendant that dies *unreaped by us* (a grandchild whose parent is gone) is missed, as is CPU of
  processes started outside this process tree (a ``ray start`` daemon that re-parents to init). Wall time is
  printed beside CPU for comparison.
- The summary lists the top tests by CPU (all phases of a test together, setup showing apart) and the totals per
  file and per directory, and, where the session's validity panel ran (``tests/conftest.py``), the CPU of each
  panel job measured inside its worker (:func:`timed`), summed per brain and per category.
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest

#: (brains, seed, category) -> CPU seconds of that panel job inside its worker (filled by tests/conftest.py)
PANEL_JOBS_CPU: dict[tuple[tuple[str, ...], int, str], float] = {}


def timed(fn: Any, *args: Any) -> tuple[Any, float]:
    """``(fn(*args), CPU seconds this process spent in it)``: run in a pool worker, it measures that job alone."""
    start = time.process_time()
    result = fn(*args)
    return result, time.process_time() - start


@dataclass(frozen=True)
class PhaseCpu:
    """One test phase's cost: CPU seconds of this process, of its children, and wall seconds."""

    nodeid: str
    phase: str
    self_s: float
    children_s: float
    wall_s: float

    @property
    def cpu_s(self) -> float:
        return self.self_s + self.children_s


#: Linux lists a thread's children in /proc (cheap: psutil's children() reads every process of the machine, ~1 ms)
_PROC_CHILDREN = Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists()
_TICK_S = 1.0 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.01


def _proc_descendants(root: int) -> dict[tuple[int, float], float]:
    """``{(pid, start time): CPU seconds (own + reaped children)}`` of every descendant of ``root``, from /proc."""
    found: dict[tuple[int, float], float] = {}
    todo = [root]
    while todo:
        pid = todo.pop()
        try:
            kids = [int(k) for task in Path(f"/proc/{pid}/task").iterdir()
                    for k in (task / "children").read_text().split()]
        except (OSError, ValueError):  # the process ended meanwhile: its CPU reaches us when it is reaped
            continue
        for kid in kids:
            try:
                fields = Path(f"/proc/{kid}/stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):  # ended between the two reads
                continue
            # after the name: state ppid ... utime(11) stime(12) cutime(13) cstime(14) ... starttime(19)
            found[(kid, float(fields[19]))] = sum(int(f) for f in fields[11:15]) * _TICK_S
            todo.append(kid)
    return found


def _rusage(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


class _ChildMeter:
    """The CPU of this process's descendants, charged once: live ones through psutil, reaped ones through
    ``RUSAGE_CHILDREN`` less what was already charged while they lived. ``reaped_cpu`` reads that figure (a test
    passes its own to this meter alone: patching the module's reader also fooled the live plugin's meter)."""

    def __init__(self, reaped_cpu: Callable[[], float] = lambda: _rusage(resource.RUSAGE_CHILDREN)) -> None:
        self._me = psutil.Process(os.getpid())
        self._charged: dict[tuple[int, float], float] = {}  # (pid, create_time) -> CPU already charged
        self._reaped_cpu = reaped_cpu
        self._reaped = reaped_cpu()
        self._credit = 0.0  # CPU charged to children that are gone but may not be reaped yet
        self._departed: dict[tuple[int, float], float] = {}  # their charges, by child

    def _live(self) -> dict[tuple[int, float], float]:
        if _PROC_CHILDREN:
            return _proc_descendants(os.getpid())
        live: dict[tuple[int, float], float] = {}
        try:
            children = self._me.children(recursive=True)
        except psutil.Error:  # the process table changed under us; next edge reads it again
            return live
        for child in children:
            try:
                with child.oneshot():
                    times = child.cpu_times()
                    live[(child.pid, child.create_time())] = (times.user + times.system + times.children_user
                                                              + times.children_system)
            except psutil.Error:  # a child that ended between the listing and the read: reaped time covers it
                continue
        return live

    def growth(self) -> float:
        """CPU seconds the descendants spent since the last call."""
        live = self._live()
        grown = 0.0
        for key, cpu in live.items():
            if key in self._departed:  # missed by one listing, not gone: its charge comes back from the credit
                self._charged[key] = self._departed.pop(key)
                self._credit -= self._charged[key]
            before = self._charged.get(key, 0.0)
            grown += max(0.0, cpu - before)
            # never lower what was charged: a dying multi-threaded child's /proc times can read low (seen: the
            # panel's workers exiting), and what was charged is what its reaping must take off
            self._charged[key] = max(before, cpu)
        for key in [key for key in self._charged if key not in live]:
            # gone (or missed: /proc's children lists are not reliable while the children run): taken off
            # RUSAGE_CHILDREN when it is reaped, or given back to the child if a later listing shows it again
            self._departed[key] = self._charged.pop(key)
            self._credit += self._departed[key]
        reaped = self._reaped_cpu()
        reaped_growth = reaped - self._reaped
        self._reaped = reaped
        taken = min(self._credit, reaped_growth)  # a child gone now may be reaped at a later edge
        self._credit -= taken
        return grown + max(0.0, reaped_growth - taken)


class CpuProfile:
    """Collects :class:`PhaseCpu` records and prints the summary."""

    def __init__(self, top: int, json_path: str | None) -> None:
        self.top = top
        self.json_path = json_path
        self.records: list[PhaseCpu] = []
        self._children = _ChildMeter()

    def _measure(self, nodeid: str, phase: str) -> Iterator[None]:
        self._children.growth()  # whatever ran between phases (collection, plugins) is not this phase's
        self_start, wall_start = _rusage(resource.RUSAGE_SELF), time.perf_counter()
        yield
        self.records.append(PhaseCpu(nodeid, phase, _rusage(resource.RUSAGE_SELF) - self_start,
                                     self._children.growth(), time.perf_counter() - wall_start))

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Iterator[None]:
        yield from self._measure(item.nodeid, "setup")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Iterator[None]:
        yield from self._measure(item.nodeid, "call")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Iterator[None]:
        yield from self._measure(item.nodeid, "teardown")

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        write = terminalreporter.write_line
        by_test: dict[str, list[PhaseCpu]] = defaultdict(list)
        for record in self.records:
            by_test[record.nodeid].append(record)
        total = sum(r.cpu_s for r in self.records)
        terminalreporter.section(f"CPU per test (user+sys, children included): {total:.1f} s in "
                                 f"{len(by_test)} tests; top {self.top}")
        write(f"{'cpu s':>8} {'self':>7} {'child':>7} {'setup':>7} {'wall s':>7}  test")
        ranked = sorted(by_test.items(), key=lambda kv: -sum(r.cpu_s for r in kv[1]))
        for nodeid, records in ranked[:self.top]:
            cpu = sum(r.cpu_s for r in records)
            setup = sum(r.cpu_s for r in records if r.phase == "setup")
            write(f"{cpu:8.2f} {sum(r.self_s for r in records):7.2f} {sum(r.children_s for r in records):7.2f} "
                  f"{setup:7.2f} {sum(r.wall_s for r in records):7.2f}  {nodeid}")
        for label, key in (("file", _file_of), ("directory", _dir_of)):
            totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
            for nodeid, records in by_test.items():
                row = totals[key(nodeid)]
                row[0] += sum(r.cpu_s for r in records)
                row[1] += sum(r.wall_s for r in records)
                row[2] += 1
            terminalreporter.section(f"CPU per {label}")
            write(f"{'cpu s':>8} {'wall s':>8} {'tests':>6}  {label}")
            for name, (cpu, wall, count) in sorted(totals.items(), key=lambda kv: -kv[1][0])[:self.top]:
                write(f"{cpu:8.1f} {wall:8.1f} {int(count):6d}  {name}")
        if PANEL_JOBS_CPU:
            _panel_summary(terminalreporter)
        if self.json_path:
            Path(self.json_path).write_text(json.dumps([asdict(r) for r in self.records], indent=1),
                                            encoding="utf-8")


def _panel_summary(terminalreporter: Any) -> None:
    """The session panel's CPU per brain (a motion group counts once, under its members' names) and per
    category, as measured inside the workers."""
    write = terminalreporter.write_line
    total = sum(PANEL_JOBS_CPU.values())
    terminalreporter.section(f"validity panel jobs: {len(PANEL_JOBS_CPU)} jobs, {total:.1f} s of worker CPU")
    for label, key in (("brain", lambda job: "+".join(job[0])), ("category", lambda job: job[2])):
        totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
        for job, cpu in PANEL_JOBS_CPU.items():
            totals[key(job)][0] += cpu
            totals[key(job)][1] += 1
        write(f"{'cpu s':>8} {'jobs':>5}  {label}")
        for name, (cpu, count) in sorted(totals.items(), key=lambda kv: -kv[1][0]):
            write(f"{cpu:8.1f} {int(count):5d}  {name}")


def _file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def _dir_of(nodeid: str) -> str:
    return os.path.dirname(_file_of(nodeid)) or "."


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("cpu_profile", "CPU time per test (tests/cpu_profile.py)")
    group.addoption("--cpu-top", type=int, default=30, help="how many tests/files/directories to list")
    group.addoption("--cpu-json", default=None, help="write every phase's CPU record to this JSON file")


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(CpuProfile(config.getoption("--cpu-top"), config.getoption("--cpu-json")),
                                  "cpu_profile_meter")
