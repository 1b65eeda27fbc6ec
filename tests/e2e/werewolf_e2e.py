#!/usr/bin/env python3
"""End-to-end test of `chaiba werewolf` against the local mock OpenRouter server (no internet).

Eight seats mixing well-behaved Werewolf models (JSON schema, tool call and text channels), ones
that misbehave (an invalid target first, silence, prose without JSON, answers past the timeout)
and a bot play two whole games over HTTP; the test checks the lines, the leaderboard, the JSON
files (events to the game's end, notes, fallbacks counted per seat), --resume, and that the key
leaks nowhere.
Usage: werewolf_e2e.py --chaiba PATH [--keep DIR]
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KEY = "sk-or-v1-e2e-WEREWOLF-SECRET-77"
PLAYERS = ["llm:mock/wolf-smart", "llm:mock/wolf-tools", "llm:mock/wolf-text", "llm:mock/wolf-invalid",
           "llm:mock/wolf-silent", "llm:mock/wolf-garbage", "llm:mock/wolf-slow", "bot"]


class Failure(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Failure(message)


class Mock:
    def __init__(self, chaiba):
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "mock_openrouter.py"), "--chaiba", chaiba,
                                      "--key", KEY], stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline().strip()
        if not line.startswith("PORT "):
            self.stop()
            raise RuntimeError("mock server did not start: " + line)
        self.base = "http://127.0.0.1:%s/api/v1" % line.split()[1]

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def run(chaiba, mock, args, timeout=120):
    env = dict(os.environ, OPENROUTER_API_KEY=KEY)
    cmd = [chaiba, "werewolf", "--base-url", mock.base] + args
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    for where, content in (("stdout", out.stdout), ("stderr", out.stderr)):
        expect(KEY not in content, "the API key leaked into " + where)
    return out


def game_records(out_dir):
    """Each game's whole record in the run's log ({"record": ...} lines), by game number."""
    records = {}
    for line in open(os.path.join(out_dir, "tournament.log")).read().splitlines():
        payload = line.split(" ", 1)[1]
        if payload.startswith('{"record":'):
            text = payload[len('{"record":'):-1]
            records[json.loads(text)["result"]["game"]] = text
    return records


def check_game(records, number):
    path = "the record of game %d" % number
    text = records[number]
    expect(KEY not in text, "the API key leaked into " + path)
    game = json.loads(text)
    expect(game["format"] == "chaiba-werewolf-game", path + ": wrong format")
    result = game["result"]
    expect(result["game"] == number, path + ": wrong game number")
    expect(result["winner"] in ("villagers", "wolves"), path + ": no winner: %s" % result["winner"])
    expect(game["events"][-1]["kind"] == "game_over", path + ": the log does not end with the game's end")
    expect(len(game["seats"]) == 8, path + ": not 8 seats")
    players = sorted(s["player"] for s in game["seats"])
    expect(players == sorted(PLAYERS), path + ": wrong players %s" % players)
    by_player = {s["player"]: s for s in game["seats"]}
    # Fallbacks: counted per seat, summed in the result, each marked on its decision.
    total = sum(s.get("stats", {}).get("fallbacks", 0) for s in game["seats"])
    expect(total == result["fallbacks"], path + ": fallbacks %d != %d" % (total, result["fallbacks"]))
    for seat in game["seats"]:
        if seat["kind"] != "ai":
            expect("stats" not in seat, path + ": a bot with model stats")
            continue
        marked = sum(1 for d in seat["decisions"] if "fallback" in d)
        expect(marked == seat["stats"]["fallbacks"], path + ": %s fallbacks not marked" % seat["player"])
        expect(seat["stats"]["asks"] == 0 or seat["stats"]["total_tokens"] > 0, path + ": %s used no tokens" % seat["player"])
        expect(seat["channel"] in ("json_schema", "tool_call", "text"), path + ": no channel")
    garbage = by_player["llm:mock/wolf-garbage"]
    # Every decision of the garbage model: refused, retried once, refused again, fallen back.
    decisions = sum(1 for d in garbage["decisions"] if d["kind"] != "notes")
    expect(garbage["stats"]["fallbacks"] == decisions and garbage["stats"]["malformed"] == 2 * decisions,
           path + ": the garbage model's answers were not retried once, then fallen back: %s" % garbage["stats"])
    expect(garbage["channel"] == "text" and by_player["llm:mock/wolf-tools"]["channel"] == "tool_call"
           and by_player["llm:mock/wolf-smart"]["channel"] == "json_schema", path + ": wrong answer channels")
    silent_seat = by_player["llm:mock/wolf-silent"]["seat"]
    expect(not any(e["kind"] == "day_chat" and e.get("seat") == silent_seat for e in game["events"]),
           path + ": the silent model spoke")
    expect(any(e["kind"] == "day_chat" for e in game["events"]), path + ": nobody spoke")
    expect(any("reasoning" in e for e in game["events"]), path + ": no reasoning on any event")
    # Notes rewritten after phases by the models that lived through one.
    expect(any(s.get("notes") for s in game["seats"]), path + ": no notes")
    return game


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chaiba", required=True)
    parser.add_argument("--keep", help="keep the output in this folder")
    args = parser.parse_args()
    mock = Mock(args.chaiba)
    workdir = args.keep or tempfile.mkdtemp(prefix="werewolf_e2e_")
    out_dir = os.path.join(workdir, "games")
    try:
        # Step 1. Two whole games, 8 seats.
        # Seed 1: the misbehaving models live long enough in both games to misbehave.
        common = ["--players", ",".join(PLAYERS), "--seed", "1", "--timeout-ms", "1000", "--out", out_dir]
        out = run(args.chaiba, mock, common + ["--games", "2"])
        expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-3000:]))
        lines = [l for l in out.stdout.splitlines() if l.startswith("game ")]
        expect(len(lines) == 2, "expected 2 game lines: " + out.stdout)
        for i, line in enumerate(lines, 1):
            expect(re.match(r"game %d/2: (villagers|wolves) win in \d+ rounds \(seed \d+\); fallbacks: decisions \d+/\d+, notes \d+/\d+; "
                            r"\d+ tokens; \$[0-9.]+; [0-9.]+ s; wolves: " % i, line), "bad game line: " + line)
        expect("summary: 2 games:" in out.stdout, "no summary: " + out.stdout)
        for player in PLAYERS:
            expect(re.search(r"^%s +2 " % re.escape(player), out.stdout, re.M), "no leaderboard row for " + player)
        expect("fallback: game " in out.stderr and "(malformed)" in out.stderr and "(api_error)" in out.stderr,
               "fallbacks not logged: " + out.stderr[-2000:])
        expect("timeout" in out.stderr, "the slow model's timeouts are not visible")
        expect(not glob.glob(os.path.join(out_dir, "game-*.json")), "game files beside the log")
        games = [check_game(game_records(out_dir), n) for n in (1, 2)]
        expect(sum(s["stats"]["fallbacks"] for g in games for s in g["seats"]
                   if s["player"] == "llm:mock/wolf-garbage") > 0, "the garbage model never fell back")
        for game in games:
            by_player = {s["player"]: s for s in game["seats"]}
            invalid = by_player["llm:mock/wolf-invalid"]["stats"]
            # Each invalid first answer is refused and the retry accepted: no fallback.
            expect(invalid["malformed"] > 0 and invalid["fallbacks"] == 0, "wolf-invalid: %s" % invalid)
            slow = by_player["llm:mock/wolf-slow"]["stats"]
            # Its first chat turn times out three times (two retries), then falls back to silence.
            expect(slow["api_errors"] == 3 and slow["fallbacks"] == 1, "wolf-slow: %s" % slow)
        # The wolves' private night chat: an AI wolf speaks in it, and only the wolves hear it.
        night = [e for g in games for e in g["events"] if e["kind"] == "wolf_chat"]
        expect(night and all(e["audience"] == "wolves" for e in night), "no private wolf chat: %s" % night[:3])
        expect(any(d["kind"] == "wolf_chat" and d.get("send") for g in games for s in g["seats"]
                   for d in s.get("decisions", [])), "no AI wolf spoke at night")
        summary = json.load(open(os.path.join(out_dir, "summary.json")))
        expect(summary["games"] == 2 and len(summary["leaderboard"]) == len(PLAYERS), "bad summary.json")
        expect(summary["fallbacks"] == sum(g["result"]["fallbacks"] for g in games), "summary fallbacks differ")
        expect(summary["fallbacks"] > 0, "no fallback counted")

        # Step 2. --resume: the two games are read back, a third one is played.
        out = run(args.chaiba, mock, ["--players", ",".join(PLAYERS), "--seed", "1", "--timeout-ms", "1000",
                                      "--resume", out_dir, "--games", "3"])
        expect(out.returncode == 0, "resume exit %d: %s" % (out.returncode, out.stderr[-3000:]))
        expect(out.stdout.count("(resumed)") == 2, "the written games were not resumed: " + out.stdout)
        expect("game 3/3: " in out.stdout and "summary: 3 games:" in out.stdout, "no third game: " + out.stdout)
        check_game(game_records(out_dir), 3)
        for path in glob.glob(os.path.join(out_dir, "*")):
            expect(KEY not in open(path).read(), "the API key leaked into " + path)
        print("werewolf_e2e: ok (%s)" % workdir)
        return 0
    except Failure as failure:
        print("werewolf_e2e: FAILED: %s" % failure)
        return 1
    finally:
        mock.stop()


if __name__ == "__main__":
    sys.exit(main())
