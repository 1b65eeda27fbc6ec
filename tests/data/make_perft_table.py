#!/usr/bin/env python3
# Regenerates a perft reference table with Debian's stockfish: reads "FEN;maxdepth" lines (or FENs with
# --depth), writes "FEN;d1=N;d2=N;..." lines. Usage: make_perft_table.py [--960] [--depth D] < in > out
import subprocess, sys

def main():
    chess960 = "--960" in sys.argv
    default_depth = int(sys.argv[sys.argv.index("--depth") + 1]) if "--depth" in sys.argv else 4
    sf = subprocess.Popen(["/usr/games/stockfish"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    def send(cmd):
        sf.stdin.write(cmd + "\n"); sf.stdin.flush()
    send("uci")
    if chess960:
        send("setoption name UCI_Chess960 value true")
    send("isready")
    while sf.stdout.readline().strip() != "readyok":
        pass
    for line in sys.stdin:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fen, _, depth = line.partition(";")
        max_depth = int(depth) if depth else default_depth
        counts = []
        for d in range(1, max_depth + 1):
            send("position fen " + fen)
            send("go perft %d" % d)
            while True:
                out = sf.stdout.readline().strip()
                if out.startswith("Nodes searched:"):
                    counts.append("d%d=%s" % (d, out.split(":")[1].strip()))
                    break
        print(fen + ";" + ";".join(counts), flush=True)
    send("quit")

main()
