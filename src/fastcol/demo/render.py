"""Drawing the demos: frames for an animated GIF or PNGs (Pillow), or a live window.

Both are optional: Pillow comes with the ``demo`` extra (``pip install "fastcol[demo]"``),
pygame-ce is installed separately for ``--window``.  Frames are drawn in palette mode
(one colour per body type on a dark background), which keeps GIFs small: 60 frames of
600 bodies at 480 pixels wide take about 600 KB.

Geometry for drawing is read back from the shape arrays (``.data``, ``.vertices``),
the same rows the queries saw: what you see is what collided.  The lidar scene
(``LidarRecorder``) draws each ray from where it was cast to where ``ShapeIndex.raycast``
stopped it, its hit marked.
"""

from __future__ import annotations

import numpy as np

BACKGROUND = (24, 26, 33)
WALL = (90, 94, 110)
# circles, capsules, boxes, polygons
COLOURS = ((244, 162, 97), (42, 157, 143), (110, 140, 230), (231, 84, 128))
PICTURES_HINT = 'pictures need Pillow: python -m pip install "fastcol[demo]"'
WINDOW_HINT = "--window needs pygame-ce: python -m pip install pygame-ce"


def have_pillow() -> bool:
    try:
        import PIL.Image  # noqa: F401
    except ImportError:
        return False
    return True


def outlines(scene, scale, height_px):
    """Every body as drawing primitives in pixel coordinates (y down).

    Returns ``(circles, polygons)``: ``circles`` an ``(n, 4)`` array of ellipse boxes
    with a type per row, ``polygons`` a list of ``(type, [(x, y), ...])``.  Capsules
    are a rectangle and two end circles.
    """
    circles_t, boxes_t = [], []
    polys = []

    def px(x, y):
        return x * scale, height_px - y * scale

    c = scene.arrays[0].data
    if len(c):
        x, y = px(c[:, 0], c[:, 1])
        r = c[:, 2] * scale
        circles_t.append((0, np.stack([x - r, y - r, x + r, y + r], axis=1)))

    k = scene.arrays[1].data
    if len(k):
        ax, ay = px(k[:, 0], k[:, 1])
        bx, by = px(k[:, 2], k[:, 3])
        r = k[:, 4] * scale
        circles_t.append((1, np.stack([ax - r, ay - r, ax + r, ay + r], axis=1)))
        circles_t.append((1, np.stack([bx - r, by - r, bx + r, by + r], axis=1)))
        ex, ey = bx - ax, by - ay
        length = np.hypot(ex, ey)
        length[length == 0.0] = 1.0
        nx, ny = -ey / length * r, ex / length * r
        quads = np.stack([
            np.stack([ax + nx, ay + ny], axis=1), np.stack([bx + nx, by + ny], axis=1),
            np.stack([bx - nx, by - ny], axis=1), np.stack([ax - nx, ay - ny], axis=1),
        ], axis=1)
        polys.extend((1, q) for q in quads)

    b = scene.arrays[2].data
    if len(b):
        cos, sin = np.cos(b[:, 4]), np.sin(b[:, 4])
        corners = []
        for sx, sy in ((1, 1), (-1, 1), (-1, -1), (1, -1)):
            ux = sx * b[:, 2] * cos - sy * b[:, 3] * sin
            uy = sx * b[:, 2] * sin + sy * b[:, 3] * cos
            corners.append(np.stack(px(b[:, 0] + ux, b[:, 1] + uy), axis=1))
        polys.extend((2, q) for q in np.stack(corners, axis=1))

    p = scene.arrays[3]
    if len(p):
        v = p.vertices
        x, y = px(v[..., 0], v[..., 1])
        ring = np.stack([x, y], axis=2)
        polys.extend((3, ring[i, : p.counts[i]]) for i in range(len(p)))

    for t, boxes in circles_t:
        boxes_t.extend((t, row) for row in boxes)
    return boxes_t, polys


