#!/usr/bin/env python3
"""Blind synthetic stroke generator for the checkmark recognizer.

Writes $1-style stroke files  OUT/sNN/{slow,medium,fast}/CLASSkk.xml  plus
OUT/params.jsonl (one JSON line per file with every generator parameter).

Usage: python3 scripts/blind/checkmark_strokes.py [--seed N] [--people 12] [--per-speed 30] [--out corpus]

Model (written apart from the recognizer, from how people draw, not from its code or its tuning):
  * Geometry is built in millimetres, y grows down.  Each shape is a skeleton of
    straight or bowed arms; interior corners are rounded by a quadratic Bezier
    that cuts back `round` x (shorter adjacent arm) on both sides.
  * Each synthetic person has a persistent style: typical size, speed, rotation
    (slant of the whole stroke), shear (italic lean), how round the corners are,
    arm ratio / arm angles of their checkmark, how much their arms bow, whether
    they leave landing / lift hooks, their V's lopsidedness, how long they dwell
    at a sharp corner, touchscreen sample rate and noise.  Every stroke draws
    around the person's style with stroke-to-stroke scatter; fast strokes are
    sloppier (more scatter, rounder corners, longer hooks), slow strokes are
    more tremulous and dwell at corners.
  * Timing: speed along the path follows the 2/3 power law (v ~ R^(1/3), slower
    in tight curves), ramps up after touch-down and (less) down before lift,
    with an optional dwell at sharp corners; scaled to a target mean speed
    (but never faster than 80 ms + 30 ms per corner for the whole stroke)
    (slow 40-90, medium 80-160, fast 150-350 mm/s times the person's factor).
  * Landing/lift hooks: 0.3-1.5 mm per person (x0.8 slow, x1.3 fast), at most
    3 mm; corner rounding at most 0.35 of the shorter arm.
  * Sampling at the person's device rate (60/90/120 Hz) with +-1 ms timing
    jitter and ~3 % dropped frames; positions get Gaussian noise (0.05-0.2 mm)
    plus a small 8-12 Hz tremor, then are rounded to whole pixels (4.5 px/mm).
"""
import argparse
import json
import math
import os
import random

PX_PER_MM = 4.5
SPEEDS = ("slow", "medium", "fast")
SPEED_MM_S = {"slow": (40, 90), "medium": (80, 160), "fast": (150, 350)}
CLASSES = ["check", "v", "caret", "sqrt", "letter_v", "u", "slash_tick",
           "delete_mark", "arrow", "zig_zag"]


# ---------------------------------------------------------------- geometry --
def dirv(deg):
    """Unit vector; angle in degrees measured counter-clockwise from +x as seen
    on screen (so +deg points UP, i.e. negative y)."""
    r = math.radians(deg)
    return (math.cos(r), -math.sin(r))


def add(a, b, k=1.0):
    return (a[0] + k * b[0], a[1] + k * b[1])


def dist(a, b):
    return math.hypot(a[0] - b[0], a[1] - b[1])


def bezier2(p0, c, p1, n):
    out = []
    for i in range(n + 1):
        u = i / n
        out.append(((1 - u) ** 2 * p0[0] + 2 * u * (1 - u) * c[0] + u * u * p1[0],
                    (1 - u) ** 2 * p0[1] + 2 * u * (1 - u) * c[1] + u * u * p1[1]))
    return out


def bowed(p0, p1, bow, step=0.05):
    """Arm from p0 to p1 whose middle is pushed sideways by bow*length
    (positive = to the left of travel direction, on screen)."""
    L = dist(p0, p1)
    if L < 1e-9:
        return [p0, p1]
    dx, dy = (p1[0] - p0[0]) / L, (p1[1] - p0[1]) / L
    nx, ny = dy, -dx  # left of travel on a y-down screen
    mid = ((p0[0] + p1[0]) / 2 + nx * 2 * bow * L, (p0[1] + p1[1]) / 2 + ny * 2 * bow * L)
    return bezier2(p0, mid, p1, max(4, int(L / step)))


