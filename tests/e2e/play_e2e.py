#!/usr/bin/env python3
"""End-to-end tests of `chaiba play` against the local mock OpenRouter server (no internet).

Each scenario runs the real binary over HTTP (libcurl) to a finished game, then checks the output,
the PGN (with chess.js through check_pgn.mjs for standard chess) and that the key leaks nowhere.
Usage: play_e2e.py --chaiba PATH [--only NAME] [--keep DIR]
"""
import argparse
import json
import os
import shutil
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KEY = "sk-or-v1-e2e-SECRET-5f1d"


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


class Failure(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Failure(message)


def run_play(chaiba, mock, workdir, name, args, key=KEY, timeout=240):
    pgn = os.path.join(workdir, name + ".pgn")
    env = dict(os.environ, OPENROUTER_API_KEY=key)
    cmd = [chaiba, "play", "--base-url", mock.base, "--pgn", pgn] + args
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    text = open(pgn).read() if os.path.exists(pgn) else ""
    for where, content in (("stdout", out.stdout), ("stderr", out.stderr), ("PGN", text)):
        expect(KEY not in content, "the API key leaked into " + where)
    return out, text


def check_pgn(path_text, workdir, name, standard=True):
    path = os.path.join(workdir, name + ".pgn")
    expect(path_text.strip() != "", "no PGN written")
    expect("[WhiteType " in path_text and "[BlackType " in path_text, "PGN lacks player type tags")
    if not standard:
        return []
    out = subprocess.run(["node", os.path.join(HERE, "check_pgn.mjs"), path], capture_output=True, text=True,
                         timeout=60)
    expect(out.returncode == 0, "chess.js rejects the PGN: " + out.stderr + out.stdout)
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def scenario_llm_vs_llm(chaiba, mock, workdir):
    """LLM vs LLM to a finished game, with one illegal move rejected and retried."""
    out, text = run_play(chaiba, mock, workdir, "llm_vs_llm",
                         ["--white", "llm:mock/legal", "--black", "llm:mock/illegal-once", "--seed", "3"])
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-2000:]))
    expect("game 1/1: llm:mock/legal - llm:mock/illegal-once" in out.stdout, "no result line: " + out.stdout)
    expect("summary: 1 games" in out.stdout, "no summary line")
    expect("move rejected" in out.stderr and "Ke9" in out.stderr, "no visible rejection: " + out.stderr[-1000:])
    # The PGN is replaced after each game through a temporary file renamed over it: none is left.
    expect(not [n for n in os.listdir(workdir) if n.endswith(".tmp")], "the PGN left a temporary file")
    games = check_pgn(text, workdir, "llm_vs_llm")
    expect(games[0]["result"] in ("1-0", "0-1", "1/2-1/2"), "unfinished: %s" % games)
    expect(games[0]["comments"] > 0, "no reasoning comments in the PGN")
    expect("[WhiteModel \"mock/legal\"]" in text and "[BlackCostUsd " in text, "missing model/cost tags")
    expect("[2 attempts]" in text, "the retried move is not marked in the PGN")


def scenario_llm_vs_engine_ratelimit(chaiba, mock, workdir):
    """LLM (rate limited once, streaming) vs the built-in engine."""
    out, text = run_play(chaiba, mock, workdir, "llm_vs_engine",
                         ["--white", "engine:2", "--black", "llm:mock/ratelimit", "--stream"])
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-2000:]))
    expect("429" in out.stderr and "retry 1 of 4 in 1000 ms" in out.stderr,
           "the 429 retry (Retry-After: 1) is not visible: " + out.stderr[-1000:])
    games = check_pgn(text, workdir, "llm_vs_engine")
    expect(games[0]["result"] != "*", "unfinished")


def scenario_text_mode(chaiba, mock, workdir):
    """A model without tool support plays in text mode (MOVE: lines read by the move reader)."""
    out, text = run_play(chaiba, mock, workdir, "text_mode",
                         ["--white", "llm:mock/text-mode", "--black", "random", "--max-plies", "30", "--games", "2",
                          "--temperature", "0.2", "--reasoning", "low"])
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-2000:]))
    expect("text mode" in out.stderr, "text mode not announced")
    expect("summary: 2 games" in out.stdout, "no two-game summary: " + out.stdout)
    games = check_pgn(text, workdir, "text_mode")
    expect(len(games) == 2 and all(g["plies"] >= 1 for g in games), "two games with moves expected: %s" % games)


