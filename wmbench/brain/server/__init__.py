"""``wmbench serve``: any brain behind an OpenAI-compatible HTTP endpoint."""
