"""The validity panel's brains: diagnostic brains, cheats, the independent prompt-only brain, the memoriser."""
