#!/usr/bin/env python3
# Prompt tokens per move of the two context policies (full shared conversation vs stateless),
# measured with the OpenRouter stand-in (tests/e2e/mock_openrouter.py counts a request's tokens as
# its JSON length / 4): the same seeded games (mock/legal against mock/illegal-once, which is
# refused once per game) played once per policy; prints the average prompt tokens per move and
# per move at plies 1-20, 21-40, 41-80.
# Usage: context_tokens.py CHAIBA_BINARY [GAMES=2] [MAX_PLIES=80]
import json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
from play_e2e import Mock, KEY  # noqa: E402

def run(chaiba, mock, policy, games, max_plies, workdir):
    out = os.path.join(workdir, policy)
    env = dict(os.environ, OPENROUTER_API_KEY=KEY)
    cmd = [chaiba, "arena", "--players", "llm:mock/legal,llm:mock/illegal-once", "--format", "roundrobin",
           "--games", str(games), "--concurrency", "1", "--max-plies", str(max_plies), "--context", policy,
           "--analyse-nodes", "0", "--base-url", mock.base, "--out", out, "--quiet"]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    if r.returncode != 0:
        raise RuntimeError("arena failed: " + r.stdout + r.stderr)
    bundle = json.load(open(os.path.join(out, "tournament.json")))
    prompt, moves, bands = 0, 0, {}
    for g in bundle["games"]:
        for ply, t in enumerate(g["moves"]):
            prompt += t["promptTokens"]
            moves += 1
            band = "1-20" if ply < 20 else "21-40" if ply < 40 else "41-80"
            s = bands.setdefault(band, [0, 0])
            s[0] += t["promptTokens"]
            s[1] += 1
    return prompt / max(1, moves), {b: s[0] / s[1] for b, s in bands.items()}, moves

def main():
    chaiba = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    max_plies = int(sys.argv[3]) if len(sys.argv) > 3 else 80
    mock = Mock(chaiba)
    try:
        with tempfile.TemporaryDirectory() as workdir:
            for policy in ("full", "stateless"):
                avg, bands, moves = run(chaiba, mock, policy, games, max_plies, workdir)
                print("%-9s prompt tokens per move: %6.0f over %d moves  (plies %s)" % (
                    policy, avg, moves, ", ".join("%s: %.0f" % (b, bands[b]) for b in sorted(bands, key=lambda x: int(x.split('-')[0])))))
    finally:
        mock.stop()

if __name__ == "__main__":
    main()
