// The Werewolf Arena screen's lifecycle: the stored tournament at start-up (paused), start, pause,
// resume, stop, reset, keeping each finished game, and the automation API (state and commands).
// The drawing is in tournament_draw.cpp.
#include "src/modes/werewolf/ui/tournament_screen.h"

#include "src/modes/werewolf/game_export.h"
#include "src/ui/format.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace chaiba {

using nlohmann::json;
using namespace chaiba::werewolfmode;

namespace {
// A finished game's whole record (its replay), one key a game beside the arena's own layout.
std::string replayKey(int index) { return std::string(kArenaStorePrefix) + "replay.v1." + std::to_string(index); }
} // namespace

WerewolfArenaScreen::WerewolfArenaScreen(const ui::ScreenContext& context, KeyValueStore* store,
                                         const llm::AssetSource* assets,
                                         play::RatingRefiner::RunnerMaker makeBootstrapRunner)
    : context_(context), store_(store), session_({store, kCommitPatienceMs, std::move(makeBootstrapRunner)}),
      records_(store, session_.commits()) {
    for (play::BradleyTerryFit* shown : {&overallShown_, &byRoleShown_, &perRoleShown_}) // fits 0, 1 and 2
        session_.addRatings([this, shown](const play::BradleyTerryFit& fit, bool) {
            *shown = fit;
            rankRows();
        });
    if (assets) {
        llm::Result<WerewolfPrompts> p = loadWerewolfPrompts(*assets);
        if (p.isOk()) prompts_ = std::move(*p.value);
        else promptsError_ = "The Werewolf prompts did not load (" + p.error + "): models cannot play, bots can.";
    } else {
        promptsError_ = "No assets: models cannot play, bots can.";
    }
    draftForKey_ = context_.chat != nullptr;
    draft_ = *parseConfigJson(defaultDraftJson()).value;
    // The tournament this browser kept comes back paused (or as it ended).
    llm::Result<StoredArena> loaded = records_.load();
    session_.commits().clear(); // what was kept before this page (or converted from it) is committed
    if (loaded.isOk() && loaded.value) {
        stored_ = std::move(*loaded.value);
        draft_ = stored_.config;
        draftTouched_ = true;
        session_.setPhase(int(stored_.results.size()) >= stored_.config.games ? Phase::Finished
                          : stored_.stopped                                     ? Phase::Stopped
                                                                                : Phase::Paused);
        savedSpentUsd_ = stored_.spentUsd;
        if (session_.phase() == Phase::Paused)
            notice_ = "Paused after a reload: " + std::to_string(stored_.results.size()) + " of " +
                      std::to_string(stored_.config.games) + " games were kept. Resume plays the rest.";
        if (!stored_.converted.empty()) notice_ = stored_.converted + (notice_.empty() ? "" : " " + notice_);
        if (!stored_.dropped.empty()) {
            std::string list;
            for (const std::string& d : stored_.dropped) list += (list.empty() ? "" : "; ") + d;
            session_.setError(std::to_string(stored_.dropped.size()) + " kept game(s) could not be read " +
                              "back and count nowhere; Resume plays them again (" + list + ").");
        }
        refreshRows();
        readKeptRecords();
    } else if (!loaded.error.empty()) {
        storedDamaged_ = true;
        session_.setError("The kept Werewolf tournament cannot be read: " + loaded.error +
                          ". It is kept aside in this browser; a new tournament starts afresh.");
    }
}

WerewolfArenaScreen::~WerewolfArenaScreen() = default;

std::string WerewolfArenaScreen::defaultDraftJson() const {
    if (!context_.chat) return R"({"players":["bot*8"],"games":20,"concurrency":4,"seed":1})";
    json players = json::array();
    const std::vector<std::string>& models = context_.models();
    for (std::size_t i = 0; i < models.size() && i < 2; ++i) players.push_back("llm:" + models[i]);
    players.push_back("bot*" + std::to_string(8 - players.size()));
    return json{{"players", players}, {"games", 8}, {"concurrency", 2}, {"seed", 1}, {"budgetUsd", 1.0}}.dump();
}

double WerewolfArenaScreen::tournamentSpentUsd() const {
    return tournament_ ? tournament_->spentUsd() : stored_.spentUsd;
}

