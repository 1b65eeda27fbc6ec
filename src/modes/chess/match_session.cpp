// MatchSession: see match_session.h. Saved games are JSON decoded once into typed values here.
#include "src/modes/chess/match_session.h"

#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "src/modes/chess/chess_agent.h"
#include "src/modes/chess/player_factory.h"
#include "src/modes/chess/players.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <ctime>

namespace chaiba {

using nlohmann::json;

namespace {

constexpr int kSaveVersion = 1;

const char* modeName(StartMode m) {
    switch (m) {
    case StartMode::Standard: return "standard";
    case StartMode::Chess960: return "chess960";
    case StartMode::Fen: return "fen";
    case StartMode::Pgn: return "pgn";
    }
    return "standard";
}

std::optional<StartMode> modeFromName(const std::string& s) {
    for (StartMode m : {StartMode::Standard, StartMode::Chess960, StartMode::Fen, StartMode::Pgn})
        if (s == modeName(m)) return m;
    return std::nullopt;
}

// Typed readers for the saved-game JSON: each returns false when the field is missing or of the
// wrong type, so restore() reports "saved game is damaged (field)" instead of crashing.
bool getString(const json& o, const char* key, std::string& out) {
    if (!o.is_object() || !o.contains(key) || !o[key].is_string()) return false;
    out = o[key].get<std::string>();
    return true;
}

bool getInt(const json& o, const char* key, long long& out) {
    if (!o.is_object() || !o.contains(key) || !o[key].is_number_integer()) return false;
    out = o[key].get<long long>();
    return true;
}

// Today as PGN writes dates ("2026.11.24", UTC).
std::string todayPgnDate() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    if (!gmtime_r(&now, &utc)) return {};
    char text[40];
    std::snprintf(text, sizeof text, "%04d.%02d.%02d", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday);
    return text;
}

double getNumberOr(const json& o, const char* key, double fallback) {
    if (!o.is_object() || !o.contains(key) || !o[key].is_number()) return fallback;
    return o[key].get<double>();
}

} // namespace

MatchSession::MatchSession(SessionEnvironment env) : env_(std::move(env)) {}

MatchSession::~MatchSession() = default;

std::unique_ptr<chessmode::Player> MatchSession::makePlayer(const PlayerSpec& spec, chess::Color side,
                                                        const chessmode::ChessPlaySettings& settings, const std::string& opponentName,
                                                        uint64_t seed, std::string& error) {
    if (reviewOnly_) // the game is only looked at: nothing plays for either side
        return std::make_unique<chessmode::HumanPlayer>(side == chess::Color::White ? "white" : "black", displayName(spec));
    chessmode::ChessPlayerServices services;
    services.chat = env_.chat;
    services.prompts = env_.prompts;
    services.makeEngine = env_.makeEngine;
    services.maxEngineLevel = env_.maxEngineLevel;
    const chessmode::ChessSeat seat{side == chess::Color::White ? "white" : "black", side, seed, opponentName};
    const std::string& instructions = side == chess::Color::White ? setup_.whiteInstructions : setup_.blackInstructions;
    play::Parsed<std::unique_ptr<chessmode::Player>> player =
        chessmode::makeChessPlayer(spec, seat, settings, services, [&](chessmode::AgentConfig& config) {
            if (env_.supportsTools) config.useTools = env_.supportsTools(spec.modelId);
            config.customInstructions = instructions;
            config.stream = true;
        });
    if (!player.ok()) error = player.error;
    return player.ok() ? std::move(*player.value) : nullptr;
}

std::optional<std::string> MatchSession::build(const GameSetup& setup, const chessmode::ChessPlaySettings& settings, uint64_t seed,
                                               const ValidatedStart& start) {
    std::string error;
    const GameSetup previous = setup_;
    setup_ = setup;  // makePlayer reads the instructions from it
    const std::string whiteName = setup.white.kind == PlayerKind::Model ? setup.white.modelId : setup.white.text();
    const std::string blackName = setup.black.kind == PlayerKind::Model ? setup.black.modelId : setup.black.text();
    auto white = makePlayer(setup.white, chess::Color::White, settings, blackName, seed * 2 + 1, error);
    if (!white) {
        setup_ = previous;
        return "White: " + error;
    }
    auto black = makePlayer(setup.black, chess::Color::Black, settings, whiteName, seed * 2 + 2, error);
    if (!black) {
        setup_ = previous;
        return "Black: " + error;
    }
    chessmode::MatchConfig config;
    config.seed = seed;
    config.chess960 = start.start->isChess960();
    config.startFen = start.start->fen();
    if (auto invalid = chessmode::MatchRunner::validate(config)) {
        setup_ = previous;
        return *invalid;
    }
    if (runner_) runner_->abort("a new game was started");
    runner_.reset();
    white_ = std::move(white);
    black_ = std::move(black);
    runner_ = std::make_unique<chessmode::MatchRunner>(*white_, *black_, config);
    setup_ = setup;
    seed_ = seed;
    date_ = todayPgnDate();
    lastMoveCount_ = 0;
    lastDrawOffer_.reset();
    ++revision_;
    return std::nullopt;
}