class FrameRecorder:
    """Collects frames of a scene, drawn with Pillow, and saves them.

    Parameters
    ----------
    scene : Scene
        Fixes the picture size (the walls) on the first frame.
    width_px : int
        Width of a frame in pixels; the height follows the walls' aspect ratio.
    """

    def __init__(self, scene, width_px=480):
        from PIL import Image

        self._image = Image
        self.scale = (width_px - 2) / scene.width
        self.size = (int(width_px), int(round(scene.height * self.scale)) + 2)
        palette = [*BACKGROUND, *WALL]
        for colour in COLOURS:
            palette.extend(colour)
        self.palette = palette + [0] * (768 - len(palette))
        self.frames = []

    def draw(self, scene):
        """Append a picture of the scene as it is now."""
        from PIL import ImageDraw

        image = self._image.new("P", self.size, 0)
        image.putpalette(self.palette)
        draw = ImageDraw.Draw(image)
        w, h = self.size
        draw.rectangle([0, 0, w - 1, h - 1], outline=1)
        ellipses, polygons = outlines(scene, self.scale, h - 1)
        for t, q in polygons:
            # outlined in the background colour, so touching bodies stay apart on screen;
            # not capsules, whose outline would cut them into a body and two ends
            draw.polygon([(float(x) + 1, float(y)) for x, y in q], fill=2 + t,
                         outline=None if t == 1 else 0)
        for t, (x0, y0, x1, y1) in ellipses:
            draw.ellipse([float(x0) + 1, float(y0), float(x1) + 1, float(y1)], fill=2 + t,
                         outline=None if t == 1 else 0)
        self.frames.append(image)

    def save(self, path, fps=30):
        """Write an animated GIF (``.gif``) or numbered PNG frames (``.png``).

        Returns the list of files written.
        """
        path = str(path)
        if path.lower().endswith(".gif"):
            self.frames[0].save(
                path, save_all=True, append_images=self.frames[1:],
                duration=max(1, round(1000 / fps)), loop=0, optimize=False,
            )
            return [path]
        stem = path[:-4]
        written = []
        for k, frame in enumerate(self.frames):
            name = f"{stem}_{k:04d}.png"
            frame.save(name)
            written.append(name)
        return written


# the lidar scene's colours and their palette indices (0 and 1: BACKGROUND, WALL)
LIDAR_COLOURS = ((40, 58, 68), (255, 209, 102), (226, 228, 236), (110, 140, 230),
                 (42, 157, 143), (231, 84, 128), (244, 162, 97))
RAY, HIT, SEGMENT, BOX, ORIENTED, POLYGON, AGENT = range(2, 9)


def lidar_primitives(scene, scale, height_px):
    """The lidar scene in pixel coordinates (y down): ``(rays, hits, walls, solids,
    agents)``; ``rays`` and ``walls`` ``(n, 4)`` line ends, ``hits`` ``(m, 2)`` points,
    ``solids`` a list of ``(palette index, ring)``, ``agents`` ``(n, 4)`` ellipse boxes."""

    def px(xy):
        return np.stack([xy[..., 0] * scale + 1.0, height_px - xy[..., 1] * scale], axis=-1)

    s = scene.scan
    rays = np.concatenate([px(s.origins), px(s.ends)], axis=1)
    hits = px(s.hits.point[s.hits.hit])
    walls, boxes, oriented, polygons = scene.statics
    segments = np.concatenate([px(walls.data[:, 0:2]), px(walls.data[:, 2:4])], axis=1)
    solids = []
    b = boxes.data
    corners = np.stack([b[:, [0, 1]], b[:, [2, 1]], b[:, [2, 3]], b[:, [0, 3]]], axis=1)
    solids.extend((BOX, ring) for ring in px(corners))
    o = oriented.data
    cos, sin = np.cos(o[:, 4]), np.sin(o[:, 4])
    corners = [np.stack([o[:, 0] + sx * o[:, 2] * cos - sy * o[:, 3] * sin,
                         o[:, 1] + sx * o[:, 2] * sin + sy * o[:, 3] * cos], axis=1)
               for sx, sy in ((1, 1), (-1, 1), (-1, -1), (1, -1))]
    solids.extend((ORIENTED, ring) for ring in px(np.stack(corners, axis=1)))
    rings = px(polygons.vertices)
    solids.extend((POLYGON, rings[i, : polygons.counts[i]]) for i in range(len(polygons)))
    a = scene.agents.data
    centre, r = px(a[:, 0:2]), a[:, 2:3] * scale
    agents = np.concatenate([centre - r, centre + r], axis=1)
    return rays, hits, segments, solids, agents


