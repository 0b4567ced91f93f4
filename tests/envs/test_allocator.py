"""The allocator tuning: off by default, applied once on glibc when opted in, a user's own threshold wins."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

#: the child keeps no idle client (wmbench.envs.client_pool), so every world connects a new client and
#: disconnects it, as before the pool: the faults are what the allocator alone leaves
CHILD = ("import resource, wmbench.envs.allocator as a, wmbench.envs.client_pool as pool\n"
         "from wmbench.envs.world import World\n"
         "pool.IDLE_CLIENTS_MAX = 0\n"
         "for _ in range(3): World(1 / 30, 1 / 240).close()\n"
         "before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt\n"
         "for _ in range(5): World(1 / 30, 1 / 240).close()\n"
         "faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) // 5\n"
         "print(a.keep_client_buffers(), faults)")


def run_child(**env: str) -> tuple[str, int]:
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=True,
                          env={**os.environ, **env}, timeout=300)
    applied, faults = done.stdout.split()[-2:]
    return applied, int(faults)


@pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
                    reason="the tuning is for glibc only")
def test_tuned_worlds_reuse_client_buffers_instead_of_faulting_them_in():
    applied, faults = run_child(WMBENCH_MALLOC_TUNING="1")
    assert applied == "True"
    off, faults_off = run_child()  # off by default: the harness reuses one env per worker instead
    assert off == "False"
    assert faults < 500 < faults_off  # a new client's ~30 MB of buffers: ~6,000 page faults when untuned


def test_a_users_own_threshold_is_respected():
    applied, _ = run_child(MALLOC_MMAP_THRESHOLD_="1048576", WMBENCH_MALLOC_TUNING="1")
    assert applied == "False"
