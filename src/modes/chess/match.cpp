// The match runner (see match.h). Results come from the rules' Game (checkmate, stalemate, the
// automatic draws, claimed draws) or from the runner (forfeit, move limit, error, abort).
#include "src/modes/chess/match.h"

#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"

#include <cstdio>

namespace chaiba::chessmode {

namespace {

const char* colourName(chess::Color c) {
    return c == chess::Color::White ? "White" : "Black";
}

chess::Color opposite(chess::Color c) {
    return c == chess::Color::White ? chess::Color::Black : chess::Color::White;
}

std::string money(double usd) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6f", usd);
    return buffer;
}

// PGN comments stay on one line of readable text.
std::string oneLine(const std::string& text, std::size_t maxChars) {
    std::string out;
    bool space = false;
    for (char c : text) {
        if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += c;
        if (out.size() >= maxChars) {
            out += "...";
            break;
        }
    }
    return out;
}

// How many plies taking back `side`'s last move removes (0: it has not moved).
std::size_t pliesBackTo(const chess::Game& game, chess::Color side) {
    const std::size_t n = game.moves().size();
    const std::size_t firstMover = game.startPosition().sideToMove() == chess::Color::White ? 0 : 1;
    for (std::size_t k = 1; k <= n; ++k)
        if (static_cast<chess::Color>((n - k + firstMover) % 2) == side) return k;
    return 0;
}

} // namespace

std::string_view playerTypeName(play::SeatKind kind) {
    switch (kind) {
    case play::SeatKind::Model: return "llm";
    case play::SeatKind::Engine: return "engine";
    case play::SeatKind::Random: return "random";
    case play::SeatKind::Bot: return "bot";
    case play::SeatKind::Person: return "human";
    }
    return "human";
}

chess::Position matchStartPosition(const MatchConfig& c) {
    if (c.startFen) {
        chess::FenResult r = chess::Position::fromFen(*c.startFen, c.chess960);
        if (r.ok() && r.position) return *r.position;
    }
    if (c.chess960) {
        const int number = c.chess960Number >= 0 && c.chess960Number < 960 ? c.chess960Number
                                                                           : static_cast<int>(c.seed % 960);
        return chess::Position::chess960(number);
    }
    return chess::Position::startPosition();
}

std::optional<std::string> MatchRunner::validate(const MatchConfig& config) {
    if (config.startFen) {
        chess::FenResult r = chess::Position::fromFen(*config.startFen, config.chess960);
        if (!r.ok()) return "invalid start FEN: " + r.error;
    }
    if (config.chess960Number >= 960) return std::string("Chess960 numbers are 0..959");
    if (config.maxPlies < 1) return std::string("the move limit must be at least one ply");
    return std::nullopt;
}

MatchRunner::MatchRunner(Player& white, Player& black, MatchConfig config)
    : white_(white), black_(black), config_(std::move(config)), game_(matchStartPosition(config_)) {}

MatchRunner::~MatchRunner() {
    if (state_ == MatchState::Running) sideToMove().cancel();
}

Player& MatchRunner::sideToMove() {
    return game_.position().sideToMove() == chess::Color::White ? white_ : black_;
}

std::optional<std::string> MatchRunner::restore(const std::vector<MoveRecord>& records) {
    if (state_ != MatchState::NotStarted)
        return std::string("moves can only be restored before the game starts");
    chess::Game replay = game_;
    for (const MoveRecord& r : records) {
        if (r.ply < 0) continue; // not a move (older saves kept a forfeit's cost this way)
        if (!chess::isLegal(replay.position(), r.move))
            return "recorded move " + std::to_string(r.ply / 2 + 1) + (r.ply % 2 ? "... " : ". ") + r.san +
                   " is not legal in the recorded game";
        if (!replay.play(r.move))
            return std::string("the recorded game is already over before its last move");
    }
    game_ = replay;
    restored_ = records;
    return std::nullopt;
}

