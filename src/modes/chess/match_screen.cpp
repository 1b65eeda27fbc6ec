// The match screen's lifecycle: the default game, restore and autosave, starting games, the tick,
// and the automation API (state and commands). The drawing is in match_view.cpp.
#include "src/modes/chess/match_screen.h"

#include "src/modes/chess/chess_agent.h"
#include "src/modes/chess/players.h"
#include "src/modes/chess/ui/board_style.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace chaiba {

using nlohmann::json;

namespace {

constexpr const char* kGameStoreKey = "chaiba.game";

} // namespace

MatchScreen::MatchScreen(const ui::ScreenContext& context, ChessServices services, const ChessAssets& assets,
                         const chessmode::ChessPlaySettings& settings)
    : context_(context), services_(std::move(services)), assets_(assets), settings_(settings),
      history_(services_.arenaStore ? services_.arenaStore : services_.store) {
    history_.load();
    if (!history_.problems().empty()) {
        historyNotice_.clear();
        for (const std::string& p : history_.problems()) historyNotice_ += (historyNotice_.empty() ? "" : "\n") + p;
    }
    session_ = std::make_unique<MatchSession>(sessionEnvironment());
    if (services_.makeScorer) analyser_.setScorer(services_.makeScorer()); // the page: an engine worker
    haveKey_ = !settings_.apiKey.empty();
    lastSetup_ = defaultSetup(haveKey_);
    if (auto saved = services_.store->get(kGameStoreKey)) {
        if (auto error = session_->restore(*saved, settings_)) {
            services_.store->set(std::string(kGameStoreKey) + ".corrupt", *saved);
            gameError_ = "The saved game could not be restored (" + *error + "); it was kept aside.";
            session_ = std::make_unique<MatchSession>(sessionEnvironment());
        } else {
            lastSetup_ = session_->setup();
            savedRevision_ = session_->revision();
            facePerson();
            recordFinishedGame(); // a finished game kept for resume before the history existed
        }
    }
}

MatchScreen::~MatchScreen() = default;

// The default game: engines when there is no key (one click shows a live game), else two models
// from the person's list (or the shipped one).
GameSetup MatchScreen::defaultSetup(bool haveKey) const {
    GameSetup setup;
    if (!haveKey) {
        setup.white = PlayerSpec{PlayerKind::Engine, "", std::min(4, services_.maxEngineLevel)};
        setup.black = PlayerSpec{PlayerKind::Engine, "", std::min(2, services_.maxEngineLevel)};
    } else {
        static const std::vector<std::string> fallback{"openai/gpt-4o"};
        const auto& list = context_.models().empty() ? fallback : context_.models();
        setup.white = PlayerSpec{PlayerKind::Model, list[0], 0};
        setup.black = PlayerSpec{PlayerKind::Model, list.size() > 1 ? list[1] : list[0], 0};
    }
    return setup;
}

// A key saved or forgotten in Settings changes what Start match plays at once, unless the person
// chose the players: the next game follows the default only while it still is the default.
void MatchScreen::followKeyDefaults() {
    const bool haveKey = !settings_.apiKey.empty();
    if (haveKey == haveKey_) return;
    const GameSetup before = defaultSetup(haveKey_);
    haveKey_ = haveKey;
    if (lastSetup_.mode == StartMode::Standard && lastSetup_.white.text() == before.white.text() &&
        lastSetup_.black.text() == before.black.text() && lastSetup_.whiteInstructions.empty() &&
        lastSetup_.blackInstructions.empty())
        lastSetup_ = defaultSetup(haveKey);
}

SessionEnvironment MatchScreen::sessionEnvironment() {
    SessionEnvironment env;
    env.chat = context_.chat;
    env.prompts = assets_.promptsError.empty() ? &assets_.prompts : nullptr;
    env.makeEngine = services_.makeEngine;
    env.engineName = services_.engineName;
    env.maxEngineLevel = services_.maxEngineLevel;
    env.supportsTools = [this](const std::string& model) {
        if (auto info = context_.modelInfo(model)) return info->supportsTools;
        return true;  // unknown (a local server): try tools; the agent falls back on prose answers
    };
    return env;
}

