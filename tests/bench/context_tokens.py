#!/usr/bin/env python3
# Prompt tokens per move of the context policies (full shared conversation, stateless, and windowed:
# the last 8 turns), measured with the OpenRouter stand-in (tests/e2e/mock_openrouter.py counts a
# request's tokens as its JSON length / 4): the same seeded games (mock/legal against
# mock/illegal-once, which is refused once per game) played once per policy; prints the average
# prompt tokens per move and per move at plies 1-20, 21-40, 41-80, 81-160, 161-240 (the models' moves:
# PLAYERS may seat the random mover, whose long games show where each policy's prompt goes).
# Usage: context_tokens.py CHAIBA_BINARY [GAMES=2] [MAX_PLIES=80] [PLAYERS=llm:mock/legal,llm:mock/illegal-once]
import json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
from play_e2e import Mock, KEY  # noqa: E402

def run(chaiba, mock, policy, games, max_plies, workdir, players):
    out = os.path.join(workdir, policy)
    env = dict(os.environ, OPENROUTER_API_KEY=KEY)
    # No cap and no token budget: the games run to the ply limit whatever they cost.
    cmd = [chaiba, "arena", "--players", players, "--format", "roundrobin",
           "--games", str(games), "--concurrency", "1", "--max-plies", str(max_plies), "--context", policy,
           "--context-moves", "8", "--budget-usd", "none", "--game-tokens", "none",
           "--analyse-nodes", "0", "--base-url", mock.base, "--out", out, "--quiet"]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    if r.returncode != 0:
        raise RuntimeError("arena failed: " + r.stdout + r.stderr)
    bundle = json.load(open(os.path.join(out, "tournament.json")))
    prompt, moves, bands = 0, 0, {}
    for g in bundle["games"]:
        for ply, t in enumerate(g["moves"]):
            if t["promptTokens"] == 0:
                continue  # the random mover's
            prompt += t["promptTokens"]
            moves += 1
            band = ("1-20" if ply < 20 else "21-40" if ply < 40 else "41-80" if ply < 80 else
                    "81-160" if ply < 160 else "161-240")
            s = bands.setdefault(band, [0, 0])
            s[0] += t["promptTokens"]
            s[1] += 1
    return prompt / max(1, moves), {b: s[0] / s[1] for b, s in bands.items()}, moves

def main():
    chaiba = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    max_plies = int(sys.argv[3]) if len(sys.argv) > 3 else 80
    players = sys.argv[4] if len(sys.argv) > 4 else "llm:mock/legal,llm:mock/illegal-once"
    mock = Mock(chaiba)
    try:
        with tempfile.TemporaryDirectory() as workdir:
            for policy in ("full", "stateless", "windowed"):
                avg, bands, moves = run(chaiba, mock, policy, games, max_plies, workdir, players)
                print("%-10s prompt tokens per move: %6.0f over %d moves  (plies %s)" % (
                    policy + (" 8" if policy == "windowed" else ""), avg, moves, ", ".join("%s: %.0f" % (b, bands[b]) for b in sorted(bands, key=lambda x: int(x.split('-')[0])))))
    finally:
        mock.stop()

if __name__ == "__main__":
    main()
