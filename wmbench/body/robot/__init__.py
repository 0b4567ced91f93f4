"""The servo robot: a 20-servo humanoid URDF, its servo map from the 22 joints, and the body itself."""
