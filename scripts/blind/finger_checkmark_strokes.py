#!/usr/bin/env python3
"""Seeded synthetic corpus of FINGER-drawn checkmarks and near-miss strokes.

Standard library only.  Usage:  python3 scripts/blind/finger_checkmark_strokes.py OUTDIR [--seed N] [--people N] [--per N]

Writes OUTDIR/sNN/{slow,medium,fast}/<class>NN.xml ($1 format, 4.5 px/mm, y down,
T in ms) and OUTDIR/params.jsonl (one line of generator parameters per file).

Model (all geometry in mm, y grows down; see ASSUMPTIONS at the bottom):
  1. a clean "intended" shape is built from vertices, per-segment bows (cubic
     Bezier, optionally skewed so a curve is steeper at one end) and per-corner
     rounding radii / pauses;
  2. it is scaled to the person's size, sheared (italic) and rotated (slant);
  3. finger artefacts are added: landing hook (contact centroid shifting as the
     pad flattens), lift hook (centroid shifting / flick as the pad rolls off),
     cusp overshoot, correlated hand wobble + digitiser noise, pixel quantisation;
  4. timing: speed follows a bell envelope and the 2/3 power law (slower in
     curves, ~0 at cusps), with dwell at landing and at sharp reversals, sampled
     at the person's device rate (60-240 Hz) with timestamp jitter and dropped
     frames.
"""
import json
import math
import os
import random
import sys

PX_PER_MM = 4.5
SPEEDS = ("slow", "medium", "fast")
SPEED_FACTOR = {"slow": 0.5, "medium": 1.0, "fast": 1.9}

NONCHECK = ["v", "caret", "zig_zag", "letter_n", "letter_h", "letter_u",
            "letter_r", "two", "checkline", "radical", "letter_w", "swipe_ur",
            "letter_l"]
CLASSES = ["check"] + NONCHECK


# ----------------------------------------------------------------- geometry
def add(a, b):
    return (a[0] + b[0], a[1] + b[1])


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1])


def mul(a, k):
    return (a[0] * k, a[1] * k)


def norm(a):
    return math.hypot(a[0], a[1])


def polar(deg, r=1.0):
    """Direction in screen coordinates: 0 = right, +90 = DOWN (y grows down)."""
    t = math.radians(deg)
    return (r * math.cos(t), r * math.sin(t))


def cubic(p0, c1, c2, p1, n):
    out = []
    for i in range(n + 1):
        t = i / n
        u = 1 - t
        out.append((u * u * u * p0[0] + 3 * u * u * t * c1[0] + 3 * u * t * t * c2[0] + t * t * t * p1[0],
                    u * u * u * p0[1] + 3 * u * u * t * c1[1] + 3 * u * t * t * c2[1] + t * t * t * p1[1]))
    return out


def segment(p, q, bow=0.0, skew=0.0, step=0.05):
    """Dense points from p to q. bow = peak deviation / chord, positive to the
    LEFT of travel as seen on screen (i.e. counter-clockwise side when y is
    down means visually 'left' of the direction of motion)."""
    d = sub(q, p)
    L = norm(d) or 1e-9
    n = max(2, int(L * (1 + 3 * abs(bow)) / step))
    if abs(bow) < 1e-6:
        return [add(p, mul(d, i / n)) for i in range(n + 1)]
    # left normal on a y-down screen: rotate direction by -90 deg
    nrm = (d[1] / L, -d[0] / L)
    h = bow * L * 4.0 / 3.0
    c1 = add(add(p, mul(d, 0.25)), mul(nrm, h * (1 + skew)))
    c2 = add(add(p, mul(d, 0.75)), mul(nrm, h * (1 - skew)))
    return cubic(p, c1, c2, q, n)


def arclen(pts):
    s = [0.0]
    for i in range(1, len(pts)):
        s.append(s[-1] + norm(sub(pts[i], pts[i - 1])))
    return s


