#!/usr/bin/env python3
"""Seeded synthetic stylus-stroke generator: checkmarks and V's.

Models 10 synthetic people (s01..s10) drawing on a small handheld
touchscreen (Pocket-PC-like, 4.5 px/mm, stylus) at three speeds,
10 checkmarks + 10 V's per speed -> 600 strokes, written as $1-style
XML logs.  Standard library only.

Kinematic model: each stroke is a sum of sigma-lognormal sub-movements
(Plamondon's kinematic theory of rapid human movements).  Every arm of
the shape is one (fast) or several overlapping (slow) lognormal
sub-movements along a slightly curved arc; the second arm starts before
the first has finished (overlap), which rounds the corner the way real
fast drawing does.  Optional tiny landing / lifting hooks are extra
short sub-movements.  The pen position is evaluated analytically at the
digitizer's sample times, physiological tremor and digitizer noise are
added, coordinates are rounded to integer pixels, and - like
mouse-move events - a sample is only logged when the integer position
changes.

Usage:  python3 stylus_checkmark_strokes.py OUTDIR
"""

import json
import math
import os
import random
import sys
import datetime

PX_PER_MM = 4.5
MASTER_SEED = 20070305          # drives the stratified person styles
SUBJECT_SEED_BASE = 3_000_000   # subject n uses random.Random(SUBJECT_SEED_BASE + n)
N_SUBJECTS = 10
N_PER_CLASS = 10
SPEEDS = ("slow", "medium", "fast")
CLASSES = ("check", "v")
SCREEN_W, SCREEN_H = 240, 320   # px, Pocket PC portrait screen

D2R = math.pi / 180.0


# ----------------------------------------------------------------------------
# sigma-lognormal primitives
# ----------------------------------------------------------------------------

class Comp:
    """One lognormal sub-movement.

    Arc length D (mm) travelled with a lognormal speed profile starting at
    t0 (s), log-time parameters mu, sig; direction rotates linearly with
    travelled fraction from ths to the (rad, screen coords, y down)."""

    __slots__ = ("t0", "mu", "sig", "D", "ths", "the", "tag")

    def __init__(self, onset, dur, sig, D, ths, the, tag=""):
        # 'onset' = t0 + exp(mu - 3 sig); 'dur' = active window (+-3 sigma)
        span = math.exp(3 * sig) - math.exp(-3 * sig)
        self.mu = math.log(dur / span)
        self.sig = sig
        self.t0 = onset - math.exp(self.mu - 3 * sig)
        self.D = D
        self.ths = ths
        self.the = the
        self.tag = tag

    def cdf(self, t):
        if t <= self.t0:
            return 0.0
        return 0.5 * (1.0 + math.erf((math.log(t - self.t0) - self.mu) / (self.sig * math.sqrt(2.0))))

    def disp(self, t):
        u = self.cdf(t)
        d = self.the - self.ths
        if abs(d) < 1e-7:
            return self.D * u * math.cos(self.ths), self.D * u * math.sin(self.ths)
        return (self.D / d * (math.sin(self.ths + d * u) - math.sin(self.ths)),
                -self.D / d * (math.cos(self.ths + d * u) - math.cos(self.ths)))

    def time_at(self, p):
        """time at which cumulative fraction p is reached (bisection)."""
        lo, hi = self.t0, self.t0 + math.exp(self.mu + 6 * self.sig)
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            if self.cdf(mid) < p:
                lo = mid
            else:
                hi = mid
        return hi

    def end(self):
        return self.t0 + math.exp(self.mu + 3 * self.sig)


def arc_len_for_chord(chord, sweep):
    if abs(sweep) < 1e-7:
        return chord
    return chord * (sweep / 2.0) / math.sin(sweep / 2.0)


def make_arm(rng, onset, dur, sig, chord, chord_dir, sweep, n_sub, tag, inflate=1.0):
    """An arm = n_sub overlapping sub-movements along one arc.

    Returns list of Comp.  Sub-movement k covers fraction [F0,F1] of the arc;
    its direction is jittered a little (people's slow strokes wobble)."""
    A = arc_len_for_chord(chord, sweep) * inflate
    th_s = chord_dir - sweep / 2.0
    if n_sub == 1:
        return [Comp(onset, dur, sig, A, th_s, th_s + sweep, tag)]
    w = [rng.uniform(0.6, 1.4) for _ in range(n_sub)]
    tot = sum(w)
    bounds = [0.0]
    for x in w:
        bounds.append(bounds[-1] + x / tot)
    comps = []
    sub_dur = 2.0 * dur / (n_sub + 1)
    step = dur / (n_sub + 1)
    t = onset
    for k in range(n_sub):
        F0, F1 = bounds[k], bounds[k + 1]
        j = rng.gauss(0, 3.5) * D2R
        comps.append(Comp(t, sub_dur * rng.uniform(0.85, 1.15), sig * rng.uniform(0.9, 1.15),
                          A * (F1 - F0), th_s + sweep * F0 + j, th_s + sweep * F1 + j,
                          "%s.%d" % (tag, k)))
        t += step * rng.uniform(0.8, 1.2)
    return comps


