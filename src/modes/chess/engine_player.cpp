// EnginePlayer: chooseMove() from the built-in engine, seeded per ply so a game replays exactly.
#include "src/modes/chess/engine_player.h"

#include "engine/search/analysis.h"
#include "engine/search/player.h"

#include <cstdio>

namespace chaiba::chessmode {

bool engineAcceptsDraw(int scoreCp, const search::LevelSpec& level) {
    return !level.randomMover && scoreCp <= kEngineDrawAcceptCp;
}

EnginePlayer::EnginePlayer(std::string id, search::LevelSpec level, std::uint64_t seed,
                           const net::Clock* clock, int delayMs)
    : id_(std::move(id)), level_(level), seed_(seed), clock_(clock), delayMs_(clock ? delayMs : 0) {}

std::string EnginePlayer::name() const {
    return search::levelLabel(level_);
}

void EnginePlayer::beginMove(const MoveRequest& request) {
    game_ = request.game;
    drawOffered_ = request.drawOffered;
    readyAtMs_ = clock_ ? clock_->nowMs() + delayMs_ : 0;
}

std::optional<PlayerMove> EnginePlayer::poll() {
    if (!game_) return std::nullopt;
    if (clock_ && clock_->nowMs() < readyAtMs_) return std::nullopt;
    const chess::Game& game = *game_;
    game_ = nullptr;
    const std::uint64_t seed = seed_ * 0x9E3779B97F4A7C15ull + game.moves().size();
    // One searcher per thread for every engine seat: chooseMove resets it to a new searcher's
    // state (the move is the same as from a fresh one), but its table's memory is allocated once,
    // not 4-32 MB mapped and zeroed again at every move of every game (a headless arena, the
    // native page).
    thread_local search::Searcher searcher(level_.hashMb);
    const search::MoveChoice choice = search::chooseMove(game, level_, seed, {}, &searcher);
    PlayerMove m;
    if (!choice.hasMove) {
        m.kind = PlayerMove::Kind::Error;
        m.message = "the engine found no legal move";
        return m;
    }
    m.move = choice.move;
    if (drawOffered_ && engineAcceptsDraw(choice.score, level_)) {
        char text[96];
        std::snprintf(text, sizeof text, "accepts the draw offer: score %+.2f from its side",
                      choice.score / 100.0);
        m.kind = PlayerMove::Kind::AcceptDraw;
        m.reasoning = text;
        return m;
    }
    if (!level_.randomMover)
        m.reasoning = search::thinkingLine(game.position(), choice.score, choice.depth, choice.nodes, choice.pv);
    return m;
}

} // namespace chaiba::chessmode