// The header's share: what this page spent (tournaments reset or replaced, and the current one's
// spend beyond what an imported bundle brought).
double WerewolfArenaScreen::spentUsd() const {
    return spentBeforeResetUsd_ + std::max(0.0, tournamentSpentUsd() - importedSpentUsd_);
}

void WerewolfArenaScreen::tick(double nowMs) {
    if (session_.phase() == Phase::Setup && !draftTouched_ && (context_.chat != nullptr) != draftForKey_) {
        draftForKey_ = context_.chat != nullptr;
        draft_ = *parseConfigJson(defaultDraftJson()).value;
        session_.changed();
    }
    // The intervals: a reply from the worker lands between ticks; without one, a slice here.
    session_.pollRatings(nowMs, 3.0);
    commitStored(nowMs);
    if (replayWanted_) { // a finished game clicked
        if (auto why = openGameReplay(*replayWanted_)) session_.setError(*why);
        replayWanted_.reset();
    }
    if (pickedImport_) { // a file chosen in the sidebar, imported between frames
        const std::string text = std::move(*pickedImport_);
        pickedImport_.reset();
        if (auto why = importArena(text)) session_.setError("Not imported: " + *why);
    }
    if (session_.phase() != Phase::Running || !tournament_) return;
    tournament_->poll(nowMs);
    session_.changed(); // games in progress move every tick
    stored_.spentUsd = tournament_->spentUsd();
    if (stored_.spentUsd != savedSpentUsd_ && nowMs - lastMetaSaveMs_ > 1000) {
        lastMetaSaveMs_ = nowMs;
        saveMeta();
    }
    if (tournament_->done() && unshown_.empty()) { // ended, and every game it reported is shown
        const bool all = playedCount() >= stored_.config.games;
        session_.setPhase(all ? Phase::Finished : Phase::Stopped);
        refreshRows(); // at rest: recounted in game order, the intervals whole (the CLI's rows exactly)
        if (!all && tournament_->budgetReached()) {
            notice_ = "The budget cap of " + formatCost(*stored_.config.budgetUsd) + " was reached: " +
                      std::to_string(playedCount()) + " of " + std::to_string(stored_.config.games) +
                      " games were played. Raise the cap in a new tournament to play more.";
            stored_.stopped = true;
        }
        saveMeta();
        tournament_.reset();
    }
}

std::optional<std::string> WerewolfArenaScreen::makeTournament() {
    if (auto why = validate(stored_.config)) return why;
    if (stored_.config.anyModel()) {
        if (!context_.chat) return std::string("A model seat needs an OpenRouter key: add one in Settings, or use bots only.");
        if (!prompts_) return promptsError_;
    }
    static const WerewolfPrompts none{};
    std::map<int, GameResult> played = stored_.results; // with those still on their way to the store
    for (const auto& [index, r] : unshown_) played[index] = r;
    tournament_ = std::make_unique<WerewolfTournament>(stored_.config, prompts_ ? *prompts_ : none, context_.chat,
                                                       *context_.catalog, std::move(played), stored_.spentUsd);
    tournament_->onFinished = [this](const GameResult& r, const GameSession& game) {
        keepRecord(r.index, exportGameJson(game, r, -1)); // its replay
        onGameFinished(r);
    };
    tournament_->start(context_.platform ? context_.platform->nowMs() : 0);
    return std::nullopt;
}

std::optional<std::string> WerewolfArenaScreen::start() {
    if (session_.underWay())
        return std::string("A tournament is under way: stop it or start a new one first.");
    if (auto why = validate(draft_)) return why;
    const TournamentConfig config = draft_;
    records_.clear();
    forgetRecords();
    storedDamaged_ = false;
    stored_ = StoredArena{};
    stored_.config = config;
    savedSpentUsd_ = 0;
    if (auto why = makeTournament()) {
        session_.setError(*why);
        return why;
    }
    session_.clearError();
    notice_.clear();
    session_.setPhase(Phase::Running);
    saveMeta();
    refreshRows();
    session_.changed();
    return std::nullopt;
}

std::optional<std::string> WerewolfArenaScreen::pause() {
    if (session_.phase() != Phase::Running) return std::string("nothing is running to pause");
    session_.setPhase(Phase::Paused); // nothing is polled; answers on the way wait for the resume
    refreshRows(); // at rest: recounted in game order, the intervals whole (the CLI's rows exactly)
    notice_ = "Paused. Resume continues the running games where they stand.";
    session_.changed();
    return std::nullopt;
}

