#!/usr/bin/env python3
# Move quality checked against stockfish: `chaiba analyse --format tsv` judges every move of a fixed
# game with the built-in engine; stockfish (Debian's /usr/games/stockfish) scores the same positions
# at a fixed depth and the same lichess rules (engine/search/analysis.h) judge them: the win-percent
# drop between centipawn scores, lichess's MateAdvice when a mate appears or goes. The blunders must
# be the same plies, and must include the plies the game file names.
# Usage: stockfish_analysis_diff.py CHAIBA_BINARY PGN_FILE [STOCKFISH=/usr/games/stockfish] [DEPTH=14]
#   PGN_FILE's line "% blunders: 1:24 2:9 ..." lists the known blunders as game:ply.
import math, subprocess, sys

def win_percent(cp):
    cp = max(-1000, min(1000, cp))
    return 50 + 50 * (2 / (1 + math.exp(-0.00368208 * cp)) - 1)

def stockfish_scores(stockfish, fens, depth):
    sf = subprocess.Popen([stockfish], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(line):
        sf.stdin.write(line + "\n")
    def wait_for(prefix):
        while True:
            line = sf.stdout.readline()
            if not line:
                raise RuntimeError("stockfish exited")
            if line.startswith(prefix):
                return line
    send("uci"); wait_for("uciok")
    send("setoption name Threads value 1"); send("setoption name Hash value 32")
    send("isready"); wait_for("readyok")
    scores = []  # (centipawns, mate in N, terminal) from White's side
    for fen in fens:
        send("ucinewgame"); send("position fen " + fen); send("go depth %d" % depth)
        last = None
        while True:
            line = sf.stdout.readline()
            if line.startswith("info") and " score " in line and " bound" not in line:
                last = line.split()
            if line.startswith("bestmove"):
                terminal = line.split()[1] == "(none)"  # checkmate or stalemate on the board
                break
        i = last.index("score")
        kind, value = last[i + 1], int(last[i + 2])
        sign = 1 if " w " in fen else -1
        if kind == "mate":
            scores.append((sign * (100000 if value > 0 else -100000), sign * value, terminal))
        else:
            scores.append((sign * value, 0, terminal))
    send("quit"); sf.wait()
    return scores

def clamped(score):
    cp, mate, terminal = score
    if terminal and mate == 0 and cp == 0:
        return 0
    return max(-1000, min(1000, cp))

def judge(before, after, white):
    """lichess's verdict of a move (lila Advice.scala), as analysis.cpp's judgeMove."""
    sign = 1 if white else -1
    mate_before = sign * before[1]
    mate_after = 0 if after[2] else sign * after[1]
    if mate_before or mate_after:
        if after[2]:
            return "good", 0.0
        cp_before = 0 if mate_before else sign * before[0]
        cp_after = 0 if mate_after else sign * after[0]
        if mate_before == 0 and mate_after < 0:
            return ("inaccuracy" if cp_before < -999 else "mistake" if cp_before < -700 else "blunder"), -1.0
        if mate_before > 0 and mate_after <= 0:
            return ("inaccuracy" if cp_after > 999 else "mistake" if cp_after > 700 else "blunder"), -1.0
        return "good", 0.0
    wb = win_percent(clamped(before)) if white else 100 - win_percent(clamped(before))
    wa = win_percent(clamped(after)) if white else 100 - win_percent(clamped(after))
    drop = max(0.0, wb - wa)
    return ("blunder" if drop >= 15 else "mistake" if drop >= 10 else "inaccuracy" if drop >= 5 else "good"), drop

def main():
    chaiba, pgn = sys.argv[1], sys.argv[2]
    stockfish = sys.argv[3] if len(sys.argv) > 3 else "/usr/games/stockfish"
    depth = int(sys.argv[4]) if len(sys.argv) > 4 else 14
    known = set()
    for line in open(pgn):
        if line.startswith("% blunders:"):
            known = set(line.split(":", 1)[1].split())
    out = subprocess.run([chaiba, "analyse", "--pgn", pgn, "--format", "tsv"], capture_output=True, text=True)
    if out.returncode != 0:
        print("chaiba analyse failed:", out.stdout, out.stderr); return 1
    rows = [line.split("\t") for line in out.stdout.strip().splitlines()]
    ours, theirs = set(), set()
    for game in sorted({r[0] for r in rows}, key=int):
        grows = [r for r in rows if r[0] == game]
        fens = [r[2] for r in grows]
        # The final position too (after the game's last move).
        final = subprocess.run([chaiba, "fen", "--fen", fens[-1], "--apply", grows[-1][3]], capture_output=True, text=True)
        fens.append(final.stdout.strip())
        sf = stockfish_scores(stockfish, fens, depth)
        for k, r in enumerate(grows):
            ply, san, verdict = int(r[1]), r[3], r[7]
            white = " w " in r[2]
            sf_verdict, drop = judge(sf[k], sf[k + 1], white)
            print("game %s ply %3d %-8s chaiba %-10s (drop %5s)  stockfish %-10s (drop %5.1f)" % (game, ply, san, verdict, r[6], sf_verdict, drop))
            if verdict == "blunder": ours.add("%s:%d" % (game, ply))
            if sf_verdict == "blunder": theirs.add("%s:%d" % (game, ply))
    print("blunders: chaiba", sorted(ours), "stockfish", sorted(theirs), "known", sorted(known))
    if ours != theirs:
        print("FAIL: the built-in engine and stockfish disagree on the blunders"); return 1
    if not known <= ours:
        print("FAIL: a known blunder was not found"); return 1
    print("ok: the same %d blunders" % len(ours))
    return 0

if __name__ == "__main__":
    sys.exit(main())