# ----------------------------------------------------------------------------
# person styles
# ----------------------------------------------------------------------------

def stratified(master, lo, hi, n=N_SUBJECTS, log=False):
    perm = list(range(n))
    master.shuffle(perm)
    out = []
    for i in range(n):
        u = (perm[i] + master.random()) / n
        if log:
            out.append(math.exp(math.log(lo) + u * (math.log(hi) - math.log(lo))))
        else:
            out.append(lo + u * (hi - lo))
    return out


def clip(x, lo, hi):
    return max(lo, min(hi, x))


def make_styles():
    master = random.Random(MASTER_SEED)
    size = stratified(master, 16.0, 32.0)           # V max dimension, mm
    rot = stratified(master, -9.0, 9.0)             # whole-shape rotation, deg (+ = clockwise)
    lop = stratified(master, 0.9, 1.32)             # V right/left arm length
    steep = stratified(master, -6.0, 9.0)           # V right arm steeper by (deg)
    ratio = stratified(master, 1.5, 3.8, log=True)  # check long/short arm
    corner = stratified(master, 0.0, 1.0)           # corner style quantile
    tempo = stratified(master, 0.20, 0.38)          # s per 10 mm arm at medium speed
    lefty = master.randrange(N_SUBJECTS)

    styles = []
    rngs = []
    for i in range(N_SUBJECTS):
        n = i + 1
        seed = SUBJECT_SEED_BASE + n
        r = random.Random(seed)
        st = {"subject": n, "seed": seed}
        st["handedness"] = "left" if i == lefty else "right"
        st["size_mm"] = round(size[i], 2)
        st["check_size_rel"] = round(clip(r.gauss(1.0, 0.1), 0.82, 1.22), 3)
        hand_bias = -4.0 if st["handedness"] == "left" else 2.0
        st["rot_deg"] = round(rot[i] + hand_bias, 2)
        st["check_rot_offset_deg"] = round(r.gauss(0, 3.0), 2)
        # V geometry
        st["v_a1_deg"] = round(r.uniform(58, 76), 2)              # left arm, below horizontal
        a2 = clip(st["v_a1_deg"] + steep[i], 52, 78)                  # right arm, above horizontal
        if st["v_a1_deg"] + a2 > 150.0:                                # keep the V open >= ~30 deg
            ex = st["v_a1_deg"] + a2 - 150.0
            st["v_a1_deg"] = round(st["v_a1_deg"] - ex / 2.0, 2)
            a2 -= ex / 2.0
        st["v_a2_deg"] = round(a2, 2)
        st["v_lop"] = round(lop[i], 3)                            # L2/L1
        st["v_curv1_deg"] = round(clip(r.gauss(0, 7), -18, 18), 2)
        st["v_curv2_deg"] = round(clip(r.gauss(0, 7), -18, 18), 2)
        # checkmark geometry
        st["check_c1_deg"] = round(r.uniform(30, 64), 2)          # short arm, below horizontal
        st["check_c2_deg"] = round(r.uniform(42, 66), 2)          # long arm, above horizontal
        st["check_ratio"] = round(ratio[i], 3)                    # L2/L1
        st["check_curv1_deg"] = round(clip(r.gauss(0, 9), -22, 22), 2)
        cs = 1.0 if st["handedness"] == "right" else -1.0
        st["check_curv2_deg"] = round(clip(r.gauss(-4 * cs, 9), -25, 25), 2)
        # corner
        c = corner[i]
        if c < 0.35:
            st["corner_style"] = "sharp"
            st["corner_overlap"] = round(0.0 + 0.08 * (c / 0.35), 3)
        elif c < 0.7:
            st["corner_style"] = "slightly_rounded"
            st["corner_overlap"] = round(0.16 + 0.10 * ((c - 0.35) / 0.35), 3)
        else:
            st["corner_style"] = "rounded"
            st["corner_overlap"] = round(0.30 + 0.12 * ((c - 0.7) / 0.3), 3)
        st["check_fluency"] = round(clip(r.gauss(0.04, 0.04), -0.04, 0.12), 3)
        st["fast_cut"] = round(r.uniform(0.03, 0.14), 3)
        # speed
        st["tempo_s_per_10mm"] = round(tempo[i], 3)
        st["slow_mult"] = round(r.uniform(1.6, 2.8), 3)
        st["fast_mult"] = round(r.uniform(0.45, 0.70), 3)
        st["sigma"] = round(r.uniform(0.22, 0.36), 3)
        st["slow_subs_mean"] = round(r.uniform(2.0, 3.6), 2)
        st["size_mult_slow"] = round(r.uniform(0.90, 1.0), 3)
        st["size_mult_fast"] = round(r.uniform(1.0, 1.12), 3)
        # hooks
        st["start_hook_prob"] = round(r.choice([0.0, 0.0, 0.1, 0.25, 0.45, 0.6]), 2)
        st["end_hook_prob"] = round(r.choice([0.0, 0.0, 0.1, 0.25, 0.45, 0.6]), 2)
        st["hook_len_mm"] = round(r.uniform(0.5, 1.5), 2)
        st["start_hook_dir_off_deg"] = round(r.uniform(110, 250), 1)
        st["end_hook_dir_off_deg"] = round(r.choice([-1, 1]) * r.uniform(100, 160), 1)
        # checkmark flick: lift the pen while still moving
        st["check_lift_p_fast"] = round(r.uniform(0.84, 1.0), 3)
        # variability / noise / device
        st["variability"] = round(r.uniform(0.7, 1.4), 3)
        st["tremor_mm"] = round(r.uniform(0.02, 0.07), 3)
        st["sample_hz"] = round(r.uniform(60, 100), 1)
        st["center_px"] = [round(r.uniform(100, 140), 1), round(r.uniform(150, 190), 1)]
        st["date"] = (datetime.date(2007, 3, 5) + datetime.timedelta(days=r.randrange(0, 12))).isoformat()
        st["start_clock_s"] = r.randrange(9 * 3600, 17 * 3600)
        st["tick_base_ms"] = r.randrange(1_000_000, 9_000_000)
        styles.append(st)
        rngs.append(r)   # the same per-subject stream continues into the strokes
    return styles, rngs


