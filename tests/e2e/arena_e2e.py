#!/usr/bin/env python3
"""End-to-end tests of `chaiba arena` against the local mock OpenRouter server (no internet).

A 6-player continuous arena with injected faults (always-illegal, illegal-once, rate limit) runs to
the end natively; the bundle, the PGN (chess.js via check_pgn.mjs), the forfeits, the leaderboard
and the absence of the key are checked; then resumes from a cut bundle (an unfinished game continues
from its recorded moves) and after Ctrl-C, and a refused key; a run without move quality
(--analyse-nodes 0) stays without it when resumed.
Usage: arena_e2e.py --chaiba PATH [--only NAME] [--keep DIR]
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from play_e2e import KEY, Failure, Mock, expect  # noqa: E402


def cut_snapshot(snapshot, games, cutdir):
    """A run folder holding only the snapshot's first `games` games (no leaderboard), as a run
    stopped after them leaves it: what --resume continues from."""
    cut = dict(snapshot)
    cut["games"] = snapshot["games"][:games]
    cut.pop("leaderboard", None)
    os.makedirs(cutdir, exist_ok=True)
    with open(os.path.join(cutdir, "tournament.json"), "w", encoding="utf-8") as f:
        json.dump(cut, f)
    return cutdir


def run_arena(chaiba, mock, args, key=KEY, timeout=600):
    env = dict(os.environ, OPENROUTER_API_KEY=key)
    cmd = [chaiba, "arena", "--base-url", mock.base, "--quiet"] + args
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    expect(key not in out.stdout and key not in out.stderr, "the API key leaked into the output")
    return out


def mock_requests(mock):
    """The chat requests the mock has seen, per model."""
    with urllib.request.urlopen(mock.base + "/mock/requests", timeout=10) as r:
        return json.load(r)


def check_outdir(outdir, key=KEY):
    for name in os.listdir(outdir):
        with open(os.path.join(outdir, name), encoding="utf-8") as f:
            expect(key not in f.read(), "the API key leaked into " + name)
    with open(os.path.join(outdir, "tournament.json"), encoding="utf-8") as f:
        bundle = json.load(f)
    expect(bundle.get("format") == "chaiba-tournament", "not a tournament bundle")
    out = subprocess.run(["node", os.path.join(HERE, "check_pgn.mjs"), os.path.join(outdir, "games.pgn")],
                         capture_output=True, text=True, timeout=120)
    expect(out.returncode == 0, "chess.js rejects the PGN: " + out.stderr + out.stdout[-2000:])
    pgn_games = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    expect(len(pgn_games) == len(bundle["games"]), "PGN and bundle disagree on the number of games")
    return bundle, pgn_games


def scenario_estimate_holds(chaiba, mock, workdir):
    """The cost range printed before the first game holds what the games cost, the stand-in's cost
    following its catalog prices: long games with the whole conversation sent (they cost 14 times the
    old single figure, which assumed 80-ply games), without and with the default per-game token budget
    (which ends a 96-move game of the stand-in's), long windowed games, and short stateless games."""
    import re
    # Each run skips the move-quality pass (--analyse-nodes 0): the engine's scores cost nothing, so
    # the spend compared is the same, and scoring the long games took nine tenths of the scenario.
    for label, extra in (("long, full conversation", ["--max-plies", "240", "--game-tokens", "none"]),
                         ("long, full, default token budget", ["--max-plies", "240"]),
                         ("long, windowed 4", ["--max-plies", "240", "--context", "windowed", "--context-moves", "4"]),
                         ("short, stateless", ["--max-plies", "24", "--context", "stateless"])):
        out = run_arena(chaiba, mock, ["--players", "llm:mock/legal,random", "--format", "double-roundrobin",
                                       "--games", "1", "--analyse-nodes", "0"] + extra)
        expect(out.returncode == 0, "%s: exit %d: %s" % (label, out.returncode, out.stderr[-800:]))
        stated = re.search(r"^estimated cost: \$([0-9.]+) to \$([0-9.]+) \(about \$([0-9.]+)", out.stdout, re.M)
        spent = re.search(r"^spent \$([0-9.]+)", out.stdout, re.M)
        expect(stated and spent, "%s: no estimate or spend printed: %s" % (label, out.stdout[-1500:]))
        low, high, about = (float(stated.group(i)) for i in (1, 2, 3))
        cost = float(spent.group(1))
        expect(cost > 0, "%s: the games cost nothing" % label)
        expect(low <= cost <= high, "%s: spent $%.4f outside the stated $%.4f to $%.4f" % (label, cost, low, high))
        FIGURES.append("%s: stated $%.4f to $%.4f (about $%.4f), spent $%.4f" % (label, low, high, about, cost))


def scenario_token_budget(chaiba, mock, workdir):
    """A model that has used its per-game token budget forfeits at its next turn (forfeit_token_budget); a
    field with models gets a $5 cap and a 1 000 000-token game budget by default; `none` turns them off."""
    outdir = os.path.join(workdir, "tokens")
    out = run_arena(chaiba, mock, ["--players", "llm:mock/legal,random", "--format", "roundrobin", "--games", "1",
                                   "--max-plies", "200", "--game-tokens", "6000", "--out", outdir])
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-2000:]))
    expect("limits: spending cap $5.00; 6000 tokens a model per game (then it forfeits); context full" in out.stdout,
           "the limits are not printed:\n" + out.stdout)
    bundle, pgn_games = check_outdir(outdir)
    expect(bundle["version"] >= 5, "bundle version %s" % bundle["version"])  # 5 brought the token budget
    expect(bundle["config"]["gameTokenBudget"] == 6000 and bundle["config"]["budgetUsd"] == 5,
           "config: %s" % bundle["config"])
    game = bundle["games"][0]
    expect(game["termination"] == "forfeit_token_budget", "termination %s" % game["termination"])
    model_white = game["white"] == 0
    expect(game["result"] == ("0-1" if model_white else "1-0"), "the model must lose: " + game["result"])
    turns = game["moves"][(0 if model_white else 1)::2]
    used = sum(t["promptTokens"] + t["completionTokens"] for t in turns)
    last = turns[-1]["promptTokens"] + turns[-1]["completionTokens"]
    expect(used >= 6000 and used - last < 6000, "the model used %d tokens (the last turn %d)" % (used, last))
    expect("forfeit_token_budget" in pgn_games[0]["termination"] or "budget" in pgn_games[0]["termination"],
           "PGN termination: %s" % pgn_games[0])
    out = run_arena(chaiba, mock, ["--players", "llm:mock/legal,random", "--games", "1", "--max-plies", "6",
                                   "--budget-usd", "none", "--game-tokens", "none"])
    expect(out.returncode == 0 and "limits: no spending cap; no per-game token budget" in out.stdout,
           "none did not turn the limits off:\n" + out.stdout)
    out = run_arena(chaiba, mock, ["--players", "llm:mock/legal,random", "--games", "1", "--game-tokens", "lots"])
    expect(out.returncode == 2 and "--game-tokens must be" in out.stderr, "a bad --game-tokens: " + out.stderr)
    FIGURES.append("token budget 6000: the model forfeited after %d tokens in %d moves" % (used, len(turns)))