def build_path(verts, bows=None, radii=None, pauses=None):
    """verts: list of points; bows: per segment (bow, skew); radii: per vertex
    corner radius (ends ignored); pauses: per vertex dwell in ms.
    Returns dense pts and a list of (index, pause_ms) events."""
    nseg = len(verts) - 1
    bows = bows or [(0.0, 0.0)] * nseg
    radii = radii or [0.0] * len(verts)
    pauses = pauses or [0.0] * len(verts)
    segs = [segment(verts[i], verts[i + 1], *bows[i]) for i in range(nseg)]
    # round corners: cut d before/after the vertex and join by a quadratic
    out = list(segs[0])
    events = []
    for k in range(1, nseg):
        nxt = segs[k]
        r = radii[k]
        if r > 0.05:
            la = arclen(out)
            lb = arclen(nxt)
            d = min(r, 0.45 * norm(sub(segs[k - 1][-1], segs[k - 1][0])), 0.45 * lb[-1])
            # cut incoming
            tot = la[-1]
            i = len(out) - 1
            while i > 0 and tot - la[i] < d:
                i -= 1
            a = out[i]
            out = out[:i + 1]
            j = 0
            while j < len(nxt) - 1 and lb[j] < d:
                j += 1
            b = nxt[j]
            v = nxt[0]
            n = max(4, int(2 * d / 0.05))
            for m in range(1, n):
                t = m / n
                u = 1 - t
                out.append((u * u * a[0] + 2 * u * t * v[0] + t * t * b[0],
                            u * u * a[1] + 2 * u * t * v[1] + t * t * b[1]))
            mid = len(out) - n // 2
            if pauses[k] > 0:
                events.append((mid, pauses[k]))
            out.extend(nxt[j:])
        else:
            if pauses[k] > 0:
                events.append((len(out) - 1, pauses[k]))
            out.extend(nxt[1:])
    return out, events


def resample(pts, step):
    s = arclen(pts)
    out = [pts[0]]
    j = 0
    x = step
    while x < s[-1]:
        while s[j + 1] < x:
            j += 1
        a = (x - s[j]) / max(s[j + 1] - s[j], 1e-12)
        out.append((pts[j][0] + a * (pts[j + 1][0] - pts[j][0]), pts[j][1] + a * (pts[j + 1][1] - pts[j][1])))
        x += step
    out.append(pts[-1])
    return out


def bbox(pts):
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


# ----------------------------------------------------------------- people
def make_person(rng, idx):
    """Per-person drawing style. The ranges are assumptions about finger input."""
    left = rng.random() < 0.15
    p = {
        "id": idx,
        "left_handed": left,
        "size_mm": math.exp(rng.uniform(math.log(9), math.log(36))),   # typical size
        "vpeak_medium": rng.uniform(70, 170),        # mm/s peak finger speed, medium
        "slant_deg": rng.uniform(-12, 12) + (6 if left else 0),  # whole-shape rotation (+ = clockwise on screen)
        "italic_deg": rng.uniform(-5, 15),           # handwriting shear for letters
        "hz": rng.choice([60, 60, 90, 120, 120, 180, 240]),
        "jitter_mm": rng.uniform(0.05, 0.3),
        "wobble_mm": rng.uniform(0.0, 0.4),          # slow hand wobble amplitude
        # checkmark style
        "a1_deg": rng.uniform(35, 75),               # first arm below horizontal
        "a2_deg": rng.uniform(35, 65),               # second arm above horizontal
        "arm_ratio": rng.uniform(1.6, 3.2),          # long / short
        "cusp": rng.random() < 0.45,                 # sharp cusp vs rounded corner
        "round_frac": rng.uniform(0.12, 0.45),       # corner radius / first arm, if rounded
        "overshoot_frac": rng.uniform(0.0, 0.15),    # cusp people: run past the vertex
        "b1": rng.uniform(-0.12, 0.18),              # first-arm bow (curving into the corner)
        "swoosh": rng.random() < 0.5,
        "land_p": rng.uniform(0.2, 0.9),
        "land_mm": rng.uniform(0.3, 1.5),
        "land_dir": rng.uniform(0, 360),
        "lift_p": rng.uniform(0.2, 0.9),
        "lift_mm": rng.uniform(0.3, 2.2),
        "lift_turn": rng.choice([-1, 1]) * rng.uniform(30, 150),
        "land_dwell_ms": rng.uniform(0, 90),
    }
    p["b2"] = rng.uniform(0.04, 0.14) if p["swoosh"] else rng.uniform(-0.03, 0.04)
    p["b2_skew"] = rng.uniform(-0.6, 0.6)
    return p


def jit(rng, mean, sd):
    return rng.gauss(mean, sd)


# ----------------------------------------------------------------- shapes
# Each returns (verts, bows, radii, pauses, info).  Units are arbitrary; the
# result is scaled to the stroke size afterwards.  Speed changes style: faster
# = rounder corners, more bow, less care.

