// Texel tuning of the full evaluation (engine/search/eval_params.h): fits its piece-square tables
// and term weights to positions labelled by stockfish (texel_gen.cpp) by minimising the mean
// squared error between expected scores, sigmoid(eval) against sigmoid(stockfish's score), with
// Adam on the whole training set and an L2 pull towards the starting values; reports the error on
// a held-out tenth before and after, and writes the fitted numbers as
// engine/search/eval_params_tuned.cpp (what kFeatureTunedEval reads). It starts from the hand-set
// numbers (eval_params.cpp), so the same data gives the same file.
// The evaluation is linear in its numbers once a position's term counts are known, so each
// position is turned into those counts once (features below, checked against the engine's own
// evaluate()). tests/calibrate/texel_tune.sh builds and runs it.
#include "engine/chess/bitboard.h"
#include "engine/chess/position.h"
#include "engine/search/eval_bits.h"
#include "engine/search/eval_params.h"
#include "engine/search/evaluation.h"
#include "engine/search/pesto_tables.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace chaiba;
using chess::Bitboard;
using search::adjacentFiles;
using search::forwardFill;
using search::kAttackWeight;
using search::kMobilityCentre;
using search::pawnAttacksOf;

namespace {

// Parameter vector layout (middle-game and end-game halves of each term).
constexpr int kPstMg = 0, kPstEg = 384;
constexpr int kBishopPair = 768; // mg, eg
constexpr int kMobility = 770;   // mg[4], eg[4]
constexpr int kPassed = 778;     // mg[8], eg[8]
constexpr int kDoubled = 794, kIsolated = 796, kRookOpen = 798, kRookSemiOpen = 800, kShield = 802;
constexpr int kKingDanger = 804; // the scale (mg only)
constexpr int kParams = 805;
constexpr int kTempo = 10; // evaluation.cpp's side-to-move bonus, not tuned

// Which parameters stand for a middle-game value (the rest are end-game values).
bool isMiddleGame(int p) {
    if (p < kPstEg) return true;
    if (p < kBishopPair) return false;
    if (p < kMobility) return p == kBishopPair;
    if (p < kPassed) return p < kMobility + 4;
    if (p < kDoubled) return p < kPassed + 8;
    if (p < kKingDanger) return (p - kDoubled) % 2 == 0;
    return true;
}

std::vector<double> toVector(const search::EvalParams& e) {
    std::vector<double> v(kParams, 0.0);
    for (int piece = 0; piece < 6; ++piece)
        for (int sq = 0; sq < 64; ++sq) {
            v[kPstMg + piece * 64 + sq] = e.pstMg[piece][sq];
            v[kPstEg + piece * 64 + sq] = e.pstEg[piece][sq];
        }
    v[kBishopPair] = e.bishopPairMg;
    v[kBishopPair + 1] = e.bishopPairEg;
    for (int t = 0; t < 4; ++t) {
        v[kMobility + t] = e.mobilityMg[t];
        v[kMobility + 4 + t] = e.mobilityEg[t];
    }
    for (int r = 0; r < 8; ++r) {
        v[kPassed + r] = e.passedMg[r];
        v[kPassed + 8 + r] = e.passedEg[r];
    }
    const int pairs[5][3] = {{kDoubled, e.doubledMg, e.doubledEg},
                             {kIsolated, e.isolatedMg, e.isolatedEg},
                             {kRookOpen, e.rookOpenMg, e.rookOpenEg},
                             {kRookSemiOpen, e.rookSemiOpenMg, e.rookSemiOpenEg},
                             {kShield, e.shieldMg, e.shieldEg}};
    for (const auto& p : pairs) {
        v[p[0]] = p[1];
        v[p[0] + 1] = p[2];
    }
    v[kKingDanger] = e.kingDangerScale;
    return v;
}

// One position: its term counts (White minus Black) per parameter, and the phase.
struct Sample {
    std::vector<std::pair<int, float>> counts;
    int phase = 0;     // min(phase, 24)
    int tempo = 0;     // +kTempo White to move, -kTempo Black
    double target = 0; // expected score for White from the label
    double offset = 0; // --all-terms: the terms this tool does not fit, in centipawns (White's view)
    int egScale = 64;  // --all-terms: the end game's scale in 64ths with the `start` numbers
    int stockfishCp = 0;
    double result = 0.5;
    std::string fen;
};

// The same terms as engine/search/evaluation.cpp, counted instead of summed. With `allTerms`, the
// evaluation is EvalTerms::FullKing: the terms this tool does not fit (threats, connected pawns,
// outposts, safe checks ...) become a fixed offset, the engine's sums with the `start` numbers less
// the counted ones, and the end-game counts are scaled like the engine's end-game sum.
void features(const chess::Position& pos, Sample& s, bool allTerms, const std::vector<double>& start) {
    std::vector<double> c(kParams, 0.0);
    int phase = 0;
    for (int color = 0; color < 2; ++color) {
        const double sign = color == 0 ? 1 : -1;
        int bishops = 0;
        for (int t = 1; t <= 6; ++t) {
            Bitboard b = pos.pieces(static_cast<chess::Color>(color), static_cast<chess::PieceType>(t));
            while (b) {
                const int sq = chess::popLsb(b);
                const int piece = t - 1;
                const int white = color == 0 ? sq : sq ^ 56;
                c[kPstMg + piece * 64 + white] += sign;
                c[kPstEg + piece * 64 + white] += sign;
                phase += search::kPhaseWeight[static_cast<std::size_t>(piece)];
                if (piece == 2) ++bishops;
            }
        }
        if (bishops >= 2) {
            c[kBishopPair] += sign;
            c[kBishopPair + 1] += sign;
        }
    }
    const Bitboard pawns[2] = {pos.pieces(chess::Color::White, chess::PieceType::Pawn),
                               pos.pieces(chess::Color::Black, chess::PieceType::Pawn)};
    const auto both = [&](int index, double v) {
        c[index] += v;
        c[index + 1] += v;
    };
    for (int color = 0; color < 2; ++color) {
        const double sign = color == 0 ? 1 : -1;
        const Bitboard own = pawns[color], enemy = pawns[color ^ 1];
        // Pawn structure.
        for (Bitboard b = own; b;) {
            const int sq = chess::popLsb(b);
            const Bitboard fileMask = chess::fileBB(chess::fileOf(sq));
            const Bitboard ahead = forwardFill(color, chess::squareBit(sq)) & ~chess::squareBit(sq);
            if (ahead & own) both(kDoubled, sign);
            if (!(adjacentFiles(fileMask) & own)) both(kIsolated, sign);
            const Bitboard front = forwardFill(color, ahead | adjacentFiles(ahead));
            if (!(front & enemy) && !(ahead & own)) {
                const int relRank = color == 0 ? chess::rankOf(sq) : 7 - chess::rankOf(sq);
                c[kPassed + relRank] += sign;
                c[kPassed + 8 + relRank] += sign;
            }
        }
        // Pieces.
        const chess::Color us = static_cast<chess::Color>(color), them = static_cast<chess::Color>(color ^ 1);
        const Bitboard occupied = pos.pieces();
        const Bitboard safe = ~pos.pieces(us) & ~pawnAttacksOf(color ^ 1, enemy);
        const chess::Square enemyKing = pos.kingSquare(them);
        const Bitboard kingZone = chess::kingAttacks(enemyKing) | chess::squareBit(enemyKing);
        int attackers = 0, attackUnits = 0;
        const chess::PieceType types[4] = {chess::PieceType::Knight, chess::PieceType::Bishop,
                                           chess::PieceType::Rook, chess::PieceType::Queen};
        for (int t = 0; t < 4; ++t)
            for (Bitboard b = pos.pieces(us, types[t]); b;) {
                const int sq = chess::popLsb(b);
                const Bitboard att = search::pieceAttacks(t, sq, occupied);
                const double n = chess::popCount(att & safe) - kMobilityCentre[t];
                c[kMobility + t] += sign * n;
                c[kMobility + 4 + t] += sign * n;
                if (const Bitboard zone = att & kingZone) {
                    ++attackers;
                    attackUnits += kAttackWeight[t] * chess::popCount(zone);
                }
                if (t == 2) {
                    const Bitboard fileMask = chess::fileBB(chess::fileOf(sq));
                    if (!(fileMask & own)) both((fileMask & enemy) ? kRookSemiOpen : kRookOpen, sign);
                }
            }
        if (attackers >= 2 && pos.pieces(us, chess::PieceType::Queen))
            c[kKingDanger] += sign * std::min(attackUnits * attackUnits / 4, 500) / 64.0;
        const chess::Square king = pos.kingSquare(us);
        const int kingFile = chess::fileOf(king), kingRank = chess::rankOf(king);
        const Bitboard files = chess::fileBB(kingFile) | adjacentFiles(chess::fileBB(kingFile));
        Bitboard shieldRanks = 0;
        if (color == 0 && kingRank <= 1)
            shieldRanks = chess::rankBB(kingRank + 1) | chess::rankBB(kingRank + 2);
        if (color == 1 && kingRank >= 6)
            shieldRanks = chess::rankBB(kingRank - 1) | chess::rankBB(kingRank - 2);
        both(kShield, sign * chess::popCount(own & files & shieldRanks));
    }
    s.phase = std::min(phase, search::kFullPhase);
    s.tempo = pos.sideToMove() == chess::Color::White ? kTempo : -kTempo;
    double egScale = 1;
    s.offset = 0;
    if (allTerms) {
        const search::EvalParts parts = search::evaluateParts(pos, search::EvalTerms::FullKing);
        double mg = parts.mg, eg = parts.eg;
        for (int p = 0; p < kParams; ++p)
            (isMiddleGame(p) ? mg : eg) -= c[p] * start[static_cast<std::size_t>(p)];
        s.egScale = parts.egScale;
        egScale = parts.egScale / 64.0;
        s.offset = (mg * s.phase + eg * egScale * (24 - s.phase)) / 24.0;
    }
    s.counts.clear();
    for (int p = 0; p < kParams; ++p)
        if (c[p] != 0) {
            const double w = isMiddleGame(p) ? s.phase / 24.0 : (24 - s.phase) / 24.0 * egScale;
            if (w != 0) s.counts.emplace_back(p, static_cast<float>(c[p] * w));
        }
}

double evalWhite(const Sample& s, const std::vector<double>& theta) {
    double e = s.tempo + s.offset;
    for (const auto& [p, w] : s.counts) e += w * theta[static_cast<std::size_t>(p)];
    return e;
}

double sigmoid(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}
// Our scale: ln(10) / 400 per centipawn (a 400 cp lead expects 10:1); with --results-scale, the
// scale that best predicts the game results with the starting numbers (Texel's K) instead.
double kOurScale = 2.302585092994046 / 400;

double meanError(const std::vector<Sample>& set, const std::vector<double>& theta) {
    double sum = 0;
    for (const auto& s : set) {
        const double d = sigmoid(kOurScale * evalWhite(s, theta)) - s.target;
        sum += d * d;
    }
    return set.empty() ? 0 : sum / static_cast<double>(set.size());
}

// The scale k (0.2 to 2 times ours, in steps of 0.01) minimising the error of sigmoid(eval) against
// sigmoid(k * stockfish) on `set` with the numbers `theta`; leaves the targets set for the last k.
// The k from 0.2 to 2 times `base` (steps of 0.01) at which errorAt(k) is least.
template <typename ErrorAt> double leastErrorScale(double base, ErrorAt errorAt) {
    double best = base, bestError = 1e9;
    for (double k = 0.2 * base; k <= 2.0 * base; k += 0.01 * base)
        if (const double e = errorAt(k); e < bestError) {
            bestError = e;
            best = k;
        }
    return best;
}

double fitLabelScale(std::vector<Sample>& set, const std::vector<double>& theta) {
    return leastErrorScale(kOurScale, [&](double k) {
        for (auto& s : set) s.target = sigmoid(k * s.stockfishCp);
        return meanError(set, theta);
    });
}

std::string cppTable(const std::vector<double>& theta, int base) {
    std::string out;
    for (int piece = 0; piece < 6; ++piece) {
        out += "    {{";
        for (int sq = 0; sq < 64; ++sq) {
            if (sq % 8 == 0) out += "\n        ";
            char buf[16];
            std::snprintf(buf, sizeof buf, "%5d,",
                          static_cast<int>(std::lround(theta[base + piece * 64 + sq])));
            out += buf;
        }
        out += "\n    }},\n";
    }
    return out;
}

std::string rounded(double v) {
    return std::to_string(static_cast<int>(std::lround(v)));
}

bool writeParams(const std::string& path, const std::vector<double>& t, const std::string& note) {
    std::ofstream out(path);
    if (!out) return false;
    const auto arr = [&](int base, int n) {
        std::string s = "{";
        for (int i = 0; i < n; ++i) s += (i ? ", " : "") + rounded(t[base + i]);
        return s + "}";
    };
    out << "// The full evaluation's fitted numbers (kFeatureTunedEval), written by "
           "tests/calibrate/texel_tune.sh\n"
           "// (do not edit by hand; tests/calibrate/RESULTS.md says how they were fitted and measured).\n"
        << "// " << note << "\n"
        << "#include \"engine/search/eval_params.h\"\n\nnamespace chaiba::search {\n\nnamespace {\n"
           "// Piece-square tables, pawn..king, a1 first (rank 1 on the first line of each).\n"
           "// clang-format off\n"
        << "constexpr std::array<std::array<int16_t, 64>, 6> kPstMg = {{\n"
        << cppTable(t, kPstMg) << "}};\n"
        << "constexpr std::array<std::array<int16_t, 64>, 6> kPstEg = {{\n"
        << cppTable(t, kPstEg) << "}};\n"
        << "// clang-format on\n\nEvalParams build() {\n    EvalParams p;\n    p.pstMg = kPstMg;\n    "
           "p.pstEg = kPstEg;\n"
        << "    p.bishopPairMg = " << rounded(t[kBishopPair])
        << ";\n    p.bishopPairEg = " << rounded(t[kBishopPair + 1]) << ";\n"
        << "    p.mobilityMg = " << arr(kMobility, 4) << ";\n    p.mobilityEg = " << arr(kMobility + 4, 4)
        << ";\n"
        << "    p.passedMg = " << arr(kPassed, 8) << ";\n    p.passedEg = " << arr(kPassed + 8, 8) << ";\n"
        << "    p.doubledMg = " << rounded(t[kDoubled]) << ";\n    p.doubledEg = " << rounded(t[kDoubled + 1])
        << ";\n"
        << "    p.isolatedMg = " << rounded(t[kIsolated])
        << ";\n    p.isolatedEg = " << rounded(t[kIsolated + 1]) << ";\n"
        << "    p.rookOpenMg = " << rounded(t[kRookOpen])
        << ";\n    p.rookOpenEg = " << rounded(t[kRookOpen + 1]) << ";\n"
        << "    p.rookSemiOpenMg = " << rounded(t[kRookSemiOpen])
        << ";\n    p.rookSemiOpenEg = " << rounded(t[kRookSemiOpen + 1]) << ";\n"
        << "    p.shieldMg = " << rounded(t[kShield]) << ";\n    p.shieldEg = " << rounded(t[kShield + 1])
        << ";\n"
        << "    p.kingDangerScale = " << rounded(t[kKingDanger]) << ";\n    return p;\n}\n} // namespace\n\n"
        << "const EvalParams& tunedEvalParams() {\n    static const EvalParams params = build();\n    return "
           "params;\n}\n\n"
        << "} // namespace chaiba::search\n";
    return true;
}

const char* kUsage =
    "usage: texel_tune DATA [--iterations N] [--lr X] [--l2 X] [--min-positions M]\n"
    "                  [--result-weight W] [--terms-only | --keep-material] [--phase-scale]\n"
    "                  [--all-terms] [--results-scale] [--seed S] [--write FILE]\n"
    "DATA: lines FEN;STOCKFISH_CP_WHITE;RESULT (texel_gen). A tenth of the positions (chosen by the\n"
    "seed) is held out. First the scale of stockfish's centipawns against ours is fitted with the\n"
    "engine's current numbers; then Adam (N full-batch steps, rate X centipawns) minimises the mean\n"
    "squared error of sigmoid(eval) against the label, plus L2 * (change)^2 per number; numbers\n"
    "seen in fewer than M training positions keep their starting value; --terms-only keeps the\n"
    "piece-square tables (and so the material) as they start; --keep-material lets the squares\n"
    "of a table trade value but keeps the table's mean over the training positions; --phase-scale\n"
    "fits the scale on the middle-game and end-game positions apart and tapers it. The label\n"
    "is (1 - W) * sigmoid(stockfish) + W * result. --all-terms fits the numbers inside the strongest\n"
    "evaluation (EvalTerms::FullKing; its other terms held as they are, what kFeatureTunedEval with\n"
    "the three kFeatureEval bits plays). --results-scale: the sigmoid's scale fitted to the game\n"
    "results with the starting numbers (Texel's K) instead of 400 cp to 10:1.\n"
    "--write: the fitted numbers as a C++ file (engine/search/eval_params_tuned.cpp).\n";

} // namespace