def arclen(pts):
    s = [0.0]
    for a, b in zip(pts, pts[1:]):
        s.append(s[-1] + dist(a, b))
    return s


def point_at(pts, s_cum, s):
    if s <= 0:
        return pts[0]
    if s >= s_cum[-1]:
        return pts[-1]
    lo, hi = 0, len(s_cum) - 1
    while hi - lo > 1:
        m = (lo + hi) // 2
        if s_cum[m] <= s:
            lo = m
        else:
            hi = m
    seg = s_cum[hi] - s_cum[lo]
    u = 0 if seg == 0 else (s - s_cum[lo]) / seg
    return (pts[lo][0] + u * (pts[hi][0] - pts[lo][0]), pts[lo][1] + u * (pts[hi][1] - pts[lo][1]))


def build_path(verts, bows, rounds, step=0.05):
    """verts: skeleton vertices; bows[i]: bow of arm i; rounds[j]: rounding of
    interior vertex j+1 (fraction of the shorter adjacent arm)."""
    arms = [bowed(verts[i], verts[i + 1], bows[i], step) for i in range(len(verts) - 1)]
    # cut each interior corner
    cuts_end = [0.0] * len(arms)
    cuts_start = [0.0] * len(arms)
    for j in range(len(arms) - 1):
        la, lb = arclen(arms[j])[-1], arclen(arms[j + 1])[-1]
        d = max(0.0, rounds[j]) * min(la, lb)
        d = min(d, 0.49 * la, 0.49 * lb)
        cuts_end[j] = d
        cuts_start[j + 1] = d
    pieces = []
    for i, arm in enumerate(arms):
        sc = arclen(arm)
        a, b = cuts_start[i], sc[-1] - cuts_end[i]
        n = max(2, int((b - a) / step))
        pieces.append([point_at(arm, sc, a + (b - a) * k / n) for k in range(n + 1)])
    out = list(pieces[0])
    for j in range(1, len(pieces)):
        if cuts_end[j - 1] > 1e-6:
            corner = arms[j][0]
            n = max(4, int(2 * cuts_end[j - 1] / step))
            out.extend(bezier2(out[-1], corner, pieces[j][0], n)[1:])
        out.extend(pieces[j][1:])
    return out


def transform(pts, rot_deg, shear, aspect):
    """Rotate (counter-clockwise on screen by rot_deg), shear x by y (italic),
    stretch x by aspect."""
    r = math.radians(rot_deg)
    c, s = math.cos(r), math.sin(r)
    out = []
    for x, y in pts:
        x2 = x * aspect - shear * y
        # screen CCW rotation with y down: x' = x c + y s ; y' = -x s + y c
        out.append((x2 * c + y * s, -x2 * s + y * c))
    return out


def bbox(pts):
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def add_hooks(pts, rng, start_len, start_turn, end_len, end_turn, step=0.05):
    """Landing hook: the finger skids a little in some direction before the
    stroke proper (a short piece at start_turn degrees from the first arm's
    reversed direction); lift hook: a short curl of end_len at end_turn degrees
    from the last direction."""
    def heading(a, b):
        return math.degrees(math.atan2(-(b[1] - a[1]), b[0] - a[0]))
    if start_len > 0.05:
        k = min(len(pts) - 1, max(2, int(1.5 / step)))
        h = heading(pts[0], pts[k])
        d = dirv(h + 180 + start_turn)
        p = add(pts[0], d, start_len)
        pre = bezier2(p, add(pts[0], d, 0.2 * start_len), pts[0], max(4, int(start_len / step)))
        pts = pre[:-1] + pts
    if end_len > 0.05:
        k = min(len(pts) - 1, max(2, int(1.5 / step)))
        h = heading(pts[-1 - k], pts[-1])
        d1 = dirv(h)
        d2 = dirv(h + end_turn)
        c = add(pts[-1], d1, 0.4 * end_len)
        q = add(c, d2, 0.8 * end_len)
        pts = pts + bezier2(pts[-1], c, q, max(4, int(end_len / step)))[1:]
    return pts