def corner_style(rng, P, spd, L1):
    fastk = {"slow": 0.7, "medium": 1.0, "fast": 1.35}[spd]
    if P["cusp"] and rng.random() < (0.9 if spd != "fast" else 0.7):
        r = rng.uniform(0, 0.03) * L1
        pause = rng.uniform(10, 70) if spd == "slow" else rng.uniform(0, 25)
        return r, pause, True
    r = max(0.05, jit(rng, P["round_frac"], 0.06)) * L1 * fastk
    return r, 0.0, False


def shape_check(rng, P, spd):
    a1 = jit(rng, P["a1_deg"], 7)
    a2 = jit(rng, P["a2_deg"], 5)
    ratio = P["arm_ratio"] * math.exp(rng.gauss(0, 0.15))
    L1 = 1.0
    L2 = ratio
    V = polar(a1, L1)
    E = add(V, polar(-a2, L2))
    r, pause, cusp = corner_style(rng, P, spd, L1)
    b1 = jit(rng, P["b1"], 0.05)
    fb = {"slow": 0.8, "medium": 1.0, "fast": 1.3}[spd]
    b2 = jit(rng, P["b2"], 0.025) * fb
    verts = [(0, 0), V, E]
    bows = [(b1, rng.uniform(-0.5, 0.5)), (b2, jit(rng, P["b2_skew"], 0.2))]
    info = {"a1": a1, "a2": a2, "ratio": ratio, "corner_r_rel": r, "cusp": cusp,
            "b1": b1, "b2": b2}
    if cusp and rng.random() < 0.6:
        # run past the vertex a little, then come back up (fast cusps)
        o = P["overshoot_frac"] * (1.5 if spd == "fast" else 0.7) * rng.random()
        if o > 0.01:
            V2 = add(V, polar(a1 + rng.uniform(-20, 20), o))
            verts = [(0, 0), V2, E]
            info["overshoot_rel"] = o
    return verts, bows, [0, r, 0], [0, pause, 0], info


def shape_v(rng, P, spd):
    # A 'V' as a letter: steep arms of nearly equal length, ends level-ish.
    a1 = rng.uniform(55, 80)
    a2 = a1 + rng.gauss(0, 7)
    ratio = math.exp(rng.gauss(0, 0.12))
    V = polar(a1, 1.0)
    E = add(V, polar(-a2, ratio))
    r, pause, cusp = corner_style(rng, P, spd, 1.0)
    r *= 0.6
    return [(0, 0), V, E], [(rng.gauss(0, 0.03), 0), (rng.gauss(0, 0.03), 0)], [0, r, 0], [0, pause, 0], \
        {"a1": a1, "a2": a2, "ratio": ratio}


def shape_caret(rng, P, spd):
    a = rng.uniform(45, 70)
    ratio = math.exp(rng.gauss(0, 0.15))
    V = polar(-a, 1.0)
    E = add(V, polar(a + rng.gauss(0, 7), ratio))
    r, pause, _ = corner_style(rng, P, spd, 1.0)
    return [(0, 0), V, E], None, [0, r * 0.6, 0], [0, pause, 0], {"a": a, "ratio": ratio}


def shape_zigzag(rng, P, spd):
    n = rng.choice([3, 4, 4, 5, 6])
    a = rng.uniform(40, 70)
    sgn = rng.choice([-1, 1])          # first segment down (+1) or up (-1)
    pts = [(0.0, 0.0)]
    for i in range(n):
        ang = sgn * a + rng.gauss(0, 6)
        pts.append(add(pts[-1], polar(ang, math.exp(rng.gauss(0, 0.12)))))
        sgn = -sgn
    radii = [0] + [rng.uniform(0.0, 0.15) for _ in range(n - 1)] + [0]
    return pts, None, radii, [0] * (n + 1), {"n": n, "a": a, "first": "down" if pts[1][1] > 0 else "up"}