std::optional<std::string> MatchSession::newGame(const GameSetup& setup, const chessmode::ChessPlaySettings& settings, uint64_t seed) {
    ValidatedStart start = validateStart(setup, seed);
    if (!start.start) return start.error;
    GameSetup effective = setup;
    if (setup.mode == StartMode::Chess960) effective.chess960Number = start.chess960Number;
    if (auto error = build(effective, settings, seed, start)) return error;
    if (!start.moves.empty()) {
        // A pasted PGN: its moves are the game so far; play continues from its end.
        std::vector<chessmode::MoveRecord> records;
        chess::Position pos = *start.start;
        for (size_t i = 0; i < start.moves.size(); ++i) {
            chessmode::MoveRecord r;
            r.ply = static_cast<int>(i);
            r.move = start.moves[i];
            r.san = chess::toSan(pos, r.move);
            r.uci = chess::toUci(pos, r.move);
            r.playerId = pos.sideToMove() == chess::Color::White ? "white" : "black";
            records.push_back(r);
            pos.makeMove(r.move);
        }
        if (auto error = runner_->restore(records)) return error;
    }
    runner_->setHold(!autoPlay_);
    runner_->start();
    lastMoveCount_ = runner_->moves().size();
    return std::nullopt;
}

void MatchSession::poll() {
    if (!runner_) return;
    runner_->poll();
    if (runner_->moves().size() != lastMoveCount_ || runner_->state() != lastState_ ||
        runner_->drawOfferBy() != lastDrawOffer_) {
        lastMoveCount_ = runner_->moves().size();
        lastState_ = runner_->state();
        lastDrawOffer_ = runner_->drawOfferBy();
        ++revision_;
    }
}

SessionPhase MatchSession::phase() const {
    if (!runner_) return SessionPhase::Empty;
    if (runner_->stoppedOnError()) return SessionPhase::Stopped;
    if (runner_->finished()) return SessionPhase::Finished;
    return autoPlay_ ? SessionPhase::Running : SessionPhase::Paused;
}

void MatchSession::setAutoPlay(bool on) {
    autoPlay_ = on;
    if (!runner_) return;
    runner_->setHold(!on);
    if (on) runner_->requestMove();
}

void MatchSession::step() {
    if (!runner_ || runner_->finished()) return;
    autoPlay_ = false;
    runner_->setHold(true);
    runner_->requestMove();
}

chessmode::Player* MatchSession::player(chess::Color side) {
    return side == chess::Color::White ? white_.get() : black_.get();
}

bool MatchSession::humanToMove() const {
    if (!runner_ || runner_->finished()) return false;
    const chessmode::Player* p = runner_->game().position().sideToMove() == chess::Color::White ? white_.get() : black_.get();
    return p && p->kind() == play::SeatKind::Person;
}

std::optional<std::string> MatchSession::humanMove(chess::Move move) {
    if (!runner_ || runner_->finished()) return std::string("the game is over");
    const chess::Color side = runner_->game().position().sideToMove();
    chessmode::Player* seat = player(side);
    chessmode::HumanPlayer* human = seat ? seat->asHuman() : nullptr;
    if (!human) return std::string("it is not your move");
    // A person may move while paused: ask the human first, so the move is expected.
    if (!runner_->thinking()) runner_->requestMove();
    if (auto error = human->submit(chess::toUci(runner_->game().position(), move))) return error;
    poll();
    return std::nullopt;
}

void MatchSession::resign() {
    if (!runner_ || runner_->finished()) return;
    const bool whiteHuman = white_ && white_->kind() == play::SeatKind::Person;
    const bool blackHuman = black_ && black_->kind() == play::SeatKind::Person;
    chess::Color side = runner_->game().position().sideToMove();
    if (whiteHuman != blackHuman) side = whiteHuman ? chess::Color::White : chess::Color::Black;
    runner_->resign(side);
    ++revision_;
}

