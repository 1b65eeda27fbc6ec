// ArenaSession's persistence (see arena_session.h): the tournament saved to and loaded from the
// store by increments (ArenaStore), older finished games folded and read back on demand (the game
// view, the analysis, the exports), export and import.
#include "src/modes/chess/arena_session.h"

#include "src/net/section_timer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <memory>

#include <ctime>

namespace chaiba {

using nlohmann::json;

namespace {

// The phases a reloaded page resumes running; a paused or stopped tournament stays put.
bool resumesOnLoad(const std::string& phase) { return phase == "running" || phase == "stopping"; }

} // namespace

// ---- folded games ------------------------------------------------------------------------------------

void ArenaSession::replaceFinished(size_t index, const chessmode::GameRecord& record) {
    if (runner_) runner_->replaceFinished(index, record); // (false when its list differs there)
    if (index < stoppedGames_.size() && stoppedGames_[index].pairing.id == record.pairing.id) {
        chessmode::GameRecord copy = record; // moved in: copied over, the old moves' buffer would stay
        stoppedGames_[index] = std::move(copy);
    }
}

void ArenaSession::foldOlder() {
    if (!env_.store) return;
    if (foldCursor_ > games_.size()) foldCursor_ = foldedCount_ = 0; // another list: look again
    const size_t limit = games_.size() > env_.keepWholeGames ? games_.size() - env_.keepWholeGames : 0;
    while (foldCursor_ < limit) {
        chessmode::GameRecord& g = games_[foldCursor_];
        if (!g.isFolded()) {
            // A running game, or one whose record the store has not confirmed: later.
            if (!g.finished() || !committed(g.pairing.id)) break;
            const int id = g.pairing.id;
            const bool onBoard = std::any_of(slots_.begin(), slots_.end(), [id](const ArenaSlot& s) { return s.gameId == id; });
            if (!onBoard) {
                chessmode::foldRecord(g);
                replaceFinished(foldCursor_, g);
            }
        }
        foldedCount_ += g.isFolded() ? 1 : 0;
        ++foldCursor_;
    }
}

void ArenaSession::newList() {
    ++listGeneration_;
    unfolded_.clear();
    unfoldPending_.clear();
    unfoldErrors_.clear();
    foldCursor_ = foldedCount_ = 0;
}

std::string ArenaSession::readError(int id) const {
    const auto it = unfoldErrors_.find(id);
    return it == unfoldErrors_.end() ? std::string() : it->second;
}

const chessmode::GameRecord* ArenaSession::game(int id) const {
    // From the end: the boards show the running and the latest games, which are last.
    for (auto it = games_.rbegin(); it != games_.rend(); ++it) {
        if (it->pairing.id != id) continue;
        if (!it->isFolded()) return &*it;
        auto cached = [&]() -> const chessmode::GameRecord* {
            for (const chessmode::GameRecord& u : unfolded_)
                if (u.pairing.id == id && u.plies() == it->plies() && u.analysed() == it->analysed()) return &u;
            return nullptr;
        };
        if (const chessmode::GameRecord* u = cached()) return u;
        if (unfoldPending_.count(id) || unfoldErrors_.count(id)) return &*it;
        // Read it back; the answer may come inside this call (a store in memory) or later.
        unfoldPending_.insert(id);
        const uint64_t generation = listGeneration_;
        store_.readFinished({id}, config_, [this, life = std::weak_ptr<int>(life_), generation, id](
                                               std::vector<chessmode::Parsed<chessmode::GameRecord>> read) {
            if (life.expired() || generation != listGeneration_) return;
            unfoldPending_.erase(id);
            session_.changed();
            if (!read.front().ok()) {
                unfoldErrors_[id] = read.front().error;
                return;
            }
            // The game view and a few the person went through; a deque: records returned before
            // stay where they are while the oldest goes.
            constexpr size_t kUnfoldedKept = 4;
            unfolded_.push_back(std::move(*read.front().value));
            if (unfolded_.size() > kUnfoldedKept) unfolded_.pop_front();
        });
        if (const chessmode::GameRecord* u = cached()) return u;
        return &*it;
    }
    return nullptr;
}

// ---- persistence -------------------------------------------------------------------------------------

chessmode::Parsed<chessmode::TournamentBundle> ArenaSession::bundle(const std::vector<chessmode::GameRecord>& games,
                                                                     const std::map<int, chessmode::GameRecord>& whole,
                                                                     const chessmode::Leaderboard& board) const {
    chessmode::TournamentBundle b;
    b.config = config_;
    b.ratingOptions = options_;
    b.games.reserve(games.size());
    for (const chessmode::GameRecord& g : games) { // folded games whole again, as read back
        if (!g.isFolded()) {
            b.games.push_back(g);
            continue;
        }
        const auto it = whole.find(g.pairing.id);
        if (it == whole.end())
            return chessmode::Parsed<chessmode::TournamentBundle>::fail("game " + std::to_string(g.pairing.id + 1) +
                                                                        " was not read back");
        b.games.push_back(it->second);
    }
    b.leaderboard = board;
    return chessmode::Parsed<chessmode::TournamentBundle>{std::move(b), {}};
}

// Only what changed since the last call reaches the store (ArenaStore::sync).
void ArenaSession::save() {
    if (!env_.store || !hasTournament()) return;
    std::optional<std::string> refused;
    const std::string phase(play::hostedPhaseName(session_.phase()));
    if (runner_) {
        updateLiveRecords();
        refused = store_.sync(config_, options_, phase, runner_->games(), liveRecords_, true);
    } else {
        refused = store_.sync(config_, options_, phase, stoppedGames_);
    }
    if (refused) session_.setError(*refused);
}

// ---- costs measured in earlier tournaments -----------------------------------------------------------

void ArenaSession::keepMeasuredCosts() {
    if (!hasTournament()) return;
    bool added = false;
    for (const chessmode::LeaderboardRow& r : leaderboard_.rows) {
        if (r.participant < 0 || size_t(r.participant) >= config_.participants.size()) continue;
        const chessmode::Parsed<chessmode::PlayerSpec> spec =
            chessmode::parsePlayerSpec(config_.participants[size_t(r.participant)].spec);
        if (!spec.ok() || spec.value->kind != chessmode::PlayerSpec::Kind::Model) continue;
        if (r.costUsd <= 0 || r.avgCostPerGame <= 0) continue;
        // The games the row's average is over (finished ones, forfeits included).
        const int games = int(std::lround(r.costUsd / r.avgCostPerGame));
        if (games <= 0) continue;
        const std::string context = chessmode::contextPolicyLabel(chessmode::contextPolicyOf(config_, r.participant),
                                                                  config_.contextWindowMoves);
        MeasuredCost& m = measured_[{spec.value->modelId, context}];
        m.games += games;
        m.costUsd += r.costUsd;
        added = true;
    }
    if (!added || !env_.store) return;
    json models = json::array();
    for (const auto& [key, m] : measured_)
        models.push_back({{"model", key.first}, {"context", key.second}, {"games", m.games}, {"costUsd", m.costUsd}});
    env_.store->set(kArenaMeasuredKey, json{{"version", kArenaMeasuredVersion}, {"models", models}}.dump());
}

void ArenaSession::loadMeasuredCosts() {
    const std::optional<std::string> text = env_.store->get(kArenaMeasuredKey);
    if (!text) return;
    const json doc = json::parse(*text, nullptr, false);
    std::map<std::pair<std::string, std::string>, MeasuredCost> read;
    bool ok = doc.is_object() && doc.contains("version") && doc["version"].is_number_integer() &&
              doc["version"].get<long long>() == kArenaMeasuredVersion && doc.contains("models") &&
              doc["models"].is_array();
    for (size_t i = 0; ok && i < doc["models"].size(); ++i) {
        const json& m = doc["models"][i];
        ok = m.is_object() && m.contains("model") && m["model"].is_string() && m.contains("context") &&
             m["context"].is_string() && m.contains("games") && m["games"].is_number_integer() &&
             m.contains("costUsd") && m["costUsd"].is_number() && m["games"].get<long long>() > 0 &&
             m["games"].get<long long>() <= chessmode::kMaxGames && std::isfinite(m["costUsd"].get<double>()) &&
             m["costUsd"].get<double>() >= 0;
        if (ok) read[{m["model"].get<std::string>(), m["context"].get<std::string>()}] =
            MeasuredCost{m["games"].get<int>(), m["costUsd"].get<double>()};
    }
    if (ok) {
        measured_ = std::move(read);
        return;
    }
    // A later build's version or damaged data: kept aside, said, and the estimate starts afresh.
    env_.store->set(std::string(kArenaMeasuredKey) + ".corrupt", *text);
    env_.store->remove(kArenaMeasuredKey);
    session_.setError("The costs measured in earlier tournaments could not be read; they were kept aside.");
}

void ArenaSession::load(const chessmode::ChessPlaySettings& settings, double nowMs) {
    if (!env_.store) return;
    loadMeasuredCosts();
    if (auto text = env_.store->get(kArenaDraftKey)) {
        chessmode::Parsed<chessmode::TournamentConfig> parsed = chessmode::parseConfigJson(*text);
        if (parsed.ok()) draft_ = *parsed.value;
        else env_.store->set(std::string(kArenaDraftKey) + ".corrupt", *text);
    }
    net::SectionTimer loadTimer("arena.load");
    chessmode::Parsed<std::optional<chessmode::StoredTournament>> stored = [&] {
        net::SectionTimer timer("arena.load.records");
        return store_.load(env_.keepWholeGames);
    }();
    if (!stored.ok()) {
        session_.setError("The saved tournament could not be loaded (" + stored.error +
                          "); it was kept aside.");
        return;
    }
    if (!*stored.value) return;
    chessmode::StoredTournament& t = **stored.value;
    config_ = t.config;
    newList();
    tally_.clear(); // another list of games
    options_ = t.options;
    stoppedGames_ = std::move(t.games);
    const std::string phase = t.phase;
    session_.setError(t.note); // a conversion from the older layout, or records that could not be read
    slots_.assign(size_t(boardCount(config_)), ArenaSlot{});
    const bool allPlayed = [&] {
        net::SectionTimer timer("arena.load.schedule");
        play::Scheduler s(chessmode::schedulerConfig(config_));
        return !chessmode::restoreSchedule(s, stoppedGames_) && s.finished();
    }();
    session_.setPhase(allPlayed ? ArenaPhase::Finished : ArenaPhase::Stopped);
    {
        net::SectionTimer timer("arena.load.board");
        refresh(true);
    }
    if (!allPlayed && resumesOnLoad(phase)) {
        net::SectionTimer timer("arena.load.resume");
        const std::string loadNote = session_.error(); // a game's newest moves that could not be read
        if (auto error = resume(settings, nowMs))
            session_.setError("The tournament was not resumed: " + *error);
        else if (session_.error().empty()) session_.setError(loadNote);
    }
    session_.changed();
}

namespace {
// How the tournament was run, as its bundle says (beyond the config): this app's version, the
// moment of the export, the prompt texts it ships (when models play) and the judge of its marks
// (the page's arena judges every finished game at the arena's budget).
chessmode::BundleHarness harnessOf(const ArenaEnvironment& env, const chessmode::TournamentConfig& config,
                                   const std::vector<chessmode::GameRecord>& games) {
    chessmode::BundleHarness h;
    h.appVersion = CHAIBA_APP_VERSION;
    h.exportedAt = chessmode::utcIsoTime(env.clock ? env.clock() : static_cast<int64_t>(std::time(nullptr)));
    const chessmode::AgentPrompts* prompts = env.prompts;
    if (prompts && chessmode::hasModels(config)) h.prompts = chessmode::promptTexts(*prompts);
    if (std::any_of(games.begin(), games.end(), [](const chessmode::GameRecord& g) { return g.analysed(); }))
        h.judgeNodes = static_cast<long long>(chessmode::arenaAnalysisBudget().maxNodes);
    return h;
}
} // namespace

void ArenaSession::exportLater(bool pgn, std::function<void(chessmode::Parsed<std::string>)> done) const {
    using Text = chessmode::Parsed<std::string>;
    if (!hasTournament()) return done(Text::fail("there is no tournament to export"));
    // The tournament as it is now: its list (folded games cost a pointer) and its leaderboard (an
    // export never carries intervals still being refined: the whole fit, made now if need be).
    auto games = std::make_shared<std::vector<chessmode::GameRecord>>(games_);
    auto board = std::make_shared<chessmode::Leaderboard>(
        ratingsRefining() ? chessmode::computeLeaderboard(config_, games_, options_) : leaderboard_);
    std::vector<int> folded;
    for (const chessmode::GameRecord& g : *games)
        if (g.isFolded()) folded.push_back(g.pairing.id);
    const uint64_t generation = listGeneration_;
    store_.readFinished(folded, config_, [this, life = std::weak_ptr<int>(life_), generation, games, board, folded, pgn,
                                          done = std::move(done)](std::vector<chessmode::Parsed<chessmode::GameRecord>> read) {
        if (life.expired()) return;
        if (generation != listGeneration_) return done(Text::fail("the tournament changed while it was being exported"));
        std::map<int, chessmode::GameRecord> whole;
        for (size_t i = 0; i < read.size(); ++i) {
            if (!read[i].ok()) return done(Text::fail("the export could not read a game back: " + read[i].error));
            whole.emplace(folded[i], std::move(*read[i].value));
        }
        chessmode::Parsed<chessmode::TournamentBundle> b = bundle(*games, whole, *board);
        if (!b.ok()) return done(Text::fail("the export could not read a game back: " + b.error));
        // How it was run: this app's version and the moment of the export (the bundle's harness).
        b.value->harness = harnessOf(env_, b.value->config, b.value->games);
        const std::string key = env_.apiKey ? env_.apiKey() : std::string();
        done(pgn ? chessmode::bundlePgn(*b.value, key) : chessmode::exportBundle(*b.value, key));
    });
}

namespace {
chessmode::Parsed<std::string> exportNow(const ArenaSession& s, bool pgn) {
    // Shared: a store that answers later writes here after this function returned.
    auto out = std::make_shared<std::optional<chessmode::Parsed<std::string>>>();
    s.exportLater(pgn, [out](chessmode::Parsed<std::string> text) { *out = std::move(text); });
    if (!*out) return chessmode::Parsed<std::string>::fail("the export is still reading games back from the store");
    return std::move(**out);
}
} // namespace

chessmode::Parsed<std::string> ArenaSession::exportJson() const { return exportNow(*this, false); }

chessmode::Parsed<std::string> ArenaSession::exportPgn() const { return exportNow(*this, true); }

// Whether an imported bundle's leaderboard is reproduced: asked once every imported game is
// stored and shown (before, the held-back games would read as unfinished).
void ArenaSession::checkImported() {
    if (importedBoard_ && !importedMatches_ && session_.heldBack() == 0)
        importedMatches_ = chessmode::sameLeaderboard(*importedBoard_, leaderboard_);
}

std::optional<std::string> ArenaSession::importJson(std::string_view text) {
    chessmode::Parsed<chessmode::TournamentBundle> bundle = chessmode::importBundle(text);
    if (!bundle.ok()) return "this is not a tournament CHAIBA can import: " + bundle.error;
    dropRunner();
    keepMeasuredCosts(); // the tournament it replaces measured what its models cost
    analysis_->clear();
    newList();
    config_ = bundle.value->config;
    tally_.clear(); // another list of games
    options_ = bundle.value->ratingOptions;
    stoppedGames_ = std::move(bundle.value->games);
    importedBoard_ = bundle.value->leaderboard;
    slots_.assign(size_t(boardCount(config_)), ArenaSlot{});
    play::Scheduler s(chessmode::schedulerConfig(config_));
    const bool allPlayed = !chessmode::restoreSchedule(s, stoppedGames_) && s.finished();
    session_.setPhase(allPlayed ? ArenaPhase::Finished : ArenaPhase::Stopped);
    session_.clearError();
    store_.clear(); // the imported tournament replaces the stored one, record by record
    save();
    refresh(true);
    importedMatches_.reset();
    checkImported(); // now, or once the store confirmed the imported records (poll)
    session_.changed();
    return std::nullopt;
}

} // namespace chaiba