def shape_letter_n(rng, P, spd, h_asc=1.0):
    """Lowercase n (h_asc=1) or h (h_asc~2): down stroke, retrace up, arch, down."""
    h = 1.0
    w = rng.uniform(0.55, 0.95)
    top = -(h_asc - 1.0) * h
    retr = rng.uniform(0.15, 0.55) * h        # where the retrace leaves the stem
    off = rng.uniform(0.02, 0.12) * w         # retrace is not on the stem
    arch_y = rng.uniform(-0.05, 0.15) * h
    lead = rng.random() < 0.25 and h_asc == 1.0
    verts = []
    bows = []
    if lead:   # small lead-in up-stroke some people make
        verts.append((-0.15 * w, 0.25 * h))
        bows.append((0, 0))
    verts += [(0, top), (0, h), (off, retr), (w, retr + rng.uniform(-0.05, 0.1)), (w + rng.gauss(0, 0.05) * w, h)]
    bows += [(rng.gauss(0, 0.02), 0), (rng.gauss(0, 0.02), 0),
             (-(retr - arch_y) / w * 0.9 - 0.1, rng.uniform(-0.3, 0.3)), (rng.gauss(0, 0.03), 0)]
    # bow sign: arch goes UP while moving right -> left of travel -> positive
    bows[-2] = (abs(bows[-2][0]) + 0.15, bows[-2][1])
    r_bottom = rng.uniform(0.0, 0.06)
    radii = [0] * len(verts)
    pauses = [0] * len(verts)
    i_bot = 2 if lead else 1
    radii[i_bot] = r_bottom
    pauses[i_bot] = rng.uniform(5, 40) if spd != "fast" else rng.uniform(0, 10)
    radii[i_bot + 1] = rng.uniform(0.05, 0.2)
    radii[i_bot + 2] = rng.uniform(0.05, 0.25)
    if lead:
        radii[1] = rng.uniform(0.0, 0.05)
    return verts, bows, radii, pauses, {"w": w, "retrace": retr, "lead_in": lead, "ascender": h_asc}


def shape_letter_h(rng, P, spd):
    return shape_letter_n(rng, P, spd, h_asc=rng.uniform(1.8, 2.4))


def shape_letter_u(rng, P, spd):
    w = rng.uniform(0.6, 1.0)
    h = 1.0
    side = rng.uniform(0.3, 0.6)
    tail = rng.random() < 0.6
    verts = [(0, 0), (rng.gauss(0, 0.04), side), (w, side + rng.gauss(0, 0.05)), (w + rng.gauss(0, 0.05), rng.uniform(-0.05, 0.1))]
    depth = (h - side) / w
    bows = [(rng.gauss(0, 0.02), 0), (-depth * 0.9, rng.uniform(-0.3, 0.3)), (rng.gauss(0, 0.03), 0)]
    radii = [0, 0.2, 0.2, 0]
    pauses = [0, 0, 0, 0]
    if tail:
        verts.append(add(verts[-1], (rng.uniform(0.0, 0.15), rng.uniform(0.8, 1.05))))
        bows.append((rng.gauss(0, 0.03), 0))
        radii = [0, 0.2, 0.2, rng.uniform(0, 0.05), 0]
        pauses = [0, 0, 0, rng.uniform(0, 30), 0]
    return verts, bows, radii, pauses, {"w": w, "tail": tail}


def shape_letter_r(rng, P, spd):
    h = 1.0
    w = rng.uniform(0.45, 0.8)
    retr = rng.uniform(0.05, 0.45)
    off = rng.uniform(0.01, 0.08)
    end_drop = rng.uniform(-0.05, 0.25)
    lead = rng.random() < 0.3
    verts = [(0, 0), (0, h), (off, retr), (w, end_drop)]
    bows = [(rng.gauss(0, 0.02), 0), (rng.gauss(0, 0.02), 0), (rng.uniform(0.1, 0.35), rng.uniform(-0.6, 0.2))]
    radii = [0, rng.uniform(0, 0.05), rng.uniform(0.03, 0.15), 0]
    pauses = [0, rng.uniform(5, 40) if spd != "fast" else rng.uniform(0, 10), 0, 0]
    if lead:
        verts.insert(0, (-0.15 * w, 0.3))
        bows.insert(0, (0, 0))
        radii.insert(0, 0)
        radii[1] = rng.uniform(0, 0.05)
        pauses.insert(0, 0)
    return verts, bows, radii, pauses, {"w": w, "retrace": retr, "lead_in": lead, "end_drop": end_drop}


