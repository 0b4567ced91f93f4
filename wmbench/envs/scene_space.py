"""The ``scene`` observation's space: Gymnasium's ``Text``, refusing shared memory with a clear error.

Card
----
Gymnasium (1.x) carries a ``Text`` observation through ``AsyncVectorEnv``'s shared memory by reading the
buffer once, when the vector env is built, into a tuple of strings: every later observation would then be that
first, blank read (16,384 spaces) while the workers write into a buffer nobody reads again. Gymnasium's
default for ``vectorization_mode="async"`` is ``shared_memory=True``, so ``gym.make_vec(id, n,
vectorization_mode="async")`` would silently hand a learner blank scenes.

:class:`SceneText` is a ``Text`` (equal to one with the same length and charset; sampling, ``contains``,
flattening and pickling unchanged) for which ``create_shared_memory`` raises :class:`SharedMemoryTextError`
naming the fix: ``vector_kwargs={"shared_memory": False}`` (observations are then pickled, which for one scene
string per step is cheap). Sync vector envs and ``shared_memory=False`` are unaffected.
"""

from __future__ import annotations

from types import ModuleType
from typing import NoReturn

from gymnasium.spaces import Text
from gymnasium.vector.utils.shared_memory import create_shared_memory

from wmbench.core.errors import ConfigError


class SharedMemoryTextError(ConfigError, TypeError):
    """A ``SceneText`` observation was asked to live in an ``AsyncVectorEnv``'s shared memory."""


class SceneText(Text):
    """The scene JSON's space: a ``Text`` that refuses Gymnasium's shared memory (see module card)."""


SHARED_MEMORY_MESSAGE = (
    "wmbench's 'scene' observation is text, which Gymnasium's AsyncVectorEnv shared memory returns blank; "
    "expected shared_memory=False: gym.make_vec(..., vectorization_mode=\"async\", "
    "vector_kwargs={\"shared_memory\": False}) (or vectorization_mode=\"sync\")")


@create_shared_memory.register(SceneText)
def _refuse_shared_memory(space: SceneText, n: int = 1, ctx: ModuleType | None = None) -> NoReturn:
    raise SharedMemoryTextError(SHARED_MEMORY_MESSAGE)
