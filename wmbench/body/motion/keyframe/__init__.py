"""The keyframe generator: authored key poses, spline-interpolated, forward kinematics."""
