// Randomized fuzz run for the rules' input boundaries (FEN, SAN, UCI, PGN, the LLM move reader),
// built with ASan/UBSan. Seeded and bounded: `chaiba_rules_fuzz ITERATIONS SEED`. Besides "no
// crash, no hang" it checks that whatever is accepted is consistent (legal moves, re-readable FEN).
#include "engine/chess/move_reader.h"
#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace chaiba::chess;

namespace {

std::mt19937_64 rng;
int failures = 0;

void expect(bool ok, const std::string& what) {
    if (!ok && failures++ < 20) std::fprintf(stderr, "FUZZ FAILURE: %s\n", what.c_str());
}

size_t pick(size_t n) {
    return n ? size_t(rng() % n) : 0;
}

const std::string kAlphabet = "pnbrqkPNBRQK12345678/ wb-KQkqabcdefghABCDEFGH0x=+#!?.O-(){}[]\"':;%$*\n\t\\";

// Mutates text: replaces, inserts, deletes, duplicates or truncates a few bytes (sometimes raw bytes).
std::string mutate(std::string s) {
    const int edits = 1 + int(pick(4));
    for (int e = 0; e < edits; ++e) {
        const size_t at = pick(s.size() + 1);
        const char c = pick(8) == 0 ? char(pick(256)) : kAlphabet[pick(kAlphabet.size())];
        switch (pick(5)) {
        case 0:
            if (at < s.size()) s[at] = c;
            break;
        case 1: s.insert(s.begin() + long(at), c); break;
        case 2:
            if (at < s.size()) s.erase(at, 1 + pick(3));
            break;
        case 3:
            if (!s.empty()) s.insert(at, s.substr(pick(s.size()), pick(8)));
            break;
        default: s.resize(at); break;
        }
    }
    return s;
}

std::string randomText(size_t maxLen) {
    std::string s;
    const size_t n = pick(maxLen);
    for (size_t i = 0; i < n; ++i) s += pick(6) == 0 ? char(pick(256)) : kAlphabet[pick(kAlphabet.size())];
    return s;
}

Position randomPosition() {
    Position p = pick(3) == 0 ? Position::chess960(int(pick(960))) : Position::startPosition();
    const size_t plies = pick(80);
    for (size_t i = 0; i < plies; ++i) {
        MoveList moves;
        generateLegal(p, moves);
        if (moves.empty()) break;
        p.makeMove(moves[pick(moves.size())]);
    }
    return p;
}

void checkFen(const std::string& fen) {
    FenResult r = Position::fromFen(fen, pick(2) == 0);
    if (!r.ok()) {
        expect(!r.error.empty(), "empty FEN error");
        return;
    }
    const std::string written = r.position->fen();
    FenResult again = Position::fromFen(written, r.position->isChess960());
    expect(again.ok() && again.position->fen() == written, "FEN not re-readable: " + fen + " -> " + written);
    expect(r.position->hash() == r.position->computeHash(), "FEN hash: " + fen);
    MoveList moves;
    generateLegal(*r.position, moves);
    Position p = *r.position;
    for (const Move m : moves) {
        const Undo u = p.makeMove(m);
        p.unmakeMove(m, u);
    }
    expect(p.hash() == r.position->hash(), "make/unmake changed hash: " + fen);
}

void checkMoveText(const Position& pos, const std::string& text) {
    const MoveResult san = parseSan(pos, text);
    if (san.ok()) expect(isLegal(pos, san.move), "parseSan returned an illegal move for " + text);
    const MoveResult uci = parseUci(pos, text);
    if (uci.ok()) expect(isLegal(pos, uci.move), "parseUci returned an illegal move for " + text);
    const MoveReading read = readMove(pos, text);
    if (read.ok())
        expect(isLegal(pos, read.move), "readMove returned an illegal move for " + text);
    else
        expect(!read.error.empty(), "readMove failed without a reason");
}

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace

int main(int argc, char** argv) {
    const long iterations = argc > 1 ? std::atol(argv[1]) : 10000;
    rng.seed(argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1);
    const std::string pgnSeed = readFile(std::string(CHAIBA_SOURCE_DIR) + "/tests/data/pgn/games.pgn");
    const std::vector<std::string> prose = {
        "I'll play ", "My move: ",  "**",      "{\"move\": \"", "\"}", "1. ", "12...", " because ",
        "♘",          "♛",          "×",       "e.p.",          "=Q",  "(Q)", "0-0",   "o-o-o",
        "```json\n",  "Knight to ", " takes ", "bestmove ",     "\n"};
    for (long i = 0; i < iterations; ++i) {
        const Position base = randomPosition();
        switch (i % 4) {
        case 0: checkFen(pick(4) == 0 ? randomText(90) : mutate(base.fen())); break;
        case 1: {
            MoveList moves;
            generateLegal(base, moves);
            std::string text = moves.empty() ? randomText(12) : toSan(base, moves[pick(moves.size())]);
            if (pick(2) == 0 && !moves.empty()) text = toUci(base, moves[pick(moves.size())]);
            checkMoveText(base, pick(3) == 0 ? randomText(16) : mutate(text));
            break;
        }
        case 2: {
            std::string text;
            MoveList moves;
            generateLegal(base, moves);
            const size_t parts = 1 + pick(8);
            for (size_t k = 0; k < parts; ++k) {
                if (pick(3) == 0 && !moves.empty())
                    text += toSan(base, moves[pick(moves.size())]);
                else if (pick(2) == 0)
                    text += prose[pick(prose.size())];
                else
                    text += randomText(10);
                text += ' ';
            }
            checkMoveText(base, pick(2) == 0 ? text : mutate(text));
            break;
        }
        default: {
            const PgnReadResult r = readPgn(pick(5) == 0 ? randomText(300) : mutate(mutate(pgnSeed)));
            for (const PgnGame& g : r.games) {
                const std::string written = writePgn(g);
                const PgnReadResult again = readPgn(written);
                expect(again.ok() && again.games.size() == 1 && again.games[0].moves == g.moves,
                       "PGN write/read round trip failed: " + again.error + "\n" + written);
            }
            break;
        }
        }
    }
    std::printf("%ld iterations, %d failures\n", iterations, failures);
    return failures ? 1 : 0;
}