std::optional<chess::Color> MatchSession::soleHuman() const {
    const bool whiteHuman = white_ && white_->kind() == play::SeatKind::Person;
    const bool blackHuman = black_ && black_->kind() == play::SeatKind::Person;
    if (whiteHuman == blackHuman) return std::nullopt;
    return whiteHuman ? chess::Color::White : chess::Color::Black;
}

bool MatchSession::drawIsOffer() const {
    return soleHuman().has_value();
}

std::optional<std::string> MatchSession::offerDraw() {
    if (!runner_ || runner_->finished()) return std::string("the game is over");
    const std::optional<chess::Color> human = soleHuman();
    if (!human) return std::string("a draw is offered by the person playing one side");
    if (runner_->state() != chessmode::MatchState::Running) return std::string("the game has not started");
    auto error = runner_->offerDraw(*human);
    poll();
    ++revision_;
    return error;
}

std::optional<chess::Color> MatchSession::pendingDrawOffer() const {
    if (!runner_) return std::nullopt;
    return runner_->drawOfferBy();
}

bool MatchSession::drawOfferToHuman() const {
    const std::optional<chess::Color> human = soleHuman();
    const std::optional<chess::Color> by = pendingDrawOffer();
    return human && by && *by != *human;
}

std::optional<std::string> MatchSession::answerDraw(bool accept) {
    if (!runner_ || runner_->finished()) return std::string("the game is over");
    if (!drawOfferToHuman()) return std::string("there is no draw offer to answer");
    auto error = runner_->answerDraw(*soleHuman(), accept);
    poll();
    ++revision_;
    return error;
}

void MatchSession::agreeDraw() {
    if (!runner_ || runner_->finished()) return;
    runner_->agreeDraw("draw agreed");
    ++revision_;
}

bool MatchSession::canRetry() const {
    return runner_ && runner_->stoppedOnError();
}

bool MatchSession::retry() {
    if (!runner_ || !runner_->retry()) return false;
    ++revision_;
    return true;
}

std::optional<chess::Color> MatchSession::takeBackSide() const {
    if (const auto human = soleHuman()) return human;
    if (!runner_ || !white_ || white_->kind() != play::SeatKind::Person || !black_ ||
        black_->kind() != play::SeatKind::Person)
        return std::nullopt;
    return runner_->game().position().sideToMove() == chess::Color::White ? chess::Color::Black : chess::Color::White;
}

std::optional<std::string> MatchSession::takeBackRefusal() const {
    if (!runner_) return std::string("there is no game");
    const auto side = takeBackSide();
    if (!side) return std::string("a takeback is for a game a person plays");
    return runner_->takeBackRefusal(*side);
}

std::optional<std::string> MatchSession::takeBack() {
    const std::optional<chess::Color> side = takeBackSide(); // none: no person (or no game)
    if (!side) return takeBackRefusal();
    auto error = runner_->takeBack(*side);
    poll();
    ++revision_;
    return error;
}

GameSetup MatchSession::rematchSetup() const {
    GameSetup setup = setup_;
    std::swap(setup.white, setup.black);
    std::swap(setup.whiteInstructions, setup.blackInstructions);
    // A FEN start, or a pasted game restored after a reload (its text is not kept): the start FEN.
    if (runner_ && (setup.mode == StartMode::Fen || (setup.mode == StartMode::Pgn && setup.pgn.empty()))) {
        setup.mode = StartMode::Fen;
        setup.fen = runner_->game().startPosition().fen();
    }
    return setup;
}

std::string MatchSession::statusMessage() const {
    if (!runner_) return {};
    return runner_->termination();
}

double MatchSession::totalCostUsd() const {
    if (!runner_) return 0;
    return runner_->costUsd(chess::Color::White) + runner_->costUsd(chess::Color::Black);
}

// A player's name as the screen shows it ("Engine · level 4 · ≈1550", "Random mover").
std::string MatchSession::displayName(const PlayerSpec& spec) const {
    switch (spec.kind) {
    case PlayerKind::Model: return spec.modelId;
    case PlayerKind::Engine: return env_.engineName ? env_.engineName(spec.level) : spec.text();
    case PlayerKind::Person: return "Person";
    case PlayerKind::Random: return "Random mover";
    case PlayerKind::Bot: break;
    }
    return spec.text();
}

