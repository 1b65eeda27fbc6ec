#!/usr/bin/env python3
"""Relabels texel_gen's positions (FEN;CP_WHITE;RESULT lines) with Debian stockfish's static
evaluation: its `eval` command's "Final evaluation" (NNUE), in centipawns from White's view. The
evaluation network (engine/search/nnue.h) learned from these labels, not from searched scores
(RESULTS.md, sitting 17).

usage: tests/calibrate/nnue_label.py IN OUT [--stockfish PATH]
"""
import argparse
import subprocess
import sys
import threading


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    args = parser.parse_args()
    with open(args.input) as f:
        lines = [line.rstrip("\n") for line in f if line.count(";") == 2]
    sf = subprocess.Popen([args.stockfish], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                          bufsize=1 << 20)

    def feed():
        for line in lines:
            sf.stdin.write("position fen " + line.split(";")[0] + "\neval\n")
        sf.stdin.write("quit\n")
        sf.stdin.close()

    threading.Thread(target=feed, daemon=True).start()
    done = skipped = 0
    with open(args.output, "w") as out:
        for row in sf.stdout:
            if not row.startswith("Final evaluation"):
                continue
            fen, _, result = lines[done].split(";")
            done += 1
            try:  # "Final evaluation +0.91 (white side) ...", or "none (in check)"
                pawns = float(row.split()[2])
            except ValueError:
                skipped += 1
                continue
            out.write("%s;%d;%s\n" % (fen, round(pawns * 100), result))
    if sf.wait() != 0 or done != len(lines):
        sys.exit("error: stockfish evaluated %d of %d positions" % (done, len(lines)))
    print("%s: %d positions labelled, %d without an evaluation" % (args.output, done - skipped, skipped),
          file=sys.stderr)


if __name__ == "__main__":
    main()
