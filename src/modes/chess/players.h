// The non-engine players: LlmPlayer (a ChessAgent with the rules engine as its judge),
// RandomPlayer (seeded, uniform over legal moves) and HumanPlayer (a move injected from outside).
// The built-in engine player is in engine_player.h.
#pragma once

#include "engine/common/splitmix64.h"
#include "src/modes/chess/chess_agent.h"
#include "src/modes/chess/player.h"

#include <cstdint>
#include <memory>

namespace chaiba::chessmode {

// "1. e4 e5 2. Nf3" (or "1... e5 2. Nf3" from a position with Black to move); "" with no moves.
std::string moveHistorySan(const chess::Game& game);
// The agent's view of the turn: FEN, move number, history, legal moves in SAN, check.
chessmode::TurnInfo turnInfo(const chess::Game& game);

class LlmPlayer final : public Player {
public:
    // The agent is created per game (it lives in that game's conversation), from this config.
    LlmPlayer(chessmode::AgentConfig config, const chessmode::AgentPrompts& prompts, llm::ChatService& chat,
              std::string opponentName);

    std::string id() const override { return config_.id; }
    std::string name() const override { return config_.name; }
    play::SeatKind kind() const override { return play::SeatKind::Model; }
    std::string model() const override { return config_.model; }
    void beginMove(const MoveRequest& request) override;
    std::optional<PlayerMove> poll() override;
    void cancel() override;
    void newGame() override;
    double totalCostUsd() const override { return agent_ ? agent_->totalCostUsd() : 0; }
    llm::Usage totalUsage() const override { return agent_ ? agent_->totalUsage() : llm::Usage{}; }

    // The current game's agent (log, status, notes); null before the first move.
    chessmode::ChessAgent* agent() override { return agent_.get(); }
    // Called with each agent note (retries, rejected moves) of every game.
    std::function<void(const std::string&)> onNote;

private:
    chessmode::AgentConfig config_;
    const chessmode::AgentPrompts& prompts_;
    llm::ChatService& chat_;
    std::string opponentName_;
    chessmode::GameConversation* conversation_ = nullptr;
    std::unique_ptr<chessmode::ChessAgent> agent_;
    chess::Position position_ = chess::Position::startPosition();
    chess::Move accepted_;
};

class RandomPlayer final : public Player {
public:
    RandomPlayer(std::string id, std::uint64_t seed) : id_(std::move(id)), rng_(seed) {}
    std::string id() const override { return id_; }
    std::string name() const override { return "random"; }
    play::SeatKind kind() const override { return play::SeatKind::Random; }
    void beginMove(const MoveRequest& request) override;
    std::optional<PlayerMove> poll() override;
    void cancel() override { pending_.reset(); }

private:
    std::string id_;
    chaiba::SplitMix64 rng_;
    std::optional<PlayerMove> pending_;
};

class HumanPlayer final : public Player {
public:
    HumanPlayer(std::string id, std::string name) : id_(std::move(id)), name_(std::move(name)) {}
    std::string id() const override { return id_; }
    std::string name() const override { return name_; }
    play::SeatKind kind() const override { return play::SeatKind::Person; }
    HumanPlayer* asHuman() override { return this; }
    void beginMove(const MoveRequest& request) override;
    std::optional<PlayerMove> poll() override;
    void cancel() override { waiting_ = false; }

    bool waiting() const { return waiting_; }
    // A move as text (SAN, UCI, or anything the move reader understands); an error sentence
    // when it is not legal now or no move is expected.
    std::optional<std::string> submit(std::string_view text);
    // Records the human's moves as this agent's own tool calls (so both agents see them).
    void recordAs(chessmode::ChessAgent* agent) { recordAs_ = agent; }

private:
    std::string id_;
    std::string name_;
    const chess::Game* game_ = nullptr;
    bool waiting_ = false;
    std::optional<PlayerMove> pending_;
    chessmode::ChessAgent* recordAs_ = nullptr;
};

} // namespace chaiba::chessmode