std::string MatchSession::pgn() const {
    if (!runner_) return {};
    chess::PgnGame game = runner_->toPgn("CHAIBA match", 1);
    game.setTag("White", displayName(setup_.white));
    game.setTag("Black", displayName(setup_.black));
    if (!date_.empty()) game.setTag("Date", date_);
    return chess::writePgn(game);
}

std::string MatchSession::saveJson() const {
    if (!runner_) return {};
    json moves = json::array();
    for (const chessmode::MoveRecord& r : runner_->moves()) {
        moves.push_back({{"ply", r.ply},
                         {"uci", r.uci},
                         {"san", r.san},
                         {"player", r.playerId},
                         {"reasoning", r.reasoning},
                         {"attempts", r.attempts},
                         {"costUsd", r.costUsd},
                         {"promptTokens", r.usage.promptTokens},
                         {"completionTokens", r.usage.completionTokens},
                         {"cachedTokens", r.usage.cachedTokens},
                         {"reasoningTokens", r.usage.reasoningTokens},
                         {"drawOffer", r.offeredDraw}});
    }
    const chess::Position& start = runner_->game().startPosition();
    json doc = {{"version", kSaveVersion},
                {"white", setup_.white.text()},
                {"black", setup_.black.text()},
                {"mode", modeName(setup_.mode)},
                {"chess960Number", setup_.chess960Number},
                {"whiteInstructions", setup_.whiteInstructions},
                {"blackInstructions", setup_.blackInstructions},
                {"startFen", start.fen()},
                {"chess960", start.isChess960()},
                {"seed", seed_},
                {"date", date_},
                {"moves", moves},
                {"drawOffer", runner_->drawOfferBy() ? json(runner_->drawOfferBy() == chess::Color::White ? "white" : "black")
                                                     : json(nullptr)},
                {"result", runner_->result()},
                {"termination", runner_->termination()}};
    return doc.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<std::string> MatchSession::restore(std::string_view text, const chessmode::ChessPlaySettings& settings) {
    const json doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return std::string("the saved game is not readable JSON");
    long long version = 0;
    if (!getInt(doc, "version", version) || version != kSaveVersion)
        return std::string("the saved game is from an unknown version");
    auto damaged = [](const char* field) { return std::string("the saved game is damaged (") + field + ")"; };
    GameSetup setup;
    std::string text2;
    if (!getString(doc, "white", text2)) return damaged("white");
    play::Parsed<PlayerSpec> w = parsePlayerSpec(text2, env_.maxEngineLevel);
    if (!w.ok()) return damaged("white");
    if (!getString(doc, "black", text2)) return damaged("black");
    play::Parsed<PlayerSpec> b = parsePlayerSpec(text2, env_.maxEngineLevel);
    if (!b.ok()) return damaged("black");
    setup.white = *w.value;
    setup.black = *b.value;
    if (!getString(doc, "mode", text2) || !modeFromName(text2)) return damaged("mode");
    setup.mode = *modeFromName(text2);
    long long n = 0;
    if (getInt(doc, "chess960Number", n)) setup.chess960Number = static_cast<int>(n);
    getString(doc, "whiteInstructions", setup.whiteInstructions);
    getString(doc, "blackInstructions", setup.blackInstructions);
    std::string startFen;
    if (!getString(doc, "startFen", startFen)) return damaged("startFen");
    const bool chess960 = doc.contains("chess960") && doc["chess960"].is_boolean() && doc["chess960"].get<bool>();
    chess::FenResult start = chess::Position::fromFen(startFen, chess960);
    if (!start.ok()) return damaged("startFen");
    long long seed = 1;
    getInt(doc, "seed", seed);
    if (!doc.contains("moves") || !doc["moves"].is_array()) return damaged("moves");

    std::vector<chessmode::MoveRecord> records;
    chess::Position pos = *start.position;
    for (const json& m : doc["moves"]) {
        chessmode::MoveRecord r;
        long long ply = 0;
        if (!getInt(m, "ply", ply)) return damaged("moves.ply");
        r.ply = static_cast<int>(ply);
        getString(m, "player", r.playerId);
        getString(m, "reasoning", r.reasoning);
        long long attempts = 1;
        getInt(m, "attempts", attempts);
        r.attempts = static_cast<int>(attempts);
        r.costUsd = getNumberOr(m, "costUsd", 0);
        r.usage.promptTokens = static_cast<long long>(getNumberOr(m, "promptTokens", 0));
        r.usage.completionTokens = static_cast<long long>(getNumberOr(m, "completionTokens", 0));
        r.usage.cachedTokens = static_cast<long long>(getNumberOr(m, "cachedTokens", 0));
        r.usage.reasoningTokens = static_cast<long long>(getNumberOr(m, "reasoningTokens", 0));
        r.usage.totalTokens = r.usage.promptTokens + r.usage.completionTokens;
        r.offeredDraw = m.is_object() && m.contains("drawOffer") && m["drawOffer"].is_boolean() && m["drawOffer"].get<bool>();
        if (r.ply >= 0) {
            std::string uci;
            if (!getString(m, "uci", uci)) return damaged("moves.uci");
            chess::MoveResult parsed = chess::parseUci(pos, uci);
            if (!parsed.ok()) return "the saved game has an illegal move at ply " + std::to_string(r.ply + 1) + ": " + uci;
            r.move = parsed.move;
            r.uci = uci;
            r.san = chess::toSan(pos, r.move);
            pos.makeMove(r.move);
        }
        records.push_back(r);
    }

    ValidatedStart validated;
    validated.start = *start.position;
    if (auto error = build(setup, settings, static_cast<uint64_t>(seed), validated)) return error;
    if (auto error = runner_->restore(records)) return error;
    std::string date; // saved since the PGN got a Date; older saves: unknown ("????.??.??")
    date_ = getString(doc, "date", date) ? date : std::string();
    autoPlay_ = false;
    runner_->setHold(true);
    runner_->start();
    std::string result, termination;
    getString(doc, "result", result);
    getString(doc, "termination", termination);
    // A game that ended outside the rules (resignation, forfeit, agreement) ends the same way
    // again; an API error is not kept: the game comes back paused, ready to continue.
    if (!runner_->finished() && (result == "1-0" || result == "0-1" || result == "1/2-1/2"))
        runner_->endAs(result, termination);
    // An open draw offer is open again (told anew in the rebuilt conversation).
    std::string offer;
    if (!runner_->finished() && getString(doc, "drawOffer", offer) && (offer == "white" || offer == "black"))
        runner_->offerDraw(offer == "white" ? chess::Color::White : chess::Color::Black);
    lastDrawOffer_ = runner_->drawOfferBy();
    lastMoveCount_ = runner_->moves().size();
    lastState_ = runner_->state();
    ++revision_;
    return std::nullopt;
}

} // namespace chaiba

