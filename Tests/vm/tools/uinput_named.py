#!/usr/bin/env python3
"""Creates a uinput touchscreen with a given name, as raw bytes, and keeps it
until killed: a device whose name (EVIOCGNAME) holds what no .desc line can
(a newline, an escape sequence, bytes that are not UTF-8).

usage: uinput_named.py NAME_AS_PYTHON_BYTES_LITERAL
  e.g. uinput_named.py 'b"Evil\\nTouch\\x1b[31m"'
Prints the event node's sysfs name on stdout once the device exists.
"""
import ast
import fcntl
import os
import signal
import struct
import sys
import time

UI_SET_EVBIT, UI_SET_KEYBIT, UI_SET_ABSBIT, UI_SET_PROPBIT = 0x40045564, 0x40045565, 0x40045567, 0x4004556E
UI_DEV_CREATE, UI_DEV_DESTROY = 0x5501, 0x5502
EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
BTN_TOUCH = 0x14A
ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0, 1, 0x2F, 0x35, 0x36, 0x39
INPUT_PROP_DIRECT = 1

name = ast.literal_eval(sys.argv[1])
assert isinstance(name, bytes) and 0 < len(name) < 80
fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
for ev in (EV_SYN, EV_KEY, EV_ABS):
    fcntl.ioctl(fd, UI_SET_EVBIT, ev)
fcntl.ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH)
fcntl.ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT)
absmax = [0] * 64
ranges = {ABS_X: 4095, ABS_Y: 4095, ABS_MT_SLOT: 9, ABS_MT_POSITION_X: 4095, ABS_MT_POSITION_Y: 4095,
          ABS_MT_TRACKING_ID: 65535}
for code, top in ranges.items():
    fcntl.ioctl(fd, UI_SET_ABSBIT, code)
    absmax[code] = top
# struct uinput_user_dev: name[80], input_id (bustype, vendor, product, version),
# ff_effects_max, absmax[64], absmin[64], absfuzz[64], absflat[64].
dev = struct.pack("80sHHHHI", name, 0x03, 0x1234, 0x5678, 1, 0)
dev += struct.pack("64i", *absmax) + struct.pack("64i", *([0] * 64)) * 3
os.write(fd, dev)
fcntl.ioctl(fd, UI_DEV_CREATE)


def stop(*_):
    fcntl.ioctl(fd, UI_DEV_DESTROY)
    os.close(fd)
    sys.exit(0)


signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)
# The node: the newest inputN whose name is ours.
for _ in range(100):
    for entry in sorted(os.listdir("/sys/class/input")):
        if not entry.startswith("event"):
            continue
        try:
            with open(f"/sys/class/input/{entry}/device/name", "rb") as f:
                if f.read().rstrip(b"\n") == name:
                    print(entry, flush=True)
                    break
        except OSError:
            pass
    else:
        time.sleep(0.05)
        continue
    break
while True:
    signal.pause()
