"""The demos: the ball pit, and the lidar scene (``fastcol.demo.lidar``).

``python -m fastcol demo`` runs the ball pit, many bodies falling, colliding and
settling on fastcol's buffer API (``--scene lidar``: agents steering among walls and
boxes by their rays, on a ``ShapeIndex``; see ``fastcol.demo.cli``).  The pieces, one
concern each: ``scene`` (the bodies and their shape arrays), ``step`` (broadphase,
narrowphase, response), ``lidar`` (the lidar scene and its step), ``render`` (GIF
frames with Pillow, a pygame-ce window).
"""

from . import lidar
from .scene import Scene, build_scene, make_scene
from .step import Params, Timings, find_contacts, respond, run, simulate, step

__all__ = ["Scene", "build_scene", "make_scene", "Params", "Timings", "find_contacts", "respond",
           "run", "simulate", "step", "lidar"]