def shape_two(rng, P, spd):
    w = rng.uniform(0.6, 0.9)
    h = 1.0
    s = (0.0, rng.uniform(0.15, 0.35))
    tr = (w * rng.uniform(0.8, 1.0), rng.uniform(0.25, 0.45))
    bl = (rng.uniform(-0.05, 0.1), h)
    rise = rng.uniform(-0.05, 0.15)
    end = (w * rng.uniform(0.95, 1.2), h - rise)
    verts = [s, tr, bl, end]
    bows = [(rng.uniform(0.35, 0.55), rng.uniform(-0.3, 0.3)),      # top arc, bulging up
            (rng.uniform(-0.12, 0.05), 0),                           # diagonal (often S-ish)
            (rng.gauss(0, 0.04), 0)]
    radii = [0, rng.uniform(0.1, 0.3), rng.uniform(0.0, 0.12), 0]
    pauses = [0, 0, rng.uniform(0, 25), 0]
    return verts, bows, radii, pauses, {"w": w, "end_rise": rise}


def shape_checkline(rng, P, spd):
    """A checkmark followed, in the same stroke, by an underline."""
    verts, bows, radii, pauses, info = shape_check(rng, P, spd)
    V, E = verts[1], verts[2]
    S0 = (0, 0)
    ybot = V[1] + rng.uniform(0.2, 0.5)
    Lp = (min(S0[0], V[0]) - rng.uniform(0.0, 0.4), ybot)
    Rp = (E[0] + rng.uniform(0.0, 0.4), ybot + rng.gauss(0, 0.05))
    verts = verts + [Lp, Rp]
    bows = bows + [(rng.gauss(0, 0.05), 0), (rng.gauss(0, 0.02), 0)]
    radii = radii[:2] + [rng.uniform(0.05, 0.3), rng.uniform(0.05, 0.2), 0]
    pauses = pauses[:2] + [0, 0, 0]
    info["underline"] = True
    return verts, bows, radii, pauses, info


def shape_radical(rng, P, spd):
    """Square-root sign: (tiny lead tick up-right), down-right, long up-right, roof."""
    a1 = rng.uniform(45, 75)
    a2 = rng.uniform(55, 78)
    ratio = rng.uniform(2.0, 4.0)
    V = polar(a1, 1.0)
    T = add(V, polar(-a2, ratio))
    roof = (T[0] + ratio * rng.uniform(0.5, 1.5), T[1] + rng.gauss(0, 0.05))
    verts = [(0, 0), V, T, roof]
    bows = [(0, 0), (rng.gauss(0, 0.02), 0), (rng.gauss(0, 0.02), 0)]
    radii = [0, rng.uniform(0, 0.2), rng.uniform(0.02, 0.25), 0]
    pauses = [0, 0, rng.uniform(0, 20), 0]
    lead = rng.random() < 0.5
    if lead:
        verts.insert(0, add((0, 0), polar(180 - 40, 0.3)))
        bows.insert(0, (0, 0))
        radii = [0, rng.uniform(0, 0.05)] + radii[1:]
        pauses.insert(0, 0)
    return verts, bows, radii, pauses, {"a1": a1, "a2": a2, "ratio": ratio, "lead_tick": lead}


def shape_letter_w(rng, P, spd):
    a = rng.uniform(60, 82)
    pts = [(0.0, 0.0)]
    mid_h = rng.uniform(0.5, 1.0)
    lens = [1.0, mid_h, mid_h, 1.0]
    sg = 1
    for L in lens:
        pts.append(add(pts[-1], polar(sg * (a + rng.gauss(0, 5)), L * math.exp(rng.gauss(0, 0.08)))))
        sg = -sg
    radii = [0] + [rng.uniform(0.0, 0.12) for _ in range(3)] + [0]
    return pts, None, radii, [0] * 5, {"a": a, "mid": mid_h}


def shape_swipe_ur(rng, P, spd):
    """A diagonal swipe up-right; its landing hook is added like anybody's."""
    ang = rng.uniform(25, 70)
    verts = [(0, 0), polar(-ang, 1.0)]
    return verts, [(rng.gauss(0, 0.04), 0)], [0, 0], [0, 0], {"angle": ang}


def shape_letter_l(rng, P, spd):
    h = 1.0
    w = rng.uniform(0.4, 0.9)
    rise = rng.uniform(-0.05, 0.2)
    verts = [(0, 0), (rng.gauss(0, 0.05), h), (w, h - rise * w)]
    return verts, [(rng.gauss(0, 0.03), 0), (rng.gauss(0, 0.03), 0)], [0, rng.uniform(0, 0.12), 0], \
        [0, rng.uniform(0, 30), 0], {"w": w, "end_rise": rise}


