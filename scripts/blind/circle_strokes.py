#!/usr/bin/env python3
"""Blind stroke generator for testing a finger-drawn circle recognizer.

Standard library only, fully seeded.  Writes $1-style XML strokes
(pixels at PX_PER_MM, y down, T in ms) into OUT/sNN/{slow,medium,fast}/
and a manifest (one JSON line per stroke with every generator parameter).

Usage: python3 scripts/blind/circle_strokes.py [--seed N] [--people N] [--circles N] [--others N] [--out DIR]

Model (written apart from the recognizer, from how people draw, not from its code or its tuning):
  * A stroke is a geometric path in mm (dense polyline) which is then
    "driven" by a finger: local speed follows the 2/3 power law
    (v ~ curvature^-1/3: slower in tight turns and corners), with a smooth
    acceleration over the first ~10 % and deceleration over the last ~8 %.
  * The touchscreen samples the finger at a device rate (60-120 Hz) with
    +-1.5 ms timing jitter and ~2 % dropped frames; positions get Gaussian
    sensor jitter (0.05-0.25 mm) and are rounded to whole pixels.
  * A person has a stable style: circle size (8-40 mm radius), ovalness
    (minor/major 0.70-1.0) and tilt of the oval, preferred start clock
    position and direction (most people always the same way; some mixed),
    a habitual closure (stopping short of or running past the start,
    mean -25..+40 deg, spread 8-18 deg), wobble (low harmonics of the radius,
    1-5 % of R), spiral drift (radius grows/shrinks 0-15 % over the stroke),
    centre drift, landing hooks (the touch registers while the finger is
    still coming in: 0.5-3 mm) and lift hooks (a flick as it leaves: 1-5 mm),
    and a speed factor.
  * Speed: slow 60-120 mm/s, medium 120-250, fast 250-500 (x person factor).
    Fast strokes are a bit more oval, close less precisely (and more often
    past the start), and have longer lift flicks.
  * Non-circles use the same person's size, speed, jitter, hooks and
    sampling; letters are drawn upright (+-12 deg) in their usual direction
    (mirrored 15 % of the time), free shapes at any angle / direction.
"""
import argparse
import json
import math
import os
import random

PX_PER_MM = 4.5
SPEEDS = ["slow", "medium", "fast"]
NONCIRCLES = ["p", "lasso", "pitchfork", "alpha", "six", "nine", "pigtail",
              "spiral", "e", "roundrect", "roundtri", "d", "open_o", "overshoot_o"]


# ---------------------------------------------------------------- geometry
def arc(cx, cy, r, a0, a1, step_mm=0.25):
    n = max(4, int(abs(a1 - a0) * r / step_mm))
    return [(cx + r * math.cos(a0 + (a1 - a0) * i / n),
             cy + r * math.sin(a0 + (a1 - a0) * i / n)) for i in range(n + 1)]


def line(p, q, step_mm=0.25):
    d = math.hypot(q[0] - p[0], q[1] - p[1])
    n = max(2, int(d / step_mm))
    return [(p[0] + (q[0] - p[0]) * i / n, p[1] + (q[1] - p[1]) * i / n) for i in range(n + 1)]


def join(*parts):
    out = []
    for part in parts:
        if out and part and math.hypot(out[-1][0] - part[0][0], out[-1][1] - part[0][1]) < 1e-6:
            part = part[1:]
        out.extend(part)
    return out


def transform(pts, rot=0.0, mirror=False, scale=1.0):
    c, s = math.cos(rot), math.sin(rot)
    out = []
    for x, y in pts:
        if mirror:
            x = -x
        x, y = x * scale, y * scale
        out.append((c * x - s * y, s * x + c * y))
    return out


def length(pts):
    return sum(math.hypot(pts[i + 1][0] - pts[i][0], pts[i + 1][1] - pts[i][1]) for i in range(len(pts) - 1))


def smooth_noise(rng, n_knots=8):
    """Smooth random function on [0,1] (cosine-interpolated random knots), values ~N(0,1)."""
    knots = [rng.gauss(0, 1) for _ in range(n_knots + 1)]

    def f(u):
        u = min(max(u, 0.0), 1.0) * n_knots
        i = min(int(u), n_knots - 1)
        t = u - i
        w = (1 - math.cos(math.pi * t)) / 2
        return knots[i] * (1 - w) + knots[i + 1] * w
    return f


