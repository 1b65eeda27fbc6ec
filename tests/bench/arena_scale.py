#!/usr/bin/env python3
"""`chaiba arena` at scale under `kill -9`: a continuous arena of engine levels 0-2 and random
movers runs with --out, is killed with SIGKILL at random moments and resumed (--resume) until it
ends. Checks that no printed game is lost or duplicated and that the final game count is exact;
tries a second process on the folder while one runs (it must be refused); prints games/s, RSS over
time and the kill/resume counts. Exit 1 on any failure.
Usage: arena_scale.py --chaiba PATH [--players 50] [--games 10000] [--concurrency 16] [--kills 8]
                      [--max-plies 200] [--seed 1] [--kill-after-max 20] [--workdir DIR] [--analyse-nodes 0]
"""
import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time


KEPT = []  # the folder of a failed run, named in its message


def fail(message):
    print("FAIL: " + message + ("" if not KEPT else " (the run's folder: %s)" % KEPT[0]))
    sys.exit(1)


def rss_kib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def config_for(players, games, concurrency, max_plies, seed):
    kinds = ["engine:0", "engine:1", "engine:2", "random"]
    participants = [{"spec": kinds[i % 4], "name": "%s-%02d" % (kinds[i % 4].replace(":", ""), i)}
                    for i in range(players)]
    return {"name": "arena scale", "participants": participants, "format": "arena", "games": games,
            "concurrency": concurrency, "maxPlies": max_plies, "seed": seed}


class Run:
    """One process of chaiba arena: its printed game ids, RSS samples, exit code."""

    def __init__(self, cmd, samples, t0):
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.printed = []
        self.stdout = []
        self.stderr = ""
        self.samples = samples
        self.t0 = t0
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()
        self.err_reader = threading.Thread(target=self.read_err, daemon=True)
        self.err_reader.start()

    def read(self):
        for line in self.proc.stdout:
            self.stdout.append(line)
            if line.startswith("game ") and " #" in line:
                self.printed.append(int(line.split(" #", 1)[1].split(":", 1)[0]))

    def read_err(self):
        self.stderr = self.proc.stderr.read()

    def wait(self, until=None):
        """Samples RSS until the process ends or `until` (a monotonic time) passes; True if it ended."""
        while self.proc.poll() is None:
            kib = rss_kib(self.proc.pid)
            if kib:
                self.samples.append((time.monotonic() - self.t0, kib))
            if until is not None and time.monotonic() >= until:
                return False
            time.sleep(0.05 if until is not None else 0.5)
        self.reader.join()
        self.err_reader.join()
        return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chaiba", required=True)
    ap.add_argument("--players", type=int, default=50)
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--kills", type=int, default=8)
    ap.add_argument("--max-plies", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kill-after-max", type=float, default=20.0, help="longest run before a kill, seconds")
    ap.add_argument("--workdir")
    ap.add_argument("--analyse-nodes", type=int, default=0,
                    help="move-quality analysis after the run (chaiba's default is 30000 nodes a position; "
                         "0 skips it: this bench measures the tournament)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    work = args.workdir or tempfile.mkdtemp(prefix="arena_scale_")
    KEPT.append(work)
    out = os.path.join(work, "t")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(work, exist_ok=True)
    cfg = os.path.join(work, "config.json")
    with open(cfg, "w") as f:
        json.dump(config_for(args.players, args.games, args.concurrency, args.max_plies, args.seed), f)

    samples, printed, t0 = [], [], time.monotonic()
    kills, resumes, refused_second = 0, 0, False
    analyse = ["--analyse-nodes", str(args.analyse_nodes)]
    cmd = [args.chaiba, "arena", "--config", cfg, "--out", out, "--quiet"] + analyse
    while True:
        run = Run(cmd, samples, t0)
        if kills < args.kills:
            delay = rng.uniform(0.05, args.kill_after_max)
            if not refused_second:  # a second process on the folder in use must be refused
                time.sleep(0.3)
                second = subprocess.run([args.chaiba, "arena", "--resume", out, "--quiet"],
                                        capture_output=True, text=True, timeout=60)
                if run.proc.poll() is None:
                    if second.returncode != 2 or "in use" not in second.stderr:
                        fail("a second process on the folder was not refused: exit %d %s"
                             % (second.returncode, second.stderr[-500:]))
                    refused_second = True
            if not run.wait(until=time.monotonic() + delay):
                os.kill(run.proc.pid, signal.SIGKILL)
                run.proc.wait()
                run.wait()
                kills += 1
                printed += run.printed
                resumes += 1
                cmd = [args.chaiba, "arena", "--resume", out, "--quiet"] + analyse
                continue
        else:
            run.wait()
        printed += run.printed
        if run.proc.returncode != 0:
            fail("arena exit %d: %s" % (run.proc.returncode, run.stderr[-2000:]))
        break
    wall = time.monotonic() - t0

    with open(os.path.join(out, "tournament.json")) as f:
        bundle = json.load(f)
    ids = [g["id"] for g in bundle["games"]]
    finished = [g for g in bundle["games"] if g["result"] != "*"]
    if len(finished) != args.games or len(ids) != args.games:
        fail("expected exactly %d finished games, the bundle has %d games (%d finished)"
             % (args.games, len(ids), len(finished)))
    if len(set(ids)) != len(ids):
        fail("a game id appears twice in the bundle")
    if len(set(printed)) != len(printed):
        dup = sorted({i for i in printed if printed.count(i) > 1})[:10]
        fail("games printed twice (played again after a resume): %s" % dup)
    missing = sorted(set(printed) - set(ids))
    if missing:
        fail("printed games missing from the bundle: %s" % missing[:10])
    if not refused_second and args.kills > 0:
        fail("the run ended before the second process could be tried")

    peak = max(k for _, k in samples) if samples else 0
    print("games: %d finished, %d printed across %d runs (%d kills -9, %d resumes), all present once"
          % (len(finished), len(printed), resumes + 1, kills, resumes))
    print("games/s: %.1f (wall %.1f s including restarts)" % (args.games / wall, wall))
    print("RSS peak: %.1f MiB" % (peak / 1024.0))
    step = max(1, len(samples) // 12)
    print("RSS over time (s: MiB): " + ", ".join("%.0f: %.1f" % (t, k / 1024.0) for t, k in samples[::step]))
    print("second process on the folder refused: %s" % ("yes" if refused_second else "not tried"))
    print("PASS")
    if not args.workdir:
        shutil.rmtree(work, ignore_errors=True)  # a folder made here goes (a failed run keeps it)


if __name__ == "__main__":
    main()
