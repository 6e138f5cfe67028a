"""The ball pit: many bodies falling, colliding and settling, on fastcol's buffer API.

``python -m fastcol demo`` runs it (see ``fastcol.demo.cli``).  The pieces, one
concern each: ``scene`` (the bodies and their shape arrays), ``step`` (broadphase,
narrowphase, response), ``render`` (GIF frames with Pillow, a pygame-ce window).
"""

from .scene import Scene, build_scene, make_scene
from .step import Params, Timings, find_contacts, respond, run, simulate, step

__all__ = ["Scene", "build_scene", "make_scene", "Params", "Timings", "find_contacts", "respond",
           "run", "simulate", "step"]