SHAPES = {
    "check": shape_check, "v": shape_v, "caret": shape_caret, "zig_zag": shape_zigzag,
    "letter_n": shape_letter_n, "letter_h": shape_letter_h, "letter_u": shape_letter_u,
    "letter_r": shape_letter_r, "two": shape_two, "checkline": shape_checkline,
    "radical": shape_radical, "letter_w": shape_letter_w, "swipe_ur": shape_swipe_ur,
    "letter_l": shape_letter_l,
}
LETTERS = {"letter_n", "letter_h", "letter_u", "letter_r", "two", "letter_l", "letter_w"}


# ----------------------------------------------------------------- rendering
def transform(pts, scale, italic_deg, rot_deg, origin):
    sh = math.tan(math.radians(italic_deg))
    c, s = math.cos(math.radians(rot_deg)), math.sin(math.radians(rot_deg))
    out = []
    for x, y in pts:
        x, y = x * scale, y * scale
        x = x - sh * y              # italic: top leans right (y up is negative)
        out.append((origin[0] + c * x - s * y, origin[1] + s * x + c * y))
    return out


def curvature_speed(pts, vpeak, window=0.6):
    """Speed at each dense point: bell envelope combined with the 2/3 power law."""
    s = arclen(pts)
    S = s[-1] or 1e-9
    n = len(pts)
    # turning per unit length over a window
    tang = []
    for i in range(n - 1):
        d = sub(pts[i + 1], pts[i])
        tang.append(math.atan2(d[1], d[0]))
    tang.append(tang[-1] if tang else 0.0)
    turn = [0.0] * n
    for i in range(1, n - 1):
        a = tang[i] - tang[i - 1]
        while a > math.pi:
            a -= 2 * math.pi
        while a < -math.pi:
            a += 2 * math.pi
        turn[i] = abs(a)
    # windowed curvature (prefix sums over arclength)
    pref = [0.0]
    for t in turn:
        pref.append(pref[-1] + t)
    kap = [0.0] * n
    j0 = 0
    j1 = 0
    for i in range(n):
        while s[j0] < s[i] - window / 2:
            j0 += 1
        while j1 < n - 1 and s[j1 + 1] <= s[i] + window / 2:
            j1 += 1
        span = max(s[j1] - s[j0], 0.05)
        kap[i] = (pref[j1 + 1] - pref[j0]) / span
    K = vpeak * 0.35 / (2.0 ** (1 / 3))
    v = []
    for i in range(n):
        u = s[i] / S
        env = 0.12 + 0.88 * math.sin(math.pi * min(max(u, 0.0), 1.0)) ** 0.6
        ve = vpeak * env
        vc = K * (kap[i] + 1e-3) ** (-1 / 3)
        v.append(max(1.0, 1.0 / (1.0 / ve + 1.0 / vc)))
    return s, v