bool WerewolfArenaScreen::budgetSpent() const {
    return stored_.config.budgetUsd && tournamentSpentUsd() >= *stored_.config.budgetUsd - play::BudgetTracker::kToleranceUsd;
}

std::optional<std::string> WerewolfArenaScreen::resume() {
    if (session_.phase() != Phase::Paused && session_.phase() != Phase::Stopped)
        return std::string("nothing is paused or stopped");
    if (!tournament_ && budgetSpent())
        return "the budget cap of " + formatCost(*stored_.config.budgetUsd) +
               " is reached: no game can start. Start a new tournament with a higher cap.";
    if (!tournament_) {
        stored_.stopped = false;
        if (auto why = makeTournament()) {
            session_.setError(*why);
            return why;
        }
    }
    session_.clearError();
    notice_.clear();
    session_.setPhase(Phase::Running);
    saveMeta();
    session_.changed();
    return std::nullopt;
}

std::optional<std::string> WerewolfArenaScreen::stop() {
    if (!session_.underWay()) return std::string("nothing is running to stop");
    if (tournament_) {
        const int before = playedCount();
        tournament_->stop();
        tournament_->poll(context_.platform ? context_.platform->nowMs() : 0);
        stored_.spentUsd = tournament_->spentUsd();
        tournament_.reset();
        notice_ = "Stopped: " + std::to_string(playedCount()) + " of " + std::to_string(stored_.config.games) +
                  " games played" + (playedCount() > before ? "" : "; the running games were not rated") +
                  ". Resume deals them again.";
    }
    stored_.stopped = true;
    session_.setPhase(playedCount() >= stored_.config.games ? Phase::Finished : Phase::Stopped);
    refreshRows(); // at rest: recounted in game order, the intervals whole (the CLI's rows exactly)
    saveMeta();
    session_.changed();
    return std::nullopt;
}

std::optional<std::string> WerewolfArenaScreen::setup(const TournamentConfig& config) {
    if (session_.underWay()) return std::string("a tournament is under way: stop it first");
    if (auto why = validate(config)) return why;
    if (session_.phase() != Phase::Setup) reset();
    draft_ = config;
    draftTouched_ = true;
    session_.changed();
    return std::nullopt;
}

play::TournamentProgress WerewolfArenaScreen::tournamentProgress() const {
    play::TournamentProgress p;
    p.phase = session_.phase();
    p.finished = int(stored_.results.size());
    p.total = shownConfig().games;
    p.error = session_.error();
    p.notice = notice_;
    p.spentUsd = tournamentSpentUsd();
    if (p.phase == play::HostedPhase::Finished) {
        for (const PlayerStanding& row : rows_) { // best first
            p.ranking.push_back(row.player);
            p.standings.push_back({row.player, row.rating.elo, row.games, double(row.wins)});
        }
        p.tieRule = "by the rating; equal ratings by the win rate, then by name";
    }
    return p;
}

std::optional<std::string> WerewolfArenaScreen::startTournament(const TournamentConfig& config) {
    if (session_.underWay())
        return "the Werewolf Arena is busy with a tournament (" +
               std::string(play::hostedPhaseName(session_.phase())) + "): finish or reset it first";
    if (auto why = setup(config)) return "the Werewolf Arena refused the setup: " + *why;
    if (auto why = start()) return "the Werewolf Arena did not start: " + *why;
    return std::nullopt;
}

std::optional<std::string> WerewolfArenaScreen::importArena(const std::string& text) {
    if (session_.underWay()) return std::string("a tournament is under way: stop it first");
    llm::Result<StoredArena> in = readArenaBundle(text);
    if (!in.isOk()) return in.error;
    reset();
    stored_ = std::move(*in.value);
    std::map<int, std::string> records = std::move(stored_.records);
    stored_.records.clear();
    for (auto& [index, record] : records) keepRecord(index, std::move(record)); // (kept in the store too)
    importedSpentUsd_ = stored_.spentUsd; // spent elsewhere: not this session's
    draft_ = stored_.config;
    draftTouched_ = true;
    session_.setPhase(playedCount() >= stored_.config.games ? Phase::Finished : Phase::Stopped);
    // Every game written anew; the tournament reads as finished once the store confirmed them.
    if (auto why = records_.replace(stored_, storedPhase()))
        session_.setError("The imported games could not all be kept in this browser: " + *why);
    refreshRows();
    notice_ = "Imported " + std::to_string(stored_.results.size()) + " of " + std::to_string(stored_.config.games) +
              " games" + (session_.phase() == Phase::Stopped ? ": Resume plays the rest." : ".");
    if (stored_.bundleVersion < 3 && !stored_.results.empty())
        notice_ += " This bundle (version " + std::to_string(stored_.bundleVersion) +
                   ") keeps no game records: its games have no replays.";
    else notice_ += " " + std::to_string(stored_.records.size()) + " game(s) can be replayed: click one.";
    session_.changed();
    return std::nullopt;
}