std::optional<std::string> MatchScreen::startGame(const GameSetup& setup) {
    // Check what can fail before the current game is dropped.
    ValidatedStart check = validateStart(setup, 1);
    if (!check.start) return check.error;
    const bool wantsLlm = setup.white.kind == PlayerKind::Model || setup.black.kind == PlayerKind::Model;
    if (wantsLlm && settings_.apiKey.empty()) return std::string("language models need an OpenRouter API key: add one in Settings");
    if (wantsLlm && !assets_.promptsError.empty()) return assets_.promptsError;
    if (session_ && session_->runner()) sessionCostUsd_ += session_->totalCostUsd();
    session_.reset();
    session_ = std::make_unique<MatchSession>(sessionEnvironment());
    const uint64_t seed = static_cast<uint64_t>(context_.platform->nowMs() * 1000.0) ^ 0x9E3779B97F4A7C15ull;
    if (auto error = session_->newGame(setup, settings_, seed)) return error;
    lastSetup_ = setup;
    navigator_.goLive();
    board_.clearSelection();
    facePerson();
    animatedMoves_ = session_->runner() ? session_->runner()->moves().size() : 0;
    gameError_.clear();
    autosaveGame();
    return std::nullopt;
}

// The person playing one side sees the board from that side.
void MatchScreen::facePerson() {
    if (const auto person = session_->soleHuman()) board_.flipped = *person == chess::Color::Black;
}

void MatchScreen::autosaveGame() {
    if (!session_ || !session_->runner()) return;
    if (session_->revision() == savedRevision_) return;
    savedRevision_ = session_->revision();
    if (auto error = services_.store->set(kGameStoreKey, session_->saveJson()))
        gameError_ = "The game could not be saved in this browser: " + *error;
}

void MatchScreen::tick(double) {
    commands_.run();
    followKeyDefaults();
    if (session_) session_->poll();
    analyseStep();
    autosaveGame();
    recordFinishedGame();
    if (services_.takeHistoryStorageError) {
        if (auto error = services_.takeHistoryStorageError())
            historyNotice_ = "Not saved in this browser: " + *error + ". The games stored before are kept.";
    }
}

void MatchScreen::analyseStep() {
    // A past game under review is scored by its own analyser (the live game's keeps its scores).
    if (review_ && reviewAnalyser_ && review_->runner()) {
        reviewAnalyser_->follow(review_->runner()->game());
        reviewAnalyser_->step();
    }
    const chessmode::MatchRunner* r = session_ ? session_->runner() : nullptr;
    if (!r) return;
    analyser_.follow(r->game());
    // The page scores in an engine worker (the services' scorer), so the main thread never
    // searches; without one (native), one node-capped search per tick.
    analyser_.step();
}

// A new score changes the screen too (the last one ends the continuous frames: without it in
// the counter the finished analysis was never drawn, and the bar stayed grey).
uint64_t MatchScreen::changeCounter() const {
    return (session_ ? session_->revision() : 0) * 65536 + uint64_t(analyser_.scoredPositions()) +
           history_.revision() * 7919 + uint64_t(reviewAnalyser_ ? reviewAnalyser_->scoredPositions() : 0) * 31 +
           uint64_t(reviewId_ + 1) * 104729;
}

bool MatchScreen::wantsContinuousFrames() const {
    if (board_.busy(context_.platform->nowMs())) return true;
    if (context_.platform->nowMs() < copied_.second + 100) return true; // the "copied" note goes away
    if (session_ && session_->runner() && !analyser_.complete() && analyser_.error().empty())
        return true; // analysis under way
    if (review_ && reviewAnalyser_ && !reviewAnalyser_->complete() && reviewAnalyser_->error().empty()) return true;
    return session_ && session_->runner() && session_->runner()->thinking();
}

// While the screen only waits (a player thinks, the analysis runs) it redraws ten times a second:
// the thinking line's dots move every 350 ms and its clock every second, and a streamed answer
// grows in tenths of a second. A move just played (its slide starts at the next frame), a slide, a
// drag or an arrow keep the browser's rate (input does anyway, for half a second). On a machine
// without a GPU each frame is drawn by the software renderer on the cores the engine's worker
// needs: at the full rate the worker got half a core.
double MatchScreen::contentFrameIntervalMs() const {
    const MatchSession* shown = shownSession();
    const chessmode::MatchRunner* r = shown ? shown->runner() : nullptr;
    const bool moveToSlide = !review_ && r && r->game().moves().size() != animatedMoves_;
    return moveToSlide || board_.busy(context_.platform->nowMs()) ? 0.0 : 100.0;
}

double MatchScreen::spentUsd() const { return sessionCostUsd_ + (session_ ? session_->totalCostUsd() : 0); }