def wobbly_loop(rng, R, aspect, tilt, start, sweep, direction, wobble, drift, cdrift, cdrift_dir,
                harmonics=None):
    """Oval-ish closed-ish loop: angle from start over sweep (deg) in direction (+1 = clockwise
    on screen, since y grows down), with radius wobble, spiral drift and centre drift."""
    if harmonics is None:
        harmonics = [(k, rng.uniform(0, 2 * math.pi), rng.gauss(0, 1) / k) for k in (2, 3, 4, 5)]
    noise = smooth_noise(rng, 10)
    a = R / math.sqrt(aspect)
    b = R * math.sqrt(aspect)
    n = max(60, int(abs(sweep) / 360 * 2 * math.pi * R / 0.25))
    pts = []
    ct, st = math.cos(tilt), math.sin(tilt)
    for i in range(n + 1):
        u = i / n
        th = start + direction * math.radians(sweep) * u
        m = 1 + drift * (u - 0.5)
        m *= 1 + wobble * (sum(amp * math.sin(k * th + ph) for k, ph, amp in harmonics) * 0.6 + 0.5 * noise(u))
        x, y = a * m * math.cos(th - tilt), b * m * math.sin(th - tilt)
        x, y = ct * x - st * y, st * x + ct * y
        x += cdrift * R * u * math.cos(cdrift_dir)
        y += cdrift * R * u * math.sin(cdrift_dir)
        pts.append((x, y))
    return pts


def loop_with_tails(rng, r, start, sweep, direction, tail_in, tail_out, bend_in=0.0, bend_out=0.0,
                    wobble=0.02, aspect=1.0, out_heading=None):
    """A loop (circle of radius r) entered and left along its tangent by tails of length
    tail_in / tail_out (in mm), each bending by bend (rad over its length)."""
    loop = wobbly_loop(rng, r, aspect, 0.0, start, sweep, direction, wobble, 0.0, 0.0, 0.0)

    def tail(p_end, p_prev, L, bend, reverse, heading=None):
        if L <= 0:
            return []
        hx, hy = p_end[0] - p_prev[0], p_end[1] - p_prev[1]
        h = math.atan2(hy, hx) if heading is None else heading
        n = max(3, int(L / 0.25))
        pts = [p_end]
        x, y = p_end
        for i in range(n):
            h += bend / n * (-1 if reverse else 1)
            x += L / n * math.cos(h)
            y += L / n * math.sin(h)
            pts.append((x, y))
        return pts
    tin = tail(loop[0], loop[3], tail_in, bend_in, True)
    tout = tail(loop[-1], loop[-4], tail_out, bend_out, False, out_heading)
    return join(list(reversed(tin)), loop, tout)


def filleted_polygon(corners, fillet, start_frac, closure):
    """Closed polygon with rounded corners (fillet radius, mm), starting at fraction start_frac
    of the perimeter and running closure (fraction of the perimeter, 1 = exactly closed)."""
    n = len(corners)
    path = []
    for i in range(n):
        p0, p1, p2 = corners[i - 1], corners[i], corners[(i + 1) % n]
        v1 = (p0[0] - p1[0], p0[1] - p1[1])
        v2 = (p2[0] - p1[0], p2[1] - p1[1])
        l1, l2 = math.hypot(*v1), math.hypot(*v2)
        v1 = (v1[0] / l1, v1[1] / l1)
        v2 = (v2[0] / l2, v2[1] / l2)
        ang = math.acos(max(-1, min(1, v1[0] * v2[0] + v1[1] * v2[1])))
        f = min(fillet, 0.45 * min(l1, l2) * math.tan(ang / 2))
        d = f / math.tan(ang / 2)
        a = (p1[0] + v1[0] * d, p1[1] + v1[1] * d)
        b = (p1[0] + v2[0] * d, p1[1] + v2[1] * d)
        bis = (v1[0] + v2[0], v1[1] + v2[1])
        bl = math.hypot(*bis)
        hc = f / math.sin(ang / 2)
        c = (p1[0] + bis[0] / bl * hc, p1[1] + bis[1] / bl * hc)
        a0 = math.atan2(a[1] - c[1], a[0] - c[0])
        a1 = math.atan2(b[1] - c[1], b[0] - c[0])
        da = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi
        if path:
            path = join(path, line(path[-1], a))
        path = join(path, arc(c[0], c[1], f, a0, a0 + da) if f > 0.05 else [a, b])
    path = join(path, line(path[-1], path[0]))
    L = length(path)
    # cumulative positions, start at start_frac, run closure * L (wrapping)
    cum = [0.0]
    for i in range(len(path) - 1):
        cum.append(cum[-1] + math.hypot(path[i + 1][0] - path[i][0], path[i + 1][1] - path[i][1]))

    def at(s):
        s %= L
        lo, hi = 0, len(cum) - 1
        while lo + 1 < hi:
            mid = (lo + hi) // 2
            if cum[mid] <= s:
                lo = mid
            else:
                hi = mid
        t = (s - cum[lo]) / max(1e-9, cum[hi] - cum[lo])
        return (path[lo][0] + (path[hi][0] - path[lo][0]) * t, path[lo][1] + (path[hi][1] - path[lo][1]) * t)
    m = int(L * closure / 0.25)
    return [at(start_frac * L + closure * L * i / m) for i in range(m + 1)]


