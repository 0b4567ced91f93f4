"""Live mode: the frame loop with a concurrently thinking brain, its metrics, live.json, C09 measurement."""