void MatchScreen::drawWindows() {
    if (newGame_.takeRefreshRequest()) context_.refreshCatalog();
    if (auto setup = newGame_.DrawWindow(*context_.fonts, newGameContext(context_, services_))) {
        commands_.post([this, chosen = *setup] {
            if (auto error = startGame(chosen)) newGame_.error = *error;
            else newGame_.open = false;
        });
    }
    drawInstructionsEditor();
    drawDebugWindows();
    drawDeleteConfirm();
}

void MatchScreen::start() {
    if (session_ && session_->phase() == SessionPhase::Stopped) {
        session_->retry();  // the same side is asked again (with the key and URL set now)
        return;
    }
    if (!session_ || !session_->runner() || session_->phase() == SessionPhase::Finished) {
        // Rematch: the players of the game just played, colours swapped (a fresh page: the default),
        // with the instructions as last edited (the editor writes lastSetup_).
        GameSetup next = lastSetup_;
        if (session_ && session_->runner()) {
            next = session_->rematchSetup();
            next.whiteInstructions = lastSetup_.blackInstructions;
            next.blackInstructions = lastSetup_.whiteInstructions;
        }
        if (auto error = startGame(next)) gameError_ = *error;
        return;
    }
    session_->setAutoPlay(true);
}

void MatchScreen::pause() {
    if (session_) session_->setAutoPlay(false);
}

// ---- automation API ---------------------------------------------------------------------

