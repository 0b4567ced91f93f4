"""THE CONTRACT between env, brain and scorer: the scene a brain is shown, the two-line reply it gives, and the
trace the env records and the scorers read (map: docs/architecture.md). Imports only :mod:`wmbench.core`.

- :mod:`~wmbench.protocol.scene`: the scene_context TypedDicts, sensing ranges, direction sectors, threat order.
- :mod:`~wmbench.protocol.grammar`: parsing and formatting ``PREDICT:`` / ``MOTION:`` (the parse record).
- :mod:`~wmbench.protocol.trace`: the trace records (typed), their plain-data form and the reader of old traces.
- :mod:`~wmbench.protocol.observation`: observation modes and keys; what a brain's ``decide`` receives.
- :mod:`~wmbench.protocol.camera_layout`: the egocentric camera strip a pixel-reading brain must know.
"""
