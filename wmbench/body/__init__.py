"""HOW it moves: MOTION text -> intent -> motion frames -> a body in the world."""
