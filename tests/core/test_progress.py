"""Issue 24 item 18: long commands show progress also when stderr is not a terminal (a line per N %)."""

from __future__ import annotations

import io
import re
import subprocess
import sys

from wmbench.core.progress import PercentLines, progress_bar


def test_a_log_gets_a_line_per_ten_percent_and_one_at_the_end():
    log = io.StringIO()
    bar = progress_bar(50, "work", "step", stream=log)
    assert isinstance(bar, PercentLines)  # a StringIO is no terminal
    for _ in range(50):
        bar.update(1)
    bar.close()
    lines = log.getvalue().splitlines()
    assert [int(re.match(r"work: (\d+) %", line).group(1)) for line in lines] == list(range(10, 101, 10))
    assert lines[-1].startswith("work: 100 % (50/50 step, ")


def test_an_unfinished_run_ends_with_where_it_stopped_and_disabled_prints_nothing():
    log = io.StringIO()
    bar = progress_bar(7, "work", "ep", stream=log, initial=2)
    bar.update(1)
    bar.close()
    assert log.getvalue().splitlines()[-1].startswith("work: 42 % (3/7 ep")
    quiet = io.StringIO()
    silent = progress_bar(5, "work", stream=quiet, enabled=False)
    silent.update(5)
    silent.write("x")
    silent.close()
    assert quiet.getvalue() == ""


def test_wmbench_run_into_a_log_prints_progress_lines(tmp_path):
    done = subprocess.run([sys.executable, "-m", "wmbench.harness.cli.main", "run", "--brain", "reference",
                           "--scenarios", "S01,S02,S03", "--seeds", "1", "--workers", "1", "--no-live",
                           "--out", str(tmp_path / "run")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert re.search(r"^wmbench reference: 33 % \(1/3 ep, ", done.stderr, re.MULTILINE), done.stderr
    assert re.search(r"^wmbench reference: 100 % \(3/3 ep, ", done.stderr, re.MULTILINE), done.stderr
    assert "wmbench reference:" not in done.stdout  # progress never mixes into the output
