#!/usr/bin/env python3
"""Joins uinput_player.py's per-frame write times ("SECONDS X" lines) with
frame_times.py's ("SECONDS X") on X and prints "frames N p50 P p99 Q max M"
in milliseconds. usage: latency_join.py PLAYED READ"""
import sys

played = {}
for line in open(sys.argv[1]):
    t, x = line.split()
    played.setdefault(int(x), float(t))
lat = []
for line in open(sys.argv[2]):
    t, x = line.split()
    if int(x) in played:
        lat.append((float(t) - played[int(x)]) * 1000)
lat.sort()
if not lat:
    print("frames 0")
    sys.exit(1)


def pct(p):
    return lat[min(len(lat) - 1, int(round(p / 100.0 * (len(lat) - 1))))]


print("frames %d p50 %.3f p99 %.3f max %.3f" % (len(lat), pct(50), pct(99), lat[-1]))
