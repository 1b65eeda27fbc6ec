#!/usr/bin/env python3
"""`chaiba werewolf` runs on the shared run folder: its settings in DIR/tournament.log's manifest,
each finished game logged (fsynced) before its line is printed.

Checks, with rule-based bots (no network, a few seconds): --resume DIR alone continues a run;
--resume with a setting that differs is refused by name; --games grows a run; --out over a run is
refused unless --overwrite; a tampered record (winner "martians", its checksum made to match), an
impossible one (another player in a seat) and a torn tail are each named and their game played
again, never counted; a folder of an older build (game files only) is taken over with its original
flags; a chess run's folder is refused; and kill -9 at random moments loses no reported game: the
run resumed to its end has the very games of an uninterrupted run.
Usage: werewolf_durable_e2e.py --chaiba PATH [--keep DIR]
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import zlib

BASE = ["--players", "bot*6", "--seed", "11"]


class Failure(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Failure(message)


def run(chaiba, args, expect_rc=0):
    out = subprocess.run([chaiba, "werewolf"] + args, capture_output=True, text=True, timeout=120)
    expect(out.returncode == expect_rc, "chaiba werewolf %s: exit %d, expected %d\n%s%s" % (
        " ".join(args), out.returncode, expect_rc, out.stdout[-1500:], out.stderr[-1500:]))
    return out


def game_lines(stdout):
    return {int(m.group(1)): (m.group(2) is not None, m.group(3))
            for m in re.finditer(r"^game (\d+)/\d+: (\(resumed\) )?(.*)$", stdout, re.M)}


def outcome(line):
    """A game line without its wall time (the only figure that differs between two runs)."""
    return re.sub(r"; [0-9.]+ s;", ";", line)


def read_log(path):
    return [l.split(" ", 1) for l in open(path).read().splitlines()]


def write_log(path, records):
    with open(path, "w") as f:
        for crc, payload in records:
            f.write("%s %s\n" % (crc, payload))


def sealed(payload):
    """A record whose checksum matches: a tampered record only its content can give away."""
    return ("%08x" % (zlib.crc32(payload.encode()) & 0xffffffff), payload)


def tamper(path, game, change):
    records = read_log(path)
    for i, (crc, payload) in enumerate(records):
        doc = json.loads(payload)
        if "game" in doc and doc["game"]["game"] == game:
            change(doc["game"])
            records[i] = sealed(json.dumps(doc, separators=(",", ":")))
    write_log(path, records)


def check_summary(folder, games):
    summary = json.load(open(os.path.join(folder, "summary.json")))
    expect(summary["games"] == games, "summary.json: %d games" % summary["games"])
    expect(summary["villager_wins"] + summary["wolf_wins"] + summary["unfinished"] == games,
           "summary.json: the winners do not add up to the games: %s" % summary)
    return summary


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chaiba", required=True)
    parser.add_argument("--keep", help="keep the folders here")
    args = parser.parse_args()
    chaiba = args.chaiba
    work = args.keep or tempfile.mkdtemp(prefix="werewolf_durable_")
    try:
        # Step 1. The reference: 8 games uninterrupted.
        ref_dir = os.path.join(work, "reference")
        ref = game_lines(run(chaiba, BASE + ["--games", "8", "--out", ref_dir]).stdout)
        expect(sorted(ref) == list(range(1, 9)), "the reference run printed %s" % sorted(ref))
        header = json.loads(read_log(os.path.join(ref_dir, "tournament.log"))[0][1])
        expect(header["format"] == "chaiba-tournament-log" and header["mode"] == "werewolf" and
               header["config"]["games"] == 8 and header["config"]["seed"] == 11, "bad manifest: %s" % header)

        # Step 2. A run of 5, resumed alone, then grown to 8: the reference's games.
        dir_ = os.path.join(work, "run")
        run(chaiba, BASE + ["--games", "5", "--out", dir_, "--quiet"])
        out = run(chaiba, ["--resume", dir_])
        lines = game_lines(out.stdout)
        expect(sorted(lines) == [1, 2, 3, 4, 5] and all(r for r, _ in lines.values()),
               "--resume alone did not read the 5 games back: " + out.stdout)
        out = run(chaiba, ["--resume", dir_, "--games", "8"])
        expect("the run grows from 5 to 8 games" in out.stderr, "no note of the growth: " + out.stderr)
        lines = game_lines(out.stdout)
        expect([n for n in lines if not lines[n][0]] == [6, 7, 8], "games 6-8 were not played: " + out.stdout)
        expect({n: outcome(l) for n, (_, l) in lines.items()} == {n: outcome(l) for n, (_, l) in ref.items()},
               "the grown run's games differ from the reference's")
        out = run(chaiba, ["--resume", dir_, "--games", "3"], expect_rc=2)
        expect("not shrink" in out.stderr, "a shrinking --games was not refused plainly: " + out.stderr)

        # Step 3. Settings that differ from the run's are refused, by name; --out over it too.
        out = run(chaiba, ["--resume", dir_, "--seed", "12", "--max-rounds", "9"], expect_rc=2)
        expect("seed 12 (the run's: 11)" in out.stderr and "maxRounds 9 (the run's: 30)" in out.stderr,
               "the differing settings are not named: " + out.stderr)
        out = run(chaiba, ["--players", "bot*7", "--games", "2", "--out", dir_], expect_rc=2)
        expect("already holds a run" in out.stderr and "--resume" in out.stderr and "--overwrite" in out.stderr,
               "--out over a run was not refused with the ways out: " + out.stderr)
        run(chaiba, ["--resume", dir_, "--out", dir_], expect_rc=2)

        # Step 4. Damage: a tampered winner, an impossible seat, a torn tail. Each is named, its
        # game played again (and the same game comes out), nothing of it counted.
        log = os.path.join(dir_, "tournament.log")
        tamper(log, 2, lambda g: g.update(winner="martians"))
        tamper(log, 4, lambda g: g["seats"][0].update(player="llm:someone/else"))
        with open(log, "a") as f:
            f.write("0badc0de {\"game\":{\"game\":7,\"winn")
        out = run(chaiba, ["--resume", dir_])
        expect(re.search(r"game 2: the winner \"martians\" is no team.*played again", out.stderr),
               "the tampered winner is not named: " + out.stderr)
        expect(re.search(r"game 4: P1: played by llm:someone/else, but the rotation seats bot there", out.stderr),
               "the impossible seat is not named: " + out.stderr)
        expect("cut " in out.stderr and "bytes dropped" in out.stderr, "the torn tail is not reported: " + out.stderr)
        lines = game_lines(out.stdout)
        expect(sorted(n for n in lines if not lines[n][0]) == [2, 4], "games 2 and 4 were not played again: " + out.stdout)
        expect({n: outcome(l) for n, (_, l) in lines.items()} == {n: outcome(l) for n, (_, l) in ref.items()},
               "the replayed games differ from the reference's")
        summary = check_summary(dir_, 8)
        ref_summary = check_summary(ref_dir, 8)
        expect((summary["villager_wins"], summary["wolf_wins"]) == (ref_summary["villager_wins"], ref_summary["wolf_wins"]),
               "the tampered record was counted: %s vs %s" % (summary, ref_summary))
        out = run(chaiba, ["--resume", dir_])
        expect("note: dropped" not in out.stderr, "the replayed games were not logged again: " + out.stderr)

        # Step 5. --out --overwrite replaces the run.
        out = run(chaiba, ["--players", "bot*7", "--games", "2", "--out", dir_, "--overwrite", "--quiet"])
        expect(not os.path.exists(os.path.join(dir_, "game-0008.json")), "--overwrite left the old games")
        expect(json.loads(read_log(log)[0][1])["config"]["players"] == ["bot"] * 7, "--overwrite kept the old manifest")

        # Step 6. A folder of an older build: game files only. Alone it is refused (its settings are
        # not in it); with its flags its games are taken over, a tampered one played again.
        old = os.path.join(work, "old")
        os.makedirs(old)
        # The game files an older build wrote are the whole records this build logs.
        for crc, payload in read_log(os.path.join(ref_dir, "tournament.log")):
            if payload.startswith('{"record":'):
                record = json.loads(payload)["record"]
                if record["result"]["game"] in (1, 2, 3):
                    json.dump(record, open(os.path.join(old, "game-%04d.json" % record["result"]["game"]), "w"), indent=1)
        game3 = json.load(open(os.path.join(old, "game-0003.json")))
        game3["result"]["winner"] = "martians"
        json.dump(game3, open(os.path.join(old, "game-0003.json"), "w"))
        out = run(chaiba, ["--resume", old], expect_rc=2)
        expect("no tournament.log" in out.stderr and "flags" in out.stderr, "an old folder alone: " + out.stderr)
        out = run(chaiba, BASE + ["--games", "4", "--resume", old])
        expect("took 2 game(s)" in out.stderr and re.search(r"game-0003.json: game 3: the winner \"martians\"", out.stderr),
               "the old folder was not taken over as it should: " + out.stderr)
        lines = game_lines(out.stdout)
        expect(sorted(n for n in lines if lines[n][0]) == [1, 2], "games 1-2 not resumed: " + out.stdout)
        run(chaiba, ["--resume", old])  # now it has a log: alone is enough

        # Step 7. A chess run's folder is not a Werewolf run.
        chess = os.path.join(work, "chess")
        made = subprocess.run([chaiba, "arena", "--players", "random,engine:1", "--games", "1", "--out", chess],
                              capture_output=True, text=True, timeout=120)
        expect(os.path.exists(os.path.join(chess, "tournament.log")), "no chess run to try: " + made.stderr)
        out = run(chaiba, ["--resume", chess], expect_rc=2)
        expect("holds a chess run, not a werewolf one" in out.stderr, "a chess folder: " + out.stderr)
        out = run(chaiba, ["--resume", os.path.join(work, "nowhere")], expect_rc=2)
        expect("the folder does not exist" in out.stderr, "a missing folder: " + out.stderr)

        # Step 8. kill -9 at random moments: every game reported before a kill is in the log, and
        # the run resumed to its end has the reference's games.
        killed = os.path.join(work, "killed")
        rng = random.Random(5)
        total = 60
        args_kill = ["--players", "bot*8", "--seed", "3", "--games", str(total)]
        reported = {}
        first = True
        for attempt in range(4):
            cmd = [chaiba, "werewolf"] + (args_kill + ["--out", killed] if first else ["--resume", killed])
            first = False
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
            stop_after = rng.randint(3, 12)
            seen = 0
            for line in proc.stdout:
                m = re.match(r"^game (\d+)/\d+: (\(resumed\) )?(.*)$", line)
                if m and not m.group(2):
                    reported[int(m.group(1))] = m.group(3)
                    seen += 1
                    if seen >= stop_after:
                        proc.send_signal(signal.SIGKILL)
                        break
            proc.wait()
        out = run(chaiba, ["--resume", killed])
        final = game_lines(out.stdout)
        expect(sorted(final) == list(range(1, total + 1)), "the killed run did not end with every game")
        lost = [n for n in reported if not final[n][0]]
        expect(not lost, "games reported before a kill were played again (lost): %s" % lost)
        expect(all(outcome(final[n][1]) == outcome(reported[n]) for n in reported), "a reported game changed")
        ref_kill = game_lines(run(chaiba, args_kill + ["--out", os.path.join(work, "kill-reference")]).stdout)
        expect({n: outcome(l) for n, (_, l) in final.items()} == {n: outcome(l) for n, (_, l) in ref_kill.items()},
               "the killed and resumed run's games differ from an uninterrupted run's")
        print("werewolf_durable_e2e: ok (%d games reported before 4 kills, none lost)" % len(reported))
        return 0
    except Failure as failure:
        print("werewolf_durable_e2e: FAILED: %s" % failure)
        return 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
