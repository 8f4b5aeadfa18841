#!/usr/bin/env python3
"""A subscriber that measures latency: for every discrete gesture (state
"recognized") it writes one line "KIND RECV-FRAME EMITTED-FRAME" in milliseconds,
where RECV is this client's CLOCK_MONOTONIC when the line was read, FRAME the later
of the event's `frame_time` (the kernel timestamp of the deciding frame) and `time`
(a deadline, for timer-decided gestures), and EMITTED the daemon's own `emitted`.
Usage: latency_probe.py SOCKET OUT"""
import json
import socket
import sys
import time

sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
sock.connect(sys.argv[1])
sock.sendall(b'{"cmd":"subscribe"}\n')
out = open(sys.argv[2], "w", buffering=1)
buf = b""
while True:
    data = sock.recv(65536)
    if not data:
        break
    now = time.clock_gettime(time.CLOCK_MONOTONIC)
    buf += data
    *lines, buf = buf.split(b"\n")
    for line in lines:
        try:
            e = json.loads(line)
        except ValueError:
            continue
        if e.get("type") == "event" and e.get("state") == "recognized":
            decided = max(e.get("frame_time", 0), e.get("time", 0))
            out.write("%s %.3f %.3f\n" % (e.get("kind"), (now - decided) * 1000,
                                          (e.get("emitted", decided) - decided) * 1000))
