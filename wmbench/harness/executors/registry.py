"""The executors by name: ``local`` (this machine, the default) and ``ray`` (a Ray cluster).

:data:`EXECUTORS` is a :class:`~wmbench.core.registry.Registry` of factories (``factory(**options)`` -> an
:class:`~wmbench.harness.executors.base.Executor`), lazily imported; plugins register through the
``wmbench.executors`` entry-point group. :func:`make_executor` builds one, an unknown name failing with the
registry's one-line message (``unknown executor 'rey'; expected one of: local, ray``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wmbench.core.registry import Registry
from wmbench.harness.executors.base import Executor

EXECUTORS: Registry[Callable[..., Executor]] = Registry("executor", "wmbench.executors")
EXECUTORS.register_lazy("local", "wmbench.harness.executors.local:LocalExecutor")
EXECUTORS.register_lazy("ray", "wmbench.harness.executors.ray_executor:RayExecutor")


def make_executor(name: str, **options: Any) -> Executor:
    """The executor ``name`` built with ``options`` (e.g. ``address`` for ``ray``)."""
    return EXECUTORS.get(name)(**options)
