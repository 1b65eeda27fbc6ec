#!/usr/bin/env python3
# Differential perft against stockfish on random (odd but legal) positions: random placements with
# random castling rights and en-passant squares, standard and Chess960. Positions our FEN reader
# rejects are skipped; for the rest perft(DEPTH) must equal stockfish's `go perft`.
# Usage: stockfish_perft_diff.py CHAIBA_BINARY [POSITIONS=200] [DEPTH=3] [SEED=1]
import random, subprocess, sys

def random_fen(rng):
    board = [None] * 64
    chess960 = rng.random() < 0.4
    def free(squares):
        return [s for s in squares if board[s] is None]
    # Kings on their back ranks half of the time so castling can be tried.
    castling = ""
    for color in "wb":
        back = 0 if color == "w" else 7
        if rng.random() < 0.6:
            kfile = rng.randrange(1, 7) if chess960 else 4
            board[back * 8 + kfile] = "K" if color == "w" else "k"
            for side, files in (("K", range(kfile + 1, 8)), ("Q", range(0, kfile))):
                files = list(files)
                if files and rng.random() < 0.7:
                    rfile = rng.choice(files) if chess960 else (7 if side == "K" else 0)
                    sq = back * 8 + rfile
                    if board[sq] is None:
                        board[sq] = "R" if color == "w" else "r"
                        letter = chr(ord("A") + rfile) if chess960 else side
                        castling += letter if color == "w" else letter.lower()
        else:
            board[rng.choice(free(range(64)))] = "K" if color == "w" else "k"
    for _ in range(rng.randrange(2, 20)):
        piece = rng.choice("PPPPNBRQpppppnbrq")
        squares = free(range(8, 56) if piece in "Pp" else range(64))
        board[rng.choice(squares)] = piece
    side = rng.choice("wb")
    ep = "-"
    if rng.random() < 0.3:
        f = rng.randrange(8)
        ep = "%s%d" % ("abcdefgh"[f], 6 if side == "w" else 3)
        pawn_sq = (4 if side == "w" else 3) * 8 + f
        board[pawn_sq] = "p" if side == "w" else "P"
        for s in ((5 if side == "w" else 2) * 8 + f, (6 if side == "w" else 1) * 8 + f):
            board[s] = None
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            p = board[rank * 8 + f]
            if p is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + p
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + " %s %s %s 0 1" % (side, castling or "-", ep), chess960

def main():
    binary = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    depth = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    sf = subprocess.Popen(["/usr/games/stockfish"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    def send(c):
        sf.stdin.write(c + "\n"); sf.stdin.flush()
    send("uci")
    compared = failures = with_castling = with_ep = in_960 = 0
    while compared < count:
        fen, chess960 = random_fen(rng)
        args = [binary, "perft", str(depth), "--fen", fen] + (["--960"] if chess960 else [])
        ours = subprocess.run(args, capture_output=True, text=True)
        if ours.returncode != 0:
            continue  # rejected by our FEN reader (e.g. side not to move in check)
        # Stockfish needs our normalised FEN (it trusts whatever it is given).
        ours_fen = subprocess.run([binary, "fen", "--fen", fen] + (["--960"] if chess960 else []),
                                  capture_output=True, text=True).stdout.strip()
        nodes = int(ours.stdout.strip().splitlines()[-1].split()[0].split("=")[1])
        send("setoption name UCI_Chess960 value %s" % ("true" if chess960 else "false"))
        send("position fen " + ours_fen)
        send("go perft %d" % depth)
        while True:
            line = sf.stdout.readline()
            if line.startswith("Nodes searched:"):
                theirs = int(line.split(":")[1])
                break
        compared += 1
        fields = ours_fen.split()
        with_castling += fields[2] != "-"
        with_ep += fields[3] != "-"
        in_960 += chess960
        if theirs != nodes:
            failures += 1
            print("DIFF %s (960=%s): chaiba %d stockfish %d" % (ours_fen, chess960, nodes, theirs))
    send("quit")
    print("%d positions compared at depth %d (%d with castling rights, %d with en passant, %d Chess960), %d differ"
          % (compared, depth, with_castling, with_ep, in_960, failures))
    sys.exit(1 if failures else 0)

main()
