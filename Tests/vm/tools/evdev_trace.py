#!/usr/bin/env python3
"""Times what gestured adds to a forwarded frame by the kernel's own clock.

Every evdev frame is stamped by the kernel when it is handed to evdev's clients
(evdev_events, at the frame's SYN_REPORT). A frame of the grabbed panel is
handed over inside the player's write to its uinput descriptor (so in the
player's task); the same frame on the twin inside gestured's write to the
twin's uinput descriptor (in gestured's task). A kprobe on evdev_events, with
ftrace on the `mono` clock (CLOCK_MONOTONIC, the clock of the stamps), records
both with the frame's first values, which carry its ABS_MT_POSITION_X; a frame
is told apart by that X. Probes on evdev_read and uinput_write, in gestured's
task, split the time into gestured's wake-up, its own work, and its write. A
return probe on evdev_read gives the end of the read that brought the frame to
gestured (the first read entered after the panel's frame that returned events):
from there to the twin's frame is what the daemon adds once it has the frame,
the issue's "read -> twin's event".

usage: evdev_trace.py start [--epoll]   (mounts tracefs, sets the probes, clears;
                                        --epoll: also on epoll_wait's return)
       evdev_trace.py stop OUT          (stops and saves the trace to OUT)
       evdev_trace.py report TRACE PLAYER_COMM [DAEMON_COMM]
       evdev_trace.py wake TRACE PLAYER_COMM READER_COMM
report prints one line per measure (added, wake, work, write, read-twin; with
a probe on epoll_wait's return, also wake-kernel and wake-own: the wake-up split
at epoll_wait's return in gestured):
NAME frames N p50 P p99 Q max M (ms), then
"paired N of M" (the panel's frames with an X that reached the twin); exits 1
when a frame reached the twin before the panel sent it. wake prints the same
line for a plain reader of the panel: its wake-up, the panel's frame to the
reader's next read.
"""
import bisect
import os
import re
import subprocess
import sys

T = "/sys/kernel/tracing"
GROUP = "gtw"
# evdev_events(struct input_handle *, const struct input_value *vals, unsigned count);
# struct input_value { __u16 type; __u16 code; __s32 value; }: 8 bytes each.
VALUES = 6
PROBES = [
    "p:%s/frame evdev_events n=%%dx %s"
    % (GROUP, " ".join("c%d=+%d(%%si):u16 v%d=+%d(%%si):s32" % (i, 8 * i + 2, i, 8 * i + 4) for i in range(VALUES))),
    "p:%s/read evdev_read" % GROUP,
    "r:%s/readret evdev_read ret=$retval:s64" % GROUP,
    "p:%s/write uinput_write" % GROUP,
]
# With --epoll, the return of epoll_wait, where the kernel has it (x86_64; arm64
# has only epoll_pwait): splits gestured's wake-up into the kernel's (the
# panel's frame to epoll_wait's return in gestured) and gestured's own (from
# there to its read). Off by default: the probe adds to every wake-up it splits.
OPTIONAL = [
    "r:%s/pollret%d %s ret=$retval:s64" % (GROUP, i, sym)
    for i, sym in enumerate(("__x64_sys_epoll_wait", "__x64_sys_epoll_pwait", "__arm64_sys_epoll_pwait"))
]


def put(name, text, append=False):
    # Not open(..., "a"): Python seeks to the end, which tracefs refuses.
    fd = os.open(os.path.join(T, name), os.O_WRONLY | (os.O_APPEND if append else os.O_TRUNC))
    try:
        os.write(fd, (text + "\n").encode())
    finally:
        os.close(fd)


def start(epoll=False):
    if not os.path.exists(os.path.join(T, "kprobe_events")):
        subprocess.run(["mount", "-t", "tracefs", "nodev", T], check=True)
    put("tracing_on", "0")
    if os.path.exists(os.path.join(T, "events", GROUP)):
        put("events/%s/enable" % GROUP, "0")
    put("kprobe_events", "")
    for p in PROBES:
        try:
            put("kprobe_events", p, append=True)
        except OSError as e:
            sys.stderr.write("cannot set %r: %s\n" % (p, e))
            with open(os.path.join(T, "error_log")) as f:
                sys.stderr.write(f.read())
            name = p.split()[1]
            with open("/proc/kallsyms") as f:
                sys.stderr.write("".join(l for l in f if name in l))
            raise
    for p in OPTIONAL if epoll else []:
        try:
            put("kprobe_events", p, append=True)
        except OSError:
            pass
    put("trace_clock", "mono")
    put("buffer_size_kb", "8192")
    put("trace", "")
    put("events/%s/enable" % GROUP, "1")
    put("tracing_on", "1")


def stop(out):
    put("tracing_on", "0")
    with open(os.path.join(T, "trace")) as f, open(out, "w") as o:
        o.write(f.read())
    put("events/%s/enable" % GROUP, "0")
    put("kprobe_events", "")