def render(rng, P, cls, spd, num):
    shape = SHAPES[cls]
    verts, bows, radii, pauses, info = shape(rng, P, spd)
    # size: person's typical size, per-stroke variation; letters a bit smaller
    size = P["size_mm"] * math.exp(rng.gauss(0, 0.12))
    if cls in LETTERS:
        size *= rng.uniform(0.8, 1.1)
    if cls == "swipe_ur":
        size = rng.uniform(20, 50)
    size = min(40.0, max(8.0, size))
    # clean path in shape units, then scale so its bbox's larger side = size
    dense, events = build_path(verts, bows, [r for r in radii], pauses)
    x0, y0, x1, y1 = bbox(dense)
    scale = size / max(x1 - x0, y1 - y0, 1e-6)
    # corner radii were given in shape units -> consistent after scaling
    italic = P["italic_deg"] + rng.gauss(0, 3) if cls in LETTERS else rng.gauss(0, 2)
    rot = P["slant_deg"] + rng.gauss(0, 4)
    origin = (rng.uniform(20, 40), rng.uniform(20, 40))
    tp = transform(dense, scale, italic, rot, origin)
    stp = arclen(tp)
    events = [(int(round(stp[i] / 0.05)), ms) for i, ms in events]
    pts = resample(tp, 0.05)
    fast = spd == "fast"
    # --- landing hook: contact centroid shifts while the pad flattens
    hooks = {}
    if rng.random() < P["land_p"] or cls == "swipe_ur":
        Lh = P["land_mm"] * rng.uniform(0.5, 1.3) * (1.3 if fast else 1.0)
        dirn = P["land_dir"] + rng.gauss(0, 40)
        if cls == "swipe_ur":   # a fast diagonal swipe: finger lands and rolls
            Lh = rng.uniform(0.8, 3.0)
            dirn = rng.uniform(30, 150)   # down-right .. down-left: land and drag back
        start = add(pts[0], polar(dirn, Lh))   # hook goes FROM here TO the path start
        hk = segment(start, pts[0], rng.uniform(-0.3, 0.3))
        hooks["land"] = {"mm": round(Lh, 2), "dir_deg": round(dirn % 360, 1)}
        pts = hk[:-1] + pts
        nhook0 = len(hk) - 1
    else:
        nhook0 = 0
    # --- lift hook: pad rolls off; a flick that turns away from the motion
    nhook1 = 0
    if rng.random() < P["lift_p"]:
        Lh = P["lift_mm"] * rng.uniform(0.5, 1.3) * (1.4 if fast else 0.8)
        d = sub(pts[-1], pts[-6])
        tdir = math.degrees(math.atan2(d[1], d[0]))
        dirn = tdir + P["lift_turn"] + rng.gauss(0, 30)
        end = add(pts[-1], polar(dirn, Lh))
        hk = segment(pts[-1], end, rng.uniform(-0.3, 0.3))
        hooks["lift"] = {"mm": round(Lh, 2), "turn_deg": round(dirn - tdir, 1)}
        nhook1 = len(hk) - 1
        pts = pts + hk[1:]
    events = [(i + nhook0, ms) for i, ms in events]
    # --- timing
    vpeak = P["vpeak_medium"] * SPEED_FACTOR[spd] * (size / 20.0) ** 0.6 * math.exp(rng.gauss(0, 0.12))
    s, v = curvature_speed(pts, vpeak)
    n = len(pts)
    t = [0.0] * n
    ev = dict(events)
    hook_v = max(vpeak, 60.0)      # hooks are quick: ~10-40 ms
    for i in range(1, n):
        ds = s[i] - s[i - 1]
        vi = hook_v if (i <= nhook0 or i >= n - nhook1) else 0.5 * (v[i] + v[i - 1])
        t[i] = t[i - 1] + 1000.0 * ds / vi + ev.get(i, 0.0)
    dwell = P["land_dwell_ms"] * rng.uniform(0.3, 1.5) * (1.6 if spd == "slow" else 1.0)
    T = t[-1]
    # --- sampling
    hz = P["hz"]
    dt = 1000.0 / hz
    times = []
    tt = -dwell
    while tt < T:
        times.append(tt)
        tt += dt
    times.append(T)
    samples = []
    j = 0
    # wobble: slow correlated drift (hand), per stroke random phases
    wa = P["wobble_mm"] * (1.3 if spd == "slow" else 1.0)
    ph = [rng.uniform(0, 2 * math.pi) for _ in range(4)]
    fr = [rng.uniform(0.05, 0.15), rng.uniform(0.05, 0.15)]   # cycles per mm
    for k, tk in enumerate(times):
        if 0 < k < len(times) - 1 and rng.random() < 0.03:
            continue                                         # dropped frame
        tq = max(0.0, tk)
        while j < n - 2 and t[j + 1] < tq:
            j += 1
        a = (tq - t[j]) / max(t[j + 1] - t[j], 1e-9)
        a = min(max(a, 0.0), 1.0)
        x = pts[j][0] + a * (pts[j + 1][0] - pts[j][0])
        y = pts[j][1] + a * (pts[j + 1][1] - pts[j][1])
        sj = s[j] + a * (s[j + 1] - s[j])
        x += wa * math.sin(2 * math.pi * fr[0] * sj + ph[0]) + rng.gauss(0, P["jitter_mm"])
        y += wa * math.sin(2 * math.pi * fr[1] * sj + ph[1]) + rng.gauss(0, P["jitter_mm"])
        tj = tk + dwell + rng.gauss(0, 0.8)
        samples.append((x, y, tj))
    # monotone integer timestamps
    out = []
    last = -1
    for x, y, tj in samples:
        ti = max(int(round(tj)), last + 1)
        last = ti
        out.append((int(round(x * PX_PER_MM)), int(round(y * PX_PER_MM)), ti))
    params = {"class": cls, "speed": spd, "size_mm": round(size, 1), "vpeak_mm_s": round(vpeak, 1),
              "rot_deg": round(rot, 1), "italic_deg": round(italic, 1), "hz": hz,
              "jitter_mm": round(P["jitter_mm"], 3), "wobble_mm": round(wa, 2),
              "duration_ms": out[-1][2] - out[0][2], "npts": len(out), "hooks": hooks,
              "landing_dwell_ms": round(dwell)}
    params.update({k: (round(v, 3) if isinstance(v, float) else v) for k, v in info.items()})
    return out, params