int main(int argc, char** argv) {
    if (argc < 2 || std::string(argv[1]) == "--help") {
        std::fputs(kUsage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const std::string dataPath = argv[1];
    int iterations = 600;
    int minPositions = 0;
    bool tuneTables = true;    // --terms-only: the piece-square tables (and material) keep their values
    bool keepMaterial = false; // --keep-material: each table's mean over the training positions stays
    bool phaseScale = false;   // --phase-scale: the label's scale tapered between the phases
    bool allTerms = false;     // --all-terms: fit inside EvalTerms::FullKing
    bool resultsScale = false; // --results-scale: Texel's K from the game results
    double lr = 1.0, l2 = 0, resultWeight = 0;
    uint64_t seed = 1;
    std::string writePath;
    for (int i = 2; i < argc; i += 2) {
        const std::string k = argv[i];
        if (k == "--terms-only" || k == "--keep-material" || k == "--phase-scale" || k == "--all-terms" ||
            k == "--results-scale") {
            if (k == "--all-terms") allTerms = true;
            if (k == "--results-scale") resultsScale = true;
            if (k == "--terms-only") tuneTables = false;
            if (k == "--keep-material") keepMaterial = true;
            if (k == "--phase-scale") phaseScale = true;
            --i;
            continue;
        }
        if (i + 1 >= argc) {
            std::fprintf(stderr, "error: %s needs a value\n%s", k.c_str(), kUsage);
            return 2;
        }
        const std::string v = argv[i + 1];
        if (k == "--iterations")
            iterations = std::atoi(v.c_str());
        else if (k == "--lr")
            lr = std::atof(v.c_str());
        else if (k == "--l2")
            l2 = std::atof(v.c_str());
        else if (k == "--result-weight")
            resultWeight = std::atof(v.c_str());
        else if (k == "--min-positions")
            minPositions = std::atoi(v.c_str());
        else if (k == "--seed")
            seed = std::strtoull(v.c_str(), nullptr, 0);
        else if (k == "--write")
            writePath = v;
        else {
            std::fprintf(stderr, "error: unknown option %s\n%s", k.c_str(), kUsage);
            return 2;
        }
    }
    std::ifstream in(dataPath);
    if (!in) {
        std::fprintf(stderr, "error: cannot read %s\n", dataPath.c_str());
        return 2;
    }
    const std::vector<double> start = toVector(search::handSetEvalParams());
    const std::vector<double> builtIn = toVector(search::tunedEvalParams()); // the last fit, compiled in
    std::vector<Sample> train, held;
    int maxMismatch = 0;      // hand-set numbers: only the taper's rounding (1 cp)
    int maxTunedMismatch = 0; // fitted numbers: also the king penalty's scale / 64, rounded per side
    long lineNo = 0;
    for (std::string line; std::getline(in, line);) {
        ++lineNo;
        const std::size_t a = line.find(';'), b = line.rfind(';');
        if (a == std::string::npos || a == b) continue;
        Sample s;
        s.fen = line.substr(0, a);
        s.stockfishCp = std::atoi(line.c_str() + a + 1);
        s.result = std::atof(line.c_str() + b + 1);
        const auto parsed = chess::Position::fromFen(s.fen, false);
        if (!parsed.ok()) {
            std::fprintf(stderr, "error: line %ld: %s\n", lineNo, parsed.error.c_str());
            return 2;
        }
        features(*parsed.position, s, allTerms, start);
        // The counts must reproduce the engine's own full evaluation with its current numbers
        // (up to the engine's integer rounding).
        const int engine = search::evaluate(*parsed.position,
                                            allTerms ? search::EvalTerms::FullKing : search::EvalTerms::Full);
        const double mine = evalWhite(s, start) * (s.tempo > 0 ? 1 : -1);
        maxMismatch = std::max(maxMismatch, static_cast<int>(std::lround(std::abs(engine - mine))));
        const int engineTuned = search::evaluate(*parsed.position, allTerms ? search::EvalTerms::FullKingTuned
                                                                            : search::EvalTerms::FullTuned);
        const double mineTuned = evalWhite(s, builtIn) * (s.tempo > 0 ? 1 : -1);
        // With --all-terms the end game's scale is held at the hand-set numbers' (it depends on which
        // side the end-game sum favours): positions where the fitted numbers change it are not compared.
        if (!allTerms ||
            search::evaluateParts(*parsed.position, search::EvalTerms::FullKingTuned).egScale == s.egScale)
            maxTunedMismatch =
                std::max(maxTunedMismatch, static_cast<int>(std::lround(std::abs(engineTuned - mineTuned))));
        // A seeded tenth held out (SplitMix64 of the line number).
        uint64_t z = seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(lineNo);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        (z % 10 == 0 ? held : train).push_back(std::move(s));
    }
    std::printf("positions: %zu training, %zu held out; counts vs evaluate(): max difference %d cp with the "
                "hand-set numbers, %d cp with the built-in fitted ones\n",
                train.size(), held.size(), maxMismatch, maxTunedMismatch);
    // The taper's rounding: 1 cp; with --all-terms also the end-game scale's.
    if (maxMismatch > (allTerms ? 2 : 1) || maxTunedMismatch > 3) {
        std::fprintf(stderr, "error: the feature counts do not reproduce evaluate(): this tool and "
                             "engine/search/evaluation.cpp disagree\n");
        return 1;
    }
    if (train.empty() || held.empty()) return 2;
    // Step 0 (--results-scale). Texel's K: the sigmoid's scale under which the starting numbers
    // predict the game results best.
    if (resultsScale) {
        for (auto* set : {&train, &held})
            for (auto& s : *set) s.target = s.result;
        const double base = kOurScale;
        const double best = leastErrorScale(base, [&](double k) {
            kOurScale = k;
            return meanError(train, start);
        });
        kOurScale = best;
        std::printf("sigmoid scale fitted to the results: %.3f x ln(10)/400 (a %.0f cp lead expects 10:1)\n",
                    best / base, 2.302585092994046 / best);
    }
    // Step 1. The scale of stockfish's centipawns on ours: the k minimising the training error of
    // sigmoid(kOurScale * eval) against sigmoid(k * stockfish) with the current numbers.
    const double bestK = fitLabelScale(train, start);
    // The same scale fitted on the middle-game and the end-game positions alone: when they differ,
    // stockfish weighs material against position differently from the starting numbers by phase.
    double phaseK[2] = {bestK, bestK}; // middle game, end game
    for (const bool middle : {true, false}) {
        std::vector<Sample> part;
        for (const auto& s : train)
            if ((s.phase >= 12) == middle) part.push_back(s);
        const double k1 = fitLabelScale(part, start);
        std::printf("label scale on the %s positions alone (%zu): %.3f\n",
                    middle ? "middle-game" : "end-game", part.size(), k1 / kOurScale);
        phaseK[middle ? 0 : 1] = k1;
    }
    // --phase-scale: the label's scale follows the phase (the two scales above, tapered like the
    // evaluation), so the fit does not move value between the phases to match stockfish's scale.
    const auto labelScale = [&](const Sample& s) {
        return phaseScale ? (phaseK[0] * s.phase + phaseK[1] * (24 - s.phase)) / 24.0 : bestK;
    };
    for (auto* set : {&train, &held})
        for (auto& s : *set)
            s.target = (1 - resultWeight) * sigmoid(labelScale(s) * s.stockfishCp) + resultWeight * s.result;
    const double startTrain = meanError(train, start), startHeld = meanError(held, start);
    std::printf("label scale: stockfish cp x %.3f = our cp%s; result weight %.2f\n", bestK / kOurScale,
                phaseScale ? " (tapered by phase as above)" : "", resultWeight);
    std::printf("start:  training error %.6f, held-out error %.6f\n", startTrain, startHeld);
    // Step 2. Adam on the whole training set. Adam moves a number seen in a handful of positions
    // as far as one seen in all of them, so numbers seen in fewer than --min-positions training
    // positions (a pawn on the seventh rank in the middle game, a knight in a far corner) keep
    // their starting value.
    std::vector<int> seen(kParams, 0);
    for (const auto& s : train)
        for (const auto& [i, w] : s.counts) ++seen[static_cast<std::size_t>(i)];
    int frozen = 0;
    if (!tuneTables)
        for (int i = 0; i < kBishopPair; ++i) seen[i] = -1;
    for (int i = 0; i < kParams; ++i) frozen += seen[i] > 0 && seen[i] < minPositions;
    if (minPositions > 0)
        std::printf("numbers seen in fewer than %d training positions, kept: %d\n", minPositions, frozen);
    std::vector<double> theta = start, m(kParams, 0), v(kParams, 0), grad(kParams);
    const double beta1 = 0.9, beta2 = 0.999;
    const double n = static_cast<double>(train.size());
    for (int it = 1; it <= iterations; ++it) {
        std::fill(grad.begin(), grad.end(), 0.0);
        for (const auto& s : train) {
            const double p = sigmoid(kOurScale * evalWhite(s, theta));
            const double g = 2 * (p - s.target) * p * (1 - p) * kOurScale / n;
            for (const auto& [i, w] : s.counts) grad[static_cast<std::size_t>(i)] += g * w;
        }
        for (int i = 0; i < kParams; ++i) {
            if (seen[i] < minPositions || seen[i] < 0) continue;
            const double gi = grad[i] + 2 * l2 * (theta[i] - start[i]);
            m[i] = beta1 * m[i] + (1 - beta1) * gi;
            v[i] = beta2 * v[i] + (1 - beta2) * gi * gi;
            const double mh = m[i] / (1 - std::pow(beta1, it)), vh = v[i] / (1 - std::pow(beta2, it));
            theta[i] -= lr * mh / (std::sqrt(vh) + 1e-12);
        }
        // --keep-material: shift each piece's table (each phase) back so that its mean over the
        // squares, weighted by how often the training positions have the piece there, is the
        // starting one: the squares may trade value among themselves, the piece keeps its worth.
        if (keepMaterial)
            for (int base = 0; base < kBishopPair; base += 64) {
                double moved = 0, weight = 0;
                for (int sq = 0; sq < 64; ++sq) {
                    moved += seen[base + sq] * (theta[base + sq] - start[base + sq]);
                    weight += seen[base + sq];
                }
                if (weight > 0)
                    for (int sq = 0; sq < 64; ++sq) theta[base + sq] -= moved / weight;
            }
        if (it % 100 == 0 || it == iterations)
            std::printf("step %4d: training error %.6f, held-out error %.6f\n", it, meanError(train, theta),
                        meanError(held, theta));
        std::fflush(stdout);
    }
    std::vector<double> whole(theta.size());
    std::transform(theta.begin(), theta.end(), whole.begin(),
                   [](double x) { return static_cast<double>(std::lround(x)); });
    const double endTrain = meanError(train, whole), endHeld = meanError(held, whole);
    std::printf("end (rounded): training error %.6f, held-out error %.6f (%.1f%% lower)\n", endTrain, endHeld,
                100.0 * (startHeld - endHeld) / startHeld);
    std::printf(
        "terms: bishop pair %s/%s, mobility N %s/%s B %s/%s R %s/%s Q %s/%s, doubled %s/%s, isolated %s/%s,\n"
        "       rook open %s/%s, semi-open %s/%s, shield %s/%s, king danger scale %s/64\n",
        rounded(whole[kBishopPair]).c_str(), rounded(whole[kBishopPair + 1]).c_str(),
        rounded(whole[kMobility]).c_str(), rounded(whole[kMobility + 4]).c_str(),
        rounded(whole[kMobility + 1]).c_str(), rounded(whole[kMobility + 5]).c_str(),
        rounded(whole[kMobility + 2]).c_str(), rounded(whole[kMobility + 6]).c_str(),
        rounded(whole[kMobility + 3]).c_str(), rounded(whole[kMobility + 7]).c_str(),
        rounded(whole[kDoubled]).c_str(), rounded(whole[kDoubled + 1]).c_str(),
        rounded(whole[kIsolated]).c_str(), rounded(whole[kIsolated + 1]).c_str(),
        rounded(whole[kRookOpen]).c_str(), rounded(whole[kRookOpen + 1]).c_str(),
        rounded(whole[kRookSemiOpen]).c_str(), rounded(whole[kRookSemiOpen + 1]).c_str(),
        rounded(whole[kShield]).c_str(), rounded(whole[kShield + 1]).c_str(),
        rounded(whole[kKingDanger]).c_str());
    if (!writePath.empty()) {
        char note[256];
        std::snprintf(note, sizeof note,
                      "%zu positions (%zu held out), %d Adam steps at %.2f, L2 %.1e, min positions %d, "
                      "result weight %.2f%s%s: "
                      "held-out error %.6f -> %.6f.",
                      train.size() + held.size(), held.size(), iterations, lr, l2, minPositions, resultWeight,
                      !tuneTables    ? ", terms only (tables kept)"
                      : keepMaterial ? ", material kept"
                                     : "",
                      phaseScale ? ", label scale by phase" : "", startHeld, endHeld);
        if (!writeParams(writePath, whole, note)) {
            std::fprintf(stderr, "error: cannot write %s\n", writePath.c_str());
            return 1;
        }
        std::printf("wrote %s\n", writePath.c_str());
    }
    return 0;
}
