#!/usr/bin/env python3
"""Makes the stroke panel of swipe_recording.py (154 x 86 mm, 10 units/mm, 10
slots) as a uinput touchscreen and plays recordings into it through its own
uinput descriptor, as the hardware would. evemu-play writes into the event
node instead, and the kernel drops what is written there while another client
grabs the device (EVIOCGRAB): this player still reaches a grabbed panel.

usage: uinput_player.py TIMES_OUT < COMMANDS
Prints the event node's sysfs name once the device exists. Then reads one
command a line: a path to an evemu .events file plays it with its timing and
prints "done PATH". For every frame written it appends "MONOTONIC_SECONDS X" (the
time just before the write, and the frame's last ABS_MT_POSITION_X or -1) to
TIMES_OUT. End of input removes the device.
"""
import fcntl
import os
import struct
import sys
import time

UI_DEV_CREATE, UI_DEV_DESTROY = 0x5501, 0x5502
UI_DEV_SETUP, UI_ABS_SETUP = 0x405C5503, 0x401C5504
UI_SET_EVBIT, UI_SET_KEYBIT, UI_SET_ABSBIT, UI_SET_PROPBIT = 0x40045564, 0x40045565, 0x40045567, 0x4004556E
EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
BTN_TOUCH = 0x14A
W_MM, H_MM, RES = 154, 86, 10
XMAX, YMAX = W_MM * RES - 1, H_MM * RES - 1
NAME = b"gestured stroke panel"

fd = os.open("/dev/uinput", os.O_WRONLY)
for ev in (EV_SYN, EV_KEY, EV_ABS):
    fcntl.ioctl(fd, UI_SET_EVBIT, ev)
fcntl.ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH)
fcntl.ioctl(fd, UI_SET_PROPBIT, 1)  # INPUT_PROP_DIRECT
axes = {0x00: (XMAX, RES), 0x01: (YMAX, RES), 0x2F: (9, 0), 0x35: (XMAX, RES), 0x36: (YMAX, RES), 0x39: (65535, 0)}
for code, (top, res) in axes.items():
    fcntl.ioctl(fd, UI_SET_ABSBIT, code)
    # struct uinput_abs_setup: code, then struct input_absinfo (value min max fuzz flat resolution).
    fcntl.ioctl(fd, UI_ABS_SETUP, struct.pack("HxxiiiiiI", code, 0, 0, top, 0, 0, res))
# struct uinput_setup: input_id (bus, vendor, product, version), name[80], ff_effects_max.
fcntl.ioctl(fd, UI_DEV_SETUP, struct.pack("HHHH80sI", 0x18, 0, 0, 0, NAME, 0))
fcntl.ioctl(fd, UI_DEV_CREATE)

node = None
for _ in range(200):
    for entry in sorted(os.listdir("/sys/class/input")):
        if entry.startswith("event"):
            try:
                with open(f"/sys/class/input/{entry}/device/name", "rb") as f:
                    if f.read().rstrip(b"\n") == NAME:
                        node = entry
            except OSError:
                pass
    if node:
        break
    time.sleep(0.05)
print(node, flush=True)

times = open(sys.argv[1], "a", buffering=1)


def play(path):
    frame = b""
    start = first = None
    x = -1
    with open(path) as f:
        for line in f:
            if not line.startswith("E: "):
                continue
            stamp, typ, code, value = line[3:].split()
            t = float(stamp)
            typ, code, value = int(typ, 16), int(code, 16), int(value)
            frame += struct.pack("llHHi", 0, 0, typ, code, value)
            if typ == EV_ABS and code == 0x35:
                x = value
            if typ == EV_SYN and code == 0:
                # On the recording's schedule from its first frame, so that a
                # late frame does not make every later one late too.
                if start is None:
                    start, first = time.monotonic(), t
                wait = start + (t - first) - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                times.write("%.6f %d\n" % (time.clock_gettime(time.CLOCK_MONOTONIC), x))
                os.write(fd, frame)
                frame = b""
                x = -1


for command in sys.stdin:
    path = command.strip()
    if path:
        play(path)
        print("done " + path, flush=True)
fcntl.ioctl(fd, UI_DEV_DESTROY)