def scenario_forfeit(chaiba, mock, workdir):
    """A model that only plays illegal moves forfeits after its retries."""
    out, text = run_play(chaiba, mock, workdir, "forfeit",
                         ["--white", "random", "--black", "llm:mock/always-illegal", "--retries", "2"])
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-2000:]))
    expect(" 1-0  Black forfeits" in out.stdout, "no forfeit: " + out.stdout)
    games = check_pgn(text, workdir, "forfeit")
    expect(games[0]["result"] == "1-0" and games[0]["plies"] == 1, "wrong forfeit game: %s" % games)


def scenario_garbage_prose_midstream(chaiba, mock, workdir):
    """A garbage body (retried), prose without a move (fed back), a mid-stream error (retried)."""
    out, text = run_play(chaiba, mock, workdir, "garbage_prose",
                         ["--white", "llm:mock/garbage", "--black", "llm:mock/prose", "--max-plies", "12"])
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-2000:]))
    expect("malformed response" in out.stderr, "garbage not retried visibly")
    expect("no move in the answer" in out.stderr, "prose not fed back visibly")
    check_pgn(text, workdir, "garbage_prose")
    out, text = run_play(chaiba, mock, workdir, "midstream",
                         ["--white", "llm:mock/midstream", "--black", "random", "--stream", "--max-plies", "10"])
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-2000:]))
    expect("Provider disconnected" in out.stderr, "mid-stream error not visible: " + out.stderr[-1000:])
    check_pgn(text, workdir, "midstream")


def scenario_bad_key_and_timeout(chaiba, mock, workdir):
    """A refused key stops at once (no retry) and says so; a slow model times out and is retried."""
    out, _ = run_play(chaiba, mock, workdir, "bad_key", ["--white", "llm:mock/legal", "--black", "random"],
                      key="sk-or-v1-wrong-key")
    expect(out.returncode == 1, "a refused key must fail the run")
    expect("valid OpenRouter key" in out.stdout + out.stderr, "no advice for a refused key")
    expect("retry" not in out.stderr, "a 401 must not be retried")
    expect("sk-or-v1-wrong-key" not in out.stdout + out.stderr, "the wrong key leaked")
    out, _ = run_play(chaiba, mock, workdir, "slow", ["--white", "llm:mock/slow", "--black", "random",
                                                      "--timeout-ms", "300"])
    expect(out.returncode == 1, "a model that always times out cannot finish")
    expect(out.stderr.count("timed out") >= 4, "timeouts not visible: " + out.stderr[-1000:])


def scenario_chess960(chaiba, mock, workdir):
    """Chess960: LLM vs engine from a numbered start; the PGN carries the FEN and Variant tags."""
    out, text = run_play(chaiba, mock, workdir, "chess960",
                         ["--white", "llm:mock/legal", "--black", "engine:1", "--960", "--seed", "42",
                          "--max-plies", "40"])
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-2000:]))
    expect("[Variant \"Chess960\"]" in text and "[FEN " in text, "960 tags missing")


def scenario_models_and_key(chaiba, mock, workdir):
    """`chaiba models` lists the catalog (public); `chaiba key` checks the key without printing it."""
    out = subprocess.run([chaiba, "models", "--base-url", mock.base], capture_output=True, text=True, timeout=60)
    expect(out.returncode == 0 and "mock/text-mode" in out.stdout, "models failed: " + out.stdout + out.stderr)
    tools = subprocess.run([chaiba, "models", "--base-url", mock.base, "--tools"], capture_output=True, text=True,
                           timeout=60)
    expect("mock/text-mode" not in tools.stdout and "mock/legal" in tools.stdout, "--tools filter wrong")
    env = dict(os.environ, OPENROUTER_API_KEY=KEY)
    out = subprocess.run([chaiba, "key", "--base-url", mock.base], capture_output=True, text=True, env=env,
                         timeout=60)
    expect(out.returncode == 0 and "remaining: $9.5000" in out.stdout, "key failed: " + out.stdout + out.stderr)
    expect(KEY not in out.stdout + out.stderr, "the key was printed")
    env["OPENROUTER_API_KEY"] = "sk-or-v1-wrong-key"
    out = subprocess.run([chaiba, "key", "--base-url", mock.base], capture_output=True, text=True, env=env,
                         timeout=60)
    expect(out.returncode == 1 and "valid OpenRouter key" in out.stderr, "a refused key must say so")