void MatchRunner::start() {
    if (state_ != MatchState::NotStarted) return;
    state_ = MatchState::Running;
    white_.newGame();
    black_.newGame();
    conversation_.gameStart(game_.startPosition().isChess960());
    for (const MoveRecord& r : restored_) {
        if (r.ply >= 0) {
            const Player& mover =
                r.ply % 2 == (game_.startPosition().sideToMove() == chess::Color::White ? 0 : 1) ? white_
                                                                                                 : black_;
            conversation_.movePlayed(mover.id(), mover.name(), r.san);
            addToTotals(&mover == &white_ ? 0 : 1, r.costUsd, r.usage);
        }
        if (r.ply >= 0) moves_.push_back(r);
    }
    restored_.clear();
    adjudicate(); // a start position may already be over
    if (state_ == MatchState::Running && !hold_) askNext();
}

void MatchRunner::requestMove() {
    if (state_ == MatchState::Running && !asked_) askNext();
}

void MatchRunner::resign(chess::Color side) {
    if (state_ == MatchState::Finished) return;
    if (state_ == MatchState::Running && asked_) sideToMove().cancel();
    const bool white = side == chess::Color::White;
    conversation_.moderator(std::string(white ? "White" : "Black") + " resigns.");
    finish(white ? "0-1" : "1-0", std::string(white ? "White" : "Black") + " resigns", MatchEnd::Resignation);
}

void MatchRunner::agreeDraw(const std::string& reason) {
    if (state_ == MatchState::Finished) return;
    if (state_ == MatchState::Running && asked_) sideToMove().cancel();
    conversation_.moderator("The game is drawn: " + reason + ".");
    finish("1/2-1/2", reason, MatchEnd::Agreement);
}

std::optional<std::string> MatchRunner::offerDraw(chess::Color by) {
    if (state_ != MatchState::Running) return std::string("the game is not in progress");
    if (drawOfferBy_)
        return std::string(*drawOfferBy_ == by ? "the draw offer is already open"
                                               : "answer the open draw offer first");
    drawOfferBy_ = by;
    const chess::Color to = opposite(by);
    conversation_.moderator(std::string(colourName(by)) + " offers a draw. The offer is open for " +
                            colourName(to) + "'s next turn only: " + colourName(to) +
                            " may accept it, or decline it by playing a move.");
    // The opponent is thinking without knowing of the offer: ask it again, now with the offer.
    if (asked_ && game_.position().sideToMove() == to) {
        sideToMove().cancel();
        askNext();
    }
    return std::nullopt;
}

std::optional<std::string> MatchRunner::answerDraw(chess::Color by, bool accept) {
    if (state_ != MatchState::Running || !drawOfferBy_ || *drawOfferBy_ != opposite(by))
        return std::string("there is no draw offer to answer");
    if (accept) {
        if (asked_) sideToMove().cancel();
        acceptDraw(by);
        return std::nullopt;
    }
    drawOfferBy_.reset();
    conversation_.moderator(std::string(colourName(by)) + " declines the draw offer.");
    return std::nullopt;
}

void MatchRunner::acceptDraw(chess::Color by) {
    conversation_.moderator(std::string(colourName(by)) +
                            " accepts the draw offer: the game is drawn by agreement.");
    finish("1/2-1/2", "draw agreed", MatchEnd::Agreement);
}

void MatchRunner::endAs(const std::string& result, const std::string& reason) {
    if (state_ == MatchState::Finished) return;
    if (state_ == MatchState::Running && asked_) sideToMove().cancel();
    finish(result, reason, MatchEnd::Decided);
}

bool MatchRunner::retry(int maxRequests) {
    if (state_ != MatchState::Finished || !stoppedOnError_) return false;
    state_ = MatchState::Running;
    stoppedOnError_ = false;
    failure_.reset();
    end_ = MatchEnd::None;
    result_.clear();
    termination_.clear();
    askNext(maxRequests);
    return true;
}

void MatchRunner::addToTotals(int side, double costUsd, const llm::Usage& usage) {
    SideTotals& totals = totals_[side];
    totals.costUsd += costUsd;
    totals.usage.promptTokens += usage.promptTokens;
    totals.usage.completionTokens += usage.completionTokens;
    totals.usage.totalTokens += usage.totalTokens;
    totals.usage.cachedTokens += usage.cachedTokens;
    totals.usage.cacheWriteTokens += usage.cacheWriteTokens;
    totals.usage.reasoningTokens += usage.reasoningTokens;
}

