#!/usr/bin/env python3
"""How the built-in judge's move marks compare with Debian stockfish's (issue #33, item 4).

The judge (`chaiba analyse`, engine/search/analysis.h: the strongest search with the evaluation
network, 150 000 nodes and depth 12 a position, lichess's rules) marks every move of a sample of games good, ?! (inaccuracy), ? (mistake)
or ?? (blunder). Stockfish scores the same positions at a fixed depth and the same rules
(tests/oracle/stockfish_analysis_diff.py's judge) mark them again. Printed: the confusion table of
the four marks, the exact agreement and Cohen's kappa, and for "? or ??" and for "??" alone how many
marks both gave, only the judge gave, only stockfish gave.

The sample: tests/data/pgn/masters.pgn (8 master games: Kasparov - Deep Blue 1997, Molinari -
Bordais 1979, Nepomniachtchi - Ding 2023, from python-chess's test data), tests/data/pgn/blunders.pgn,
and games between the ladder's weak levels (1-5), which make real mistakes (noise and blunders by
recipe), played here with `chaiba play` (seeded, so the same games each run).

usage: judge_agreement.py [--chaiba build/native/chaiba] [--stockfish /usr/games/stockfish]
                          [--depth 18] [--ladder-games 2] [--out FILE.tsv]
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "oracle"))
from stockfish_analysis_diff import judge, stockfish_scores  # noqa: E402

MARKS = ["good", "inaccuracy", "mistake", "blunder"]
SYMBOL = {"good": "good", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
LADDER = [(1, 2), (2, 3), (3, 4), (4, 5), (1, 3), (2, 4)]


def ladder_pgn(chaiba, games, work):
    paths = []
    for white, black in LADDER:
        out = os.path.join(work, "ladder-%d-%d.pgn" % (white, black))
        subprocess.run([chaiba, "play", "--white", "engine:%d" % white, "--black", "engine:%d" % black,
                        "--games", str(games), "--seed", str(10 * white + black), "--pgn", out, "--quiet"],
                       check=True, capture_output=True, text=True)
        paths.append(out)
    return paths


def rows_of(chaiba, pgn):
    out = subprocess.run([chaiba, "analyse", "--pgn", pgn, "--format", "tsv"], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit("chaiba analyse %s failed: %s%s" % (pgn, out.stdout[-500:], out.stderr[-500:]))
    return [line.split("\t") for line in out.stdout.strip().splitlines()]


def compare(chaiba, stockfish, depth, pgn):
    """(source, game, ply, san, ours, theirs) for every move of the file's games."""
    rows = rows_of(chaiba, pgn)
    result = []
    for game in sorted({r[0] for r in rows}, key=int):
        grows = [r for r in rows if r[0] == game]
        fens = [r[2] for r in grows]
        final = subprocess.run([chaiba, "fen", "--fen", fens[-1], "--apply", grows[-1][3]], capture_output=True,
                               text=True, check=True)
        fens.append(final.stdout.strip())
        sf = stockfish_scores(stockfish, fens, depth)
        for k, r in enumerate(grows):
            theirs, _ = judge(sf[k], sf[k + 1], " w " in r[2])
            result.append((os.path.basename(pgn), int(game), int(r[1]), r[3], r[7], theirs))
    return result


def kappa(table, n):
    observed = sum(table[(m, m)] for m in MARKS) / n
    expected = sum(sum(table[(m, t)] for t in MARKS) * sum(table[(o, m)] for o in MARKS) for m in MARKS) / (n * n)
    return observed, (observed - expected) / (1 - expected) if expected < 1 else 1.0


def overlap(moves, marked):
    both = sum(1 for m in moves if marked(m[4]) and marked(m[5]))
    ours = sum(1 for m in moves if marked(m[4]) and not marked(m[5]))
    theirs = sum(1 for m in moves if marked(m[5]) and not marked(m[4]))
    return both, ours, theirs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chaiba", default=os.path.join(ROOT, "build", "native", "chaiba"))
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--depth", type=int, default=18)
    parser.add_argument("--ladder-games", type=int, default=2)
    parser.add_argument("--out", help="every move's two marks as TSV")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        files = [os.path.join(ROOT, "tests", "data", "pgn", name) for name in ("masters.pgn", "blunders.pgn")]
        files += ladder_pgn(args.chaiba, args.ladder_games, work)
        moves = []
        for pgn in files:
            got = compare(args.chaiba, args.stockfish, args.depth, pgn)
            print("%-22s %4d moves" % (os.path.basename(pgn), len(got)), file=sys.stderr)
            moves += got
    if args.out:
        with open(args.out, "w") as f:
            f.write("file\tgame\tply\tsan\tjudge\tstockfish\n")
            for m in moves:
                f.write("\t".join(str(x) for x in m) + "\n")
    n = len(moves)
    table = {(o, t): 0 for o in MARKS for t in MARKS}
    for m in moves:
        table[(m[4], m[5])] += 1
    print("%d moves of %d games; stockfish 15.1 at depth %d; the judge at its budget" %
          (n, len({(m[0], m[1]) for m in moves}), args.depth))
    print("| judge \\ stockfish | " + " | ".join(SYMBOL[t] for t in MARKS) + " |")
    print("|---|" + "---|" * len(MARKS))
    for o in MARKS:
        print("| %s | " % SYMBOL[o] + " | ".join(str(table[(o, t)]) for t in MARKS) + " |")
    observed, k = kappa(table, n)
    print("exact agreement %.1f%%, Cohen's kappa %.2f" % (100 * observed, k))
    for label, marked in (("? or ??", lambda v: v in ("mistake", "blunder")), ("??", lambda v: v == "blunder")):
        both, ours, theirs = overlap(moves, marked)
        print("%s: both %d, only the judge %d, only stockfish %d (of stockfish's %d, the judge found %.0f%%; "
              "of the judge's %d, stockfish confirms %.0f%%)" %
              (label, both, ours, theirs, both + theirs, 100 * both / max(1, both + theirs), both + ours,
               100 * both / max(1, both + ours)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
