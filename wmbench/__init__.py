"""wmbench — World Model Bench v1.0 as a closed-loop PyBullet testbed.

``import wmbench`` registers the Gymnasium ids ``WMBench-S01-v0`` … ``WMBench-S50-v0``.
"""

from wmbench.envs.registration import register_envs

__version__ = "0.3.0"

register_envs()

__all__ = ["__version__", "register_envs"]