def scenario_six_player_arena(chaiba, mock, workdir):
    """6 players, 12 games, 3 at once: the always-illegal model forfeits every game it plays."""
    outdir = os.path.join(workdir, "arena6")
    players = ["llm:mock/legal", "llm:mock/illegal-once", "llm:mock/always-illegal", "llm:mock/ratelimit",
               "engine:1", "random"]
    # No move-quality pass (--analyse-nodes 0): nothing here reads it, and it took 5 of every 6
    # seconds of the run; the resume, interrupt and harness scenarios play with it.
    out = run_arena(chaiba, mock, ["--players", ",".join(players), "--format", "arena", "--games", "12",
                                   "--concurrency", "3", "--max-plies", "80", "--seed", "5",
                                   "--analyse-nodes", "0", "--out", outdir])
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-2000:]))
    lines = [line for line in out.stdout.splitlines() if line.startswith("game ")]
    expect(len(lines) == 12, "12 result lines expected:\n" + out.stdout)
    expect("game 12/12" in out.stdout, "no final game line")
    for header in ("player", "rating", "W/D/L", "forfeits", "illegal/100", "$/game", "tokens/move"):
        expect(header in out.stdout, "leaderboard column %s missing:\n%s" % (header, out.stdout))
    bundle, pgn_games = check_outdir(outdir)
    games = bundle["games"]
    expect(len(games) == 12 and all(g["result"] != "*" for g in games), "12 finished games expected")
    bad = players.index("llm:mock/always-illegal")
    played = [g for g in games if bad in (g["white"], g["black"])]
    expect(len(played) >= 1, "the always-illegal model played no game")
    for g in played:
        expect(g["termination"] == "forfeit_illegal_move", "expected a forfeit: %s" % g["termination"])
        expect(g["result"] == ("0-1" if g["white"] == bad else "1-0"), "the forfeiting side must lose")
    others = [g for g in games if bad not in (g["white"], g["black"])]
    expect(all(not g["termination"].startswith("forfeit") for g in others), "an unexpected forfeit")
    rows = {r["participant"]: r for r in bundle["leaderboard"]["rows"]}
    expect(rows[bad]["forfeits"] == len(played) and rows[bad]["losses"] == len(played), "forfeits miscounted")
    expect(rows[bad]["illegalAttempts"] > 0, "illegal attempts not counted")
    once = players.index("llm:mock/illegal-once")
    expect(rows[once]["games"] == 0 or rows[once]["illegalAttempts"] > 0, "illegal-once made no illegal attempt")
    expect(sum(r["games"] for r in rows.values()) == 24, "games per player must add up to 2 x 12")
    engine = players.index("engine:1")  # an anchor exactly when the level has a calibrated rating
    anchor = bundle["config"]["participants"][engine]["anchorElo"]
    expect(rows[engine]["anchored"] == (anchor is not None), "anchor flag and config disagree")
    expect(anchor is None or abs(rows[engine]["rating"] - anchor) < 1e-6, "the anchor moved")
    expect(any(r["costUsd"] > 0 for r in rows.values()), "no cost recorded")
    expect(sum(1 for g in pgn_games if "forfeit" in g["termination"]) == len(played), "PGN forfeits differ")