class LidarRecorder(FrameRecorder):
    """Collects frames of the lidar scene (``fastcol.demo.lidar``), drawn with Pillow."""

    def __init__(self, scene, width_px=640):
        super().__init__(scene, width_px)
        palette = [*BACKGROUND, *WALL]
        for colour in LIDAR_COLOURS:
            palette.extend(colour)
        self.palette = palette + [0] * (768 - len(palette))

    def draw(self, scene):
        """Append a picture of the scene and its last scan."""
        from PIL import ImageDraw

        image = self._image.new("P", self.size, 0)
        image.putpalette(self.palette)
        draw = ImageDraw.Draw(image)
        rays, hits, walls, solids, agents = lidar_primitives(scene, self.scale, self.size[1] - 1)
        for line in rays.tolist():
            draw.line(line, fill=RAY)
        for colour, ring in solids:
            draw.polygon([tuple(p) for p in ring.tolist()], fill=colour)
        for line in walls.tolist():
            draw.line(line, fill=SEGMENT, width=3)
        for box in agents.tolist():
            draw.ellipse(box, fill=AGENT, outline=0)
        for x, y in hits.tolist():
            draw.rectangle([x - 1, y - 1, x, y], fill=HIT)
        self.frames.append(image)


# SDL's video drivers that open no window
_HEADLESS_DRIVERS = ("dummy", "offscreen")


class NoDisplay(RuntimeError):
    """``--window`` has no display to show the run on."""


def open_window(scene, width_px=900):
    """A pygame-ce window showing the scene; returns a ``show(scene) -> bool`` callable.

    ``show`` draws one frame and returns False once the user closed the window.
    Raises ImportError when pygame-ce is not installed, NoDisplay when there is no
    display to open it on.
    """
    import pygame

    try:
        pygame.display.init()  # the display only: no audio device needed
    except pygame.error as exc:
        raise NoDisplay(f"--window found no display ({exc})") from None
    driver = pygame.display.get_driver()
    if driver in _HEADLESS_DRIVERS:
        # SDL fell back to a driver that draws nowhere: the run would show nothing
        pygame.display.quit()
        raise NoDisplay(f"--window found no display (SDL's {driver!r} video driver draws "
                        f"nowhere); run without --window to write pictures")
    clock = pygame.time.Clock()
    scale = (width_px - 2) / scene.width
    size = (int(width_px), int(round(scene.height * scale)) + 2)
    screen = pygame.display.set_mode(size)
    pygame.display.set_caption("fastcol ball pit")

    def show(scene):
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                pygame.display.quit()
                return False
        screen.fill(BACKGROUND)
        ellipses, polygons = outlines(scene, scale, size[1] - 1)
        for t, q in polygons:
            pygame.draw.polygon(screen, COLOURS[t], [(float(x) + 1, float(y)) for x, y in q])
        for t, (x0, y0, x1, y1) in ellipses:
            pygame.draw.ellipse(screen, COLOURS[t],
                                pygame.Rect(float(x0) + 1, float(y0), float(x1 - x0), float(y1 - y0)))
        pygame.display.flip()
        clock.tick(60)  # real time: one step of 1/60 s per frame at most
        return True

    return show