# ----------------------------------------------------------------------------
# one stroke
# ----------------------------------------------------------------------------

SPEED_VAR = {"slow": 0.85, "medium": 1.0, "fast": 1.35}


def stroke_params(r, st, cls, speed, drift):
    var = st["variability"] * SPEED_VAR[speed]
    smult = {"slow": st["size_mult_slow"], "medium": 1.0, "fast": st["size_mult_fast"]}[speed]
    p = {}
    if cls == "v":
        a1 = r.gauss(st["v_a1_deg"], 3.0 * var)
        a2 = r.gauss(st["v_a2_deg"], 3.0 * var)
        ratio = st["v_lop"] * math.exp(r.gauss(0, 0.06 * var))
        size = st["size_mm"] * smult * math.exp(r.gauss(0, 0.06 * var) + drift[0])
        rot = r.gauss(st["rot_deg"], 2.5 * var) + drift[1]
        curv1 = r.gauss(st["v_curv1_deg"], 4.0 * var)
        curv2 = r.gauss(st["v_curv2_deg"], 4.0 * var)
    else:
        a1 = r.gauss(st["check_c1_deg"], 4.5 * var)
        a2 = r.gauss(st["check_c2_deg"], 3.5 * var)
        ratio = st["check_ratio"] * math.exp(r.gauss(0, 0.09 * var))
        size = st["size_mm"] * st["check_size_rel"] * smult * math.exp(r.gauss(0, 0.06 * var) + drift[0])
        rot = r.gauss(st["rot_deg"] + st["check_rot_offset_deg"], 2.5 * var) + drift[1]
        curv1 = r.gauss(st["check_curv1_deg"], 5.0 * var)
        curv2 = r.gauss(st["check_curv2_deg"], 4.5 * var)
    a1 = clip(a1, 15, 85)
    a2 = clip(a2, 25, 85)
    if a1 + a2 > 158.0:          # nobody's V / tick collapses to a hairpin
        ex = a1 + a2 - 158.0
        a1 -= ex / 2.0
        a2 -= ex / 2.0
    # planned (unrotated) polyline: start (0,0), corner, end; size = max bbox dim
    L1 = 1.0
    L2 = ratio
    c = (L1 * math.cos(a1 * D2R), L1 * math.sin(a1 * D2R))
    e = (c[0] + L2 * math.cos(a2 * D2R), c[1] - L2 * math.sin(a2 * D2R))
    xs = [0, c[0], e[0]]
    ys = [0, c[1], e[1]]
    k = size / max(max(xs) - min(xs), max(ys) - min(ys))
    p.update(size_mm=size, rot_deg=rot, a1_deg=a1, a2_deg=a2, L1_mm=L1 * k, L2_mm=L2 * k,
             arm_ratio=ratio, curv1_deg=curv1, curv2_deg=curv2)

    # timing
    mult = {"slow": st["slow_mult"], "medium": 1.0, "fast": st["fast_mult"]}[speed]
    tvar = {"slow": 0.10, "medium": 0.08, "fast": 0.12}[speed]
    dur1 = st["tempo_s_per_10mm"] * mult * (p["L1_mm"] / 10.0) ** 0.45 * math.exp(r.gauss(0, tvar))
    dur2 = st["tempo_s_per_10mm"] * mult * (p["L2_mm"] / 10.0) ** 0.45 * math.exp(r.gauss(0, tvar))
    eff = st["tempo_s_per_10mm"] * mult
    ov = st["corner_overlap"] + 0.14 * math.log(0.30 / eff)
    if speed == "fast":
        ov += st["fast_cut"]
    if cls == "check":
        ov += st["check_fluency"]
    ov += r.gauss(0, 0.04)
    ov = clip(ov, -0.25, 0.6)
    sig = clip(st["sigma"] * math.exp(r.gauss(0, 0.05)), 0.18, 0.45)
    if speed == "slow":
        n1 = max(1, int(round(r.gauss(st["slow_subs_mean"] * min(1.0, (p["L1_mm"] / 12.0) ** 0.5), 0.6))))
        n2 = max(1, int(round(r.gauss(st["slow_subs_mean"] * min(1.0, (p["L2_mm"] / 12.0) ** 0.5), 0.6))))
    elif speed == "medium":
        n1 = 1 if r.random() < 0.75 else 2
        n2 = 1 if r.random() < 0.65 else 2
    else:
        n1 = n2 = 1
    p.update(dur1_s=dur1, dur2_s=dur2, corner_overlap=ov, sigma=sig, n_sub1=n1, n_sub2=n2)

    # lift: checks may be flicked off while still moving
    if cls == "check":
        lp = {"slow": 1.0 - 0.25 * (1.0 - st["check_lift_p_fast"]),
              "medium": 1.0 - 0.6 * (1.0 - st["check_lift_p_fast"]),
              "fast": st["check_lift_p_fast"]}[speed]
        lp = clip(lp + r.gauss(0, 0.02), 0.8, 0.995)
    else:
        lp = clip(0.995 - (0.03 if speed == "fast" else 0.0) + r.gauss(0, 0.01), 0.93, 0.995)
    p["lift_p"] = lp

    hscale = {"slow": 0.7, "medium": 1.0, "fast": 1.4}[speed]
    p["start_hook"] = r.random() < st["start_hook_prob"] * hscale
    p["end_hook"] = r.random() < st["end_hook_prob"] * hscale
    p["start_hook_len_mm"] = clip(st["hook_len_mm"] * r.uniform(0.6, 1.3), 0.3, 2.0) if p["start_hook"] else 0.0
    p["end_hook_len_mm"] = clip(st["hook_len_mm"] * r.uniform(0.6, 1.3), 0.3, 2.0) if p["end_hook"] else 0.0
    p["start_hook_dir_off_deg"] = st["start_hook_dir_off_deg"] + r.gauss(0, 20)
    p["end_hook_dir_off_deg"] = st["end_hook_dir_off_deg"] + r.gauss(0, 20)
    dw = {"slow": (0.02, 0.09), "medium": (0.005, 0.04), "fast": (0.0, 0.015)}[speed]
    p["dwell_start_s"] = r.uniform(*dw)
    p["dwell_end_s"] = r.uniform(*dw) if lp > 0.97 else 0.0
    return p


