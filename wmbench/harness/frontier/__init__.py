"""The latency–accuracy frontier: a brain's scores as its think time and token budget grow."""
