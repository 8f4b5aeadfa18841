#!/usr/bin/env python3
# Reads `swift package describe --type json` and prints two lines: the targets
# the three programs are built from, then those of the unit tests and the tests
# themselves, each in an order where a target comes after what it depends on.
import json, sys

targets = {t["name"]: t for t in json.load(sys.stdin)["targets"]}

def order(roots, keep):
    out = []
    def visit(name):
        t = targets.get(name)
        if t is None or name in out:
            return
        for dep in t.get("target_dependencies", []):
            visit(dep)
        for dep in t.get("product_dependencies", []):
            if dep not in out:
                out.append(dep)
        if t["type"] in keep:
            out.append(name)
    for r in roots:
        visit(r)
    return out

programs = ["gestured", "gesturectl", "gesture-run"]
tests = sorted(n for n, t in targets.items() if t["type"] == "test")
print(" ".join(order(programs, {"library"})))
print(" ".join(order(tests, {"library", "test"})))
