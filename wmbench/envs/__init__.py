"""WHERE it happens: the PyBullet world and the Gymnasium env."""
