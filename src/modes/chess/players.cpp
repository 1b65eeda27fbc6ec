// LLM, random and human players. The LLM player's judge is the rules engine's move reader, so a
// model's text is never guessed at: one legal move, or a reason the model can act on.
#include "src/modes/chess/players.h"

#include "engine/chess/move_reader.h"
#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"

namespace chaiba::chessmode {

std::string moveHistorySan(const chess::Game& game) {
    chess::Position pos = game.startPosition();
    std::string out;
    bool first = true;
    for (const chess::Move m : game.moves()) {
        const bool white = pos.sideToMove() == chess::Color::White;
        if (!first) out += ' ';
        if (white)
            out += std::to_string(pos.fullmoveNumber()) + ". ";
        else if (first)
            out += std::to_string(pos.fullmoveNumber()) + "... ";
        out += chess::toSan(pos, m);
        pos.makeMove(m);
        first = false;
    }
    return out;
}

chessmode::TurnInfo turnInfo(const chess::Game& game) {
    const chess::Position& pos = game.position();
    chessmode::TurnInfo t;
    t.fen = pos.fen();
    t.fullmoveNumber = pos.fullmoveNumber();
    t.history = moveHistorySan(game);
    chess::MoveList moves;
    chess::generateLegal(pos, moves);
    for (const chess::Move m : moves) t.legalMoves.push_back(chess::toSan(pos, m));
    t.inCheck = pos.inCheck();
    return t;
}

// ---- LlmPlayer ------------------------------------------------------------------------------

LlmPlayer::LlmPlayer(chessmode::AgentConfig config, const chessmode::AgentPrompts& prompts, llm::ChatService& chat,
                     std::string opponentName)
    : config_(std::move(config)), prompts_(prompts), chat_(chat), opponentName_(std::move(opponentName)) {}

void LlmPlayer::newGame() {
    if (agent_) agent_->cancel();
    agent_.reset();
    conversation_ = nullptr;
}

void LlmPlayer::beginMove(const MoveRequest& request) {
    if (!agent_ || conversation_ != request.conversation) {
        conversation_ = request.conversation;
        agent_ = std::make_unique<chessmode::ChessAgent>(config_, prompts_, chat_, *conversation_, opponentName_);
        agent_->onNote = [this](const std::string& note) {
            if (onNote) onNote(config_.name + ": " + note);
        };
    }
    position_ = request.game->position();
    accepted_ = chess::Move();
    chessmode::TurnInfo info = turnInfo(*request.game);
    info.drawOffered = request.drawOffered;
    info.maxRequests = request.maxRequests;
    info.maxRequestsByKind = request.maxRequestsByKind;
    agent_->startTurn(std::move(info), [this](const std::string& text) {
        chessmode::MoveVerdict v;
        const chess::MoveReading reading = chess::readMove(position_, text);
        if (!reading.ok()) {
            v.reason = reading.error;
            return v;
        }
        if (!chess::isLegal(position_, reading.move)) { // the reader promises legality: check it anyway
            v.reason =
                "no legal move found in \"" + (text.size() > 40 ? text.substr(0, 40) + "..." : text) + "\"";
            return v;
        }
        v.legal = true;
        v.san = chess::toSan(position_, reading.move);
        v.uci = chess::toUci(position_, reading.move);
        accepted_ = reading.move;
        return v;
    });
}

std::optional<PlayerMove> LlmPlayer::poll() {
    if (!agent_) return std::nullopt;
    // Never pumps the chat service: its owner's loop does, once per tick, so no callback of
    // another game's call fires inside this game's poll.
    std::optional<chessmode::TurnResult> r = agent_->takeResult();
    if (!r) return std::nullopt;
    PlayerMove m;
    m.reasoning = r->reasoning;
    m.attempts = r->attempts;
    m.costUsd = r->costUsd;
    m.usage = r->usage;
    m.message = r->message;
    switch (r->kind) {
    case chessmode::TurnResult::Kind::Move:
        m.kind = PlayerMove::Kind::Move;
        m.move = accepted_;
        m.offerDraw = r->offerDraw;
        break;
    case chessmode::TurnResult::Kind::AcceptDraw: m.kind = PlayerMove::Kind::AcceptDraw; break;
    case chessmode::TurnResult::Kind::Forfeit: m.kind = PlayerMove::Kind::Forfeit; break;
    case chessmode::TurnResult::Kind::Error:
        m.kind = PlayerMove::Kind::Error;
        if (r->error) m.failure = play::seatFailureOf(*r->error);
        break;
    }
    return m;
}

void LlmPlayer::cancel() {
    if (agent_) agent_->cancel();
}

// ---- RandomPlayer ---------------------------------------------------------------------------

void RandomPlayer::beginMove(const MoveRequest& request) {
    chess::MoveList moves;
    chess::generateLegal(request.game->position(), moves);
    PlayerMove m;
    if (moves.empty()) {
        m.kind = PlayerMove::Kind::Error;
        m.message = "no legal move";
    } else {
        m.move = moves[static_cast<std::size_t>(rng_.below(moves.size()))];
    }
    pending_ = m;
}

std::optional<PlayerMove> RandomPlayer::poll() {
    std::optional<PlayerMove> m = std::move(pending_);
    pending_.reset();
    return m;
}

// ---- HumanPlayer ----------------------------------------------------------------------------

void HumanPlayer::beginMove(const MoveRequest& request) {
    game_ = request.game;
    waiting_ = true;
    pending_.reset();
}

std::optional<std::string> HumanPlayer::submit(std::string_view text) {
    if (!waiting_ || !game_) return std::string("it is not your move");
    const chess::MoveReading reading = chess::readMove(game_->position(), text);
    if (!reading.ok()) return reading.error;
    if (!chess::isLegal(game_->position(), reading.move)) return std::string("that is not a legal move");
    if (recordAs_) recordAs_->recordHumanMove(chess::toSan(game_->position(), reading.move));
    PlayerMove m;
    m.move = reading.move;
    pending_ = m;
    waiting_ = false;
    return std::nullopt;
}

std::optional<PlayerMove> HumanPlayer::poll() {
    std::optional<PlayerMove> m = std::move(pending_);
    pending_.reset();
    return m;
}

} // namespace chaiba::chessmode
