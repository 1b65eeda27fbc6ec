// Helpers shared by the rules tests: data-file paths, the stockfish perft tables, and the
// invariant-checking perft (hash after unmake, incremental vs from-scratch hash, FEN round trip,
// givesCheck, capture/quiet split).
#pragma once

#include "engine/chess/movegen.h"
#include "engine/chess/position.h"

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace chaiba::test {

inline std::string dataPath(const std::string& name) {
    return std::string(CHAIBA_SOURCE_DIR) + "/tests/data/" + name;
}

inline std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// One line of tests/data/perft_*.txt: "FEN;d1=N;d2=N;..." (from tests/data/make_perft_table.py).
struct PerftEntry {
    std::string fen;
    std::vector<uint64_t> nodes; // nodes[d-1] = perft(d)
};

inline std::vector<PerftEntry> loadPerftTable(const std::string& name) {
    std::vector<PerftEntry> out;
    std::ifstream in(dataPath(name));
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        PerftEntry e;
        std::stringstream ss(line);
        std::string part;
        std::getline(ss, e.fen, ';');
        while (std::getline(ss, part, ';')) e.nodes.push_back(std::stoull(part.substr(part.find('=') + 1)));
        out.push_back(e);
    }
    return out;
}

// Perft that checks invariants at every node; the first broken invariant is stored in `failure`.
struct CheckedPerft {
    std::string failure;
    uint64_t run(chess::Position& pos, int depth) {
        using namespace chess;
        if (!failure.empty()) return 0;
        MoveList all, caps, quiets;
        generateLegal(pos, all);
        generateCaptures(pos, caps);
        generateQuiets(pos, quiets);
        if (countLegal(pos) != int(all.size())) return fail(pos, "countLegal differs from generateLegal");
        if (caps.size() + quiets.size() != all.size()) return fail(pos, "captures + quiets != legal");
        for (const Move m : caps)
            if (!all.contains(m) || !(pos.isCapture(m) || m.isPromotion()))
                return fail(pos, "bad capture move");
        for (const Move m : quiets)
            if (!all.contains(m) || pos.isCapture(m) || m.isPromotion()) return fail(pos, "bad quiet move");
        if (depth == 0) return 1;
        uint64_t nodes = 0;
        const uint64_t hashBefore = pos.hash();
        const std::string fenBefore = depth >= 2 ? pos.fen() : "";
        for (const Move m : all) {
            const bool check = pos.givesCheck(m);
            const Undo u = pos.makeMove(m);
            if (pos.hash() != pos.computeHash()) return fail(pos, "incremental hash != computed hash");
            if (pos.inCheck() != check) return fail(pos, "givesCheck disagrees with inCheck after the move");
            if (depth >= 2) {
                FenResult r = Position::fromFen(pos.fen(), pos.isChess960());
                if (!r.ok()) return fail(pos, "own FEN does not parse: " + r.error);
                if (r.position->hash() != pos.hash() || r.position->fen() != pos.fen())
                    return fail(pos, "FEN round trip changes the position");
            }
            nodes += run(pos, depth - 1);
            pos.unmakeMove(m, u);
            if (pos.hash() != hashBefore) return fail(pos, "hash after unmake != hash before");
        }
        if (depth >= 2 && pos.fen() != fenBefore) return fail(pos, "FEN after unmaking all moves differs");
        return nodes;
    }
    uint64_t fail(const chess::Position& pos, const std::string& what) {
        if (failure.empty()) failure = what + " at " + pos.fen();
        return 0;
    }
};

} // namespace chaiba::test
