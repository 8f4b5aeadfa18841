#!/usr/bin/env python3
"""Writes a seeded evemu recording of labelled strokes on a phone-sized touchscreen,
for the differential test of `gesturectl lisgd` against lisgd with Sxmo's bindings:
every edge swiped in from and slid along, every corner, long, medium and short
centre swipes, diagonals, swipes that end at an edge, two- and three-finger swipes,
a too-slow swipe, a tiny wiggle and a tap. 120 Hz, with a slight bow and jitter.

The panel: 720 x 1440 units at 11 units/mm (65.5 x 130.9 mm), one unit per screen
pixel as on common phone touch controllers, so lisgd's `-w 720 -h 1440` and the
touchscreen's own extent agree. Strokes are 2.5 s apart (lisgd waits for each
command; the gap keeps one stroke's commands out of the next one's window).

Beside OUT.events it writes OUT.desc and OUT.strokes.tsv: one line per stroke with
its start and end (seconds from the recording's first event), the Sxmo binding
label lisgd fires for it (`-` for none), for pressed (slider) strokes the number of
repeats expected from its travel, and what it is.

Usage: gen_phone_strokes.py [--seed N] OUT.events
"""
import argparse
import math
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
import evemu_touch  # noqa: E402

W, H, RES = 720, 1440, 11
XMAX, YMAX = W - 1, H - 1
HZ = 120.0
GAP = 2.5
EDGE = 50        # lisgd's edge, in pixels
PRESSED = 60     # lisgd's -T (Sxmo's default)

DESC = evemu_touch.description(
    "gestured phone panel",
    "Synthetic phone touchscreen written by Tests/vm/tools/gen_phone_strokes.py\n"
    "(720 x 1440 units, 11 units/mm: 65.5 x 130.9 mm, 10 slots, type B).",
    XMAX, YMAX, RES)


class Strokes:
    def __init__(self, rng):
        self.rng = rng
        self.w = evemu_touch.TouchWriter(rng, XMAX, YMAX, scale=1, hz=HZ)
        self.first = self.w.t
        self.rows = []

    def stroke(self, label, what, starts, delta, seconds, pressed=0, bow=0.03):
        """Fingers at `starts` (pixels) moved by `delta` over `seconds`, eased in
        and out, bowed sideways by up to `bow` of the length, with jitter."""
        rng, w = self.rng, self.w
        t0 = w.t
        dx, dy = delta
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length          # sideways, for the bow
        side = rng.uniform(-bow, bow) * length
        n = max(2, int(seconds * HZ))
        w.frame({s: p for s, p in enumerate(starts)})
        for step in range(1, n + 1):
            u = step / n
            e = u * u * (3 - 2 * u)
            b = side * math.sin(math.pi * u)
            frame = {}
            for s, (x, y) in enumerate(starts):
                frame[s] = (x + dx * e + nx * b + rng.gauss(0, 0.5), y + dy * e + ny * b + rng.gauss(0, 0.5))
            w.frame(frame)
        w.frame({s: None for s in range(len(starts))})
        self.rows.append((t0 - self.first, w.t - self.first, label, pressed, what))
        w.pause(GAP)

    def wiggle(self, label, what, start, amplitude, seconds):
        rng, w = self.rng, self.w
        t0 = w.t
        n = max(2, int(seconds * HZ))
        w.frame({0: start})
        for step in range(1, n + 1):
            u = step / n
            w.frame({0: (start[0] + amplitude * math.sin(6 * math.pi * u) + rng.gauss(0, 0.5),
                         start[1] + amplitude * 0.5 * math.sin(4 * math.pi * u) + rng.gauss(0, 0.5))})
        w.frame({0: None})
        self.rows.append((t0 - self.first, w.t - self.first, label, 0, what))
        w.pause(GAP)