def scenario_resume(chaiba, mock, workdir):
    """A round robin cut after half its games resumes from the bundle and finishes the rest."""
    outdir = os.path.join(workdir, "resume")
    args = ["--players", "llm:mock/legal,engine:0,random", "--format", "double-roundrobin", "--games", "1",
            "--concurrency", "2", "--max-plies", "40", "--seed", "9", "--out", outdir]
    out = run_arena(chaiba, mock, args)
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-2000:]))
    full, _ = check_outdir(outdir)
    expect(len(full["games"]) == 6, "6 games expected")
    cutdir = cut_snapshot(full, 3, os.path.join(workdir, "resume-cut"))
    out = run_arena(chaiba, mock, ["--resume", cutdir])
    expect(out.returncode == 0, "resume exit %d: %s" % (out.returncode, out.stderr[-2000:]))
    expect("resuming after 3 of 3 stored games" in out.stdout, "no resume line:\n" + out.stdout)
    expect(sum(1 for line in out.stdout.splitlines() if line.startswith("game ")) == 3, "3 more games expected")
    resumed, _ = check_outdir(cutdir)
    expect(len(resumed["games"]) == 6, "the resumed run must end with 6 games")
    expect(resumed["games"][:3] == full["games"][:3], "the kept games changed")
    ids = sorted(g["id"] for g in resumed["games"])
    expect(ids == sorted(g["id"] for g in full["games"]), "the resumed run played other pairings")


