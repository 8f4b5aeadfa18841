#!/usr/bin/env python3
"""Makes the fuzz seed corpora in Tests/fuzz/corpus from the repository's own
fixtures (recordings, strokes, the default config, protocol requests).

Run from anywhere: python3 Tests/fuzz/make_seeds.py. Seeds are kept small
(a few KiB): libFuzzer grows its own corpus from them.
"""
import hashlib
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIX = os.path.join(ROOT, "Tests", "fixtures")
OUT = os.path.join(HERE, "corpus")
MAX = 4096

# Must match the tables in Sources/Fuzz/Decoder/FuzzDecoder.swift.
DEVICES = {"Atmel": 0, "EP0430M09": 1, "ntrig": 2, "finger": 3, "wetab": 0}
SELECTORS = {(0, 0): 0, (3, 0x2f): 3, (3, 0x39): 4, (3, 0x35): 5, (3, 0x36): 6, (3, 0x37): 9,
             (1, 0x14a): 10, (3, 0x00): 11, (3, 0x01): 12, (0, 2): 13, (0, 3): 14, (3, 0x30): 15}


def write(target, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def recordings():
    for sub in ("recordings", "strokes"):
        for name in sorted(os.listdir(os.path.join(FIX, sub))):
            if name.endswith((".events", ".event")):
                yield sub, name, os.path.join(FIX, sub, name)


def description_for(sub, name):
    """The description lines a replay would use: the file's own, else its sibling's."""
    path = os.path.join(FIX, sub, name)
    own = [l for l in open(path, encoding="utf-8", errors="replace") if l[:2] in ("N:", "I:", "P:", "B:", "A:")]
    if own:
        return ""
    base = name.split(".")[0]
    for cand in (base + ".desc", name.rsplit(".", 1)[0] + ".prop"):
        p = os.path.join(FIX, sub, cand)
        if os.path.exists(p):
            return "".join(l for l in open(p, encoding="utf-8") if l[:2] in ("N:", "I:", "P:", "B:", "A:"))
    return ""


def evemu_seeds():
    for sub, name, path in recordings():
        text = description_for(sub, name)
        for line in open(path, encoding="utf-8", errors="replace"):
            if line.startswith("#"):
                continue
            if len(text) + len(line) > MAX:
                break
            text += line
        write("evemu", text.encode())


def decoder_seeds():
    for sub, name, path in recordings():
        device = next((v for k, v in DEVICES.items() if name.startswith(k)), 0)
        out = bytearray([device, 0, 0])
        last = None
        for line in open(path, encoding="utf-8", errors="replace"):
            if not line.startswith("E:"):
                continue
            f = line[2:].split("#")[0].split()
            sec, usec = f[0].split(".")
            t = int(sec) * 1_000_000 + int(usec[:6].ljust(6, "0"))
            key = (int(f[1], 16), int(f[2], 16))
            if key not in SELECTORS:
                continue
            step = 0 if last is None else max(-32768, min(32767, (t - last) // 64))
            last = t if last is None else last + step * 64
            rec = struct.pack("<Bih", SELECTORS[key], int(f[3]), step)
            if len(out) + len(rec) > MAX:
                break
            out += rec
        write("decoder", bytes(out))


def config_seeds():
    text = open(os.path.join(ROOT, "config", "gestured.toml"), encoding="utf-8").read()
    write("config", text.encode())
    # Each recognizer table on its own, and a device rule.
    for chunk in text.split("\n[")[1:]:
        write("config", ("[" + chunk).encode())
    write("config", b'[[device]]\nname = "Atmel"\nsize_mm = [154, 86]\nrotation = 90\n')
    # A phone's set: edges, corners, sliders, diagonals.
    phone = open(os.path.join(ROOT, "config", "examples", "phone.toml"), encoding="utf-8").read()
    write("config", phone.encode())
    for chunk in phone.split("\n[")[1:]:
        write("config", ("[" + chunk).encode())
    # A user's actions file (the same target runs the actions loader).
    actions = open(os.path.join(ROOT, "config", "examples", "actions.toml"), encoding="utf-8").read()
    write("config", actions.encode())


def protocol_seeds():
    lines = [
        b'{"cmd":"hello","client":"seed"}\n',
        b'{"cmd":"ping","id":7}\n{"cmd":"status","id":"x"}\n',
        b'{"cmd":"subscribe","name":["a","b"],"kind":"circle","state":["recognized","began"],"device":"ts","failures":true}\n',
        b'{"cmd":"subscribe"}\n{"cmd":"unsubscribe","id":[1,{"a":null}]}\n',
        b'hello\n[1,2]\n{"cmd":"dance","id":3}\n',
        b'{"cmd":"ping","id":"\\u00e9\\ud83d\\ude00"}\r\n\n  \n',
    ]
    for l in lines:
        write("protocol", b"\x00" + l)
        write("protocol", b"\x07" + l)


if __name__ == "__main__":
    evemu_seeds()
    decoder_seeds()
    config_seeds()
    protocol_seeds()
