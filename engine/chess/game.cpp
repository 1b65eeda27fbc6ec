// Game: move history, repetition counting, automatic vs claimable draws, result strings.
#include "engine/chess/game.h"

#include "engine/chess/bitboard.h"
#include "engine/chess/movegen.h"

#include <algorithm>
#include <cassert>

namespace chaiba::chess {

std::string_view statusName(GameStatus s) {
    switch (s) {
    case GameStatus::Ongoing: return "ongoing";
    case GameStatus::Checkmate: return "checkmate";
    case GameStatus::Stalemate: return "stalemate";
    case GameStatus::InsufficientMaterial: return "insufficient_material";
    case GameStatus::FiftyMoveClaimable: return "fifty_move_claimable";
    case GameStatus::SeventyFiveMove: return "seventy_five_move";
    case GameStatus::ThreefoldClaimable: return "threefold_claimable";
    case GameStatus::FivefoldRepetition: return "fivefold_repetition";
    }
    return "ongoing";
}

bool isGameOver(GameStatus s) {
    return s == GameStatus::Checkmate || s == GameStatus::Stalemate ||
           s == GameStatus::InsufficientMaterial || s == GameStatus::SeventyFiveMove ||
           s == GameStatus::FivefoldRepetition;
}

bool isClaimable(GameStatus s) {
    return s == GameStatus::FiftyMoveClaimable || s == GameStatus::ThreefoldClaimable;
}

bool insufficientMaterial(const Position& pos) {
    if (pos.pieces(PieceType::Pawn) | pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen))
        return false;
    const Bitboard knights = pos.pieces(PieceType::Knight), bishops = pos.pieces(PieceType::Bishop);
    if (knights) return !bishops && !moreThanOne(knights); // K+N v K
    constexpr Bitboard kDark = 0xAA55AA55AA55AA55ULL;
    return !(bishops & kDark) || !(bishops & ~kDark); // K v K, bishops all on one color
}

GameStatus positionStatus(const Position& pos) {
    if (countLegal(pos) == 0) return pos.inCheck() ? GameStatus::Checkmate : GameStatus::Stalemate;
    if (insufficientMaterial(pos)) return GameStatus::InsufficientMaterial;
    if (pos.halfmoveClock() >= 150) return GameStatus::SeventyFiveMove;
    if (pos.halfmoveClock() >= 100) return GameStatus::FiftyMoveClaimable;
    return GameStatus::Ongoing;
}

Game::Game() : Game(Position::startPosition()) {}

Game::Game(const Position& start) : start_(start), current_(start) {
    hashes_.push_back(start.hash());
}

bool Game::play(Move m) {
    if (!result_.empty() || isGameOver(status())) return false;
    assert(isLegal(current_, m) && "Game::play needs a legal move");
    undos_.push_back(current_.makeMove(m));
    moves_.push_back(m);
    hashes_.push_back(current_.hash());
    return true;
}

bool Game::undo() {
    if (moves_.empty()) return false;
    current_.unmakeMove(moves_.back(), undos_.back());
    moves_.pop_back();
    undos_.pop_back();
    hashes_.pop_back();
    result_.clear();
    reason_.clear();
    return true;
}

int Game::repetitionCount() const {
    const int last = int(hashes_.size()) - 1;
    const int window = std::min(current_.halfmoveClock(), last);
    int count = 1;
    for (int i = last - 2; i >= last - window; i -= 2)
        if (hashes_[size_t(i)] == hashes_[size_t(last)]) ++count;
    return count;
}

GameStatus Game::status() const {
    const GameStatus s = positionStatus(current_);
    if (isGameOver(s)) return s;
    const int reps = repetitionCount();
    if (reps >= 5) return GameStatus::FivefoldRepetition;
    if (reps >= 3) return GameStatus::ThreefoldClaimable;
    return s;
}

bool Game::claimDraw() {
    const GameStatus s = status();
    if (!result_.empty() || !isClaimable(s)) return false;
    result_ = "1/2-1/2";
    reason_ =
        s == GameStatus::ThreefoldClaimable ? "threefold repetition claimed" : "fifty-move rule claimed";
    return true;
}

void Game::setResult(std::string result, std::string reason) {
    result_ = std::move(result);
    reason_ = std::move(reason);
}

std::string Game::result() const {
    if (!result_.empty()) return result_;
    switch (status()) {
    case GameStatus::Checkmate: return current_.sideToMove() == Color::White ? "0-1" : "1-0";
    case GameStatus::Stalemate:
    case GameStatus::InsufficientMaterial:
    case GameStatus::SeventyFiveMove:
    case GameStatus::FivefoldRepetition: return "1/2-1/2";
    default: return "*";
    }
}

std::string Game::termination() const {
    if (!result_.empty()) return reason_;
    switch (status()) {
    case GameStatus::Checkmate: return "checkmate";
    case GameStatus::Stalemate: return "stalemate";
    case GameStatus::InsufficientMaterial: return "insufficient material";
    case GameStatus::SeventyFiveMove: return "seventy-five-move rule";
    case GameStatus::FivefoldRepetition: return "fivefold repetition";
    default: return "";
    }
}

} // namespace chaiba::chess
