// Game: a start position, the moves played, and the repetition history; decides the game status
// (checkmate, stalemate, the automatic and the claimable draws) and the PGN result string.
#pragma once

#include "engine/chess/position.h"
#include "engine/chess/types.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::chess {

// Automatic outcomes end the game; *Claimable ones only if a player claims (see Game::claimDraw).
enum class GameStatus : uint8_t {
    Ongoing,
    Checkmate,            // automatic: side to move is mated
    Stalemate,            // automatic
    InsufficientMaterial, // automatic: no sequence of legal moves can mate (K v K, K+minor v K,
                          // bishops all on one color)
    FiftyMoveClaimable,   // halfmove clock >= 100
    SeventyFiveMove,      // automatic: halfmove clock >= 150 (unless the last move mated)
    ThreefoldClaimable,   // the current position occurred 3 times
    FivefoldRepetition    // automatic: 5 times
};
// "ongoing", "checkmate", "stalemate", "insufficient_material", "fifty_move_claimable",
// "seventy_five_move", "threefold_claimable", "fivefold_repetition".
std::string_view statusName(GameStatus s);
// True for the automatic outcomes (the game is over without a claim).
bool isGameOver(GameStatus s);
// True for the two claimable draws.
bool isClaimable(GameStatus s);
// Status of a lone position (no history: never a repetition status). Precedence: checkmate,
// stalemate, insufficient material, seventy-five-move, fifty-move.
GameStatus positionStatus(const Position& pos);
bool insufficientMaterial(const Position& pos);

class Game {
public:
    Game(); // standard start position
    explicit Game(const Position& start);

    const Position& startPosition() const { return start_; }
    const Position& position() const { return current_; }
    const std::vector<Move>& moves() const { return moves_; }

    // Plays a move; it must be legal in position() (assert). Returns false (and does nothing) if
    // the game is already over (automatic status or a result set).
    bool play(Move m);
    // Takes back the last move; false if there is none.
    bool undo();

    // Status including repetitions (counted over positions since the last irreversible move).
    GameStatus status() const;
    // How often the current position has occurred (1 = first time).
    int repetitionCount() const;

    // Claims a claimable draw for the side to move; false if nothing is claimable.
    bool claimDraw();
    // Sets an outside result (resignation, time forfeit, adjudication): "1-0", "0-1", "1/2-1/2".
    void setResult(std::string result, std::string reason);
    // "1-0", "0-1", "1/2-1/2" for a finished game (automatic status, claim or set result), else "*".
    std::string result() const;
    // Human text for the termination ("checkmate", "threefold repetition claimed", the reason
    // given to setResult, ...); empty while ongoing.
    std::string termination() const;

private:
    Position start_;
    Position current_;
    std::vector<Move> moves_;
    std::vector<Undo> undos_;
    std::vector<uint64_t> hashes_; // hash before each move, then current (size moves_+1)
    std::string result_;           // explicit result (claim or setResult); empty if none
    std::string reason_;
};

} // namespace chaiba::chess