def write_xml(path, name, subject, spd, num, pts):
    t0 = 1000000 + subject * 100000 + num * 3000
    lines = ['<?xml version="1.0" encoding="utf-8" standalone="yes"?>',
             '<Gesture Name="%s" Subject="%d" Speed="%s" Number="%d" NumPts="%d" Millseconds="%d" '
             'AppName="Gestures" AppVer="3.5.0.0">' % (name, subject, spd, num, len(pts), pts[-1][2] - pts[0][2])]
    for x, y, t in pts:
        lines.append('  <Point X="%d" Y="%d" T="%d" />' % (x, y, t0 + t))
    lines.append('</Gesture>')
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    args = sys.argv[1:]
    out = None
    seed = 20240531
    people = 14
    per = 10          # per class, per speed, per person  (30 per class per person)
    i = 0
    while i < len(args):
        if args[i] == "--seed":
            seed = int(args[i + 1]); i += 2
        elif args[i] == "--people":
            people = int(args[i + 1]); i += 2
        elif args[i] == "--per":
            per = int(args[i + 1]); i += 2
        else:
            out = args[i]; i += 1
    if out is None:
        sys.exit("usage: finger_checkmark_strokes.py OUTDIR [--seed N] [--people N] [--per N]")
    master = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    manifest = open(os.path.join(out, "params.jsonl"), "w")
    with open(os.path.join(out, "people.json"), "w") as pf:
        persons = [make_person(random.Random(master.random()), k + 1) for k in range(people)]
        json.dump(persons, pf, indent=1)
    for P in persons:
        for spd in SPEEDS:
            d = os.path.join(out, "s%02d" % P["id"], spd)
            os.makedirs(d, exist_ok=True)
            for cls in CLASSES:
                for num in range(1, per + 1):
                    rng = random.Random("%d/%d/%s/%s/%d" % (seed, P["id"], spd, cls, num))
                    pts, params = render(rng, P, cls, spd, num)
                    name = "%s%02d" % (cls, num)
                    path = os.path.join(d, name + ".xml")
                    write_xml(path, name, P["id"], spd, num, pts)
                    params["file"] = os.path.relpath(path, out)
                    params["person"] = P["id"]
                    manifest.write(json.dumps(params) + "\n")
    manifest.close()


if __name__ == "__main__":
    main()

# ASSUMPTIONS (finger on glass, reasoned from how people draw, not tuned to any recognizer):
# - People draw a check left-to-right: a short stroke down-right, then a longer
#   one up-right; first arm 35-75 deg below horizontal, long arm 35-65 deg above,
#   long/short 1.6-3.2 per person (+-15% per stroke, so a few fall under 1.4).
# - Size (bbox larger side) 8-40 mm: thumbs on phones draw small, index fingers on
#   tablets big.  Speed scales with size (isochrony); 'fast' ~1.9x medium, 'slow'
#   ~0.5x; slow strokes pause at cusps and wobble more, fast ones round corners,
#   bow more and produce longer lift flicks.
# - About 45% of people make a sharp cusp (some with a small overshoot past the
#   vertex), the rest round the corner (radius 12-45% of the short arm).
# - Half the people curve the long arm ('swoosh', bow 4-14% of its length); the
#   first arm may bow either way (curving into the corner).
# - Landing: the contact centroid moves 0.3-1.5 mm in a person-specific
#   direction as the pad lands (20-90% of strokes); lifting: a 0.3-2.2 mm flick
#   turning 30-150 deg away from the motion (20-90% of strokes).
# - Noise: white 0.05-0.3 mm + slow wobble up to 0.4 mm, pixel quantisation
#   (0.22 mm), sample rate 60-240 Hz, ~1 ms timestamp jitter, 3% dropped frames.
# - Non-checks are drawn with the same person's slant/noise/hooks; letters with
#   the person's italic shear.  V's have nearly equal steep arms; a diagonal
#   swipe up-right gets a 0.8-3 mm landing drag, which is the kind of thing that
#   could make a tiny first arm.
