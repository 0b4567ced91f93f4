"""The allocator tuning: off by default, applied once on glibc when opted in, a user's own threshold wins."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

#: each round holds one world more than the process keeps idle clients for (wmbench.envs.client_pool), so it
#: connects exactly one new client (and disconnects one): the faults per round are one new client's
CHILD = ("import resource, wmbench.envs.allocator as a; from wmbench.envs.world import World\n"
         "from wmbench.envs.client_pool import IDLE_CLIENTS_MAX\n"
         "def one_new_client():\n"
         "    worlds = [World(1 / 30, 1 / 240) for _ in range(IDLE_CLIENTS_MAX + 1)]\n"
         "    for world in worlds: world.close()\n"
         "for _ in range(3): one_new_client()\n"
         "before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt\n"
         "for _ in range(5): one_new_client()\n"
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