def scenario_resume_unfinished(chaiba, mock, workdir):
    """A bundle cut in the middle of a game: --resume continues that game from its recorded moves."""
    outdir = os.path.join(workdir, "unfinished")
    args = ["--players", "llm:mock/legal,engine:0,random", "--format", "double-roundrobin", "--games", "1",
            "--concurrency", "1", "--max-plies", "40", "--seed", "4", "--out", outdir]
    out = run_arena(chaiba, mock, args)
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-2000:]))
    full, _ = check_outdir(outdir)
    expect(len(full["games"]) == 6, "6 games expected")
    # Games 1-2 finished, game 3 cut after 6 plies (as a page saves a running game).
    cut_game = dict(full["games"][2])
    expect(len(cut_game["moves"]) > 6, "game 3 is too short to cut")
    cut_game["moves"] = cut_game["moves"][:6]
    cut_game.update(result="*", termination="unfinished", detail="")
    cut_game.pop("openTurn", None)
    cut = dict(full)
    cut["games"] = full["games"][:2] + [cut_game]
    cut.pop("leaderboard", None)
    cutdir = os.path.join(workdir, "unfinished-cut")
    os.makedirs(cutdir, exist_ok=True)
    with open(os.path.join(cutdir, "tournament.json"), "w", encoding="utf-8") as f:
        json.dump(cut, f)
    out = run_arena(chaiba, mock, ["--resume", cutdir])
    expect(out.returncode == 0, "resume exit %d: %s" % (out.returncode, out.stderr[-2000:]))
    expect("resuming after 2 of 3 stored games (1 unfinished continue)" in out.stdout,
           "no resume line:\n" + out.stdout)
    expect("abandoned" not in out.stdout, "the unfinished game was not continued:\n" + out.stdout)
    resumed, _ = check_outdir(cutdir)
    expect(len(resumed["games"]) == 6 and all(g["result"] != "*" for g in resumed["games"]), "6 finished games")
    expect(resumed["games"][:2] == full["games"][:2], "the kept games changed")
    done = [g for g in resumed["games"] if g["id"] == cut_game["id"]]
    expect(len(done) == 1, "the unfinished game was not finished")
    expect(done[0]["startFen"] == cut_game["startFen"], "the continued game starts elsewhere")
    expect(done[0]["moves"][:6] == cut_game["moves"], "the continued game lost its recorded turns")
    expect(len(done[0]["moves"]) > 6 or done[0]["termination"] != "unfinished", "the game did not go on")


def judged(game):
    """Whether a bundle game carries the move-quality judge's marks (its first move's cpLoss)."""
    if not game["moves"]:
        return False
    move = game["moves"][0]
    return (move[10] if isinstance(move, list) else move["cpLoss"]) >= 0


def scenario_resume_keeps_analyse_nodes(chaiba, mock, workdir):
    """A run with --analyse-nodes 0 resumed without the flag judges nothing, whether it continues the
    games (a folder of only tournament.json) or has none left; --analyse-nodes N on a resume judges the
    games at N, and a later resume keeps N."""
    outdir = os.path.join(workdir, "no-analysis")
    out = run_arena(chaiba, mock, ["--players", "random,engine:0", "--format", "double-roundrobin", "--games",
                                   "2", "--max-plies", "16", "--seed", "2", "--analyse-nodes", "0", "--out", outdir])
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-2000:]))
    first, _ = check_outdir(outdir)
    expect(len(first["games"]) == 4 and not any(judged(g) for g in first["games"]), "4 unjudged games expected")
    expect(first["harness"]["judge"] is None, "a judge in the harness: %r" % first["harness"]["judge"])
    # The first two games only, in a folder of the snapshot alone: the resume plays the other two.
    cutdir = cut_snapshot(first, 2, os.path.join(workdir, "no-analysis-cut"))
    for folder, played in ((cutdir, 2), (outdir, 0)):
        out = run_arena(chaiba, mock, ["--resume", folder])
        expect(out.returncode == 0, "resume exit %d: %s" % (out.returncode, out.stderr[-2000:]))
        expect(sum(1 for line in out.stdout.splitlines() if line.startswith("game ")) == played,
               "%d games expected:\n%s" % (played, out.stdout))
        expect("move quality" not in out.stdout and "analysed" not in out.stdout,
               "the resumed run judged the games:\n" + out.stdout)
        resumed, _ = check_outdir(folder)
        expect(len(resumed["games"]) == 4 and not any(judged(g) for g in resumed["games"]),
               "4 unjudged games expected after the resume")
        expect(resumed["harness"]["judge"] is None, "a judge in the harness after the resume")
    # Said again on a resume, the flag counts, and the next resume keeps that choice.
    out = run_arena(chaiba, mock, ["--resume", outdir, "--analyse-nodes", "2000"])
    expect(out.returncode == 0 and "analysed 4 game(s): 2000 nodes per position" in out.stdout,
           "exit %d: %s" % (out.returncode, out.stdout[-1500:] + out.stderr[-1000:]))
    out = run_arena(chaiba, mock, ["--resume", outdir])  # nothing left to judge, at the run's 2000 nodes
    expect(out.returncode == 0 and "analysed 0 game(s): 2000 nodes per position" in out.stdout,
           "exit %d: %s" % (out.returncode, out.stdout[-1500:]))
    final, _ = check_outdir(outdir)
    expect(all(judged(g) for g in final["games"]), "the games lost their judgement")
    expect(final["harness"]["judge"] and final["harness"]["judge"]["maxNodesPerPosition"] == 2000,
           "the harness's judge: %r" % final["harness"]["judge"])