# ----------------------------------------------------------------- people --
def make_person(rng, idx):
    p = {
        "id": idx,
        "size_mm": math.exp(rng.uniform(math.log(14), math.log(42))),
        "speed_factor": math.exp(rng.gauss(0, 0.25)),
        "rot_deg": rng.gauss(0, 7),          # whole-stroke rotation (phone held tilted, slanted writing)
        "shear": rng.gauss(0, 0.12),         # italic lean
        "round": rng.uniform(0.0, 0.30),     # corner rounding habit
        "bow": rng.gauss(0, 0.04),           # habitual arm curvature
        "bow_sd": rng.uniform(0.01, 0.05),
        # checkmark style
        "ck_ratio": math.exp(rng.uniform(math.log(1.8), math.log(3.4))),
        "ck_a1": rng.uniform(32, 68),        # first arm, degrees below horizontal
        "ck_a2": rng.uniform(42, 72),        # second arm, degrees above horizontal
        # V style
        "v_half": rng.uniform(14, 34),       # half opening angle from vertical
        "v_ratio": math.exp(rng.gauss(0.03, 0.07)),   # second/first arm
        "v_lopsided_p": rng.uniform(0.05, 0.35),      # share of noticeably lopsided V's
        # hooks
        "hook_p": rng.uniform(0.05, 0.6),
        "hook_len": rng.uniform(0.3, 1.5),
        "dwell_ms": rng.uniform(0, 45),
        # device
        "rate_hz": rng.choice([60, 60, 90, 120, 120]),
        "noise_mm": rng.uniform(0.05, 0.2),
        "tremor_mm": rng.uniform(0.02, 0.15),
    }
    return p


# ------------------------------------------------------------------ shapes --
def lognorm(rng, mean, sd):
    return mean * math.exp(rng.gauss(0, sd))


def shape_check(rng, P, sp, sloppy):
    a1 = rng.gauss(P["ck_a1"], 7 * sloppy)
    a2 = rng.gauss(P["ck_a2"], 6 * sloppy)
    ratio = max(1.5, lognorm(rng, P["ck_ratio"], 0.13 * sloppy))
    L1 = 1.0
    v0 = (0.0, 0.0)
    v1 = add(v0, dirv(-a1), L1)
    v2 = add(v1, dirv(a2), ratio * L1)
    prm = {"arm1_deg_below": a1, "arm2_deg_above": a2, "ratio": ratio}
    return [v0, v1, v2], prm


def shape_v(rng, P, sp, sloppy):
    lop = rng.random() < P["v_lopsided_p"]
    if lop:
        # noticeably lopsided V, either arm longer
        r = rng.uniform(1.15, 1.45)
        ratio = r if rng.random() < 0.6 else 1 / r
    else:
        ratio = lognorm(rng, P["v_ratio"], 0.06 * sloppy)
    half = rng.gauss(P["v_half"], 4 * sloppy)
    skew = rng.gauss(0, 4 * sloppy)        # arms not mirror images
    L1 = 1.0
    v0 = (0.0, 0.0)
    v1 = add(v0, dirv(-(90 - half + skew)), L1)
    v2 = add(v1, dirv(90 - half - skew), ratio * L1)
    return [v0, v1, v2], {"ratio": ratio, "half_deg": half, "skew_deg": skew, "lopsided": lop}


def shape_caret(rng, P, sp, sloppy):
    ratio = lognorm(rng, 1.0, 0.12 * sloppy)
    half = rng.gauss(P["v_half"] + 8, 5 * sloppy)
    v0 = (0.0, 0.0)
    v1 = add(v0, dirv(90 - half), 1.0)
    v2 = add(v1, dirv(-(90 - half)), ratio)
    return [v0, v1, v2], {"ratio": ratio, "half_deg": half}


