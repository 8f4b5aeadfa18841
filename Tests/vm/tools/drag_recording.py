#!/usr/bin/env python3
"""Writes an evemu recording of a steady one-finger drag across the stroke panel
(Tests/vm/tools/swipe_recording.py's "gestured stroke panel", 10 units/mm): from
X0 along X by STEP units every frame at 120 Hz, FRAMES frames, at Y 430, in slot
0 with tracking ID 7. Unlike swipe_recording.py's strokes, no easing and no
jitter: every frame is told apart by its X.

Usage: drag_recording.py X0 STEP FRAMES OUT.events [OUT.events ...]
(each OUT gets the same drag: the player plays a file once per request).
"""
import sys


def drag(x0, step, frames):
    lines, t = [], 1.0
    for k in range(frames):
        x = x0 + step * k
        if k == 0:
            lines += ["E: %.6f 0003 002f 0\n" % t, "E: %.6f 0003 0039 7\n" % t]
        lines += ["E: %.6f 0003 0035 %d\n" % (t, x), "E: %.6f 0003 0036 430\n" % t]
        if k == 0:
            lines.append("E: %.6f 0001 014a 1\n" % t)
        lines += ["E: %.6f 0003 0000 %d\n" % (t, x), "E: %.6f 0003 0001 430\n" % t, "E: %.6f 0000 0000 0\n" % t]
        t += 1 / 120.0
    lines += ["E: %.6f 0003 0039 -1\n" % t, "E: %.6f 0001 014a 0\n" % t, "E: %.6f 0000 0000 0\n" % t]
    return "".join(lines)


if __name__ == "__main__":
    if len(sys.argv) < 5:
        sys.exit(__doc__.strip())
    text = drag(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
    for out in sys.argv[4:]:
        with open(out, "w") as f:
            f.write(text)