def scenario_prompt_cache(chaiba, mock, workdir):
    """Anthropic caching: the breakpoint's prefix repeats byte for byte, so later calls read the cache."""
    out, text = run_play(chaiba, mock, workdir, "prompt_cache",
                         ["--white", "llm:anthropic/mock-claude", "--black", "engine:1", "--max-plies", "50"])
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-2000:]))
    match = re.search(r'\[WhiteCachedTokens "(\d+)"\]', text)
    expect(match is not None, "no cached-token tag")
    plies = int(re.search(r'\[PlyCount "(\d+)"\]', text).group(1))
    expect(plies < 4 or int(match.group(1)) > 0, "no cache reads over %d plies" % plies)


def scenario_draw_offers(chaiba, mock, workdir):
    """Draw offers through the tools: declined by a move (mock/legal), then accepted (mock/draw-accept)."""
    out, text = run_play(chaiba, mock, workdir, "draw_declined",
                         ["--white", "llm:mock/draw-offer", "--black", "llm:mock/legal", "--max-plies", "6"])
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-2000:]))
    games = check_pgn(text, workdir, "draw_declined")
    expect(games[0]["result"] == "1/2-1/2" and "6 plies" in text, "not played on to the move limit: " + text)
    expect("[offers a draw]" in text, "the offers are not marked in the PGN")
    out, text = run_play(chaiba, mock, workdir, "draw_accepted",
                         ["--white", "llm:mock/draw-offer", "--black", "llm:mock/draw-accept", "--stream"])
    expect(out.returncode == 0, "exit %d: %s" % (out.returncode, out.stderr[-2000:]))
    games = check_pgn(text, workdir, "draw_accepted")
    expect(games[0]["result"] == "1/2-1/2", "not drawn: %s" % games)
    expect("[Termination \"draw agreed\"]" in text and "[PlyCount \"1\"]" in text, "not agreed at once: " + text)


def scenario_windowed_context(chaiba, mock, workdir):
    """The same seeded game sent whole, then windowed (the last 2 turns): the same moves, far fewer tokens."""
    tokens = {}
    for policy, extra in (("full", []), ("windowed", ["--context-moves", "2"])):
        out, text = run_play(chaiba, mock, workdir, "context_" + policy,
                             ["--white", "llm:mock/legal", "--black", "llm:mock/legal", "--max-plies", "60",
                              "--seed", "4", "--context", policy] + extra)
        expect(out.returncode == 0, "%s: exit %d: %s" % (policy, out.returncode, out.stderr[-2000:]))
        line = re.search(r"\((\d+) plies, \$[0-9.]+, (\d+) tokens\)", out.stdout)
        expect(line is not None, "%s: no result line: %s" % (policy, out.stdout))
        moves = re.sub(r"\{[^}]*\}|\[[^\]]*\]", "", text).split()
        tokens[policy] = (int(line.group(1)), int(line.group(2)), moves)
    expect(tokens["full"][2] == tokens["windowed"][2], "the windowed game played other moves")
    expect(tokens["windowed"][1] < tokens["full"][1] * 0.6,
           "windowed %d tokens vs full %d" % (tokens["windowed"][1], tokens["full"][1]))
    out, _ = run_play(chaiba, mock, workdir, "context_bad", ["--white", "random", "--black", "random",
                                                               "--context", "sometimes"])
    expect(out.returncode == 2 and "full, stateless or windowed" in out.stderr, "a bad --context: " + out.stderr)


SCENARIOS = [scenario_windowed_context, scenario_draw_offers, scenario_prompt_cache, scenario_models_and_key, scenario_llm_vs_llm, scenario_llm_vs_engine_ratelimit, scenario_text_mode, scenario_forfeit,
             scenario_garbage_prose_midstream, scenario_bad_key_and_timeout, scenario_chess960]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chaiba", required=True)
    parser.add_argument("--only", default="")
    parser.add_argument("--keep", default="")
    args = parser.parse_args()
    workdir = args.keep or tempfile.mkdtemp(prefix="chaiba-e2e-")
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
            except (Failure, subprocess.TimeoutExpired) as error:
                failures += 1
                print("FAIL " + name + ": " + str(error))
            sys.stdout.flush()
    finally:
        mock.stop()
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)  # --keep DIR keeps what the runs wrote
    print("%d failed" % failures if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