std::string MatchScreen::stateJson() const {
    json doc = json::object();
    doc["flipped"] = board_.flipped;
    // The board as last drawn: its square in device pixels, the size its piece images were made
    // at (0: glyphs), and the squares' light colour as [r, g, b].
    const ImU32 light = ui::boardColours().light;
    // Its annotations in the order drawn (arrows "e2e4 green", circles "d5 red"); the premove
    // "e2e4" or null.
    json shapes = json::array();
    for (const ui::BoardShape& s : board_.shapes())
        shapes.push_back(chess::squareName(s.from) + (s.from == s.to ? "" : chess::squareName(s.to)) + ' ' +
                         ui::brushName(s.brush));
    const auto premove = board_.premove();
    doc["board"] = {{"squarePx", board_.squarePx()},
                    {"pieceImagesPx", board_.pieceImagesPx()},
                    {"lightSquare", {(light >> IM_COL32_R_SHIFT) & 0xFF, (light >> IM_COL32_G_SHIFT) & 0xFF,
                                     (light >> IM_COL32_B_SHIFT) & 0xFF}},
                    {"shapes", shapes},
                    {"premove", premove ? json(chess::squareName(premove->first) + chess::squareName(premove->second))
                                        : json(nullptr)}};
    doc["viewPly"] = navigator_.isLive() ? nullptr : json(navigator_.viewPly()); // null: following the game
    doc["sessionCostUsd"] = spentUsd();
    doc["error"] = gameError_;
    doc["next"] = {{"white", lastSetup_.white.text()}, {"black", lastSetup_.black.text()}};
    doc["history"] = json::parse(historyStateJson(), nullptr, false);
    const chessmode::MatchRunner* r = session_ ? session_->runner() : nullptr;
    if (!r) {
        doc["status"] = "empty";
        doc["fen"] = chess::Position::startPosition().fen();
        doc["moves"] = json::array();
        return doc.dump(-1, ' ', false, json::error_handler_t::replace);
    }
    doc["fen"] = r->game().position().fen();
    doc["startFen"] = r->game().startPosition().fen();
    // The Chess960 position's number (0-959; 518 is the standard one), null in standard chess.
    const GameSetup& played = session_->setup();
    doc["chess960Number"] = played.mode == StartMode::Chess960 ? json(played.chess960Number) : json(nullptr);
    json moves = json::array();
    int retries = 0;
    for (const auto& m : r->moves()) {
        if (m.ply >= 0) moves.push_back(m.san);
        retries += std::max(0, m.attempts - 1);
    }
    doc["moves"] = moves;
    doc["attemptsBeyondFirst"] = retries;
    switch (session_->phase()) {
    case SessionPhase::Empty: doc["status"] = "empty"; break;
    case SessionPhase::Running: doc["status"] = "running"; break;
    case SessionPhase::Paused: doc["status"] = "paused"; break;
    case SessionPhase::Stopped: doc["status"] = "stopped"; break;
    case SessionPhase::Finished: doc["status"] = "finished"; break;
    }
    doc["thinking"] = r->thinking();
    doc["canTakeBack"] = !session_->takeBackRefusal();
    // The side whose draw offer is open ("white" / "black"), or null.
    if (const auto offer = session_->pendingDrawOffer())
        doc["drawOffer"] = *offer == chess::Color::White ? "white" : "black";
    else
        doc["drawOffer"] = nullptr;
    doc["result"] = r->result();
    doc["reason"] = r->termination();
    doc["white"] = session_->setup().white.text();
    doc["black"] = session_->setup().black.text();
    doc["costUsd"] = {{"white", r->costUsd(chess::Color::White)}, {"black", r->costUsd(chess::Color::Black)}};
    json errors = json::array();
    for (chess::Color side : {chess::Color::White, chess::Color::Black}) {
        chessmode::Player* p = const_cast<MatchSession&>(*session_).player(side);
        chessmode::ChessAgent* agent = p ? p->agent() : nullptr;
        if (!agent) continue;
        for (const auto& note : agent->notes()) errors.push_back((side == chess::Color::White ? "white: " : "black: ") + note);
    }
    doc["notes"] = errors;
    // Move quality: {scored, total, complete, accuracy {white, black}, acpl, marks [per ply: "", "?!", "?", "??"], evals}
    const search::GameAnalysis& a = analyser_.analysis();
    json marks = json::array(), evals = json::array();
    for (const auto& q : a.moves) marks.push_back(search::judgementSymbol(q.judgement));
    for (const auto& e : a.positions) evals.push_back(search::clampedCp(e));
    doc["analysis"] = {{"scored", analyser_.scoredPositions()},
                       {"total", analyser_.totalPositions()},
                       {"complete", analyser_.complete()},
                       {"error", analyser_.error()},
                       {"accuracy", {{"white", a.sides[0].accuracy}, {"black", a.sides[1].accuracy}}},
                       {"acpl", {{"white", a.sides[0].averageCpLoss}, {"black", a.sides[1].averageCpLoss}}},
                       {"marks", marks},
                       {"evalsCp", evals}};
    return doc.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<std::string> MatchScreen::newMatch(std::string_view argumentJson) {
    const json args = argumentJson.empty() ? json::object() : json::parse(argumentJson, nullptr, false); // none: the defaults
    if (args.is_discarded() || !args.is_object()) return std::string("newMatch takes an object {white, black, chess960, fen}");
    auto text = [&](const char* key, const char* fallback) -> std::optional<std::string> {
        if (!args.contains(key) || args[key].is_null()) return std::string(fallback);
        if (!args[key].is_string()) return std::nullopt;
        return args[key].get<std::string>();
    };
    const std::optional<std::string> white = text("white", "engine:4"), black = text("black", "engine:2"),
                                     fen = text("fen", "");
    if (!white || !black || !fen) return std::string("newMatch: white, black and fen are text");
    const bool chess960 = args.contains("chess960") && args["chess960"].is_boolean() && args["chess960"].get<bool>();
    auto w = parsePlayerSpec(*white, services_.maxEngineLevel);
    if (!w.ok()) return "white: " + w.error;
    auto b = parsePlayerSpec(*black, services_.maxEngineLevel);
    if (!b.ok()) return "black: " + b.error;
    GameSetup setup;
    setup.white = *w.value;
    setup.black = *b.value;
    if (!fen->empty()) {
        setup.mode = StartMode::Fen;
        setup.fen = *fen;
    } else if (chess960) {
        setup.mode = StartMode::Chess960;
        setup.chess960Number = -1;
    }
    return startGame(setup);
}

std::optional<std::string> MatchScreen::command(std::string_view name, std::string_view argumentJson,
                                                std::string* resultJson) {
    if (name == "newMatch") return newMatch(argumentJson);
    if (name == "start") {
        start();
        return std::nullopt;
    }
    if (name == "pause") {
        pause();
        return std::nullopt;
    }
    if (name.substr(0, 7) == "history") return historyCommand(name, argumentJson, resultJson);
    if (name == "pgn") {
        if (resultJson) *resultJson = json(session_ ? session_->pgn() : std::string()).dump(-1, ' ', false, json::error_handler_t::replace);
        return std::nullopt;
    }
    return "unknown match command '" + std::string(name) + "'";
}

std::vector<ui::CommandInfo> MatchScreen::commands() const {
    return {{"newMatch"}, {"start"}, {"pause"}, {"pgn"}, {"history"}, {"historyFilter"}, {"historyReview"},
            {"historyBack"}, {"historyDelete"}, {"historyPgn"}};
}

} // namespace chaiba
