#!/usr/bin/env python3
"""Writes an evemu recording of one-finger strokes on a type-B touchscreen, for
scenarios that need a swipe or a slide the daemon recognises (no recording in
Tests/fixtures is one): each stroke goes from START by MOVE mm in SECONDS at
120 Hz, eased in and out as a hand moves, with a slight bow and seeded jitter in
between (its first and last points are exact, so a stroke played again starts
where the last one ended on an axis it does not move along, as a finger on a real
panel often does), and the strokes are 0.4 s apart.

The panel is the one of Tests/fixtures/strokes ("gestured stroke panel": the
Atmel maXTouch's event layout, 154 x 86 mm, 10 units/mm).

Usage: swipe_recording.py [--start X,Y] [--move DX,DY] [--then DX,DY]... [--seconds S] [--count N] [--seed N] OUT.events
(mm; by default a 60 mm swipe to the right across the middle in 0.25 s; writes
OUT.desc beside it). Each --then is one more leg of the same stroke, drawn after
the last one in another SECONDS, the finger slowing into each corner (a Z is
--move 40,0 --then=-40,30 --then 40,0: a leg starting with - needs the =).
"""
import argparse
import math
import random

W_MM, H_MM, RES = 154, 86, 10
XMAX, YMAX = W_MM * RES - 1, H_MM * RES - 1
HZ = 120.0

DESC = """# EVEMU 1.3
# One-finger strokes written by Tests/vm/tools/swipe_recording.py on a type-B
# panel of 154 x 86 mm with 10 units/mm.
N: gestured stroke panel
I: 0018 0000 0000 0000
P: 02 00 00 00 00 00 00 00
B: 00 0b 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 04 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 02 00 00 00 00 00 00 00 00
B: 03 03 00 00 00 00 80 60 02
B: 04 00 00 00 00 00 00 00 00
B: 05 00 00 00 00 00 00 00 00
B: 11 00 00 00 00 00 00 00 00
B: 12 00 00 00 00 00 00 00 00
B: 14 00 00 00 00 00 00 00 00
B: 15 00 00 00 00 00 00 00 00
B: 15 00 00 00 00 00 00 00 00
A: 00 0 {xmax} 0 0 {res}
A: 01 0 {ymax} 0 0 {res}
A: 2f 0 9 0 0 0
A: 35 0 {xmax} 0 0 {res}
A: 36 0 {ymax} 0 0 {res}
A: 39 0 65535 0 0 0
""".format(xmax=XMAX, ymax=YMAX, res=RES)


def pair(text):
    x, y = text.split(",")
    return float(x), float(y)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--start", type=pair, default=(W_MM / 2 - 30, H_MM / 2))
    ap.add_argument("--move", type=pair, default=(60, 0))
    ap.add_argument("--then", type=pair, action="append", default=[])
    ap.add_argument("--seconds", type=float, default=0.25)
    ap.add_argument("--count", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("out")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    lines = [DESC]
    t = 1.0  # leave the kernel a moment after the device appears

    def ev(typ, code, value):
        s = int(t)
        us = int(round((t - s) * 1e6))
        if us >= 1000000:  # rounded up to the next second
            s, us = s + 1, us - 1000000
        lines.append("E: %d.%06d %04x %04x %d\n" % (s, us, typ, code, value))

    (x0, y0), (dx, dy) = args.start, args.move
    n = max(2, int(args.seconds * HZ))
    for k in range(args.count):
        bow = rng.uniform(-0.05, 0.05)
        sx, sy = x0, y0
        for leg, (dx, dy) in enumerate([args.move] + args.then):
            for step in range(0 if leg == 0 else 1, n + 1):
                u = step / n
                e = u * u * (3 - 2 * u)
                shake = 0 < step < n
                x = sx + dx * e + bow * math.sin(math.pi * u) * 10 + (rng.gauss(0, 0.08) if shake else 0)
                y = sy + dy * e + bow * math.sin(math.pi * u) * 10 + (rng.gauss(0, 0.08) if shake else 0)
                ux, uy = max(0, min(XMAX, round(x * RES))), max(0, min(YMAX, round(y * RES)))
                first = leg == 0 and step == 0
                if first:
                    ev(3, 0x2f, 0)
                    ev(3, 0x39, k + 1)
                ev(3, 0x35, ux)
                ev(3, 0x36, uy)
                if first:
                    ev(1, 0x14a, 1)
                ev(3, 0x00, ux)
                ev(3, 0x01, uy)
                ev(0, 0, 0)
                t += 1.0 / HZ
            sx, sy = sx + dx, sy + dy
        ev(3, 0x39, -1)
        ev(1, 0x14a, 0)
        ev(0, 0, 0)
        t += 0.4
    base = args.out[:-len(".events")] if args.out.endswith(".events") else args.out
    with open(base + ".desc", "w") as f:
        f.write(DESC)
    with open(args.out, "w") as f:
        f.write("".join(lines))


if __name__ == "__main__":
    main()