void MatchRunner::askNext(int maxRequests) {
    MoveRequest request;
    request.maxRequests = maxRequests;
    request.maxRequestsByKind = config_.maxRequestsByKind;
    request.game = &game_;
    request.conversation = &conversation_;
    request.drawOffered = drawOfferBy_ && *drawOfferBy_ != game_.position().sideToMove();
    asked_ = true;
    sideToMove().beginMove(request);
}

void MatchRunner::poll() {
    if (state_ != MatchState::Running || !asked_) return;
    Player& mover = sideToMove();
    std::optional<PlayerMove> answer = mover.poll();
    if (!answer) return;
    asked_ = false;
    const chess::Color moverColour = game_.position().sideToMove();
    const bool whiteMoves = moverColour == chess::Color::White;
    const char* side = whiteMoves ? "White" : "Black";
    const bool offeredToMover = drawOfferBy_ && *drawOfferBy_ != moverColour;
    addToTotals(whiteMoves ? 0 : 1, answer->costUsd, answer->usage);
    switch (answer->kind) {
    case PlayerMove::Kind::Forfeit: {
        const std::string reason = std::string(side) + " forfeits: " + answer->message;
        conversation_.moderator(reason);
        forfeitBy_ = moverColour;
        return finish(whiteMoves ? "0-1" : "1-0", reason, MatchEnd::Forfeit);
    }
    case PlayerMove::Kind::Error: {
        const std::optional<chess::Color> offer = drawOfferBy_; // still open when the turn is retried
        finish("*", "error: " + answer->message, MatchEnd::Error);
        failure_ = answer->failure.value_or(play::SeatFailure{play::FailureKind::ServerError, answer->message, 0});
        stoppedOnError_ = true;
        drawOfferBy_ = offer;
        return;
    }
    case PlayerMove::Kind::AcceptDraw:
        if (!offeredToMover) // a player bug, not a model's: stop, don't crash
            return stopOnError(mover.name() + " accepted a draw that was not offered");
        return acceptDraw(moverColour);
    case PlayerMove::Kind::Move: break;
    }
    const chess::Position& pos = game_.position();
    if (!chess::isLegal(pos, answer->move)) { // a player bug, not a model's: stop, don't crash
        return stopOnError(mover.name() + " returned an illegal move");
    }
    MoveRecord r;
    r.ply = static_cast<int>(game_.moves().size());
    r.move = answer->move;
    r.san = chess::toSan(pos, answer->move);
    r.uci = chess::toUci(pos, answer->move);
    r.playerId = mover.id();
    r.reasoning = answer->reasoning;
    r.attempts = answer->attempts;
    r.costUsd = answer->costUsd;
    r.usage = answer->usage;
    r.offeredDraw = answer->offerDraw || drawOfferBy_ == moverColour;
    if (offeredToMover) {
        drawOfferBy_.reset();
        conversation_.moderator(std::string(side) + " declines the draw offer by playing on.");
    }
    game_.play(answer->move);
    conversation_.movePlayed(mover.id(), mover.name(), r.san);
    moves_.push_back(std::move(r));
    adjudicate();
    if (state_ == MatchState::Running && answer->offerDraw && !drawOfferBy_) offerDraw(moverColour);
    if (state_ == MatchState::Running && !hold_) askNext();
}

void MatchRunner::adjudicate() {
    const chess::GameStatus status = game_.status();
    if (chess::isGameOver(status)) return finish(game_.result(), game_.termination(), MatchEnd::Rules);
    if (config_.claimDraws && chess::isClaimable(status) && game_.claimDraw())
        return finish(game_.result(), game_.termination(), MatchEnd::Rules);
    if (static_cast<int>(game_.moves().size()) >= config_.maxPlies) {
        game_.setResult("1/2-1/2", "adjudicated a draw after " + std::to_string(config_.maxPlies) + " plies");
        return finish(game_.result(), game_.termination(), MatchEnd::MoveLimit);
    }
}

void MatchRunner::stopOnError(const std::string& message) {
    finish("*", "error: " + message, MatchEnd::Error);
    failure_ = play::SeatFailure{play::FailureKind::ServerError, message, 0};
    stoppedOnError_ = true;
}

void MatchRunner::finish(std::string result, std::string reason, MatchEnd end) {
    state_ = MatchState::Finished;
    end_ = end;
    failure_.reset();
    stoppedOnError_ = false;
    asked_ = false;
    drawOfferBy_.reset();
    result_ = std::move(result);
    termination_ = std::move(reason);
}

