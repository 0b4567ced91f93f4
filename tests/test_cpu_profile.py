"""tests/cpu_profile.py's child meter: a long-lived child's CPU is charged while it runs and never twice when it is
reaped (real processes burning real CPU)."""

from __future__ import annotations

import subprocess
import sys
import time

import psutil

from tests.cpu_profile import _ChildMeter, timed

#: the child burns this much CPU, then sleeps until killed (a sleeping child adds nothing)
BURN_S = 0.4
CHILD = (f"import time\nstart = time.process_time()\nwhile time.process_time() - start < {BURN_S}: pass\n"
         "print('burnt', flush=True)\ntime.sleep(600)\n")


def test_a_live_child_is_charged_once_and_its_reaping_adds_nothing():
    meter = _ChildMeter()
    meter.growth()
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "burnt"
        times = psutil.Process(child.pid).cpu_times()
        burnt = times.user + times.system
        while_alive = meter.growth()  # read through psutil: the child is not reaped yet
        assert burnt >= BURN_S and abs(while_alive - burnt) < 0.05, (while_alive, burnt)
    finally:
        child.kill()
        child.wait()
    after_reaping = meter.growth()  # RUSAGE_CHILDREN now holds it: what was charged is taken off
    assert after_reaping < 0.05, after_reaping


def test_a_child_started_and_reaped_between_two_edges_is_charged_through_rusage():
    meter = _ChildMeter()
    meter.growth()
    subprocess.run([sys.executable, "-c", f"import time\ns = time.process_time()\n"
                                          f"while time.process_time() - s < {BURN_S}: pass\n"], check=True)
    assert meter.growth() >= BURN_S


def test_timed_returns_the_result_and_the_cpu_of_the_call():
    def burn() -> str:
        start = time.process_time()
        while time.process_time() - start < 0.05:
            pass
        return "done"

    result, cpu = timed(burn)
    assert result == "done" and cpu >= 0.05


def test_a_child_read_low_while_dying_or_reaped_late_is_still_counted_once(monkeypatch):
    """A child charged 10 s whose /proc times then read 0 (a dying multi-threaded worker), missing from the
    listing one edge before it is reaped: its 10 s reach RUSAGE_CHILDREN later and are taken off, not added."""
    listings = iter([{(7, 1.0): 10.0}, {(7, 1.0): 0.0}, {}, {}])
    reaped = iter([0.0, 0.0, 0.0, 0.0, 10.0])
    meter = _ChildMeter(reaped_cpu=lambda: next(reaped))
    monkeypatch.setattr(meter, "_live", lambda: next(listings))
    charged = [meter.growth() for _ in range(4)]
    assert charged == [10.0, 0.0, 0.0, 0.0], charged


def test_a_child_missed_by_one_listing_is_not_charged_again_when_it_shows_up_again(monkeypatch):
    """The fault (whole-suite run, round 6): the session panel's two workers, 256 s of CPU charged while they
    ran, were missing from one /proc listing (the kernel's children list is a racy snapshot) and charged 256 s
    again when the next listing showed them: tests/protocol read 518 s of CPU in 9 s of wall."""
    listings = iter([{(7, 1.0): 10.0}, {}, {(7, 1.0): 10.5}, {}, {}])
    reaped = iter([0.0, 0.0, 0.0, 0.0, 0.0, 10.5])
    meter = _ChildMeter(reaped_cpu=lambda: next(reaped))
    monkeypatch.setattr(meter, "_live", lambda: next(listings))
    charged = [meter.growth() for _ in range(5)]
    assert charged == [10.0, 0.0, 0.5, 0.0, 0.0], charged


def test_the_plugin_measures_its_own_tests_without_being_fooled_by_them(tmp_path):
    """The fault: `pytest -p tests.cpu_profile` over the whole suite errored in every test after this file's,
    because a test here patched the module's reader that the live plugin's meter reads too (real pytest run)."""
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.cpu_profile",
                          "tests/test_cpu_profile.py", "-k", "not measures_its_own", "tests/core/test_suggest.py",
                          "--cpu-json", str(tmp_path / "cpu.json")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and " error" not in run.stdout, run.stdout[-3000:]
    assert "tests/core/test_suggest.py" in (tmp_path / "cpu.json").read_text()   # measured after this file's tests
