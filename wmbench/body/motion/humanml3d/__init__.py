"""HumanML3D: the 263-dim feature layout and the door for real text-to-motion models that emit it."""
