"""The seed a brain is given: derived from the episode's seed one way, so it never names the world.

Card
----
- :func:`brain_seed` is what the harness passes to ``Brain.reset`` at the start of every episode (bench runs, C10
  runs, live runs, counterfactual branches, official static records): a 32-bit number derived from the
  episode's seed by a keyed BLAKE2b hash. The same episode seed always gives the same brain seed (same seed,
  same replies, same trace); two episode seeds give two brain seeds.
- **Why not the episode's seed itself.** The episode's seed *is* the world: ``gym.make("WMBench-S12-v0")``
  then ``reset(seed=...)`` rebuilds the drawn instance exactly, hidden NPCs and future timeline included. A
  brain handed it could find the scenario whose first scene matches the one it was shown and read the ground
  truth (or try its replies) in a private copy of the world. The official protocol gives a brain the scene and
  nothing else; a brain may use its seed for its own randomness (sampling), not to learn where it is.
- **What it does not do.** A brain that runs in the harness's process is trusted code: it could reach the
  interpreter (the call stack, the garbage collector) or invert the hash by brute force over the seed space.
  The seed is no longer *handed* to it; a result others can trust comes from a brain that cannot reach the
  harness (behind an endpoint on another machine or account), where only the scene crosses
  (``docs/concepts/scoring.md``, "Side channels").
"""

from __future__ import annotations

import hashlib

__all__ = ["brain_seed"]

#: the hash key: a new key (a new version) would give every brain new seeds, so it is fixed
_KEY = b"wmbench brain seed v1"


def brain_seed(episode_seed: int) -> int:
    """The brain's seed for the episode of ``episode_seed`` (a non-negative int below 2**32, so any seeding
    API takes it: ``numpy.random.RandomState``, ``random.seed``, ``torch.manual_seed``)."""
    digest = hashlib.blake2b(str(int(episode_seed)).encode("ascii"), digest_size=4, key=_KEY).digest()
    return int.from_bytes(digest, "big")