# ---------------------------------------------------------------- people
def make_person(rng, idx):
    p = {"id": idx}
    p["R"] = math.exp(rng.uniform(math.log(9), math.log(36)))   # mean radius, mm
    p["R_sd"] = rng.uniform(0.06, 0.15)
    p["aspect"] = rng.uniform(0.72, 1.0)
    p["tilt"] = rng.uniform(0, math.pi)
    p["tilt_sd"] = math.radians(rng.uniform(5, 25))
    p["cw_prob"] = rng.choice([0.05, 0.1, 0.5, 0.9, 0.95])
    p["start"] = math.radians(rng.choice([-90, -90, -60, -120, 0, 180, 90, -30]))
    p["start_sd"] = math.radians(rng.uniform(10, 35))
    p["closure"] = rng.uniform(-25, 40)        # deg past 360 on average
    p["closure_sd"] = rng.uniform(8, 18)
    p["wobble"] = rng.uniform(0.01, 0.05)
    p["drift"] = rng.uniform(-0.10, 0.10)      # radius change end vs start (fraction)
    p["drift_sd"] = rng.uniform(0.02, 0.05)
    p["cdrift"] = rng.uniform(0.0, 0.12)       # centre drift, fraction of R
    p["hook_land_p"] = rng.uniform(0.1, 0.7)
    p["hook_land_mm"] = rng.uniform(0.5, 3.0)
    p["hook_lift_p"] = rng.uniform(0.1, 0.7)
    p["hook_lift_mm"] = rng.uniform(1.0, 5.0)
    p["jitter_mm"] = rng.uniform(0.05, 0.25)
    p["fps"] = rng.choice([60, 60, 90, 100, 120, 120])
    p["speed_factor"] = rng.uniform(0.75, 1.35)
    return p


def clip(v, lo, hi):
    return max(lo, min(hi, v))


# ---------------------------------------------------------------- shapes
def circle_path(rng, P, speed, meta):
    R = clip(P["R"] * math.exp(rng.gauss(0, P["R_sd"])), 8, 40)
    asp = clip(rng.gauss(P["aspect"], 0.04) - (0.05 if speed == "fast" else 0), 0.62, 1.0)
    tilt = rng.gauss(P["tilt"], P["tilt_sd"])
    direction = 1 if rng.random() < P["cw_prob"] else -1
    start = rng.gauss(P["start"], P["start_sd"])
    if direction != (1 if P["cw_prob"] >= 0.5 else -1):
        start = math.pi - start      # drawing the other way, people mirror where they start
    csd = P["closure_sd"] * (1.5 if speed == "fast" else 1.0)
    cm = P["closure"] + (10 if speed == "fast" else 0)
    sweep = clip(360 + rng.gauss(cm, csd), 315, 440)
    drift = rng.gauss(P["drift"], P["drift_sd"])
    wob = P["wobble"] * (1.3 if speed == "slow" else 1.0) * rng.uniform(0.7, 1.3)
    cd = P["cdrift"] * rng.uniform(0.5, 1.5)
    pts = wobbly_loop(rng, R, asp, tilt, start, sweep, direction, wob, drift, cd, rng.uniform(0, 2 * math.pi))
    meta.update(R=round(R, 1), aspect=round(asp, 2), tilt_deg=round(math.degrees(tilt) % 180),
                dir="cw" if direction > 0 else "ccw", start_deg=round(math.degrees(start) % 360),
                sweep=round(sweep), drift=round(drift, 3), wobble=round(wob, 3), cdrift=round(cd, 3))
    return pts, R


