"""Videos: rendering finished episodes from their pose log, writing mp4 files."""