def shape_sqrt(rng, P, sp, sloppy):
    verts = [(0.0, 0.0)]
    lead = rng.random() < 0.45
    if lead:
        verts.append(add(verts[-1], dirv(rng.uniform(20, 60)), rng.uniform(0.2, 0.45)))
    a1 = rng.uniform(50, 75)
    verts.append(add(verts[-1], dirv(-a1), 1.0))
    r2 = rng.uniform(2.2, 4.0)
    a2 = rng.uniform(62, 82)
    verts.append(add(verts[-1], dirv(a2), r2))
    bar = rng.uniform(0.6, 2.2) * r2 * 0.6
    verts.append(add(verts[-1], dirv(rng.gauss(0, 4)), bar))
    return verts, {"lead_in": lead, "arm1_deg_below": a1, "ratio": r2, "arm2_deg_above": a2, "bar": bar}


def shape_letter_v(rng, P, sp, sloppy):
    cursive = rng.random() < 0.5
    half = rng.gauss(P["v_half"] - 2, 5 * sloppy)
    ratio = lognorm(rng, 1.0, 0.09 * sloppy)
    verts = [(0.0, 0.0)]
    if cursive:
        # entry stroke from the baseline up to x-height
        verts = [(0.0, 0.0)]
        verts.append(add(verts[0], dirv(rng.uniform(45, 75)), rng.uniform(0.35, 0.7)))
    v1 = add(verts[-1], dirv(-(90 - half)), 1.0)
    verts.append(v1)
    v2 = add(v1, dirv(90 - half), ratio)
    verts.append(v2)
    exit_ = cursive or rng.random() < 0.35
    if exit_:
        # the little flick/bowl at the top right of a handwritten v
        verts.append(add(v2, dirv(rng.uniform(-25, 10)), rng.uniform(0.2, 0.45)))
    return verts, {"cursive": cursive, "half_deg": half, "ratio": ratio, "exit_flick": exit_}


def shape_u(rng, P, sp, sloppy):
    h = 1.0
    w = rng.uniform(0.55, 1.0)
    r2 = lognorm(rng, 1.0, 0.1)
    lean = rng.gauss(0, 6)
    verts = [(0.0, 0.0), add((0.0, 0.0), dirv(-90 - lean), h)]
    verts.append(add(verts[-1], dirv(-lean * 0.2), w))
    verts.append(add(verts[-1], dirv(90 - lean), h * r2))
    stem = rng.random() < 0.4
    if stem:
        verts.append(add(verts[-1], dirv(-90 - lean), rng.uniform(0.3, 0.7) * h))
    return verts, {"width": w, "ratio": r2, "lean_deg": lean, "stem": stem,
                   "force_round": rng.uniform(0.45, 0.5)}


def shape_slash_tick(rng, P, sp, sloppy):
    variant = rng.choice(["tick_then_slash", "stroke_then_tick", "slash_end_flick"])
    if variant == "tick_then_slash":
        # small landing tick down-right, then a long straight '/' upward
        t = rng.uniform(0.05, 0.13)
        a1 = rng.uniform(20, 80)
        verts = [(0.0, 0.0), add((0.0, 0.0), dirv(-a1), t)]
        verts.append(add(verts[-1], dirv(rng.uniform(50, 78)), 1.0))
        prm = {"tick": t, "ratio": 1 / t, "tick_deg_below": a1}
    elif variant == "stroke_then_tick":
        # long '\' downward, then a short tick up-right (a long-first-arm check)
        t = rng.uniform(0.12, 0.35)
        a1 = rng.uniform(45, 80)
        verts = [(0.0, 0.0), add((0.0, 0.0), dirv(-a1), 1.0)]
        verts.append(add(verts[-1], dirv(rng.uniform(35, 80)), t))
        prm = {"tick": t, "ratio": t, "arm1_deg_below": a1}
    else:
        # '/' drawn bottom-up, flick down-right at the top when lifting
        t = rng.uniform(0.06, 0.15)
        verts = [(0.0, 0.0), add((0.0, 0.0), dirv(rng.uniform(50, 78)), 1.0)]
        verts.append(add(verts[-1], dirv(-rng.uniform(20, 70)), t))
        prm = {"tick": t}
    prm["variant"] = variant
    return verts, prm


def shape_delete(rng, P, sp, sloppy):
    w = rng.uniform(0.7, 1.2)
    h = 1.0
    j = lambda: rng.gauss(0, 0.06)
    verts = [(0 + j(), 0 + j()), (w + j(), h + j()), (w + j(), 0 + j()), (0 + j(), h + j())]
    return verts, {"w": w}