void WerewolfArenaScreen::reset() {
    spentBeforeResetUsd_ += std::max(0.0, tournamentSpentUsd() - importedSpentUsd_); // the session keeps it
    importedSpentUsd_ = 0;
    tournament_.reset();
    records_.clear();
    forgetRecords();
    storedDamaged_ = false;
    draft_ = stored_.config.players.empty() ? draft_ : stored_.config;
    stored_ = StoredArena{};
    rows_.clear();
    rowsJson_ = "[]";
    counts_.clear();
    unshown_.clear();
    tally_.reset();
    session_.reset(); // Setup, nothing waiting for the store, the fits forgotten, no error
    overallShown_ = byRoleShown_ = perRoleShown_ = {};
    notice_.clear();
}

// A finished game is shown once the store confirmed its record and the list naming it (IndexedDB
// commits in the background): a game the page reported survives a closed or crashed tab.
void WerewolfArenaScreen::onGameFinished(const GameResult& result) {
    if (tournament_) stored_.spentUsd = tournament_->spentUsd();
    // The record (the gate waits for the store's confirmation), then the head.
    const std::optional<std::string> unkept = records_.addGame(stored_, result, storedPhase());
    if (unkept) {
        session_.setError("Game " + std::to_string(result.index) + " could not be kept in this browser: " +
                          *unkept);
        stored_.results[result.index] = result; // shown anyway, with the reason it is not kept
        saveMeta();
        refreshRows();
        session_.changed();
        return;
    }
    unshown_[result.index] = result;
    commitStored(context_.platform ? context_.platform->nowMs() : 0);
}

void WerewolfArenaScreen::commitStored(double nowMs) {
    if (session_.heldBack() == 0) return;
    const std::vector<int> through = session_.takeCommitted(nowMs);
    std::vector<int> shown;
    for (int index : through) {
        auto waiting = unshown_.find(index);
        if (waiting == unshown_.end()) continue; // an imported game: shown already
        shown.push_back(index);
        const GameResult& result = stored_.results[index] = std::move(waiting->second);
        unshown_.erase(waiting);
        // While games run, the standings grow by this game alone; at rest they are recounted.
        if (!(session_.phase() == Phase::Running && tally_ && tally_->add(result))) tally_.reset();
    }
    if (shown.empty()) {
        if (!through.empty()) session_.changed(); // an import's records confirmed: Finished shows
        return;
    }
    if (tally_) showCounts(tally_->counts(), tally_->runs());
    else refreshRows();
    session_.changed();
}

void WerewolfArenaScreen::keepRecord(int index, std::string record, bool write) {
    if (store_ && write && !store_->set(replayKey(index), record)) store_->release(replayKey(index));
    if (auto old = stored_.records.find(index); old != stored_.records.end()) recordBytes_ -= old->second.size();
    recordBytes_ += record.size();
    stored_.records[index] = std::move(record);
    while (recordBytes_ > kMaxRecordBytes && stored_.records.size() > 1) {
        recordBytes_ -= stored_.records.begin()->second.size();
        if (store_) store_->remove(replayKey(stored_.records.begin()->first));
        stored_.records.erase(stored_.records.begin());
        ++recordsDropped_;
    }
}

void WerewolfArenaScreen::forgetRecords() {
    if (store_) {
        for (const auto& [index, result] : stored_.results) store_->remove(replayKey(index));
        for (const auto& [index, result] : unshown_) store_->remove(replayKey(index));
    }
    stored_.records.clear();
    recordBytes_ = 0;
    recordsDropped_ = 0;
    ++recordsGeneration_;
}

