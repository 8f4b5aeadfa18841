"""Writing synthetic evemu recordings of a type-B touchscreen: the device
description (a multitouch panel with BTN_TOUCH, the single-touch ABS_X/ABS_Y that
follow the lowest slot, INPUT_PROP_DIRECT) and frames of finger positions turned
into kernel events, as drivers emit them.

Used by scripts/gen-tenfinger.py, Tests/fixtures/strokes/make_recordings.py and
Tests/vm/tools/gen_phone_strokes.py. Import it with this folder on sys.path.
"""


def description(name, comment, xmax, ymax, res, slots=10):
    """The evemu header of a type-B touchscreen. `comment`: lines for the top,
    without the leading '# '."""
    lines = ["# EVEMU 1.3"] + ["# " + c for c in comment.splitlines()] + [
        "N: " + name,
        "I: 0018 0000 0000 0000",
        "P: 02 00 00 00 00 00 00 00",
        "B: 00 0b 00 00 00 00 00 00 00",
    ]
    lines += ["B: 01 00 00 00 00 00 00 00 00"] * 5
    lines += ["B: 01 00 04 00 00 00 00 00 00"]
    lines += ["B: 01 00 00 00 00 00 00 00 00"] * 6
    lines += [
        "B: 02 00 00 00 00 00 00 00 00",
        "B: 03 03 00 00 00 00 80 60 02",
        "B: 04 00 00 00 00 00 00 00 00",
        "B: 05 00 00 00 00 00 00 00 00",
        "B: 11 00 00 00 00 00 00 00 00",
        "B: 12 00 00 00 00 00 00 00 00",
        "B: 14 00 00 00 00 00 00 00 00",
        "B: 15 00 00 00 00 00 00 00 00",
        "B: 15 00 00 00 00 00 00 00 00",
        "A: 00 0 %d 0 0 %d" % (xmax, res),
        "A: 01 0 %d 0 0 %d" % (ymax, res),
        "A: 2f 0 %d 0 0 0" % (slots - 1),
        "A: 35 0 %d 0 0 %d" % (xmax, res),
        "A: 36 0 %d 0 0 %d" % (ymax, res),
        "A: 39 0 65535 0 0 0",
    ]
    return "\n".join(lines) + "\n"


class TouchWriter:
    """Kernel events for frames of finger positions. Positions are given in any
    unit; `scale` turns them into device units (10 for mm on a 10 units/mm panel,
    1 for positions already in units). Each frame is one SYN_REPORT, `1/hz`
    seconds after the last, with the interval varied by `rng` by ±3 %."""

    def __init__(self, rng, xmax, ymax, scale, hz, t=1.0):
        self.rng = rng
        self.xmax, self.ymax, self.scale, self.hz = xmax, ymax, scale, hz
        self.lines = []
        self.t = t              # leave the kernel a moment after the device appears
        self.next_id = 1
        self.slot = 0           # the kernel's current slot, as a reader tracks it
        self.live = {}          # slot -> (x, y) in device units
        self.events = 0

    def ev(self, typ, code, value):
        s = int(self.t)
        us = int(round((self.t - s) * 1e6))
        if us >= 1000000:
            s, us = s + 1, us - 1000000
        self.lines.append("E: %d.%06d %04x %04x %d\n" % (s, us, typ, code, value))
        self.events += 1

    def unit(self, v, vmax):
        return max(0, min(vmax, int(round(v * self.scale))))

    def frame(self, fingers):
        """fingers: slot -> (x, y), or None to lift. One SYN_REPORT."""
        before = bool(self.live)
        for slot in sorted(fingers):
            pos = fingers[slot]
            if slot != self.slot:
                self.ev(3, 0x2f, slot)
                self.slot = slot
            if pos is None:
                if slot in self.live:
                    self.ev(3, 0x39, -1)
                    del self.live[slot]
                continue
            x, y = self.unit(pos[0], self.xmax), self.unit(pos[1], self.ymax)
            old = self.live.get(slot)
            if old is None:
                self.ev(3, 0x39, self.next_id)
                self.next_id = self.next_id % 65535 + 1
            if old is None or old[0] != x:
                self.ev(3, 0x35, x)
            if old is None or old[1] != y:
                self.ev(3, 0x36, y)
            self.live[slot] = (x, y)
        after = bool(self.live)
        if after != before:
            self.ev(1, 0x14a, 1 if after else 0)
        if self.live:
            x, y = self.live[min(self.live)]
            self.ev(3, 0x00, x)
            self.ev(3, 0x01, y)
        self.ev(0, 0, 0)
        self.t += 1.0 / self.hz * self.rng.uniform(0.97, 1.03)

    def pause(self, seconds):
        self.t += seconds

    def text(self):
        return "".join(self.lines)