void MatchRunner::abort(const std::string& reason) {
    if (state_ == MatchState::Finished) return;
    if (state_ == MatchState::Running) sideToMove().cancel();
    finish("*", reason, MatchEnd::Aborted);
}

std::optional<std::string> MatchRunner::takeBackRefusal(chess::Color side) const {
    if (state_ == MatchState::NotStarted) return std::string("the game has not started");
    if (state_ == MatchState::Finished && end_ != MatchEnd::Rules && end_ != MatchEnd::MoveLimit && !stoppedOnError_)
        return "the game is over (" + termination_ + ")";
    if (pliesBackTo(game_, side) == 0) return std::string(colourName(side)) + " has no move to take back";
    return std::nullopt;
}

std::optional<std::string> MatchRunner::takeBack(chess::Color side) {
    if (auto refused = takeBackRefusal(side)) return refused;
    if (asked_) sideToMove().cancel();
    asked_ = false;
    const std::size_t keep = moves_.size() - pliesBackTo(game_, side);
    std::string note = std::string(colourName(side)) + " takes back";
    for (std::size_t i = keep; i < moves_.size(); ++i) (note += ' ') += moves_[i].san;
    while (moves_.size() > keep) {
        moves_.pop_back();
        game_.undo();
    }
    state_ = MatchState::Running;
    end_ = MatchEnd::None;
    failure_.reset();
    stoppedOnError_ = false;
    drawOfferBy_.reset();
    result_.clear();
    termination_.clear();
    conversation_.moderator(note + "; " + colourName(side) + " is to move again.");
    if (!hold_) askNext();
    return std::nullopt;
}

std::string MatchRunner::result() const {
    return state_ == MatchState::Finished ? result_ : "*";
}
std::string MatchRunner::termination() const {
    return termination_;
}

double MatchRunner::costUsd(chess::Color side) const {
    return totals_[chess::index(side)].costUsd;
}

llm::Usage MatchRunner::usage(chess::Color side) const {
    return totals_[chess::index(side)].usage;
}

chess::PgnGame MatchRunner::toPgn(const std::string& event, int round) const {
    chess::PgnGame pgn;
    pgn.start = game_.startPosition();
    pgn.setTag("Event", event);
    pgn.setTag("Site", "CHAIBA");
    pgn.setTag("Round", std::to_string(round));
    pgn.setTag("White", white_.name());
    pgn.setTag("Black", black_.name());
    pgn.setTag("Result", result());
    const struct {
        const char* prefix;
        const Player& player;
        chess::Color side;
    } sides[] = {{"White", white_, chess::Color::White}, {"Black", black_, chess::Color::Black}};
    for (const auto& s : sides) {
        const std::string p = s.prefix;
        pgn.setTag(p + "Type", std::string(playerTypeName(s.player.kind())));
        if (!s.player.model().empty()) pgn.setTag(p + "Model", s.player.model());
        if (s.player.kind() == play::SeatKind::Model) {
            const llm::Usage u = usage(s.side);
            pgn.setTag(p + "CostUsd", money(costUsd(s.side)));
            pgn.setTag(p + "PromptTokens", std::to_string(u.promptTokens));
            pgn.setTag(p + "CompletionTokens", std::to_string(u.completionTokens));
            pgn.setTag(p + "CachedTokens", std::to_string(u.cachedTokens));
        }
    }
    if (!termination_.empty()) pgn.setTag("Termination", termination_);
    pgn.setTag("PlyCount", std::to_string(game_.moves().size()));
    for (const MoveRecord& r : moves_) {
        pgn.moves.push_back(r.move);
        std::string comment = oneLine(r.reasoning, 1500);
        if (r.attempts > 1) {
            std::string prefix = "[";
            prefix += std::to_string(r.attempts);
            prefix += " attempts]";
            if (!comment.empty()) prefix += ' ';
            comment.insert(0, prefix);
        }
        if (r.offeredDraw) comment.insert(0, comment.empty() ? "[offers a draw]" : "[offers a draw] ");
        pgn.comments.push_back(comment);
    }
    pgn.result = result();
    return pgn;
}

} // namespace chaiba::chessmode
