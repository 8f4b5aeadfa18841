#!/usr/bin/env python3
"""Writes a seeded, synthetic evemu recording of a busy ten-finger session on a
type-B tablet panel, for benchmarks: taps and double taps, one-finger drags, two-
finger pinches and rotations, three- and four-finger swipes, and whole-hand moves
of five to ten fingers, at 120 Hz with slight bow and jitter.

The panel: 256 x 160 mm, 10 units/mm, 10 slots (ABS_MT_SLOT 0..9), BTN_TOUCH and the
single-touch ABS_X/ABS_Y that follow the lowest slot, as kernel drivers emit them.
Same seed, same file: the benchmark's input is reproducible without committing it.

Usage: gen-tenfinger.py [--seed N] [--events N] OUT.events   (writes OUT.desc too)
"""
import argparse
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evemu_touch  # noqa: E402

W_MM, H_MM, RES, SLOTS = 256, 160, 10, 10
XMAX, YMAX = W_MM * RES - 1, H_MM * RES - 1
HZ = 120.0

DESC = evemu_touch.description(
    "gestured bench tablet",
    "Synthetic ten-finger tablet panel written by scripts/gen-tenfinger.py\n(256 x 160 mm, 10 units/mm, 10 slots, type B).",
    XMAX, YMAX, RES, SLOTS)


def Writer(rng):
    return evemu_touch.TouchWriter(rng, XMAX, YMAX, scale=RES, hz=HZ)


def jitter(rng):
    return rng.gauss(0, 0.08)


def stroke(w, starts, motion, seconds):
    """Fingers at `starts` (mm) moved by motion(u, i, start) -> (x, y) for u in 0..1."""
    rng = w.rng
    n = max(2, int(seconds * HZ))
    slots = list(range(len(starts)))
    # Fingers land within a frame or two of each other.
    for k in range(0, len(slots), 4):
        w.frame({s: starts[s] for s in slots[k:k + 4]})
    bow = rng.uniform(-0.08, 0.08)
    for step in range(1, n + 1):
        u = step / n
        e = u * u * (3 - 2 * u)     # ease in and out, as a hand moves
        frame = {}
        for s in slots:
            x, y = motion(e, s, starts[s])
            x += bow * math.sin(math.pi * u) * 20 + jitter(rng)
            y += bow * math.sin(math.pi * u) * 12 + jitter(rng)
            frame[s] = (x, y)
        w.frame(frame)
    for k in range(0, len(slots), 5):
        w.frame({s: None for s in slots[k:k + 5]})


def hand(rng, n, cx, cy, spread):
    return [(cx + spread * math.cos(2 * math.pi * i / n) + rng.uniform(-3, 3),
             cy + spread * math.sin(2 * math.pi * i / n) + rng.uniform(-3, 3)) for i in range(n)]


def session(w):
    rng = w.rng
    kind = rng.choice(["tap", "double_tap", "drag", "pinch", "rotate", "swipe", "hand", "hand"])
    cx, cy = rng.uniform(60, W_MM - 60), rng.uniform(45, H_MM - 45)
    if kind in ("tap", "double_tap"):
        for _ in range(1 if kind == "tap" else 2):
            fingers = {s: (cx + 12 * s + jitter(rng), cy + jitter(rng)) for s in range(rng.choice([1, 1, 2]))}
            w.frame(fingers)
            for _ in range(rng.randint(3, 8)):
                w.frame({s: (p[0] + jitter(rng), p[1] + jitter(rng)) for s, p in fingers.items()})
            w.frame({s: None for s in fingers})
            w.pause(rng.uniform(0.08, 0.15))
    elif kind == "drag":
        dx, dy = rng.uniform(-50, 50), rng.uniform(-40, 40)
        stroke(w, [(cx, cy)], lambda e, s, p: (p[0] + dx * e, p[1] + dy * e), rng.uniform(0.4, 1.2))
    elif kind == "pinch":
        k = rng.choice([0.4, 1.8])
        stroke(w, hand(rng, 2, cx, cy, 25),
               lambda e, s, p: (cx + (p[0] - cx) * (1 + (k - 1) * e), cy + (p[1] - cy) * (1 + (k - 1) * e)),
               rng.uniform(0.4, 0.9))
    elif kind == "rotate":
        a = rng.choice([-1, 1]) * rng.uniform(0.6, 1.4)

        def turn(e, s, p):
            c, si = math.cos(a * e), math.sin(a * e)
            return (cx + (p[0] - cx) * c - (p[1] - cy) * si, cy + (p[0] - cx) * si + (p[1] - cy) * c)
        stroke(w, hand(rng, 2, cx, cy, 25), turn, rng.uniform(0.5, 1.0))
    elif kind == "swipe":
        n = rng.choice([3, 4])
        dx, dy = rng.choice([(60, 0), (-60, 0), (0, 45), (0, -45)])
        stroke(w, [(cx - 25 + 16 * i, cy) for i in range(n)], lambda e, s, p: (p[0] + dx * e, p[1] + dy * e),
               rng.uniform(0.2, 0.4))
    else:
        n = rng.randint(5, SLOTS)
        dx, dy = rng.uniform(-40, 40), rng.uniform(-30, 30)
        stroke(w, hand(rng, n, cx, cy, 28), lambda e, s, p: (p[0] + dx * e, p[1] + dy * e), rng.uniform(0.8, 2.0))
    w.pause(rng.uniform(0.15, 0.5))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=10)
    ap.add_argument("--events", type=int, default=43000, help="stop after this many kernel events (about)")
    ap.add_argument("out")
    args = ap.parse_args()
    w = Writer(random.Random(args.seed))
    while w.events < args.events:
        session(w)
    base = args.out[:-len(".events")] if args.out.endswith(".events") else args.out
    with open(base + ".desc", "w") as f:
        f.write(DESC)
    with open(args.out, "w") as f:
        f.write(DESC)
        f.write("".join(w.lines))
    print("%s: %d events, %.1f s, %d touches" % (args.out, w.events, w.t, w.next_id - 1))


if __name__ == "__main__":
    main()