def shape_arrow(rng, P, sp, sloppy):
    shaft_dir = rng.choice([0, 0, 30, 45, 60, -45, -30, -90, 90])
    shaft_dir += rng.gauss(0, 6)
    L = 1.0
    head = rng.uniform(0.22, 0.45)
    spread = rng.uniform(25, 45)
    variant = rng.choice(["triangle", "retrace", "one_barb"])
    tip = add((0.0, 0.0), dirv(shaft_dir), L)
    b1 = add(tip, dirv(shaft_dir + 180 - spread), head)
    b2 = add(tip, dirv(shaft_dir + 180 + spread), head)
    if rng.random() < 0.5:
        b1, b2 = b2, b1
    if variant == "triangle":
        verts = [(0.0, 0.0), tip, b1, b2, tip]
    elif variant == "retrace":
        verts = [(0.0, 0.0), tip, b1, tip, b2]
    else:
        verts = [(0.0, 0.0), tip, b1]
    return verts, {"shaft_deg": shaft_dir, "head": head, "spread": spread, "variant": variant}


def shape_zigzag(rng, P, sp, sloppy):
    n = rng.choice([3, 4, 4, 4, 5, 6])
    w = rng.uniform(0.25, 0.5)
    verts = [(0.0, 0.0)]
    for i in range(n):
        dy = 1.0 if i % 2 == 0 else -1.0
        verts.append((verts[-1][0] + w * lognorm(rng, 1, 0.15), verts[-1][1] + dy * lognorm(rng, 1, 0.12)))
    return verts, {"segments": n, "w": w}


SHAPES = {"check": shape_check, "v": shape_v, "caret": shape_caret, "sqrt": shape_sqrt,
          "letter_v": shape_letter_v, "u": shape_u, "slash_tick": shape_slash_tick,
          "delete_mark": shape_delete, "arrow": shape_arrow, "zig_zag": shape_zigzag}


# ------------------------------------------------------------------ timing --
def time_path(pts, rng, speed_mm_s, dwell_ms, end_ramp, t_min):
    s = arclen(pts)
    L = s[-1]
    n = len(pts)
    # curvature by heading change over +-0.6 mm
    w = max(1, int(0.6 / max(1e-6, L / max(1, n - 1))))
    v = []
    for i in range(n):
        a, b = max(0, i - w), min(n - 1, i + w)
        m = i
        if a == m or b == m:
            v.append(1.0)
            continue
        h1 = math.atan2(pts[m][1] - pts[a][1], pts[m][0] - pts[a][0])
        h2 = math.atan2(pts[b][1] - pts[m][1], pts[b][0] - pts[m][0])
        dh = abs((h2 - h1 + math.pi) % (2 * math.pi) - math.pi)
        ds = max(1e-6, s[b] - s[a])
        k = dh / ds
        R = 1 / max(k, 1e-6)
        v.append(max(0.08, min(1.0, (R / (0.25 * L)) ** (1 / 3))))
    # ramps
    for i in range(n):
        u = s[i] / L
        up = min(1, u / 0.12)
        dn = min(1, (1 - u) / 0.12)
        v[i] *= (0.25 + 0.75 * math.sin(up * math.pi / 2)) * (end_ramp + (1 - end_ramp) * math.sin(dn * math.pi / 2))
    t = [0.0]
    for i in range(1, n):
        t.append(t[-1] + (s[i] - s[i - 1]) / (0.5 * (v[i] + v[i - 1])))
    scale = max(L / speed_mm_s, t_min) / t[-1]
    t = [x * scale for x in t]
    # dwell at sharp local speed minima
    if dwell_ms > 0:
        extra = 0.0
        t2 = []
        for i in range(n):
            if 0 < i < n - 1 and v[i] < 0.3 and v[i] <= v[i - 1] and v[i] < v[i + 1]:
                extra += dwell_ms / 1000.0 * rng.uniform(0.5, 1.5)
            t2.append(t[i] + extra)
        t = t2
    return t


