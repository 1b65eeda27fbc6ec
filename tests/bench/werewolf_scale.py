#!/usr/bin/env python3
"""`chaiba werewolf` at scale (a benchmark, not a test: it prints figures and asserts none):
bot games per second without and with --out (each game's result and whole record appended to
the run's log in fsynced batches), the ratio of the two, the log's bytes per game, and the peak
RSS of a run of --million games (default 1 000 000, without --out: a million records would be
about 12 GB of log) and of the --out run.
The runs without and with --out alternate (--repeats times, default 5: the machine is shared, so
one pair proves little) and the medians are printed, with the median of the pairs' ratios.
Usage: werewolf_scale.py --chaiba PATH [--games 20000] [--repeats 5] [--million 1000000 (0: skip)] [--workdir DIR]
The README's Werewolf section quotes its figures with this command.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run(chaiba, args):
    """Runs `chaiba werewolf ARGS --quiet` under /usr/bin/time: (games/s from its summary line,
    wall s, this run's peak RSS in MB)."""
    start = time.monotonic()
    out = subprocess.run(["/usr/bin/time", "-f", "maxrss_kb=%M", chaiba, "werewolf", "--players", "bot*8",
                          "--quiet"] + args, capture_output=True, text=True)
    wall = time.monotonic() - start
    if out.returncode != 0:
        sys.exit("chaiba werewolf %s: exit %d\n%s" % (" ".join(args), out.returncode, out.stderr[-2000:]))
    rate = re.search(r"\(([0-9.]+) games/s\)", out.stdout)
    rss = re.search(r"maxrss_kb=(\d+)", out.stderr)
    return float(rate.group(1)) if rate else 0.0, wall, int(rss.group(1)) / 1024.0 if rss else 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chaiba", required=True)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--million", type=int, default=1000000)
    parser.add_argument("--workdir")
    args = parser.parse_args()
    work = args.workdir or tempfile.mkdtemp(prefix="werewolf_scale_")
    out_dir = os.path.join(work, "run")
    try:
        plains, outs, ratios, rss_out = [], [], [], []
        for i in range(max(1, args.repeats)):
            shutil.rmtree(out_dir, ignore_errors=True)
            plain, _, _ = run(args.chaiba, ["--games", str(args.games)])
            with_out, _, out_rss = run(args.chaiba, ["--games", str(args.games), "--out", out_dir])
            plains.append(plain)
            outs.append(with_out)
            ratios.append(plain / with_out if with_out else float("inf"))
            rss_out.append(out_rss)
            print("  pair %d: %.0f games/s without --out, %.0f with (%.2fx)" % (i + 1, plain, with_out, ratios[-1]))
        log_bytes = os.path.getsize(os.path.join(out_dir, "tournament.log"))
        print("%d bot games, 8 seats, %d pairs, medians: %.0f games/s without --out, %.0f games/s with --out; "
              "ratio %.2fx (pairs %.2f-%.2fx); log %.1f KB per game; peak RSS with --out %.0f MB" %
              (args.games, len(ratios), statistics.median(plains), statistics.median(outs), statistics.median(ratios),
               min(ratios), max(ratios), log_bytes / 1024.0 / args.games, max(rss_out)))
        if args.million > 0:
            rate, wall, rss = run(args.chaiba, ["--games", str(args.million)])
            print("%d bot games without --out: %.0f games/s, %.0f s, peak RSS %.0f MB" % (args.million, rate, wall, rss))
    finally:
        if not args.workdir:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
