// WorkerEnginePlayer: sends the game as start FEN + UCI moves, turns the reply into a move.
#include "web/engine_player_web.h"

#include "engine/chess/notation.h"
#include "engine/search/analysis.h"
#include "src/modes/chess/engine_player.h"

#include <emscripten.h>

#include <cstdio>

namespace chaiba::web {

WorkerEnginePlayer::WorkerEnginePlayer(std::string id, search::LevelSpec level, uint64_t seed, int delayMs)
    : id_(std::move(id)), level_(level), seed_(seed), delayMs_(delayMs) {}

void WorkerEnginePlayer::beginMove(const chessmode::MoveRequest& request) {
    game_ = request.game;
    drawOffered_ = request.drawOffered;
    reply_.reset();
    askedAtMs_ = emscripten_get_now();
    EngineRequest r;
    const chess::Position& start = game_->startPosition();
    r.startFen = start.fen();
    r.chess960 = start.isChess960();
    r.level = level_.level;
    r.seed = seed_ + game_->moves().size() * 0x9E3779B97F4A7C15ull;
    chess::Position pos = start;
    for (chess::Move m : game_->moves()) {
        r.uciMoves.push_back(chess::toUci(pos, m));
        pos.makeMove(m);
    }
    engine_.request(r, [this](const EngineReply& reply) { reply_ = reply; });
}

std::optional<chessmode::PlayerMove> WorkerEnginePlayer::poll() {
    if (!game_ || !reply_) return std::nullopt;
    if (emscripten_get_now() - askedAtMs_ < delayMs_) return std::nullopt;
    chessmode::PlayerMove answer;
    const EngineReply reply = *reply_;
    reply_.reset();
    if (!reply.ok) {
        answer.kind = chessmode::PlayerMove::Kind::Error;
        answer.message = "the engine failed: " + reply.error;
        return answer;
    }
    chess::MoveResult m = chess::parseUci(game_->position(), reply.uciMove);
    if (!m.ok()) {
        answer.kind = chessmode::PlayerMove::Kind::Error;
        answer.message = "the engine answered " + reply.uciMove + ", which is not legal: " + m.error;
        return answer;
    }
    answer.move = m.move;
    char line[96];
    if (drawOffered_ && chessmode::engineAcceptsDraw(reply.score, level_)) { // the same rule as natively
        std::snprintf(line, sizeof line, "accepts the draw offer: score %+.2f from its side", reply.score / 100.0);
        answer.kind = chessmode::PlayerMove::Kind::AcceptDraw;
        answer.reasoning = line;
        game_ = nullptr;
        return answer;
    }
    std::vector<chess::Move> pv; // the worker's line in UCI, read back into moves while legal
    chess::Position walk = game_->position();
    for (const std::string& uci : reply.pvUci) {
        const chess::MoveResult pm = chess::parseUci(walk, uci);
        if (!pm.ok()) break;
        pv.push_back(pm.move);
        walk.makeMove(pm.move);
    }
    answer.reasoning = search::thinkingLine(game_->position(), reply.score, reply.depth, reply.nodes, pv);
    game_ = nullptr;
    return answer;
}

void WorkerEnginePlayer::cancel() {
    engine_.cancel();
    reply_.reset();
    game_ = nullptr;
}

} // namespace chaiba::web