def sample(pts, t, rng, rate, noise, tremor):
    T = t[-1]
    out = []
    k = 0
    f1, f2 = rng.uniform(8, 12), rng.uniform(8, 12)
    ph1, ph2 = rng.uniform(0, 6.3), rng.uniform(0, 6.3)
    j = 0
    times = [0.0]
    while True:
        k += 1
        tk = k / rate + rng.gauss(0, 0.001)
        if tk >= T:
            break
        if rng.random() < 0.03:
            continue
        times.append(tk)
    times.append(T)
    for tk in times:
        while j < len(t) - 2 and t[j + 1] < tk:
            j += 1
        span = t[j + 1] - t[j]
        u = 0 if span <= 0 else min(1, max(0, (tk - t[j]) / span))
        x = pts[j][0] + u * (pts[j + 1][0] - pts[j][0])
        y = pts[j][1] + u * (pts[j + 1][1] - pts[j][1])
        x += rng.gauss(0, noise) + tremor * math.sin(2 * math.pi * f1 * tk + ph1)
        y += rng.gauss(0, noise) + tremor * math.sin(2 * math.pi * f2 * tk + ph2)
        out.append((x, y, tk))
    return out


# --------------------------------------------------------------- one stroke --
def make_stroke(rng, P, cls, sp):
    sloppy = {"slow": 0.8, "medium": 1.0, "fast": 1.4}[sp]
    verts, prm = SHAPES[cls](rng, P, sp, sloppy)
    narms = len(verts) - 1
    bows = [rng.gauss(P["bow"], P["bow_sd"] * sloppy) for _ in range(narms)]
    base_round = P["round"] * {"slow": 0.7, "medium": 1.0, "fast": 1.4}[sp]
    rounds = [min(0.35, max(0.0, rng.gauss(base_round, 0.06 * sloppy))) for _ in range(narms - 1)]
    if cls == "u":
        rounds = [prm["force_round"], prm["force_round"]] + [max(0.0, rng.gauss(base_round, 0.05))] * (narms - 3)
        del prm["force_round"]
    # skeleton units -> mm: normalise so the bounding box's larger side is 1
    raw = build_path(verts, bows, rounds, step=0.005)
    x0, y0, x1, y1 = bbox(raw)
    ext = max(x1 - x0, y1 - y0)
    size = P["size_mm"] * math.exp(rng.gauss(0, 0.15))
    if cls in ("letter_v", "u"):
        size *= 0.75   # handwriting letters are drawn a bit smaller
    size *= {"slow": 0.95, "medium": 1.0, "fast": 1.08}[sp]
    size = min(60.0, max(8.0, size))
    pts = [(x * size / ext, y * size / ext) for x, y in raw]
    rot = P["rot_deg"] + rng.gauss(0, 5 * sloppy)
    shear = P["shear"] + rng.gauss(0, 0.05)
    aspect = math.exp(rng.gauss(0, 0.08))
    pts = transform(pts, rot, shear, aspect)
    # effective skeleton after size/rotation/shear/aspect (no bow, rounding, hooks):
    # arm lengths in mm and chord directions in degrees above horizontal
    sk = transform([(x * size / ext, y * size / ext) for x, y in verts], rot, shear, aspect)
    eff_len = [round(dist(p, q), 2) for p, q in zip(sk, sk[1:])]
    eff_deg = [round(math.degrees(math.atan2(-(q[1] - p[1]), q[0] - p[0])), 1) for p, q in zip(sk, sk[1:])]
    # hooks
    hs = he = 0.0
    ts = te = 0.0
    hook_scale = {"slow": 0.8, "medium": 1.0, "fast": 1.3}[sp]
    if rng.random() < P["hook_p"]:
        hs = min(3.0, P["hook_len"] * hook_scale * math.exp(rng.gauss(0, 0.4)))
        ts = rng.uniform(-80, 80)
    if rng.random() < P["hook_p"]:
        he = min(3.0, P["hook_len"] * hook_scale * math.exp(rng.gauss(0, 0.4)))
        te = rng.choice([-1, 1]) * rng.uniform(60, 160)
    pts = add_hooks(pts, rng, hs, ts, he, te)
    # timing
    lo, hi = SPEED_MM_S[sp]
    spd = rng.uniform(lo, hi) * P["speed_factor"]
    dwell = P["dwell_ms"] * {"slow": 1.5, "medium": 1.0, "fast": 0.3}[sp]
    end_ramp = {"slow": 0.2, "medium": 0.35, "fast": 0.6}[sp]
    t = time_path(pts, rng, spd, dwell, end_ramp, 0.08 + 0.03 * (narms - 1))
    tremor = P["tremor_mm"] * {"slow": 1.5, "medium": 1.0, "fast": 0.6}[sp]
    samples = sample(pts, t, rng, P["rate_hz"], P["noise_mm"], tremor)
    prm.update({"size_mm": round(size, 1), "rot_deg": round(rot, 1), "shear": round(shear, 3),
                "aspect": round(aspect, 3), "bows": [round(b, 3) for b in bows],
                "rounds": [round(r, 3) for r in rounds], "hook_start_mm": round(hs, 2),
                "hook_start_turn": round(ts), "hook_end_mm": round(he, 2), "hook_end_turn": round(te),
                "speed_mm_s": round(spd), "dwell_ms": round(dwell), "duration_ms": round(t[-1] * 1000),
                "npts": len(samples), "rate_hz": P["rate_hz"], "eff_len_mm": eff_len, "eff_deg": eff_deg})
    for k, val in list(prm.items()):
        if isinstance(val, float):
            prm[k] = round(val, 3)
    return samples, prm


