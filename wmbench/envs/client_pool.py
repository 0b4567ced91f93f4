"""The process's idle PyBullet clients: a closed world's ``DIRECT`` client is kept for the next world.

::

    client = take_client(gui=False)     # an idle client of this process, else a new p.connect(p.DIRECT)
    ...                                  # the world resets it (resetSimulation) and builds its scene
    release_client(client, gui=False)   # kept for the next world (IDLE_CLIENTS_MAX of them), else disconnected

Card
----
- **Why.** A new ``DIRECT`` client costs 5-20 ms of CPU (PyBullet allocates ~30 MB of buffers and the
  process faults them in; :mod:`wmbench.envs.allocator`), a ``resetSimulation`` of a kept one about 3 ms.
  Code that makes and closes many short-lived envs pays it every time: ``gym.make`` loops, Gymnasium's
  ``check_env``, C10's runs (one env per body and scene variant), a run without env reuse. Measured
  (``bench_bodies``' env set-up rows, a fresh process): make + reset + close of an env 1.6-1.9x cheaper
  (smpl 13.7 -> 7.1 ms, robot 38.1 -> 22.1, drone 16.2 -> 10.2 ms of CPU).
- **What is kept.** At most :data:`IDLE_CLIENTS_MAX` clients (one: a closed env is most often followed by the
  next one; each kept client holds ~30 MB), ``DIRECT`` only (a ``GUI`` client is a window: always
  disconnected). A kept client still holds its last world until the next world takes it and calls
  ``resetSimulation``, which empties it and restores PyBullet's engine defaults (solver iterations included:
  ``tests/body/robot/test_servo_robot.py``); the world then sets gravity and its time step. So a world on a
  kept client starts exactly as on a new one (``tests/envs/test_client_pool.py`` compares the traces of every
  body). A client that is no longer connected is never handed out.
- **Ownership.** A client belongs to the world that took it until that world releases it
  (:meth:`~wmbench.envs.world.World.close`, or the world's garbage collection). Code that disconnects a world's
  client itself breaks that rule (PyBullet may hand the same id to a later ``connect``).
- **Threads.** The list is guarded by a lock; a process that forks keeps its own copy (its clients are its
  own memory).
"""

from __future__ import annotations

import contextlib
import threading

import pybullet as p

#: Idle DIRECT clients a process keeps for its next worlds (each holds ~30 MB of PyBullet buffers).
IDLE_CLIENTS_MAX = 1

_idle: list[int] = []
_lock = threading.Lock()


def take_client(gui: bool = False) -> int:
    """A PyBullet client for a new world: an idle ``DIRECT`` client of this process if one is kept (and still
    connected), else a new connection (``GUI`` when ``gui``). Returns PyBullet's id, negative if the connection
    failed (as ``p.connect``)."""
    if not gui:
        with _lock:
            while _idle:
                client = _idle.pop()
                if p.isConnected(physicsClientId=client):
                    return client
    return p.connect(p.GUI if gui else p.DIRECT)


def release_client(client: int, gui: bool = False) -> None:
    """The world that took ``client`` is done with it: keep it for the next world (a ``DIRECT`` client, while
    fewer than :data:`IDLE_CLIENTS_MAX` are kept), else disconnect it. Tolerates a client already gone (a GUI
    window the user closed)."""
    if not gui:
        with _lock:
            if len(_idle) < IDLE_CLIENTS_MAX and client not in _idle and p.isConnected(physicsClientId=client):
                _idle.append(client)
                return
    with contextlib.suppress(p.error):
        p.disconnect(physicsClientId=client)


def forget_idle_clients() -> None:
    """Disconnect every kept client, so the next world connects a new one (benchmarks and tests that compare
    against a new client)."""
    with _lock:
        kept, _idle[:] = tuple(_idle), []
    for client in kept:
        with contextlib.suppress(p.error):
            p.disconnect(physicsClientId=client)


def idle_clients() -> tuple[int, ...]:
    """The clients kept now (oldest first)."""
    with _lock:
        return tuple(_idle)
