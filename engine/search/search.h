// The built-in engine's search: iterative deepening principal-variation alpha-beta with a
// transposition table, quiescence, check extension, null-move pruning, late-move reductions and
// ordering by hash move, MVV-LVA, killers and history. Single-threaded and cancellable.
//
// How to run it without blocking a UI thread (the web build): the search never spawns threads,
// allocates nothing per node and checks its limits every 1024 nodes, so
//   - preferred: run `chooseMove`/`Searcher::search` in a Web Worker (a second small WASM module
//     built from the same engine sources) and post the result back; cancel with a new request
//     or by terminating the worker. Levels 0-6 need at most 150k nodes (well under 0.1 s native);
//     level 7 needs 6M nodes (about 1 s native, a few seconds in WASM).
//   - or, on the main thread, cap the work per call with `SearchLimits::maxNodes` (levels 1-5
//     usually need a few thousand nodes; their caps are in levels.cpp; measure the frame time in
//     the browser before relying on it). The search is not resumable: a
//     slice that runs out of budget returns the best move of the deepest finished iteration, so
//     slicing deep searches across frames is not supported — use the worker for levels 6-7.
#pragma once

#include "engine/chess/game.h"
#include "engine/chess/position.h"
#include "engine/search/transposition_table.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace chaiba::search {

inline constexpr int kMaxPly = 96;
inline constexpr int kInfinity = 32000;
inline constexpr int kMateScore = 31000; // mate in n plies scores kMateScore - n
inline constexpr int kMateBound = kMateScore - 2 * kMaxPly;