def build_components(r, p):
    rot = p["rot_deg"] * D2R
    dir1 = p["a1_deg"] * D2R + rot          # y down: positive angle = downwards
    dir2 = -p["a2_deg"] * D2R + rot
    comps = []
    t = 0.0
    if p["start_hook"]:
        hd = 0.05 + 0.03 * r.random()
        hdir = dir1 + p["start_hook_dir_off_deg"] * D2R
        comps.append(Comp(t, hd, 0.25, p["start_hook_len_mm"], hdir, hdir, "hook0"))
        t += hd * r.uniform(0.45, 0.7)
        t_down = hd * r.uniform(0.0, 0.2)
    else:
        t = p["dwell_start_s"]
        t_down = 0.0
    arm1 = make_arm(r, t, p["dur1_s"], p["sigma"], p["L1_mm"], dir1, p["curv1_deg"] * D2R, p["n_sub1"], "arm1")
    comps += arm1
    t2 = t + (1.0 - p["corner_overlap"]) * p["dur1_s"]
    lp = p["lift_p"]
    # inflate arm2 so that the drawn length is about as planned when lifting early
    w_last = 1.0 / p["n_sub2"]
    inflate = 1.0 / (1.0 - w_last * (1.0 - lp))
    arm2 = make_arm(r, t2, p["dur2_s"], p["sigma"], p["L2_mm"], dir2, p["curv2_deg"] * D2R, p["n_sub2"], "arm2",
                    inflate=inflate)
    comps += arm2
    last = max(arm2, key=lambda c: c.t0 + math.exp(c.mu))
    t_main = last.time_at(lp)
    t_up = t_main + p["dwell_end_s"]
    if p["end_hook"]:
        hd = 0.045 + 0.035 * r.random()
        end_dir = dir2 + p["curv2_deg"] * D2R / 2.0
        hdir = end_dir + p["end_hook_dir_off_deg"] * D2R
        on = t_main - hd * r.uniform(0.3, 0.6)
        comps.append(Comp(on, hd, 0.25, p["end_hook_len_mm"], hdir, hdir, "hook1"))
        t_up = max(t_main, on + hd * r.uniform(0.6, 0.9))
    return comps, t_down, t_up


