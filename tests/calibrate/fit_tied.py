#!/usr/bin/env python3
"""Fits two levels that play one search at two node budgets together, with a fixed gap between them.

With a few dozen games each, two such levels' separate fits can come out in the wrong order (the
level with more nodes below the one with fewer), though the same search with more nodes is not
weaker. This fit ties them: the level with more nodes is rated GAP points above the other, and one
rating is fitted from both levels' games (a game of the upper level against an anchor rated E counts
as a game of the lower one against E - GAP). GAP comes from the ladder's own node scaling (RESULTS.md,
sitting 8); the separate fits are printed too, so the effect of the tie can be read.

usage: fit_tied.py RESULTS_FILE LOWER UPPER GAP [--chaiba build/native/chaiba]
  e.g. tests/calibrate/fit_tied.py tests/calibrate/results.txt 8 9 78
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LINE = re.compile(r"^result level=(\d+) anchor=stockfish:(\d+) wins=(\d+) draws=(\d+) losses=(\d+)$")


def fit(chaiba, lines):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        path = f.name
    try:
        out = subprocess.run([chaiba, "calibrate", "--fit", path], capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(path)
    return {int(m.group(1)): m.group(0) for m in re.finditer(r"^\| (\d+) \|.*$", out, re.M)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results")
    parser.add_argument("lower", type=int)
    parser.add_argument("upper", type=int)
    parser.add_argument("gap", type=float)
    parser.add_argument("--chaiba", default=os.path.join(ROOT, "build", "native", "chaiba"))
    args = parser.parse_args()
    rows = []
    with open(args.results) as f:
        for line in f:
            m = LINE.match(line.strip())
            if m and int(m.group(1)) in (args.lower, args.upper):
                rows.append([int(x) for x in m.groups()])
    if not any(r[0] == args.lower for r in rows) or not any(r[0] == args.upper for r in rows):
        print("error: no stockfish games of level %d or %d in %s" % (args.lower, args.upper, args.results),
              file=sys.stderr)
        return 2
    separate = fit(args.chaiba, ["result level=%d anchor=stockfish:%d wins=%d draws=%d losses=%d" % tuple(r)
                                 for r in rows])
    # The upper level's anchors shifted down by the gap; the anchors are whole numbers in the file
    # format, so the gap is rounded.
    gap = int(round(args.gap))
    tied = fit(args.chaiba, ["result level=%d anchor=stockfish:%d wins=%d draws=%d losses=%d" %
                             (args.lower, r[1] - (gap if r[0] == args.upper else 0), r[2], r[3], r[4])
                             for r in rows])
    print("separate fits:")
    for level in (args.lower, args.upper):
        print("  " + separate[level])
    m = re.match(r"^\| \d+ \| (\d+) \| ([\d.]+) \| (-?\d+) \[(-?\d+), (-?\d+)\] \|$", tied[args.lower])
    if not m:
        print("tied fit: " + tied[args.lower])
        return 1
    games, score, elo, low, high = int(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4)), int(m.group(5))
    print("tied fit (level %d = level %d + %d), %d games, score %s:" % (args.upper, args.lower, gap, games, score))
    print("  level %d: %d [%d, %d]" % (args.lower, elo, low, high))
    print("  level %d: %d [%d, %d]" % (args.upper, elo + gap, low + gap, high + gap))
    return 0


if __name__ == "__main__":
    sys.exit(main())
