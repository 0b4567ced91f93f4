"""WHO decides: scene_context -> the two lines; providers behind one registry."""
