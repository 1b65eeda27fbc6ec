// The arena screen's lifecycle and its part of the automation API (window.chaiba.arena): the
// same paths as the buttons, for the browser tests and for people who script the page.
#include "src/modes/chess/arena_screen.h"

#include "src/modes/chess/bundle.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#include <cstdlib>

namespace chaiba {

using nlohmann::json;

ArenaScreen::ArenaScreen(const ui::ScreenContext& context, ChessServices services, const ChessAssets& assets,
                         const chessmode::ChessPlaySettings& settings)
    : context_(context), services_(std::move(services)), assets_(assets), settings_(settings) {
    // The default field, then whatever tournament this browser kept.
    arena_ = std::make_unique<ArenaSession>(arenaEnvironment());
    haveKey_ = !settings_.apiKey.empty();
    arena_->draft() = ArenaSession::defaultDraft(context_.models(), haveKey_, services_.maxEngineLevel);
    arena_->load(settings_, context_.platform ? context_.platform->nowMs() : 0.0);
}

ArenaScreen::~ArenaScreen() = default;

ArenaEnvironment ArenaScreen::arenaEnvironment() {
    ArenaEnvironment e;
    e.store = services_.arenaStore ? services_.arenaStore : services_.store;
    e.chat = context_.chat;
    e.prompts = assets_.promptsError.empty() ? &assets_.prompts : nullptr;
    e.makeEngine = services_.makeEngine;
    e.makeScorer = services_.makeScorer;
    e.makeBootstrapRunner = services_.makeBootstrapRunner;
    e.analysisShareWhileRunning = services_.analysisShareWhileRunning;
    e.engineName = services_.engineName;
    e.engineRating = services_.engineRating;
    e.maxEngineLevel = services_.maxEngineLevel;
    e.modelInfo = [this](const std::string& id) { return context_.modelInfo(id); };
    e.apiKey = [this] { return settings_.apiKey; };
    return e;
}

// A key saved or forgotten in Settings switches the setup between the model field and the engine
// ladder at once, while the draft is still the default one (a field the person edited stays).
void ArenaScreen::followKeyDefaults() {
    const bool haveKey = !settings_.apiKey.empty();
    if (haveKey == haveKey_) return;
    const chessmode::TournamentConfig before = ArenaSession::defaultDraft(context_.models(), haveKey_, services_.maxEngineLevel);
    haveKey_ = haveKey;
    if (arena_->hasTournament()) return;
    const chessmode::Parsed<std::string> draftText = chessmode::configJson(arena_->draft());
    const chessmode::Parsed<std::string> beforeText = chessmode::configJson(before);
    if (!draftText.ok() || !beforeText.ok() || *draftText.value != *beforeText.value) return;
    arena_->draft() = ArenaSession::defaultDraft(context_.models(), haveKey, services_.maxEngineLevel);
    arena_->saveDraft();
}

void ArenaScreen::tick(double nowMs) {
    followKeyDefaults();
    arena_->setChat(context_.chat); // a key typed in Settings reaches new arena players
    arena_->poll(nowMs);
    followReview();
    if (services_.takeStorageError) {
        if (auto error = services_.takeStorageError()) arenaNotice_ = "Not saved in this browser: " + *error;
    }
}

bool ArenaScreen::wantsContinuousFrames() const { return arena_->busy() || arena_->analysing() || reviewing(); }

// A new score of the review changes the screen too (its last one ends the continuous frames).
uint64_t ArenaScreen::changeCounter() const {
    return arena_->revision() * 65536 + uint64_t(review_ ? review_->scoredPositions() : 0);
}

// What this page paid (ArenaSession::sessionSpentUsd): over Reset and Import, never an imported or
// reloaded tournament's recorded costs, which stay that tournament's figure (the arena's "spent").
double ArenaScreen::spentUsd() const { return arena_->sessionSpentUsd(); }

void ArenaScreen::exportTournament(std::function<void(chessmode::Parsed<std::string>)> done) const {
    arena_->exportLater(false, std::move(done));
}

std::optional<std::string> ArenaScreen::openTournament(std::string_view bundle) {
    if (tournamentProgress().busy()) return std::string("the arena is busy with a tournament: stop it first");
    return importBundle(bundle);
}

std::optional<std::string> ArenaScreen::importBundle(std::string_view text) { return arena_->importJson(text); }

void ArenaScreen::drawWindows() {
    drawResetConfirm();
    drawImport();
}

std::string ArenaScreen::stateJson() const {
    const ArenaSession& a = *arena_;
    json doc = json::object();
    doc["screen"] = std::string(context_.shownScreen());
    doc["phase"] = std::string(play::hostedPhaseName(a.phase()));
    doc["gamesFinished"] = a.gamesFinished();
    doc["formatNote"] = formatNote_;
    json listed = json::array();
    for (int i : gamesListed()) listed.push_back(a.games()[size_t(i)].pairing.id);
    const auto ending = chessmode::parseTermination(gamesFilter_.ending); // -1: any
    doc["gamesList"] = {{"player", gamesFilter_.player}, {"result", gamesFilter_.result},
                        {"ending", gamesFilter_.ending.empty() || !ending ? -1 : int(*ending)}, {"ids", listed}};
    doc["totalGames"] = a.totalGames();
    doc["spentUsd"] = a.spentUsd();
    doc["sessionSpentUsd"] = spentUsd(); // the header's share: never an imported bundle's spend
    const chessmode::BudgetEstimate estimate = a.estimate(settings_);
    doc["estimate"] = {{"usd", estimate.totalUsd}, {"fromUsd", estimate.fromUsd}, {"upToUsd", estimate.upToUsd},
                       {"typicalPlies", estimate.typicalPlies}, {"longestPlies", estimate.longestPlies},
                       {"promptTokensPerMove", estimate.promptTokensPerMove},
                       {"measured", estimate.measured}, {"measuredBefore", estimate.measuredBefore},
                       {"tokenBudgetBounds", estimate.tokenBudgetBounds}};
    doc["ticks"] = a.ticks();
    doc["error"] = a.error();
    doc["notice"] = arenaNotice_;
    doc["selectedGame"] = arenaGame_;
    // The review of the game shown in full (game_analyser.h's analysisState), null without one.
    if (review_ && arenaGame_ >= 0 && reviewGameId_ == arenaGame_) {
        doc["review"] = chessmode::analysisState(*review_);
        doc["review"]["game"] = reviewGameId_;
        doc["review"]["viewPly"] = arenaNav_.viewPly();
    } else {
        doc["review"] = nullptr;
    }
    doc["excludeForfeits"] = a.excludeForfeits();
    if (auto matches = a.importedMatches()) doc["importedMatches"] = *matches;
    else doc["importedMatches"] = nullptr;
    const chessmode::TournamentConfig& config = a.hasTournament() ? a.config() : a.draft();
    chessmode::Parsed<std::string> configText = chessmode::configJson(config);
    doc["config"] = configText.ok() ? json::parse(*configText.value, nullptr, false) : json(nullptr);
    if (auto problem = a.checkDraft(); problem && !a.hasTournament()) doc["problem"] = *problem;
    json rows = json::array();
    for (const chessmode::LeaderboardRow& r : a.leaderboard().rows)
        rows.push_back({{"participant", r.participant}, {"name", a.participantName(r.participant)}, {"rank", r.rank},
                        {"rating", r.rating}, {"low", r.ratingLow}, {"high", r.ratingHigh}, {"anchored", r.anchored},
                        {"elo", r.elo}, {"games", r.games}, {"wins", r.wins}, {"draws", r.draws},
                        {"losses", r.losses}, {"forfeits", r.forfeits}, {"illegalPer100", r.illegalPer100Moves},
                        {"costUsd", r.costUsd}, {"avgTokensPerMove", r.avgTokensPerMove},
                        {"analysedMoves", r.analysedMoves}, {"avgCpLoss", r.avgCpLoss}, {"blunders", r.blunders},
                        {"blundersPer100Moves", r.blundersPer100Moves}, {"contextPolicy", r.contextPolicy},
                        {"gamesToPlusMinus50", r.gamesToPlusMinus50}});
    doc["leaderboard"] = rows;
    doc["gamesRated"] = a.leaderboard().gamesRated;
    doc["ratingsRefining"] = a.ratingsRefining(); // intervals still being refined after a game end
    {
        const ArenaSession::BootstrapStats& b = a.bootstrapStats();
        doc["ratingsWorker"] = {{"sent", b.sent}, {"adopted", b.adopted}, {"error", b.error}};
    }
    doc["catalog"] = std::string(context_.catalogState()); // which models take tools: known once "ready"
    doc["analysis"] = {{"waiting", a.gamesAwaitingAnalysis()},
                       {"share", a.analysisShare()},
                       {"game", a.analysis().currentGame()},
                       {"scoredPositions", a.analysis().scoredPositions()},
                       {"error", a.analysis().error()}};
    json games = json::array();
    for (const chessmode::GameRecord& g : a.games()) {
        json entry = {{"id", g.pairing.id}, {"white", g.pairing.white}, {"black", g.pairing.black},
                      {"result", std::string(chessmode::resultText(g.result))},
                      {"termination", std::string(chessmode::terminationName(g.termination))}, {"detail", g.detail},
                      {"plies", g.plies()}, {"folded", g.isFolded()}};
        if (g.isFolded()) {
            // Held folded (its moves are in the store, read back for the game view and the export): its sums.
            entry["illegalAttempts"] = g.folded->illegalAttempts[0] + g.folded->illegalAttempts[1];
            entry["analysed"] = g.folded->analysed;
        } else {
            json moves = json::array();
            json judgements = json::array(); // per move: 0 good .. 3 blunder, null until analysed
            int illegal = 0;
            for (const auto& t : g.moves) {
                moves.push_back(t.uci);
                illegal += t.illegalAttempts;
                judgements.push_back(t.cpLoss >= 0 ? json(t.judgement) : json());
            }
            if (g.openTurn) illegal += g.openTurn->illegalAttempts;
            entry["startFen"] = g.startFen;
            entry["moves"] = moves;
            entry["illegalAttempts"] = illegal;
            entry["judgements"] = judgements;
            entry["analysed"] = g.analysed();
        }
        games.push_back(std::move(entry));
    }
    doc["games"] = games;
    doc["foldedGames"] = a.foldedGames();
    json live = json::array();
    if (const chessmode::TournamentRunner* r = a.runner())
        for (const auto& g : r->liveGames())
            live.push_back({{"id", g->pairing.id}, {"plies", g->match->moves().size()},
                            {"thinking", g->match->thinking()}, {"fen", g->match->game().position().fen()}});
    doc["live"] = live;
    json slots = json::array();
    for (const ArenaSlot& s : a.slots()) slots.push_back({{"game", s.gameId}, {"live", s.live}});
    doc["slots"] = slots;
    return doc.dump(-1, ' ', false, json::error_handler_t::replace);
}


std::optional<std::string> ArenaScreen::configure(std::string_view configText) {
    if (arena_->hasTournament()) return std::string("a tournament is set up: reset it before changing the setup");
    chessmode::Parsed<chessmode::TournamentConfig> config = chessmode::parseConfigJson(configText);
    if (!config.ok()) return config.error;
    arena_->draft() = *config.value;
    arena_->saveDraft();
    return std::nullopt;
}

void ArenaScreen::resetArena() {
    arena_->reset(); // the session's spend and the measured costs stay
    arenaReplays_.clear();
    arenaGame_ = -1;
}

play::TournamentProgress ArenaScreen::tournamentProgress() const {
    const ArenaSession& a = *arena_;
    play::TournamentProgress p;
    p.phase = a.phase();
    p.finished = a.gamesFinished();
    p.total = a.totalGames();
    p.error = a.error();
    p.notice = arenaNotice_;
    p.spentUsd = a.spentUsd();
    if (p.phase != play::HostedPhase::Finished || !a.hasTournament()) return p;
    // The ranking: the leaderboard's rows by rank, each row's participant as its seat spec.
    // (Rows are in rank order; equal ratings share a rank and keep the participants' order.)
    const std::vector<chessmode::Participant>& participants = a.config().participants;
    for (const chessmode::LeaderboardRow& r : a.leaderboard().rows)
        if (r.participant >= 0 && size_t(r.participant) < participants.size()) {
            const std::string& spec = participants[size_t(r.participant)].spec;
            p.ranking.push_back(spec);
            p.standings.push_back({spec, r.rating, r.games, r.wins + r.draws * 0.5});
        }
    p.tieRule = "by the Bradley-Terry rating; equal ratings keep the order the players were listed in";
    return p;
}

std::optional<std::string> ArenaScreen::startTournament(const chessmode::TournamentConfig& config) {
    if (tournamentProgress().busy())
        return "the arena is busy with a tournament (" + std::string(play::hostedPhaseName(tournamentProgress().phase)) +
               "): finish or reset it first";
    if (arena_->hasTournament()) resetArena();
    if (auto bad = chessmode::validateConfig(config)) return "the arena refused the setup: " + *bad;
    arena_->draft() = config;
    arena_->saveDraft();
    if (auto bad = arena_->start(settings_, context_.platform->nowMs())) return "the arena did not start: " + *bad;
    return std::nullopt;
}

void ArenaScreen::stopTournament() {
    if (arena_->runner()) arena_->stop(false);
}

std::optional<std::string> ArenaScreen::command(std::string_view name, std::string_view argumentJson,
                                                std::string* resultJson) {
    const double now = context_.platform->nowMs();
    // Commands whose argument is a document take its JSON text (an object, or a string holding
    // it; the importer and the config reader report their own errors); the others one JSON value.
    if (name == "configure") return configure(ui::documentArgument(argumentJson));
    if (name == "importJson") return importBundle(ui::documentArgument(argumentJson));
    const json argument = argumentJson.empty() ? json() : json::parse(argumentJson, nullptr, false);
    if (argument.is_discarded()) return "arena " + std::string(name) + ": the argument is not JSON";
    if (name == "start") return arena_->start(settings_, now);
    if (name == "stop" || name == "finish") {
        if (!arena_->runner()) return std::string("the tournament is not running");
        arena_->stop(name == "finish");
        return std::nullopt;
    }
    if (name == "resume") return arena_->resume(settings_, now);
    if (name == "reset") {
        resetArena();
        return std::nullopt;
    }
    if (name == "excludeForfeits") {
        if (!argument.is_boolean()) return std::string("excludeForfeits takes true or false");
        arena_->setExcludeForfeits(argument.get<bool>());
        return std::nullopt;
    }
    if (name == "select") {
        const int id = argument.is_number_integer() ? argument.get<int>() : -1;
        if (!argument.is_null() && !argument.is_number_integer()) return std::string("select takes a game id or null");
        if (id >= 0 && !arena_->game(id)) return "no game " + std::to_string(id);
        arenaGame_ = id;
        arenaNav_ = MoveNavigator();
        arenaTab_ = 0;
        arenaTabRequested_ = true;
        return std::nullopt;
    }
    if (name == "game") {
        // One game whole (a folded one read back from the store), as the game view shows it.
        if (!argument.is_number_integer()) return std::string("game takes a game id");
        const int id = argument.get<int>();
        const chessmode::GameRecord* g = arena_->game(id);
        if (!g) return "no game " + std::to_string(id);
        if (g->isFolded() && arena_->reading(id)) { // read back from the store: ask again
            if (resultJson) *resultJson = json({{"pending", true}}).dump();
            return std::nullopt;
        }
        if (g->isFolded()) return "the moves of game " + std::to_string(id + 1) + " could not be read back: " + arena_->readError(id);
        json moves = json::array();
        for (const auto& t : g->moves) moves.push_back(t.uci);
        bool heldFolded = false;
        for (const chessmode::GameRecord& listed : arena_->games())
            if (listed.pairing.id == id) heldFolded = listed.isFolded();
        const json out = {{"id", id}, {"startFen", g->startFen}, {"moves", moves},
                          {"result", std::string(chessmode::resultText(g->result))}, {"heldFolded", heldFolded}};
        if (resultJson) *resultJson = out.dump(-1, ' ', false, json::error_handler_t::replace);
        return std::nullopt;
    }
    if (name == "tab") {
        const std::string tab = argument.is_string() ? argument.get<std::string>() : std::string();
        if (tab != "games" && tab != "leaderboard") return std::string("tab takes 'games' or 'leaderboard'");
        arenaTab_ = tab == "games" ? 0 : 1;
        arenaTabRequested_ = true;
        return std::nullopt;
    }
    if (name == "exportJson" || name == "exportPgn") {
        const std::string what = name == "exportPgn" ? "pgn" : "json";
        // Folded games are read back first: {"pending": true} until the text is there (the page's
        // chaiba.arena.exportJson() asks again until then), then the text once.
        if (!apiExport_) {
            apiExport_ = std::make_shared<ApiExport>();
            apiExport_->pgn = what == "pgn";
            arena_->exportLater(apiExport_->pgn, [out = apiExport_](chessmode::Parsed<std::string> text) { out->text = std::move(text); });
        }
        if (apiExport_->pgn != (what == "pgn")) return std::string("another export is on its way");
        if (!apiExport_->text) {
            if (resultJson) *resultJson = json({{"pending", true}}).dump();
            return std::nullopt;
        }
        const chessmode::Parsed<std::string> out = std::move(*apiExport_->text);
        apiExport_.reset();
        if (!out.ok()) return out.error;
        if (resultJson) *resultJson = json(*out.value).dump(-1, ' ', false, json::error_handler_t::replace);
        return std::nullopt;
    }
    return "unknown arena command '" + std::string(name) + "'";
}

std::vector<ui::CommandInfo> ArenaScreen::commands() const {
    return {{"configure"}, {"start"},      {"stop"},       {"finish"},          {"resume"},
            {"reset"},     {"excludeForfeits"}, {"select"}, {"tab"},            {"game", true},
            {"importJson"}, {"exportJson", true}, {"exportPgn", true}};
}

} // namespace chaiba
