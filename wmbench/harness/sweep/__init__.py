"""Sweeps: a grid of runs (brains × bodies × observation modes × motion models) from one TOML file.

:mod:`~wmbench.harness.sweep.model` (the file's model), :mod:`~wmbench.harness.sweep.toml_file` (reading it
and writing run configs), :mod:`~wmbench.harness.sweep.estimate` (size, time and token estimate, the ``--yes``
bound), :mod:`~wmbench.harness.sweep.runner` (cells, resumption, the merged leaderboard).
"""
