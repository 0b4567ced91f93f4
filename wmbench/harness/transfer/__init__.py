"""Cross-body transfer (C10): the brain's runs on every body, replays, transfer measurements."""