def render_points(r, st, comps, t_down, t_up, speed):
    """digitizer sampling -> list of (x_px, y_px, t_ms_rel)."""
    interval = 1000.0 / st["sample_hz"]
    times = [0]
    total_ms = int(round((t_up - t_down) * 1000))
    tt = 0.0
    while True:
        tt += interval + r.uniform(-1.0, 1.0)
        if r.random() < 0.015:
            tt += interval
        ti = int(round(tt))
        if ti >= total_ms:
            break
        times.append(ti)
    times.append(max(total_ms, times[-1] + 1))
    # tremor: two sinusoids per axis (physiological 7-11 Hz) with random phases
    amp = st["tremor_mm"] * (1.3 if speed == "slow" else 1.0)
    trem = [(r.uniform(7, 11), r.uniform(0, 2 * math.pi), amp * r.uniform(0.5, 1.0)) for _ in range(4)]
    pts = []
    nx = ny = 0.0
    for ti in times:
        t = t_down + ti / 1000.0
        x = y = 0.0
        for c in comps:
            dx, dy = c.disp(t)
            x += dx
            y += dy
        x += trem[0][2] * math.sin(2 * math.pi * trem[0][0] * t + trem[0][1]) + \
            trem[1][2] * math.sin(2 * math.pi * trem[1][0] * t + trem[1][1])
        y += trem[2][2] * math.sin(2 * math.pi * trem[2][0] * t + trem[2][1]) + \
            trem[3][2] * math.sin(2 * math.pi * trem[3][0] * t + trem[3][1])
        # digitizer noise: AR(1), ~0.25 px
        nx = 0.8 * nx + r.gauss(0, 0.15)
        ny = 0.8 * ny + r.gauss(0, 0.15)
        pts.append((x * PX_PER_MM + nx, y * PX_PER_MM + ny, ti))
    return pts


def place_and_quantize(r, st, pts):
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    cx = (min(xs) + max(xs)) / 2.0
    cy = (min(ys) + max(ys)) / 2.0
    tx = st["center_px"][0] + r.gauss(0, 7) - cx
    ty = st["center_px"][1] + r.gauss(0, 9) - cy
    # keep on screen
    tx = min(max(tx, 3 - min(xs)), SCREEN_W - 4 - max(xs))
    ty = min(max(ty, 3 - min(ys)), SCREEN_H - 4 - max(ys))
    out = []
    for i, (x, y, t) in enumerate(pts):
        q = (int(round(x + tx)), int(round(y + ty)), t)
        # mouse-move semantics: only log when the integer position changes
        if out and (q[0], q[1]) == (out[-1][0], out[-1][1]):
            continue
        out.append(q)
    return out