def scenario_refused_key(chaiba, mock, workdir):
    """A refused key pauses the tournament at once with a clear message; nothing leaks."""
    outdir = os.path.join(workdir, "badkey")
    wrong = "sk-or-v1-wrong-key-arena"
    out = run_arena(chaiba, mock, ["--players", "llm:mock/legal,random,engine:0", "--format", "roundrobin",
                                   "--out", outdir], key=wrong)
    expect(out.returncode == 3, "a refused key must pause (exit 3), got %d" % out.returncode)
    expect("paused" in out.stdout + out.stderr and "--resume" in out.stderr, "no pause message:\n" + out.stderr)
    if os.path.isdir(outdir):
        check_outdir(outdir, key=wrong)


def scenario_config_file_budget(chaiba, mock, workdir):
    """A config file (named participant, openings) with a small budget: the cap stops new games."""
    outdir = os.path.join(workdir, "budget")
    config = {
        "name": "Budget test",
        "participants": ["llm:mock/legal", {"spec": "llm:mock/illegal-once", "name": "Once"}, "engine:0", "random"],
        "format": "roundrobin", "games": 1, "concurrency": 2, "maxPlies": 40, "seed": 3,
        "openings": [{"name": "Italian", "moves": ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"]}],
        "budgetUsd": 0.004,
    }
    path = os.path.join(workdir, "budget_config.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(config, f)
    out = run_arena(chaiba, mock, ["--config", path, "--out", outdir])
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-2000:]))
    expect("budget cap of $0.0040 reached" in out.stdout, "no budget message:\n" + out.stdout)
    expect("stopped early" in out.stdout, "the summary does not say the run stopped early")
    bundle, _ = check_outdir(outdir)
    games = bundle["games"]
    expect(1 <= len(games) < 6 and all(g["result"] != "*" for g in games), "finished games under the cap expected")
    expect(all(g["startFen"].startswith("r1bqk1nr/pppp1ppp/2n5/2b1p3/") or g["opening"] == 0 for g in games),
           "the opening suite was not used")
    expect(all(g["opening"] == 0 for g in games), "games must start from the suite's opening")
    expect(any(p["name"] == "Once" for p in bundle["config"]["participants"]), "the participant name was lost")
    expect("Once" in out.stdout, "the leaderboard does not use the display name")


def scenario_timeout_forfeit(chaiba, mock, workdir):
    """A model that always times out is retried per the failure rules, then forfeits on time."""
    outdir = os.path.join(workdir, "timeout")
    # The shortest timeout the flag takes: mock/slow answers after 1.5 s, so every request times out.
    # The rule is "retry up to 3 times": 4 requests in all, the client's own retries within a call
    # included (they were 4 calls of 4 requests each, 16, before the runner counted requests).
    before = mock_requests(mock).get("mock/slow", 0)
    out = run_arena(chaiba, mock, ["--players", "llm:mock/slow,random", "--format", "roundrobin", "--games", "1",
                                   "--timeout-ms", "100", "--out", outdir])
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-2000:]))
    bundle, _ = check_outdir(outdir)
    expect(len(bundle["games"]) == 1, "one game expected")
    expect(bundle["games"][0]["termination"] == "forfeit_timeout", "expected a timeout forfeit: %s"
           % bundle["games"][0]["termination"])
    sent = mock_requests(mock).get("mock/slow", 0) - before
    expect(sent == 4, "mock/slow was asked %d times, the timeout rule allows 4 requests" % sent)


