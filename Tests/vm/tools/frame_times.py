#!/usr/bin/env python3
"""Reads an event node and writes, for every frame that moved a touch along X,
"KERNEL_MONOTONIC_SECONDS X" (the frame's kernel timestamp, on CLOCK_MONOTONIC
through EVIOCSCLOCKID). With uinput_player.py's times, the difference is how
long a frame took from the player's write to this node.
usage: frame_times.py NODE OUT (until killed)"""
import fcntl
import os
import struct
import sys

EVIOCSCLOCKID = 0x400445A0
fd = os.open(sys.argv[1], os.O_RDONLY)
fcntl.ioctl(fd, EVIOCSCLOCKID, struct.pack("i", 1))  # CLOCK_MONOTONIC
out = open(sys.argv[2], "w", buffering=1)
size = struct.calcsize("llHHi")
x = None
while True:
    data = os.read(fd, size * 64)
    if not data:
        break
    for i in range(0, len(data) - size + 1, size):
        sec, usec, typ, code, value = struct.unpack_from("llHHi", data, i)
        if typ == 3 and code == 0x35:
            x = value
        elif typ == 0 and code == 0 and x is not None:
            out.write("%d.%06d %d\n" % (sec, usec, x))
            x = None