def write_xml(path, name, subj, sp, num, samples, rng):
    ox, oy = rng.uniform(80, 250), rng.uniform(150, 400)
    t0 = rng.randint(100000, 9000000)
    rows = []
    last_t = None
    for x, y, tk in samples:
        T = t0 + int(round(tk * 1000))
        if last_t is not None and T <= last_t:
            T = last_t + 1
        last_t = T
        rows.append((int(round(ox + x * PX_PER_MM)), int(round(oy + y * PX_PER_MM)), T))
    with open(path, "w") as f:
        f.write('<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n')
        f.write(f'<Gesture Name="{name}" Subject="{subj}" Speed="{sp}" Number="{num}" NumPts="{len(rows)}" '
                f'Millseconds="{rows[-1][2] - rows[0][2]}" AppName="Gestures" AppVer="3.5.0.0">\n')
        for x, y, T in rows:
            f.write(f'  <Point X="{x}" Y="{y}" T="{T}" />\n')
        f.write('</Gesture>\n')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--people", type=int, default=12)
    ap.add_argument("--per-speed", type=int, default=30)
    ap.add_argument("--out", required=True)
    ap.add_argument("--classes", default=",".join(CLASSES))
    a = ap.parse_args()
    rng = random.Random(a.seed)
    classes = a.classes.split(",")
    people = [make_person(rng, i + 1) for i in range(a.people)]
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "people.json"), "w") as f:
        json.dump([{k: (round(v, 3) if isinstance(v, float) else v) for k, v in p.items()} for p in people], f, indent=1)
    with open(os.path.join(a.out, "params.jsonl"), "w") as plog:
        for P in people:
            for sp in SPEEDS:
                d = os.path.join(a.out, f"s{P['id']:02d}", sp)
                os.makedirs(d, exist_ok=True)
                for cls in classes:
                    for k in range(1, a.per_speed + 1):
                        # per-stroke RNG so that a file can be regenerated alone
                        srng = random.Random(f"{a.seed}/{P['id']}/{sp}/{cls}/{k}")
                        samples, prm = make_stroke(srng, P, cls, sp)
                        name = f"{cls}{k:02d}"
                        path = os.path.join(d, name + ".xml")
                        write_xml(path, name, P["id"], sp, k, samples, srng)
                        prm.update({"file": os.path.relpath(path, a.out), "class": cls,
                                    "subject": f"s{P['id']:02d}", "speed": sp})
                        plog.write(json.dumps(prm) + "\n")


if __name__ == "__main__":
    main()