LINE = re.compile(r"^\s*(.+?)-(\d+)\s+\[\d+\]\s+\S+\s+([0-9.]+): (\w+): \([^)]*\)(.*)$")


def report(path, player, daemon="gestured"):
    # comm is cut to 15 characters in the trace.
    player, daemon = player[:15], daemon[:15]
    source, twin = {}, {}
    reads, writes, polls = [], [], []
    # gestured's reads that returned events: (entry, return), in order.
    delivered = []
    entered = None
    for line in open(path):
        m = LINE.match(line)
        if not m:
            continue
        comm, t, event, rest = m.group(1), float(m.group(3)), m.group(4), m.group(5)
        if event == "frame":
            f = dict(kv.split("=") for kv in rest.split())
            n = int(f["n"], 0)
            x = None
            for i in range(min(n, VALUES)):
                if int(f["c%d" % i], 0) == 0x35:
                    x = int(f["v%d" % i], 0)
                    break
            if x is None:
                continue
            if comm == player:
                source.setdefault(x, t)
            elif comm == daemon:
                # The twin's frame reaches each of its readers: the first counts.
                twin.setdefault(x, t)
        elif comm == daemon and event == "read":
            reads.append(t)
            entered = t
        elif comm == daemon and event == "readret":
            f = dict(kv.split("=") for kv in rest.split())
            if entered is not None and int(f["ret"], 0) > 0:
                delivered.append((entered, t))
            entered = None
        elif comm == daemon and event == "write":
            writes.append(t)
        elif comm == daemon and event.startswith("pollret"):
            f = dict(kv.split("=") for kv in rest.split())
            if int(f["ret"], 0) > 0:
                polls.append(t)
    bad = 0
    total, wake, work, write, readtwin = [], [], [], [], []
    kernelwake, ownwake = [], []
    delivered_entries = [e for e, _ in delivered]
    for x, ts in sorted(source.items(), key=lambda kv: kv[1]):
        tt = twin.get(x)
        if tt is None:
            continue
        if tt < ts:
            print("X %d reached the twin %.3f ms before the panel sent it" % (x, (ts - tt) * 1000))
            bad += 1
            continue
        total.append((tt - ts) * 1000)
        r = bisect.bisect_left(reads, ts)
        if r < len(reads) and reads[r] <= tt:
            w = bisect.bisect_left(writes, reads[r])
            if w < len(writes) and writes[w] <= tt:
                wake.append((reads[r] - ts) * 1000)
                # The epoll_wait that returned before that read, after the frame.
                p = bisect.bisect_right(polls, reads[r]) - 1
                if p >= 0 and polls[p] >= ts:
                    kernelwake.append((polls[p] - ts) * 1000)
                    ownwake.append((reads[r] - polls[p]) * 1000)
                work.append((writes[w] - reads[r]) * 1000)
                write.append((tt - writes[w]) * 1000)
        # The read that brought the frame: the first one entered after the
        # panel sent it that returned events, and returned before the twin's.
        d = bisect.bisect_left(delivered_entries, ts)
        if d < len(delivered) and delivered[d][1] <= tt:
            readtwin.append((tt - delivered[d][1]) * 1000)

    def line(name, xs):
        xs = sorted(xs)
        if not xs:
            return "%s frames 0" % name

        def pct(p):
            return xs[min(len(xs) - 1, int(round(p / 100.0 * (len(xs) - 1))))]

        return "%s frames %d p50 %.3f p99 %.3f max %.3f" % (name, len(xs), pct(50), pct(99), xs[-1])

    print(line("added", total))
    print(line("wake", wake))
    print(line("work", work))
    print(line("write", write))
    print(line("read-twin", readtwin))
    if polls:
        print(line("wake-kernel", kernelwake))
        print(line("wake-own", ownwake))
    print("paired %d of %d" % (len(total), len(source)))
    return 1 if bad else 0


def wake(path, player, reader):
    player, reader = player[:15], reader[:15]
    frames, reads = [], []
    for line in open(path):
        m = LINE.match(line)
        if not m:
            continue
        comm, t, event = m.group(1), float(m.group(3)), m.group(4)
        if event == "frame" and comm == player:
            frames.append(t)
        elif event == "read" and comm == reader:
            reads.append(t)
    xs = []
    for t in frames:
        r = bisect.bisect_left(reads, t)
        if r < len(reads):
            xs.append((reads[r] - t) * 1000)
    xs.sort()
    if not xs:
        print("wake frames 0")
        return 1

    def pct(p):
        return xs[min(len(xs) - 1, int(round(p / 100.0 * (len(xs) - 1))))]

    print("wake frames %d p50 %.3f p99 %.3f max %.3f" % (len(xs), pct(50), pct(99), xs[-1]))
    return 0


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "start":
        start(epoll="--epoll" in sys.argv[2:])
    elif cmd == "stop":
        stop(sys.argv[2])
    elif cmd == "report":
        sys.exit(report(*sys.argv[2:]))
    elif cmd == "wake":
        sys.exit(wake(*sys.argv[2:]))
    else:
        sys.exit(__doc__)