// The techniques added after levels 1-7 were calibrated, one bit each, so those levels keep
// playing the calibrated moves (they ask for kSearchClassic) and each technique can be measured
// on its own in self-play (`chaiba calibrate --features`).
enum SearchFeature : uint32_t {
    kFeatureFullEval = 1u << 0, // mobility, pawn structure, passed pawns, king safety
    // 1u << 1 was a transposition-table probe and store in quiescence: taken out, it hid the mate
    // in 2 of WAC.001 from the other techniques at every depth to 10 (tests/search_test.cpp).
    kFeatureHistory = 1u << 2,     // history with gravity and a malus for quiet moves that failed
    kFeatureCounterMove = 1u << 3, // the quiet move that refuted the opponent's last move
    kFeaturePruning = 1u << 4,     // improving, internal iterative reduction, SEE pruning, LMR by history
    kFeatureNullMove = 1u << 5,    // a deeper null-move reduction that grows with eval - beta
    // with kFeatureFullEval: its numbers fitted to labelled positions (tests/calibrate/texel_tune.sh)
    // instead of the hand-set ones; alone it changes nothing. With the three kFeatureEval bits
    // below, all their terms with the fitted numbers (EvalTerms::FullKingTuned); with only some of
    // them, the full evaluation's own terms alone. Not in kSearchStrongest (RESULTS.md).
    kFeatureTunedEval = 1u << 6,
    // continuation history: how well a quiet move did after the opponent's last move and after
    // our own move before it (piece and target square of each), for ordering and reductions
    kFeatureContinuation = 1u << 7,
    // with kFeatureFullEval: threats, passed pawns by the kings' distance, drawish end games
    // scaled (EvalTerms::FullPlus); ignored with kFeatureTunedEval unless EvalMore and EvalKing are set
    kFeatureEvalPlus = 1u << 8,
    // singular extension: the stored best move searched a ply deeper when every other move, at half
    // the depth, falls well short of its stored score; a multi-cut when even they reach beta
    kFeatureSingular = 1u << 9,
    // capture history: how well a capture (piece, target, captured piece) did, ordering the
    // winning captures of the same victim
    kFeatureCaptureHistory = 1u << 10,
    // 1u << 11 (quiet moves with a deeply negative history pruned near the leaves) and 1u << 13
    // (late moves of cut nodes reduced a ply more) were measured and did not help: taken out
    // razoring: a node far below alpha near the leaves asks quiescence whether anything saves it
    kFeatureRazoring = 1u << 12,
    // with kFeatureEvalPlus: connected pawns, outposts, rooks on the 7th, blocked passers
    // (EvalTerms::FullMore)
    kFeatureEvalMore = 1u << 14,
    // with kFeatureEvalMore: safe checks against the enemy king (EvalTerms::FullKing)
    kFeatureEvalKing = 1u << 15,
    // ProbCut: at depth 5 and more, a capture whose quiescence and a shallow search (depth - 4) both
    // beat beta by a margin cuts the node
    kFeatureProbCut = 1u << 16,
    // with kFeatureSingular: a second ply for a stored move far above every other (a few on any path),
    // one ply less for a stored move that is not singular but beats beta
    kFeatureSingularMore = 1u << 17,
    // late quiet moves reduced a ply more when the stored move is a capture
    kFeatureTtCaptureLmr = 1u << 18,
    // a bonus for the side to move in the static evaluation (the tempo)
    kFeatureTempo = 1u << 19,
    // quiescence probes the transposition table (a cut at a null window) and stores its result at
    // depth 0, which no full-width node accepts as a cut
    kFeatureQsTable = 1u << 20,
    // quiescence's delta pruning spares captures that give check (razoring and ProbCut ask
    // quiescence, and a mate behind a pawn capture looked like a lost queen)
    kFeatureQsChecks = 1u << 21,
    // a node budget is a cap, not a fixed spend: the search stops after an iteration once the
    // answer looks settled (node_time.h), and a move that beat the first at the root of an
    // interrupted iteration is played
    kFeatureNodeTime = 1u << 22,
    // the static evaluation corrected by how far the searches of positions with the same pawns
    // found it off (a correction history by pawn structure, as Stockfish's), for the pruning
    // decisions and quiescence's stand pat
    kFeatureCorrection = 1u << 23,
    // late quiet moves two plies more reduced at an expected cut node (Stockfish's cutNode)
    kFeatureCutNode = 1u << 24,
    // deeper late-move reductions: the table's log(depth) * log(move) divided by 1.9 instead of 2.25
    // (sitting 15: +41 [17, 66] over 800 games at 20 000 nodes, +3 [-31, 38] over 400 at 150 000)
    kFeatureLmrMore = 1u << 25,
    // the tables of the searcher chooseMove is lent are kept from one move to the next (the
    // transposition table, killers and histories), as engines keep them through a game, when its
    // last move was this game's two plies ago (chooseMove, Searcher::keptFor). Sitting 16: +111
    // [48, 176] over 126 games at 100 000 nodes in self-play, but level 9 with it rated 2229
    // [2159, 2297] over 110 games against stockfish, as without it: no level uses it
    kFeatureKeepTables = 1u << 26,
    // with kSearchStrongest's evaluation (FullKing): the evaluation network's correction added to
    // it (nnue.h, RESULTS.md sitting 17), its first layer updated move by move along the path
    kFeatureNnue = 1u << 27,
    // sitting 15 also measured reductions from the second move on (+7 [-21, 35] over 600 games) and
    // reduced late captures that lose material (-23 [-48, 1] over 800): taken out
};
inline constexpr uint32_t kSearchClassic = 0;
// The stronger search as first built (sitting 5), levels 8 and 9's until sitting 8 measured it below
// level 7 (RESULTS.md); kept to name what kSearchStrongest was measured against.
inline constexpr uint32_t kSearchStrongBase =
    kFeatureFullEval | kFeatureHistory | kFeatureCounterMove | kFeaturePruning | kFeatureNullMove;
// Level 8's search (and level 9's until sitting 10), as calibrated in sittings 8-9: continuation
// history and the evaluation's threats, passed pawns by the kings and drawish end games over the
// first build.
inline constexpr uint32_t kSearchTopLevels = kSearchStrongBase | kFeatureContinuation | kFeatureEvalPlus;
// The strongest search there is (calibrated as level 9 in sitting 10). Each part was measured in
// self-play (RESULTS.md, sitting 9). Sitting 12's bits (ProbCut and after) are not in it: none was
// shown to gain in self-play (RESULTS.md).
inline constexpr uint32_t kSearchStrongest =
    kSearchTopLevels | kFeatureCaptureHistory | kFeatureRazoring | kFeatureEvalMore | kFeatureEvalKing;