namespace chaiba {

std::optional<std::string> MatchSession::restoreForReview(std::string_view text, const chessmode::ChessPlaySettings& settings) {
    reviewOnly_ = true;
    return restore(text, settings);
}

std::string MatchSession::gameKey() const {
    if (!runner_) return {};
    return date_ + "#" + std::to_string(seed_);
}

std::string MatchSession::playerName(chess::Color side) const {
    return displayName(side == chess::Color::White ? setup_.white : setup_.black);
}

std::string MatchSession::ending() const {
    if (!runner_ || !runner_->decided()) return {};
    switch (runner_->end()) {
    case chessmode::MatchEnd::Rules:
        switch (runner_->game().status()) {
        case chess::GameStatus::Checkmate: return "checkmate";
        case chess::GameStatus::Stalemate: return "stalemate";
        case chess::GameStatus::InsufficientMaterial: return "insufficient_material";
        case chess::GameStatus::FiftyMoveClaimable: return "fifty_move";
        case chess::GameStatus::SeventyFiveMove: return "seventy_five_move";
        case chess::GameStatus::ThreefoldClaimable: return "threefold_repetition";
        case chess::GameStatus::FivefoldRepetition: return "fivefold_repetition";
        case chess::GameStatus::Ongoing: break;
        }
        return "other";
    case chessmode::MatchEnd::MoveLimit: return "move_limit";
    case chessmode::MatchEnd::Agreement: return "agreement";
    case chessmode::MatchEnd::Resignation: return "resignation";
    case chessmode::MatchEnd::Forfeit: return "forfeit";
    case chessmode::MatchEnd::Decided: {
        // A game restored from a save ended as its text says (the save keeps the text only).
        const std::string t = runner_->termination();
        if (t.find("resigns") != std::string::npos) return "resignation";
        if (t.find("agreed") != std::string::npos) return "agreement";
        if (t.find("forfeit") != std::string::npos) return "forfeit";
        if (t.find("adjudicated") != std::string::npos) return "move_limit";
        return "other";
    }
    case chessmode::MatchEnd::None:
    case chessmode::MatchEnd::Error:
    case chessmode::MatchEnd::Aborted: break;
    }
    return {};
}

} // namespace chaiba
