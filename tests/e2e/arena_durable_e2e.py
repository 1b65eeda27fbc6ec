#!/usr/bin/env python3
"""`chaiba arena`'s folder, natively and without a network (engine levels and the random mover):
--out refuses an existing tournament (pointing to --resume and --overwrite); each printed game is
in the log; a torn or damaged log record is dropped with a note and the rest resumes; an old
folder with only tournament.json is migrated; --config /dev/zero is refused with the limit; help
and config agree on the limits; a Retry-After of an hour from the stand-in (mock_openrouter.py)
pauses the tournament with the wait in the message (exit 3) and --resume finishes it. Exit 1 on the
first failure.
Usage: arena_durable_e2e.py --chaiba PATH
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

PLAYERS = "engine:0,engine:1,engine:2,random"



def same_bundle(a, b):
    """Two snapshots of one tournament: equal but for the moment each was written."""
    def strip(text):
        doc = json.loads(text)
        doc.get("harness", {}).pop("exportedAt", None)
        return json.dumps(doc, sort_keys=True)
    return strip(a) == strip(b)

def expect(cond, message):
    if not cond:
        print("FAIL: " + message)
        sys.exit(1)


def arena(chaiba, *args):
    return subprocess.run([chaiba, "arena", "--quiet"] + list(args), capture_output=True, text=True, timeout=300)


def printed_ids(stdout):
    return [int(l.split(" #", 1)[1].split(":", 1)[0]) for l in stdout.splitlines() if l.startswith("game ")]


def log_records(path):
    with open(path, "rb") as f:
        return f.read().split(b"\n")


def retry_after_hour(chaiba, work):
    """An hourly limit (Retry-After: 3600) pauses with the reason instead of backing off and forfeiting."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__))))
    from play_e2e import KEY, Mock  # noqa: E402 - the stand-in's launcher
    mock = Mock(chaiba)
    try:
        out = os.path.join(work, "hour")
        env = dict(os.environ, OPENROUTER_API_KEY=KEY)
        base = [chaiba, "arena", "--base-url", mock.base, "--quiet"]
        r = subprocess.run(base + ["--players", "llm:mock/ratelimit-hour,engine:1", "--games", "1",
                                   "--max-plies", "40", "--out", out], capture_output=True, text=True, env=env,
                           timeout=120)
        expect(r.returncode == 3, "an hour's Retry-After must pause (exit 3), got %d: %s" % (r.returncode, r.stderr))
        expect("asks to wait 60 min" in r.stderr and "rate" in r.stderr.lower(), "no reason given:\n" + r.stderr)
        expect(not printed_ids(r.stdout), "a game ended while the limit held:\n" + r.stdout)
        r = subprocess.run(base + ["--resume", out], capture_output=True, text=True, env=env, timeout=120)
        expect(r.returncode == 0, "resume after the wait: %s" % r.stderr)
        bundle = json.load(open(os.path.join(out, "tournament.json")))
        expect(len(bundle["games"]) == 1 and bundle["games"][0]["result"] != "*", "the game did not finish")
        expect(not bundle["games"][0]["termination"].startswith("forfeit"), "the game ended in a forfeit")
        expect(KEY not in open(os.path.join(out, "tournament.log")).read(), "the key is in the log")
    finally:
        mock.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chaiba", required=True)
    chaiba = ap.parse_args().chaiba
    work = tempfile.mkdtemp(prefix="arena_durable_")
    try:
        out = os.path.join(work, "t")
        base = ["--players", PLAYERS, "--games", "10", "--concurrency", "3", "--max-plies", "80", "--seed", "4"]

        # A finished tournament: every printed game is a record of the log, the snapshot agrees.
        r = arena(chaiba, *base, "--out", out)
        expect(r.returncode == 0, "first run: " + r.stderr)
        ids = printed_ids(r.stdout)
        expect(len(ids) == 10, "10 game lines expected")
        expect("games/s" in r.stdout, "no games/s in the summary:\n" + r.stdout)
        lines = [l for l in log_records(os.path.join(out, "tournament.log")) if l]
        # The header, each game as it finished (printed after it was stored), then each game again
        # with its move quality, judged after the run.
        expect(len(lines) == 21, "header + 10 games + 10 analysed games expected in the log, got %d" % len(lines))
        records = [json.loads(l.split(b" ", 1)[1])["game"] for l in lines[1:]]
        logged = [g["id"] for g in records[:10]]
        expect(logged == ids, "the log's order is not the printed order")
        expect(all(m.get("cpLoss", -1) < 0 for g in records[:10] for m in g["moves"]), "a game was logged analysed")
        analysed = {g["id"]: g for g in records[10:]}
        expect(sorted(analysed) == sorted(ids), "each game appended once more with its analysis")
        expect(all(m["cpLoss"] >= 0 for g in analysed.values() for m in g["moves"]), "an appended game is not analysed")
        # The run held its games folded and read them back from the log: the snapshot's games are
        # the log's latest records, the PGN has every game, the leaderboard is the one printed by
        # a run on the same seed that keeps its games in memory (no --out).
        bundle = json.load(open(os.path.join(out, "tournament.json")))
        expect(sorted(g["id"] for g in bundle["games"]) == sorted(ids), "the snapshot's games are not the log's")
        for g in bundle["games"]:
            expect(g == analysed[g["id"]], "game #%d in the snapshot differs from its record in the log" % g["id"])
        pgn = open(os.path.join(out, "games.pgn")).read()
        expect(pgn.count("[Event ") == 10, "10 games expected in games.pgn")
        board = lambda text: text[text.index("spent $"):]
        memory = arena(chaiba, *base)
        expect(memory.returncode == 0, "the run without --out: " + memory.stderr)
        expect(board(memory.stdout) == board(r.stdout),
               "folded and in-memory runs print different leaderboards:\n%s\n%s" % (board(r.stdout), board(memory.stdout)))
        # A resume of the finished tournament finds every game analysed: nothing is judged again.
        snapshot_before = open(os.path.join(out, "tournament.json")).read()
        again = arena(chaiba, "--resume", out)
        expect(again.returncode == 0, "resume of a finished tournament: " + again.stderr)
        expect("analysing" not in again.stdout, "a resume analysed the games again:\n" + again.stdout)
        # (equal but for the moment it was written: the harness records the export time)
        expect(same_bundle(open(os.path.join(out, "tournament.json")).read(), snapshot_before),
               "the resume changed the snapshot")
        # A folder of an older build: the log without the judged games, the move quality only in
        # tournament.json. The resume takes it into the log instead of judging the games again.
        older = os.path.join(work, "older")
        shutil.copytree(out, older)
        with open(os.path.join(older, "tournament.log"), "rb") as f:
            first = f.read().split(b"\n")[:11]
        with open(os.path.join(older, "tournament.log"), "wb") as f:
            f.write(b"\n".join(first) + b"\n")
        r = arena(chaiba, "--resume", older)
        expect(r.returncode == 0, "resume of an older build's folder: " + r.stderr)
        expect("analysing" not in r.stdout, "the older folder's games were judged again:\n" + r.stdout)
        expect("took the move quality of 10 game(s)" in r.stderr, "no note on the move quality taken over:\n" + r.stderr)
        expect(same_bundle(open(os.path.join(older, "tournament.json")).read(), snapshot_before),
               "the older folder's snapshot changed")
        expect(len([l for l in log_records(os.path.join(older, "tournament.log")) if l]) == 21, "the judged games joined the log")

        # --out on it again: refused, pointing to --resume and --overwrite; nothing replaced.
        before = open(os.path.join(out, "tournament.json")).read()
        r = arena(chaiba, "--players", "random,engine:0", "--out", out)
        expect(r.returncode == 2 and "--resume" in r.stderr and "--overwrite" in r.stderr,
               "--out on an existing tournament must be refused: " + r.stderr)
        expect(open(os.path.join(out, "tournament.json")).read() == before, "the refused run changed the bundle")

        # A torn tail and a damaged record: both dropped with notes, the rest resumes and the
        # tournament ends with exactly its 10 games.
        log = os.path.join(out, "tournament.log")
        with open(log, "rb") as f:
            data = f.read()
        recs = data.split(b"\n")[:11] + [b""]  # killed before the analysis: the games as they finished
        recs[5] = recs[5][:40] + (b"X" if recs[5][40:41] != b"X" else b"Y") + recs[5][41:]  # game 5 damaged
        with open(log, "wb") as f:
            f.write(b"\n".join(recs[:-3]) + b"\n" + recs[-3][:30])  # the last 2 games gone, the one before torn
        os.remove(os.path.join(out, "tournament.json"))  # killed before any snapshot
        r = arena(chaiba, "--resume", out)
        expect(r.returncode == 0, "resume after a torn log: " + r.stderr)
        expect("checksum mismatch" in r.stderr and "cut short" in r.stderr, "no notes on the dropped records:\n" + r.stderr)
        bundle = json.load(open(os.path.join(out, "tournament.json")))
        finished = [g for g in bundle["games"] if g["result"] != "*"]
        expect(len(finished) == 10 and len(bundle["games"]) == 10, "10 finished games expected after the resume")
        expect(len({g["id"] for g in bundle["games"]}) == 10, "a game id repeats")

        # An old folder (tournament.json only, 3 games cut off): migrated with a note, then played
        # to the end.
        old = os.path.join(work, "old")
        shutil.copytree(out, old)
        os.remove(os.path.join(old, "tournament.log"))
        bundle = json.load(open(os.path.join(old, "tournament.json")))
        bundle["games"] = bundle["games"][:7]
        del bundle["leaderboard"]
        json.dump(bundle, open(os.path.join(old, "tournament.json"), "w"))
        r = arena(chaiba, "--resume", old)
        expect(r.returncode == 0, "resume of an old folder: " + r.stderr)
        expect("migrated" in r.stderr, "no migration note:\n" + r.stderr)
        expect(len(printed_ids(r.stdout)) == 3, "3 games left to play after 7 of 10")
        bundle = json.load(open(os.path.join(old, "tournament.json")))
        expect(len(bundle["games"]) == 10, "10 games after the migrated resume")
        expect(os.path.exists(os.path.join(old, "tournament.log")), "no log after the migration")

        # Size limits and flag limits.
        r = arena(chaiba, "--config", "/dev/zero")
        expect(r.returncode == 2 and "larger than 4 MiB" in r.stderr, "--config /dev/zero: " + r.stderr[-300:])
        r = arena(chaiba, "--players", PLAYERS, "--concurrency", "65")
        expect(r.returncode == 2 and "--concurrency must be a whole number from 1 to 64" in r.stderr,
               "the refusal disagrees with the config's 64: " + r.stderr[-300:])
        usage = subprocess.run([chaiba, "arena", "--help"], capture_output=True, text=True, timeout=60).stdout
        expect(re.search(r"^  --concurrency N +games at once, 1-64 ", usage, re.M), "help disagrees with the config's 64")
        expect(re.search(r"^  --max-plies N .*, 1-10000 ", usage, re.M), "help disagrees with the config's 10000 plies")
        r = arena(chaiba, "--players", PLAYERS, "--max-plies", "10000", "--games", "1", "--concurrency", "64")
        expect(r.returncode == 0, "the largest accepted values must run: " + r.stderr[-300:])
        retry_after_hour(chaiba, work)
        print("PASS")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