void WerewolfArenaScreen::readKeptRecords() {
    if (!store_ || stored_.results.empty()) return;
    std::vector<std::string> keys;
    std::vector<int> indexes;
    for (auto it = stored_.results.rbegin(); it != stored_.results.rend() && keys.size() < 4000; ++it) {
        keys.push_back(replayKey(it->first));
        indexes.push_back(it->first);
    }
    const int generation = recordsGeneration_;
    store_->readMany(std::move(keys), [this, generation, indexes](std::vector<std::optional<std::string>> values,
                                                                  std::string) {
        if (generation != recordsGeneration_) return; // another tournament is shown now
        for (std::size_t i = values.size(); i-- > 0;) { // oldest first: the cap drops the oldest
            if (!values[i]) continue;
            // Only this tournament's game: the record's result is the kept one (index, seed, players).
            llm::Result<GameResult> r = readGameResult(*values[i]);
            const auto kept = stored_.results.find(indexes[i]);
            if (!r.isOk() || kept == stored_.results.end() || r.value->index != indexes[i] ||
                r.value->seed != kept->second.seed || r.value->seats.size() != kept->second.seats.size())
                continue;
            keepRecord(indexes[i], std::move(*values[i]), false);
        }
        session_.changed();
    });
}

std::optional<std::string> WerewolfArenaScreen::openGameReplay(int index) {
    const auto record = stored_.records.find(index);
    if (!stored_.results.count(index)) return "there is no finished game " + std::to_string(index);
    if (record == stored_.records.end())
        return "game " + std::to_string(index) + " has no replay: only games played since this page loaded, or imported " +
               "from a bundle with records, keep one (the oldest go past " + std::to_string(kMaxRecordBytes >> 20) +
               " MB of records: " + std::to_string(recordsDropped_) + " so far)";
    if (!openReplay_) return std::string("there is no replay viewer on this page");
    if (auto why = openReplay_(record->second, "game " + std::to_string(index) + " of the Werewolf Arena"))
        return "game " + std::to_string(index) + " does not replay: " + *why;
    return std::nullopt;
}

std::string WerewolfArenaScreen::storedPhase() const {
    return session_.phase() == Phase::Setup ? "stopped" : std::string(play::hostedPhaseName(session_.phase()));
}

void WerewolfArenaScreen::saveMeta() {
    if (session_.phase() == Phase::Setup && stored_.config.players.empty()) return;
    if (auto why = records_.saveHead(stored_, storedPhase()))
        session_.setError("The tournament could not be kept in this browser: " + *why);
    else savedSpentUsd_ = stored_.spentUsd;
}

void WerewolfArenaScreen::refreshRows() {
    std::vector<GameResult> all;
    for (const auto& [index, r] : stored_.results) all.push_back(r);
    std::vector<PlayerStanding> counts = standingsWithoutRatings(all);
    RatingRuns runs = ratingRuns(all, counts);
    showCounts(std::move(counts), std::move(runs));
    // The running tally starts from these games, in game order (the order of the exact fits).
    tally_ = std::make_unique<StandingsTally>(stored_.config.players);
    for (const GameResult& r : all)
        if (!tally_->add(r)) {
            tally_.reset();
            break;
        }
}

void WerewolfArenaScreen::showCounts(std::vector<PlayerStanding> counts, RatingRuns runs) {
    counts_ = std::move(counts);
    session_.startRatings(0, std::move(runs.overall));
    session_.startRatings(1, std::move(runs.byRole));
    session_.startRatings(2, std::move(runs.perRole));
    rankRows();
}

void WerewolfArenaScreen::rankRows() {
    rows_ = rankStandings(counts_, &overallShown_, &byRoleShown_, &perRoleShown_);
    rowsJson_ = leaderboardJson(rows_);
    session_.changed();
}