def fast(rng):
    return rng.uniform(0.15, 0.30)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("out")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    s = Strokes(rng)

    def edge_in():
        return rng.uniform(12, 34)          # well inside lisgd's 50-pixel edge

    def slide(label, what, start, delta):
        # A repeat each time the finger is another -T pixels on; the count a
        # finger at 120 Hz reaches, give or take one.
        travel = abs(delta[0]) + abs(delta[1])
        s.stroke(label, what, [start], delta, rng.uniform(0.6, 0.8), pressed=int(travel // PRESSED), bow=0.01)

    # Corners: diagonally out of each corner.
    d = 300
    s.stroke("bottomrightcorner", "from the bottom-right corner, up-left", [(W - edge_in(), H - edge_in())], (-d, -d), fast(rng))
    s.stroke("bottomleftcorner", "from the bottom-left corner, up-right", [(edge_in(), H - edge_in())], (d, -d), fast(rng))
    s.stroke("topleftcorner", "from the top-left corner, down-right", [(edge_in(), edge_in())], (d, d), fast(rng))
    s.stroke("toprightcorner", "from the top-right corner, down-left", [(W - edge_in(), edge_in())], (-d, d), fast(rng))
    # Edges, in.
    s.stroke("upbottomedge", "up from the bottom edge", [(rng.uniform(250, 470), H - edge_in())], (0, -420), fast(rng))
    s.stroke("downtopedge", "down from the top edge", [(rng.uniform(250, 470), edge_in())], (0, 420), fast(rng))
    s.stroke("rightleftedge", "right from the left edge", [(edge_in(), rng.uniform(500, 900))], (330, 0), fast(rng))
    s.stroke("leftrightedge", "left from the right edge", [(W - edge_in(), rng.uniform(500, 900))], (-330, 0), fast(rng))
    # Edges, along (released: the bottom edge, long).
    s.stroke("rightbottomedge", "along the bottom edge, right, long", [(90, H - edge_in())], (540, 0), fast(rng), bow=0.005)
    s.stroke("leftbottomedge", "along the bottom edge, left, long", [(W - 90, H - edge_in())], (-540, 0), fast(rng), bow=0.005)
    s.stroke("oneright", "along the bottom edge, right, short: no edge binding takes it", [(200, H - edge_in())], (200, 0), fast(rng), bow=0.005)
    # Edges, along (pressed: sliders).
    slide("upleftedge", "slide up the left edge", (edge_in(), 1100), (0, -600))
    slide("downleftedge", "slide down the left edge", (edge_in(), 400), (0, 600))
    slide("uprightedge", "slide up the right edge", (W - edge_in(), 1100), (0, -480))
    slide("downrightedge", "slide down the right edge", (W - edge_in(), 400), (0, 480))
    slide("righttopedge", "slide right along the top edge", (130, edge_in()), (420, 0))
    slide("lefttopedge", "slide left along the top edge", (W - 130, edge_in()), (-420, 0))
    # Strokes that end at an edge.
    s.stroke("downbottomedge", "down into the bottom edge", [(rng.uniform(250, 470), H - 520)], (0, 520 - edge_in()), fast(rng))
    s.stroke("uptopedge", "up into the top edge", [(rng.uniform(250, 470), 520)], (0, -(520 - edge_in())), fast(rng))
    s.stroke("rightrightedge_short", "right into the right edge, short", [(W - 200, rng.uniform(500, 900))], (200 - edge_in(), 0), fast(rng))
    s.stroke("leftrightedge_short", "left into the left edge, short", [(200, rng.uniform(500, 900))], (-(200 - edge_in()), 0), fast(rng))
    # Centre swipes: long (from 0.66 of the screen along the motion), medium (from 0.33), short.
    s.stroke("longoneleft", "centre, left, long", [(620, 700)], (-520, 0), fast(rng))
    s.stroke("longoneright", "centre, right, long", [(100, 740)], (520, 0), fast(rng))
    s.stroke("longoneup", "centre, up, long", [(360, 1230)], (0, -1020), fast(rng))
    s.stroke("longonedown", "centre, down, long", [(380, 210)], (0, 1020), fast(rng))
    s.stroke("mediumoneleft", "centre, left, medium", [(520, 700)], (-340, 0), fast(rng))
    s.stroke("mediumoneright", "centre, right, medium", [(180, 760)], (340, 0), fast(rng))
    s.stroke("mediumoneup", "centre, up, medium", [(340, 1050)], (0, -700), fast(rng))
    s.stroke("mediumonedown", "centre, down, medium", [(380, 350)], (0, 700), fast(rng))
    s.stroke("oneleft", "centre, left, short", [(450, 640)], (-190, 0), fast(rng))
    s.stroke("oneright", "centre, right, short", [(260, 660)], (190, 0), fast(rng))
    s.stroke("oneup", "centre, up, short", [(360, 900)], (0, -300), fast(rng))
    s.stroke("onedown", "centre, down, short", [(370, 500)], (0, 300), fast(rng))
    # Diagonals in the centre.
    s.stroke("upleft", "centre, up-left", [(480, 900)], (-220, -220), fast(rng))
    s.stroke("downleft", "centre, down-left", [(480, 500)], (-220, 220), fast(rng))
    s.stroke("upright", "centre, up-right", [(240, 900)], (220, -220), fast(rng))
    s.stroke("downright", "centre, down-right", [(240, 500)], (220, 220), fast(rng))
    # Two fingers: from the top edge, into the bottom edge, and in the centre.
    s.stroke("twodowntopedge", "two fingers down from the top edge", [(280, edge_in()), (420, edge_in())], (0, 450), fast(rng))
    s.stroke("twodownbottomedge", "two fingers down into the bottom edge", [(280, H - 560), (420, H - 560)], (0, 560 - edge_in()), fast(rng))
    s.stroke("twoleft", "two fingers, left", [(500, 620), (500, 760)], (-260, 0), fast(rng))
    s.stroke("tworight", "two fingers, right", [(220, 620), (220, 760)], (260, 0), fast(rng))
    s.stroke("twoup", "two fingers, up", [(290, 900), (430, 900)], (0, -400), fast(rng))
    s.stroke("twodown", "two fingers, down", [(290, 500), (430, 500)], (0, 400), fast(rng))
    s.stroke("threeleft", "three fingers, left", [(520, 560), (520, 700), (520, 840)], (-280, 0), fast(rng))
    s.stroke("threeup", "three fingers, up", [(230, 950), (360, 950), (490, 950)], (0, -420), fast(rng))
    # What must fire nothing.
    s.stroke("-", "centre, up, too slow (1.6 s > -m 800 ms)", [(360, 1000)], (0, -420), 1.6)
    s.wiggle("-", "a tiny wiggle", (360, 720), 12, 0.5)
    s.stroke("-", "a tap", [(360, 720)], (1, 1), 0.06, bow=0)
    s.stroke("-", "centre, up, below -t (100 px < 125 px)", [(360, 800)], (0, -100), fast(rng))

    base = args.out[:-len(".events")] if args.out.endswith(".events") else args.out
    with open(base + ".desc", "w") as f:
        f.write(DESC)
    with open(args.out, "w") as f:
        f.write(DESC)
        f.write(s.w.text())
    with open(base + ".strokes.tsv", "w") as f:
        f.write("n\tstart_s\tend_s\texpect\tpressed\twhat\n")
        for i, (t0, t1, label, pressed, what) in enumerate(s.rows, 1):
            f.write("%d\t%.3f\t%.3f\t%s\t%d\t%s\n" % (i, t0, t1, label, pressed, what))
    print("%s: %d strokes, %d events, %.1f s" % (args.out, len(s.rows), s.w.events, s.w.t - s.first))


if __name__ == "__main__":
    main()