def letter_frame(rng, meta, free=False):
    rot = rng.uniform(0, 2 * math.pi) if free else math.radians(rng.gauss(0, 8))
    mirror = rng.random() < (0.5 if free else 0.15)
    meta.update(rot_deg=round(math.degrees(rot)) % 360, mirror=mirror)
    return rot, mirror


def shape_path(rng, P, cls, speed, meta):
    R = clip(P["R"] * math.exp(rng.gauss(0, P["R_sd"])), 8, 40)   # overall size scale
    wob = P["wobble"] * rng.uniform(0.7, 1.3)
    meta["size"] = round(R, 1)
    free = cls in ("lasso", "pigtail", "spiral", "roundrect", "roundtri", "open_o", "overshoot_o")
    rot, mirror = letter_frame(rng, meta, free)
    if cls == "p":
        # one stroke: up the stem from the bottom, bowl to the right, back to the stem
        r = R * rng.uniform(0.45, 0.65)           # bowl half-height
        stem = 2 * r * rng.uniform(0.8, 1.6)      # stem below the bowl
        bw = r * rng.uniform(0.9, 1.5)            # bowl width
        back = rng.uniform(-0.3, 0.25) * bw       # where the bowl returns (neg: short of the stem)
        top = (0, 0)
        bowl = []
        for i in range(61):
            th = -math.pi / 2 + math.pi * i / 60
            bowl.append((bw * 0.45 + bw * 0.55 * math.cos(th), r + r * math.sin(th)))
        pts = join(line((0, 2 * r + stem), top), line(top, bowl[0]), bowl, line(bowl[-1], (-back, 2 * r)))
        meta.update(bowl_r=round(r, 1), stem=round(stem, 1), bowl_w=round(bw, 1), back=round(back, 1))
    elif cls in ("lasso", "six", "nine", "pigtail", "alpha"):
        out_heading = None
        if cls == "lasso":
            r = R
            sweep = rng.uniform(330, 400)
            tail_out = r * rng.uniform(0.6, 2.0)
            tail_in = r * rng.uniform(0, 0.3)
            bend_in, bend_out = 0, rng.uniform(-0.5, 0.5)
            start = rng.uniform(0, 2 * math.pi)
            d = rng.choice([-1, 1])
            if rng.random() < 0.3:
                tail_in, tail_out = tail_out, tail_in
        elif cls == "six":      # long curved tail down into a loop at the bottom
            r = R * rng.uniform(0.45, 0.7)
            sweep = rng.uniform(330, 390)
            tail_in = r * rng.uniform(1.5, 3.0)
            tail_out = r * rng.uniform(0, 0.3)
            bend_in, bend_out = -rng.uniform(0.4, 1.3), 0
            start = math.pi + rng.gauss(0, 0.25)      # joins the loop on its left side, going down
            d = -1                                    # down the left, round the bottom: ccw on screen
        elif cls == "nine":     # loop first, then the stem down from its right side
            r = R * rng.uniform(0.45, 0.7)
            sweep = rng.uniform(330, 400)
            tail_in = r * rng.uniform(0, 0.3)
            tail_out = r * rng.uniform(1.5, 3.0)
            bend_in, bend_out = 0, rng.uniform(-0.3, 0.5)
            start = rng.gauss(-0.2, 0.3)              # starts at the upper right
            d = -1                                    # up, over to the left, down, back to the right
            out_heading = math.radians(rng.gauss(95, 8))   # then a cusp: the stem goes straight down
        elif cls == "pigtail":
            r = R * rng.uniform(0.3, 0.6)
            sweep = rng.uniform(330, 400)
            tail_in = r * rng.uniform(1.0, 3.0)
            tail_out = r * rng.uniform(1.0, 3.0)
            bend_in, bend_out = rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4)
            start = rng.uniform(0, 2 * math.pi)
            d = rng.choice([-1, 1])
            if rng.random() < 0.3:
                tail_in, tail_out = tail_out, tail_in
        else:  # alpha: both tails on the right, crossing
            r = R * rng.uniform(0.5, 0.8)
            sweep = rng.uniform(290, 340)
            tail_in = r * rng.uniform(0.8, 1.8)
            tail_out = r * rng.uniform(0.8, 1.8)
            bend_in, bend_out = rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3)
            start = math.radians(rng.gauss(-25, 10))
            d = -1
        asp = rng.uniform(0.8, 1.0)
        pts = loop_with_tails(rng, r, start, sweep, d, tail_in, tail_out, bend_in, bend_out, wob,
                              aspect=asp, out_heading=out_heading)
        # how far the farther tail end sticks out of the loop, in loop radii (a person's cue)
        meta["stick_out"] = round(max(math.hypot(*pts[0]), math.hypot(*pts[-1])) / (r / math.sqrt(asp)) - 1, 2)
        meta.update(loop_r=round(r, 1), loop_sweep=round(sweep), tail_in=round(tail_in, 1),
                    tail_out=round(tail_out, 1))
    elif cls == "pitchfork":
        # psi in one stroke: left prong down, round U bottom, right prong up, diagonal back to the
        # U's bottom centre (closing a loop) and on down as the handle
        w = R * rng.uniform(0.5, 0.8)
        h = R * rng.uniform(0.6, 1.4)
        handle = R * rng.uniform(0.8, 2.0)
        bottom = [(w * math.cos(math.pi - math.pi * i / 60), w * math.sin(math.pi - math.pi * i / 60))
                  for i in range(61)]
        U = join(line((-w, -h), (-w, 0)), bottom)
        U = join(U, line(U[-1], (w, -h)))
        pts = join(U, line((w, -h), (0, w * 0.9)), line((0, w * 0.9), (0, w * 0.9 + handle)))
        meta.update(w=round(w, 1), h=round(h, 1), handle=round(handle, 1))
    elif cls == "spiral":
        turns = rng.uniform(1.5, 3.0)
        r_in = R * rng.uniform(0.15, 0.45)
        outward = rng.random() < 0.5
        d = rng.choice([-1, 1])
        start = rng.uniform(0, 2 * math.pi)
        n = int(turns * 2 * math.pi * R / 0.25)
        pts = []
        for i in range(n + 1):
            u = i / n
            rr = r_in + (R - r_in) * (u if outward else 1 - u)
            th = start + d * 2 * math.pi * turns * u
            pts.append((rr * math.cos(th), rr * math.sin(th)))
        meta.update(turns=round(turns, 2), r_in=round(r_in, 1), outward=outward)
    elif cls == "e":
        r = R * rng.uniform(0.6, 0.9)
        bar_y = r * rng.uniform(-0.1, 0.15)
        x0 = -r * rng.uniform(0.6, 0.95)
        x1 = r * rng.uniform(0.8, 1.0)
        end = math.radians(rng.uniform(20, 60))  # below the right: the opening
        a0 = math.atan2(bar_y, x1)
        # from the bar's right end up and round anticlockwise on screen (y down: angle decreasing)
        arcpts = [(r * math.cos(a0 - t), r * math.sin(a0 - t))
                  for t in [((2 * math.pi - end + a0) * i / 80) for i in range(81)]]
        pts = join(line((x0, bar_y), (x1, bar_y)), line((x1, bar_y), arcpts[0]), arcpts)
        meta.update(r=round(r, 1), opening_deg=round(math.degrees(end)))
    elif cls in ("roundrect", "roundtri"):
        if cls == "roundrect":
            a = R * rng.uniform(0.9, 1.2)
            b = a * rng.uniform(0.6, 1.0)
            corners = [(-a, -b), (a, -b), (a, b), (-a, b)]
            fillet = b * rng.uniform(0.1, 0.5)
        else:
            s = R * rng.uniform(1.6, 2.2)
            corners = [(0, -s * 0.577), (s / 2, s * 0.289), (-s / 2, s * 0.289)]
            corners = [(x + rng.gauss(0, 0.08 * s), y + rng.gauss(0, 0.08 * s)) for x, y in corners]
            fillet = s * 0.289 * rng.uniform(0.1, 0.45)
        if rng.random() < 0.5:
            corners = corners[::-1]
        closure = clip(rng.gauss(1.0 + P["closure"] / 360, P["closure_sd"] / 360), 0.85, 1.2)
        pts = filleted_polygon(corners, fillet, rng.uniform(0, 1), closure)
        # hand-drawn: bend the straight sides a little
        f = smooth_noise(rng, 12)
        pts = [(x * (1 + wob * f(i / len(pts))), y * (1 + wob * f(i / len(pts)))) for i, (x, y) in enumerate(pts)]
        meta.update(fillet=round(fillet, 1), closure=round(closure, 3))
        if cls == "roundrect":
            meta["corner_frac"] = round(fillet / b, 2)   # corner radius / half the short side
    elif cls == "d":
        h = R * rng.uniform(0.8, 1.1)             # half height
        bw = h * rng.uniform(0.7, 1.2)            # bowl width
        closure = rng.uniform(-0.15, 0.15) * h
        bowl = [(bw * math.cos(th), h * math.sin(th)) for th in
                [math.pi / 2 - math.pi * i / 80 for i in range(81)]]
        pts = join(line((0, -h), (0, h)), bowl, line(bowl[-1], (-bw * 0.1, -h + closure)))
        meta.update(h=round(h, 1), bowl_w=round(bw, 1))
    elif cls in ("open_o", "overshoot_o"):
        sweep = rng.uniform(200, 275) if cls == "open_o" else rng.uniform(480, 620)
        d = 1 if rng.random() < P["cw_prob"] else -1
        asp = clip(rng.gauss(P["aspect"], 0.04), 0.62, 1.0)
        pts = wobbly_loop(rng, R, asp, rng.gauss(P["tilt"], P["tilt_sd"]), rng.gauss(P["start"], P["start_sd"]),
                          sweep, d, wob, rng.gauss(P["drift"], P["drift_sd"]), P["cdrift"], rng.uniform(0, 6.3))
        meta.update(sweep=round(sweep), aspect=round(asp, 2))
        rot, mirror = 0.0, False
    else:
        raise ValueError(cls)
    pts = transform(pts, rot, mirror)
    return pts, R