std::string WerewolfArenaScreen::stateJson() const {
    const TournamentConfig& config = shownConfig();
    const CostEstimate estimate = estimateCost(config, *context_.catalog);
    json live = json::array();
    if (tournament_)
        for (const LiveGame& g : tournament_->liveGames()) {
            const werewolf::Game& game = g.session->game();
            json players = json::array();
            for (const TableSeat& s : g.session->config().seats) players.push_back(s.player);
            live.push_back({{"game", g.index},
                            {"phase", std::string(werewolf::phaseName(game.phase()))},
                            {"round", game.round()},
                            {"alive", int(game.livingSeats().size())},
                            {"wolvesAlive", game.livingCount(werewolf::Team::Wolves)},
                            {"events", game.events().size()},
                            {"costUsd", g.session->costUsd()},
                            {"players", players}});
        }
    json games = json::array();
    for (const auto& [index, r] : stored_.results) {
        json wolves = json::array();
        for (const SeatResult& s : r.seats)
            if (werewolf::teamOf(s.role) == werewolf::Team::Wolves) wolves.push_back(s.player);
        games.push_back({{"game", index},
                         {"seed", r.seed},
                         {"winner", r.winner ? json(std::string(werewolf::teamName(*r.winner))) : json(nullptr)},
                         {"rounds", r.rounds},
                         {"wolves", wolves},
                         {"fallbacks", r.fallbacks()},
                         {"asks", r.asks()},
                         {"tokens", r.tokens()},
                         {"costUsd", r.costUsd()},
                         {"replay", stored_.records.count(index) > 0}});
    }
    json unpriced = estimate.unpriced;
    const play::RatingRefiner::Stats workers = session_.ratingStats();
    const json state = {
        {"screen", "werewolf-arena"},
        {"phase", std::string(play::hostedPhaseName(session_.phase()))},
        {"gamesFinished", stored_.results.size()},
        {"totalGames", config.games},
        {"running", live.size()},
        {"spentUsd", tournamentSpentUsd()},
        {"sessionSpentUsd", spentUsd()},
        {"budgetUsd", config.budgetUsd ? json(*config.budgetUsd) : json(nullptr)},
        {"budgetReached", budgetSpent()},
        {"estimate", {{"usd", estimate.usd}, {"modelSeatGames", estimate.modelSeatGames}, {"unpriced", unpriced}}},
        {"catalog", std::string(context_.catalogState())},
        {"config", json::parse(configJson(config))},
        {"hasKey", context_.chat != nullptr},
        {"error", session_.error()},
        {"notice", notice_},
        {"live", live},
        {"games", games},
        {"records", {{"kept", stored_.records.size()}, {"bytes", recordBytes_}, {"dropped", recordsDropped_}}},
        {"leaderboard", json::parse(rowsJson_)},
        {"ratingsRefining", session_.ratingsRefining()},
        {"ratingsWorker", {{"sent", workers.sent}, {"adopted", workers.adopted}, {"error", workers.error}}}};
    return state.dump();
}

std::optional<std::string> WerewolfArenaScreen::command(std::string_view name, std::string_view argumentJson,
                                                        std::string* resultJson) {
    if (name == "setup") {
        llm::Result<TournamentConfig> c = parseConfigJson(ui::documentArgument(argumentJson));
        if (!c.isOk()) return c.error;
        return setup(*c.value);
    }
    if (name == "start") return start();
    if (name == "pause") return pause();
    if (name == "resume") return resume();
    if (name == "stop") return stop();
    if (name == "reset") {
        if (session_.phase() == Phase::Running) return std::string("stop the tournament first");
        reset();
        return std::nullopt;
    }
    if (name == "importJson") return importArena(ui::documentArgument(argumentJson));
    if (name == "exportJson") {
        if (session_.phase() == Phase::Setup) return std::string("no tournament to export yet");
        StoredArena copy = stored_;
        copy.spentUsd = tournamentSpentUsd();
        *resultJson = json(arenaBundleJson(copy)).dump();
        return std::nullopt;
    }
    if (name == "openReplay") {
        const json a = json::parse(argumentJson, nullptr, false);
        const json& g = a.is_object() && a.contains("game") ? a["game"] : a;
        if (!g.is_number_integer()) return std::string("openReplay takes {\"game\": N}");
        return openGameReplay(g.get<int>());
    }
    if (name == "tab") {
        const json t = json::parse(argumentJson, nullptr, false);
        if (!t.is_string() || (t != "games" && t != "leaderboard")) return std::string("tab is games or leaderboard");
        tab_ = t == "games" ? 0 : 1;
        tabRequested_ = true;
        session_.changed();
        return std::nullopt;
    }
    return "the Werewolf arena has no command '" + std::string(name) + "'";
}

std::vector<ui::CommandInfo> WerewolfArenaScreen::commands() const {
    return {{"setup"}, {"start"}, {"pause"}, {"resume"}, {"stop"}, {"reset"}, {"exportJson"}, {"importJson"}, {"tab"}, {"openReplay"}};
}

} // namespace chaiba
