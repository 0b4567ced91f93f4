"""The procedural generator (the default): a parametric gait plus style postures, no model."""
