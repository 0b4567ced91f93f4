"""HOW it moves: MOTION text -> intent -> motion frames -> a body in the world.

Public surface for body authors: the :class:`Body` contract and its :class:`BodyBase` defaults, the records a
body returns (:class:`BodyState`, :class:`FrameReport`), the :class:`WorldHandle` it is given, the registry
(:func:`get_body`, :func:`available_bodies`, :data:`BODIES`) and :func:`check_body`.
"""

from wmbench.body.base import Body, BodyBase, BodyState, FrameReport, SweepResult, WorldHandle
from wmbench.body.checker import BodyContractError, check_body
from wmbench.body.registry import BODIES, available_bodies, get_body

__all__ = [
    "BODIES", "Body", "BodyBase", "BodyContractError", "BodyState", "FrameReport", "SweepResult", "WorldHandle",
    "available_bodies", "check_body", "get_body",
]
