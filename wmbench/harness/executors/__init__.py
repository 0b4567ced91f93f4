"""Executors: who runs a run's bench episodes — this machine (``local``) or a Ray cluster (``ray``).

See :mod:`wmbench.harness.executors.base` for the contract, :mod:`~wmbench.harness.executors.local` and
:mod:`~wmbench.harness.executors.ray_executor` for the two built-ins, and
:mod:`~wmbench.harness.executors.registry` for lookup by name.
"""
