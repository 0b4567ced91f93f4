"""Episode datasets: a run's (or a sweep's) episodes as per-embodiment npz + json files that numpy alone reads.

:mod:`~wmbench.harness.dataset.export` writes them, :mod:`~wmbench.harness.dataset.reader` loads them back and
checks them against the traces they came from. Layout: docs/sweeps.md ("Episode datasets").
"""