# ----------------------------------------------------------------------------
# output
# ----------------------------------------------------------------------------

def fmt_time_of_day(sec):
    sec = int(sec) % 86400
    h, m, s = sec // 3600, (sec // 60) % 60, sec % 60
    ap = "AM" if h < 12 else "PM"
    h12 = h % 12 or 12
    return "%d:%02d:%02d %s" % (h12, m, s, ap)


def write_xml(path, name, subject, speed, number, pts, t_start, date, tod):
    ms = pts[-1][2] - pts[0][2]
    d = datetime.date.fromisoformat(date)
    date_s = d.strftime("%A, %B %d, %Y")
    lines = ['<?xml version="1.0" encoding="utf-8" standalone="yes"?>',
             '<Gesture Name="%s" Subject="%d" Speed="%s" Number="%d" NumPts="%d" Millseconds="%d" '
             'AppName="Gestures" AppVer="3.5.0.0" Date="%s" TimeOfDay="%s">'
             % (name, subject, speed, number, len(pts), ms, date_s, tod)]
    for x, y, t in pts:
        lines.append('  <Point X="%d" Y="%d" T="%d" />' % (x, y, t_start + t))
    lines.append('</Gesture>')
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: stylus_checkmark_strokes.py OUTDIR")
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    styles, rngs = make_styles()
    params_lines = []
    for st, r in zip(styles, rngs):
        n = st["subject"]
        # session order / clock use a separate, also fixed, stream
        sess = random.Random(st["seed"] * 7919 + 17)
        speeds = list(SPEEDS)
        sess.shuffle(speeds)
        clock_ms = st["tick_base_ms"]
        tod0 = st["start_clock_s"]
        for speed in speeds:
            os.makedirs(os.path.join(outdir, "s%02d" % n, speed), exist_ok=True)
            classes = list(CLASSES)
            sess.shuffle(classes)
            for cls in classes:
                drift = [0.0, 0.0]
                for num in range(1, N_PER_CLASS + 1):
                    drift[0] = 0.6 * drift[0] + r.gauss(0, 0.03)
                    drift[1] = 0.6 * drift[1] + r.gauss(0, 1.2)
                    p = stroke_params(r, st, cls, speed, drift)
                    comps, t_down, t_up = build_components(r, p)
                    raw = render_points(r, st, comps, t_down, t_up, speed)
                    pts = place_and_quantize(r, st, raw)
                    clock_ms += int(sess.uniform(1200, 4500))
                    t_start = clock_ms
                    tod = fmt_time_of_day(tod0 + (clock_ms - st["tick_base_ms"]) / 1000.0)
                    name = "%s%02d" % (cls, num)
                    rel = "s%02d/%s/%s.xml" % (n, speed, name)
                    write_xml(os.path.join(outdir, rel), name, n, speed, num, pts, t_start, st["date"], tod)
                    clock_ms += pts[-1][2]
                    xs = [q[0] for q in pts]
                    ys = [q[1] for q in pts]
                    rec = {"file": rel, "subject": n, "speed": speed, "class": cls, "number": num}
                    for k, v in p.items():
                        rec[k] = round(v, 4) if isinstance(v, float) else v
                    rec["drift_logsize"] = round(drift[0], 4)
                    rec["drift_rot_deg"] = round(drift[1], 3)
                    rec["num_pts"] = len(pts)
                    rec["millis"] = pts[-1][2] - pts[0][2]
                    rec["bbox_px"] = [min(xs), min(ys), max(xs), max(ys)]
                    rec["components"] = [{"tag": c.tag, "t0": round(c.t0, 4), "mu": round(c.mu, 4),
                                          "sigma": round(c.sig, 4), "D_mm": round(c.D, 3),
                                          "theta_s_deg": round(c.ths / D2R, 2),
                                          "theta_e_deg": round(c.the / D2R, 2)} for c in comps]
                    rec["t_down_s"] = round(t_down, 4)
                    rec["t_up_s"] = round(t_up, 4)
                    rec["subject_style"] = st
                    params_lines.append(json.dumps(rec, sort_keys=False))
    with open(os.path.join(outdir, "params.jsonl"), "w") as f:
        f.write("\n".join(params_lines) + "\n")
    with open(os.path.join(outdir, "subjects.json"), "w") as f:
        json.dump(styles, f, indent=1)
    print("wrote %d strokes to %s" % (len(params_lines), outdir))


if __name__ == "__main__":
    main()