# ---------------------------------------------------------------- finger + sensor
def add_hooks(rng, P, pts, speed, meta):
    hooks = []
    if rng.random() < P["hook_land_p"]:
        L = P["hook_land_mm"] * rng.uniform(0.5, 1.5)
        # the finger comes in from outside: hook points away from the first direction of travel,
        # turned by up to 100 deg either way
        hx, hy = pts[0][0] - pts[4][0], pts[0][1] - pts[4][1]
        a = math.atan2(hy, hx) + math.radians(rng.uniform(-100, 100))
        q = (pts[0][0] + L * math.cos(a), pts[0][1] + L * math.sin(a))
        pts = join(line(q, pts[0], 0.2), pts)
        hooks.append("land%.1f" % L)
    if rng.random() < P["hook_lift_p"] * (1.3 if speed == "fast" else 1.0):
        L = P["hook_lift_mm"] * rng.uniform(0.5, 1.5) * (1.4 if speed == "fast" else 1.0)
        hx, hy = pts[-1][0] - pts[-5][0], pts[-1][1] - pts[-5][1]
        a = math.atan2(hy, hx) + math.radians(rng.uniform(-120, 120))
        q = (pts[-1][0] + L * math.cos(a), pts[-1][1] + L * math.sin(a))
        pts = join(pts, line(pts[-1], q, 0.2))
        hooks.append("lift%.1f" % L)
    meta["hooks"] = ",".join(hooks) or "-"
    return pts