def scenario_interrupt_and_resume(chaiba, mock, workdir):
    """Ctrl-C mid-run writes the bundle with the finished games and the running one unfinished;
    --resume continues it and completes the schedule."""
    outdir = os.path.join(workdir, "interrupt")
    env = dict(os.environ, OPENROUTER_API_KEY=KEY)
    cmd = [chaiba, "arena", "--base-url", mock.base, "--quiet", "--players", "llm:mock/legal,engine:0,random",
           "--format", "double-roundrobin", "--games", "2", "--concurrency", "1", "--max-plies", "60", "--out",
           outdir]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("game 2/"):
            proc.send_signal(signal.SIGINT)
            break
    rest, err = proc.communicate(timeout=120)
    text = "".join(lines) + rest
    expect(KEY not in text + err, "the API key leaked")
    expect(proc.returncode == 130 and "kept unfinished" in text, "exit %d: %s" % (proc.returncode, text[-1500:]))
    first, _ = check_outdir(outdir)
    finished = [g for g in first["games"] if g["result"] != "*"]
    unfinished = [g for g in first["games"] if g["result"] == "*"]
    expect(2 <= len(finished) < 12 and len(unfinished) <= 1, "finished games, then at most the running one")
    expect(first["games"][:len(finished)] == finished, "unfinished games come after the finished ones")
    out = run_arena(chaiba, mock, ["--resume", outdir])
    expect(out.returncode == 0, "resume exit %d: %s" % (out.returncode, out.stderr[-2000:]))
    final, _ = check_outdir(outdir)
    expect(len(final["games"]) == 12 and all(g["result"] != "*" for g in final["games"]),
           "the resumed run must complete 12 games")
    expect(final["games"][:len(finished)] == finished, "the kept games changed")
    for u in unfinished:
        done = [g for g in final["games"] if g["id"] == u["id"]]
        # The moves played (their analysis comes once the game is finished, so it is not compared).
        played = [m["uci"] for m in u["moves"]]
        expect(len(done) == 1 and [m["uci"] for m in done[0]["moves"][:len(played)]] == played,
               "the interrupted game did not continue from its recorded moves")


def scenario_harness(chaiba, mock, workdir):
    """The bundle records how the models were asked (the flags, kept for a resume), the prompt texts,
    the judge and when each game was played; the PGN carries lichess's [%eval] and the games' times."""
    outdir = os.path.join(workdir, "harness")
    out = run_arena(chaiba, mock, ["--players", "llm:mock/legal,engine:1", "--format", "roundrobin", "--games", "1",
                                   "--max-plies", "30", "--temperature", "0.4", "--retries", "2", "--legal-moves",
                                   "--reasoning", "low", "--out", outdir])
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-800:]))
    bundle, _ = check_outdir(outdir)
    calls = bundle["config"]["calls"]
    expect(calls["temperature"] == 0.4 and calls["retries"] == 2 and calls["legalMoves"] is True
           and calls["reasoningEffort"] == "low", "the calls are not the flags: %r" % calls)
    harness = bundle["harness"]
    expect(harness["calls"] == calls, "the harness does not restate the calls")
    expect(harness["prompts"] and harness["prompts"]["system_base"].strip(), "no prompt texts in the harness")
    expect(harness["judge"] and harness["judge"]["maxNodesPerPosition"] > 0, "no judge in the harness: %r" % harness)
    expect(harness["firstGameAt"] and harness["lastGameAt"] >= harness["firstGameAt"], "no game times")
    for g in bundle["games"]:
        expect("startedAt" in g and "finishedAt" in g, "game %d has no times" % g["id"])
    with open(os.path.join(outdir, "games.pgn"), encoding="utf-8") as f:
        pgn = f.read()
    expect("[%eval " in pgn, "no [%eval] in the PGN")
    expect('[UTCDate "' in pgn and '[UTCTime "' in pgn and '[GameDuration "' in pgn, "no time tags in the PGN")


SCENARIOS = [scenario_six_player_arena, scenario_resume, scenario_resume_unfinished, scenario_refused_key,
             scenario_config_file_budget, scenario_timeout_forfeit, scenario_interrupt_and_resume,
             scenario_estimate_holds, scenario_token_budget, scenario_harness,
             scenario_resume_keeps_analyse_nodes]
FIGURES = []


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chaiba", required=True)
    parser.add_argument("--only", default="")
    parser.add_argument("--keep", default="")
    args = parser.parse_args()
    workdir = args.keep or tempfile.mkdtemp(prefix="chaiba-arena-e2e-")
    os.makedirs(workdir, exist_ok=True)
    mock = Mock(os.path.abspath(args.chaiba))
    failures = 0
    try:
        for scenario in SCENARIOS:
            name = scenario.__name__[len("scenario_"):]
            if args.only and args.only not in name:
                continue
            try:
                scenario(os.path.abspath(args.chaiba), mock, workdir)
                print("ok   " + name)
            except (Failure, subprocess.TimeoutExpired, KeyError, ValueError) as error:
                failures += 1
                print("FAIL " + name + ": " + repr(error))
            sys.stdout.flush()
    finally:
        mock.stop()
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    for figure in FIGURES:
        print("figures: " + figure)
    print("%d failed" % failures if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