// Full strength: the strongest search with the evaluation network (sitting 18), level 9's with its
// node clock, the move-quality judge's and `chaiba uci`'s under a GUI's limits.
inline constexpr uint32_t kSearchFullStrength = kSearchStrongest | kFeatureNnue;

// What stops a search. Zero means "no limit" for nodes and time. The search always finishes
// depth 1 (so there is always a legal move to play) unless `stop` is already set.
struct SearchLimits {
    int maxDepth = kMaxPly - 1;
    uint64_t maxNodes = 0;
    int64_t moveTimeMs = 0;                  // hard limit: stop as soon as it is reached
    int64_t softTimeMs = 0;                  // do not start a new iteration after this (0 = same as hard)
    const std::atomic<bool>* stop = nullptr; // set from another thread (UCI `stop`)
    // Hashes of the game's positions before the root, oldest first (at least since the last
    // capture or pawn move), so the search sees repetitions; see priorHashes(Game).
    const std::vector<uint64_t>* priorPositionHashes = nullptr;
    uint32_t features = kSearchClassic; // SearchFeature bits
};

// One completed iteration, reported to the observer (UCI `info` lines).
struct SearchInfo {
    int depth = 0;
    int selDepth = 0;
    int score = 0; // centipawns from the side to move; mate scores beyond kMateBound
    uint64_t nodes = 0;
    int64_t timeMs = 0;
    std::vector<chess::Move> pv;
};

class SearchObserver {
public:
    virtual ~SearchObserver() = default;
    virtual void onIteration(const SearchInfo& info) = 0;
};

struct SearchResult {
    chess::Move bestMove{}; // a legal move, unless the position has none
    bool hasMove = false;   // false on checkmate / stalemate
    int score = 0;
    int completedDepth = 0;
    uint64_t nodes = 0;
    int64_t timeMs = 0;
    std::vector<chess::Move> pv;
};

// A root move with the score of its own subtree, for levels that pick among several moves.
struct RootMoveScore {
    chess::Move move{};
    int score = 0;
};

class Searcher {
public:
    explicit Searcher(std::size_t hashMb = 16);
    ~Searcher();
    Searcher(const Searcher&) = delete;
    Searcher& operator=(const Searcher&) = delete;

    // Searches `position` (restored on return) within `limits`.
    SearchResult search(chess::Position& position, const SearchLimits& limits,
                        SearchObserver* observer = nullptr);

    // Scores every legal root move with a full window at a fixed depth (for weakened levels;
    // `depth` 0 means quiescence only). Respects the node and stop limits; moves searched
    // after the budget ran out keep their last completed score.
    std::vector<RootMoveScore> scoreRootMoves(chess::Position& position, int depth,
                                              const SearchLimits& limits);

    void resizeHash(std::size_t megabytes);
    std::size_t hashMb() const;
    void clear(); // new game: forget the TT, killers and history
    // The state of a newly made Searcher(megabytes), reusing the table's memory when it can.
    void reset(std::size_t megabytes);
    // What the tables hold, for chooseMove under kFeatureKeepTables (player.cpp): the digest of
    // the game and level of the last move chosen with them; 0 when new, reset, cleared or resized,
    // and after any other search.
    uint64_t keptFor() const;
    void setKeptFor(uint64_t digest);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The hashes of a game's positions before its current one, oldest first (for SearchLimits).
std::vector<uint64_t> priorHashes(const chess::Game& game);

// Mate scores as "mate N" (moves, negative when being mated) or nothing for ordinary scores.
int mateInMoves(int score);
bool isMateScore(int score);

} // namespace chaiba::search