def drive(rng, P, pts, speed):
    """Time the path with the 2/3 power law and a start/stop envelope; sample like a touchscreen."""
    n = len(pts)
    seg = [math.hypot(pts[i + 1][0] - pts[i][0], pts[i + 1][1] - pts[i][1]) for i in range(n - 1)]
    # curvature per point from heading change over +-k points
    k = 4
    curv = [0.0] * n
    for i in range(n):
        a, b = max(0, i - k), min(n - 1, i + k)
        if b - a < 2:
            continue
        m = (a + b) // 2
        h1 = math.atan2(pts[m][1] - pts[a][1], pts[m][0] - pts[a][0])
        h2 = math.atan2(pts[b][1] - pts[m][1], pts[b][0] - pts[m][0])
        dh = abs((h2 - h1 + math.pi) % (2 * math.pi) - math.pi)
        ds = sum(seg[a:b]) or 1e-6
        curv[i] = dh / ds
    L = sum(seg)
    cum = [0.0]
    for s in seg:
        cum.append(cum[-1] + s)
    vmean = {"slow": rng.uniform(60, 120), "medium": rng.uniform(120, 250),
             "fast": rng.uniform(250, 500)}[speed] * P["speed_factor"]
    dur = L / vmean
    t = [0.0]
    for i in range(n - 1):
        u = cum[i] / L
        env = min(1.0, 0.3 + 0.7 * math.sin(math.pi / 2 * min(1, u / 0.10)),
                  0.3 + 0.7 * math.sin(math.pi / 2 * min(1, (1 - u) / 0.08)))
        v = (curv[i] + 0.02) ** (-1 / 3) * env
        t.append(t[-1] + seg[i] / v)
    scale = dur / t[-1]
    t = [x * scale for x in t]
    fps = P["fps"]
    out = []
    tt = 0.0
    j = 0
    while True:
        if tt >= t[-1]:
            out.append((pts[-1][0], pts[-1][1], t[-1]))
            break
        while t[j + 1] < tt:
            j += 1
        w = (tt - t[j]) / max(1e-9, t[j + 1] - t[j])
        if rng.random() > 0.02 or not out:
            out.append((pts[j][0] + (pts[j + 1][0] - pts[j][0]) * w,
                        pts[j][1] + (pts[j + 1][1] - pts[j][1]) * w, tt))
        tt += 1.0 / fps + rng.gauss(0, 0.0015)
    return out, dur


