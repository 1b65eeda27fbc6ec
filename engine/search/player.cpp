// Level recipes turned into moves; see player.h and levels.h.
#include "engine/search/player.h"

#include "engine/search/board_glue.h"

#include <algorithm>
#include <optional>

namespace chaiba::search {

int gaussian(SplitMix64& rng, int sigma) {
    // The sum of 12 uniforms in [0, 4096) has mean 6 * 4096 and standard deviation 4096.
    int64_t sum = 0;
    for (int i = 0; i < 12; ++i) sum += static_cast<int64_t>(rng.next() & 4095);
    return static_cast<int>((sum - 6 * 4096) * sigma / 4096);
}

namespace {

// kFeatureKeepTables: digests of a game's positions (the prior positions, then the root) and of a
// level's search and table size, up to two plies before the root (what a seat's last move left in
// its searcher; 0 where the game has no such position) and up to the root (what this move
// leaves); a digest is never 0.
struct LineDigests {
    uint64_t beforeLastMoves = 0;
    uint64_t atRoot = 0;
};
LineDigests lineDigests(const std::vector<uint64_t>& prior, uint64_t rootKey, const LevelSpec& level) {
    uint64_t d = (uint64_t{level.searchFeatures} << 32 | level.hashMb) * 0x9E3779B97F4A7C15ull;
    LineDigests out;
    for (std::size_t i = 0; i <= prior.size(); ++i) {
        if (i >= 1 && i + 1 == prior.size()) out.beforeLastMoves = d == 0 ? 1 : d;
        d = SplitMix64(d ^ (i < prior.size() ? prior[i] : rootKey)).next();
    }
    out.atRoot = d == 0 ? 1 : d;
    return out;
}

SearchLimits combine(const LevelSpec& level, const SearchLimits& limits) {
    SearchLimits l = limits;
    l.features = level.searchFeatures; // the recipe decides the search, whoever asks
    if (level.maxDepth > 0) l.maxDepth = std::min(l.maxDepth, level.maxDepth);
    if (level.maxNodes > 0) l.maxNodes = l.maxNodes ? std::min(l.maxNodes, level.maxNodes) : level.maxNodes;
    return l;
}

} // namespace

MoveChoice chooseMove(chess::Position& position, const LevelSpec& level, uint64_t seed,
                      const SearchLimits& limits, Searcher* searcher) {
    MoveChoice choice;
    SplitMix64 rng(seed ^ (glue::key(position) * 0x2545F4914F6CDD1Dull));
    glue::MoveBuffer legal;
    glue::generateLegal(position, legal);
    if (legal.size() == 0) return choice;
    choice.hasMove = true;

    if (level.randomMover) {
        choice.move = legal[static_cast<int>(rng.belowByModulo(static_cast<uint32_t>(legal.size())))];
        choice.pv = {choice.move};
        return choice;
    }

    // Every move starts from a fresh searcher of the level's table size: the move then depends
    // only on the game, the level and the seed, not on what this searcher did before (a level
    // with kFeatureKeepTables: on its own moves of this game before, see below).
    std::optional<Searcher> local;
    // kFeatureKeepTables: a searcher whose last move was this game's two plies ago, at this level,
    // keeps its tables (the tables then depend only on the game: each seat lends its own searcher).
    const bool keepTables =
        (level.searchFeatures & kFeatureKeepTables) && searcher && limits.priorPositionHashes;
    const LineDigests line =
        keepTables ? lineDigests(*limits.priorPositionHashes, glue::key(position), level) : LineDigests{};
    // (0 before the game's third position, where no seat has moved two plies ago.)
    const bool keep = keepTables && line.beforeLastMoves != 0 && searcher->keptFor() == line.beforeLastMoves;
    if (searcher) {
        if (!keep) searcher->reset(level.hashMb);
    } else {
        local.emplace(level.hashMb);
    }
    Searcher& s = searcher ? *searcher : *local;
    const SearchLimits l = combine(level, limits);

    // Exact levels: a plain search.
    if (level.evalNoiseCp == 0 && level.blunderPermille == 0) {
        const SearchResult r = s.search(position, l);
        if (keepTables) s.setKeptFor(line.atRoot);
        choice.move = r.bestMove;
        choice.score = r.score;
        choice.depth = r.completedDepth;
        choice.nodes = r.nodes;
        choice.pv = r.pv;
        return choice;
    }

    // Blunder: play a move that only looks fine at a glance (captures resolved, nothing deeper).
    const bool blunder = static_cast<int>(rng.belowByModulo(1000)) < level.blunderPermille;
    const int depth = blunder ? 0 : std::max(1, l.maxDepth);
    std::vector<RootMoveScore> scored = s.scoreRootMoves(position, depth, l);
    // Sort for a platform-independent order before drawing random numbers.
    std::stable_sort(scored.begin(), scored.end(),
                     [](const RootMoveScore& a, const RootMoveScore& b) { return a.score > b.score; });
    if (blunder) {
        const int best = scored.front().score;
        std::size_t plausible = 0;
        while (plausible < scored.size() && scored[plausible].score >= best - level.blunderMarginCp)
            ++plausible;
        const auto& pick = scored[rng.belowByModulo(static_cast<uint32_t>(plausible))];
        choice.move = pick.move;
        choice.score = pick.score;
        choice.blunder = true;
    } else {
        int bestNoisy = -kInfinity - 10000;
        for (const auto& rm : scored) {
            // Noise never hides a mate: a forced mate is something even weak players see.
            const int noisy = isMateScore(rm.score) ? rm.score : rm.score + gaussian(rng, level.evalNoiseCp);
            if (noisy > bestNoisy) {
                bestNoisy = noisy;
                choice.move = rm.move;
                choice.score = rm.score;
            }
        }
    }
    choice.depth = depth;
    choice.pv = {choice.move};
    return choice;
}

MoveChoice chooseMove(const chess::Game& game, const LevelSpec& level, uint64_t seed,
                      const SearchLimits& limits, Searcher* searcher) {
    const std::vector<uint64_t> history = priorHashes(game);
    SearchLimits l = limits;
    l.priorPositionHashes = &history;
    chess::Position position = game.position();
    return chooseMove(position, level, seed, l, searcher);
}

} // namespace chaiba::search
