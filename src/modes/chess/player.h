// The Player interface the match runner drives: begin a move for the current game, poll until a
// move (or a forfeit, or an error) is ready, cancel. Implementations: LLM (the chess agent),
// random (seeded), built-in engine, and a human whose move is injected from outside.
#pragma once

#include "src/modes/chess/layers.h"
#include "engine/chess/game.h"
#include "src/llm/chat.h"
#include "src/play/failure.h"
#include "src/play/seat.h"
#include "src/modes/chess/conversation.h"

#include <optional>
#include <string>

namespace chaiba::chessmode {

// What a player is asked: the game so far (position, history) and the shared conversation.
struct MoveRequest {
    const chess::Game* game = nullptr;
    chessmode::GameConversation* conversation = nullptr;
    // The opponent offers a draw, open for this turn only: answer Kind::AcceptDraw to accept;
    // playing a move declines it.
    bool drawOffered = false;
    // A turn asked again after a failed request: the requests its model calls may make in all,
    // the tries the failure rules have left (each call's ChatRequest::maxRequests); 0: no cap.
    int maxRequests = 0;
    llm::RequestCaps maxRequestsByKind{}; // each call's ChatRequest::maxRequestsByKind, first try too
};

// A player's answer. Only Move changes the board; AcceptDraw (only when a draw was offered)
// ends the game drawn; Forfeit loses the game; Error stops it unfinished (an API failure is not
// the model's loss).
struct PlayerMove {
    enum class Kind { Move, AcceptDraw, Forfeit, Error } kind = Kind::Move;
    chess::Move move;
    bool offerDraw = false; // with a Move: offers the opponent a draw (open for its next turn)
    std::string reasoning;
    int attempts = 1;
    double costUsd = 0;
    llm::Usage usage;
    std::string message; // forfeit or error explanation
    // Error only: the typed failure (a chat error's kind and HTTP status); none: a server error.
    std::optional<play::SeatFailure> failure;
};

// "llm", "engine", "random", "human" (the PGN's WhiteType / BlackType tags); "bot" for a bot.
std::string_view playerTypeName(play::SeatKind kind);

class ChessAgent;
class HumanPlayer;

class Player {
public:
    virtual ~Player() = default;
    virtual std::string id() const = 0;   // unique within a match ("white", "black")
    virtual std::string name() const = 0; // display name ("openai/gpt-4o", "Engine · level 4")
    virtual play::SeatKind kind() const = 0; // model, engine, random, person (playerTypeName: PGN text)
    virtual std::string model() const { return {}; }

    // Starts thinking about request.game->position(); the request's pointers outlive the move.
    virtual void beginMove(const MoveRequest& request) = 0;
    // Makes progress; the answer once it is ready (then the player is idle again).
    virtual std::optional<PlayerMove> poll() = 0;
    virtual void cancel() = 0;
    // The game begins (a player may reset per-game state).
    virtual void newGame() {}

    virtual double totalCostUsd() const { return 0; }
    virtual llm::Usage totalUsage() const { return {}; }

    // The model player's agent (its conversation and notes) and the person's seat: null for every
    // other player. Virtual accessors rather than dynamic_cast: the page is built without RTTI.
    virtual ChessAgent* agent() { return nullptr; }
    virtual HumanPlayer* asHuman() { return nullptr; }
};

} // namespace chaiba::chessmode