def to_xml(name, subject, speed, number, samples, P, rng):
    t0 = rng.randint(100000, 900000)
    ox, oy = rng.uniform(250, 450), rng.uniform(300, 600)   # place on screen, px
    lines = []
    last = None
    for x, y, t in samples:
        X = round(ox + (x + rng.gauss(0, P["jitter_mm"])) * PX_PER_MM)
        Y = round(oy + (y + rng.gauss(0, P["jitter_mm"])) * PX_PER_MM)
        T = t0 + int(round(t * 1000))
        if last is not None and T <= last:
            T = last + 1
        last = T
        lines.append('  <Point X="%d" Y="%d" T="%d" />' % (X, Y, T))
    ms = int(round(samples[-1][2] * 1000))
    head = ('<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n'
            '<Gesture Name="%s" Subject="%d" Speed="%s" Number="%d" NumPts="%d" Millseconds="%d" '
            'AppName="Gestures" AppVer="3.5.0.0">\n' % (name, subject, speed, number, len(lines), ms))
    return head + "\n".join(lines) + "\n</Gesture>\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--people", type=int, default=12)
    ap.add_argument("--circles", type=int, default=60, help="circles per person (split over 3 speeds)")
    ap.add_argument("--others", type=int, default=30, help="strokes per non-circle class per person")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    master = random.Random(a.seed)
    people = [make_person(random.Random(master.randrange(1 << 30)), i + 1) for i in range(a.people)]
    manifest = []
    for P in people:
        rng = random.Random(master.randrange(1 << 30))
        subj = "s%02d" % P["id"]
        for cls, count in [("circle", a.circles)] + [(c, a.others) for c in NONCIRCLES]:
            for i in range(count):
                speed = SPEEDS[i % 3]
                meta = {"subject": subj, "class": cls, "speed": speed}
                if cls == "circle":
                    pts, _ = circle_path(rng, P, speed, meta)
                else:
                    pts, _ = shape_path(rng, P, cls, speed, meta)
                pts = add_hooks(rng, P, pts, speed, meta)
                samples, dur = drive(rng, P, pts, speed)
                num = i // 3 + 1
                name = "%s%02d" % (cls, num)
                d = os.path.join(a.out, subj, speed)
                os.makedirs(d, exist_ok=True)
                path = os.path.join(d, name + ".xml")
                with open(path, "w") as f:
                    f.write(to_xml(name, P["id"], speed, num, samples, P, rng))
                meta.update(file=os.path.relpath(path, a.out), npts=len(samples), ms=round(dur * 1000))
                manifest.append(meta)
    with open(os.path.join(os.path.dirname(a.out.rstrip("/")), "manifest.jsonl"), "w") as f:
        for m in manifest:
            f.write(json.dumps(m) + "\n")
    with open(os.path.join(os.path.dirname(a.out.rstrip("/")), "people.json"), "w") as f:
        json.dump(people, f, indent=1)
    print("wrote %d strokes for %d people to %s" % (len(manifest), len(people), a.out))


if __name__ == "__main__":
    main()
