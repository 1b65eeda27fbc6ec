// ArenaStore: see arena_store.h. Records are the bundle's game entries (gameJsonLine, the moves
// compact), read back with the bundle's checks (decodeGameJson); the head is read with the shared
// JSON decoder.
#include "src/modes/chess/arena_store.h"

#include "src/play/bundle.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace chaiba::chessmode {

using nlohmann::json;

namespace {

constexpr std::string_view kHeadFormat = "chaiba-arena-store";

json optionsJson(const LeaderboardOptions& o) {
    return {{"excludeForfeits", o.excludeForfeits},
            {"bootstrapSamples", o.bootstrapSamples},
            {"seed", o.seed},
            {"virtualDraws", o.virtualDraws}};
}

} // namespace

ArenaStore::ArenaStore(KeyValueStore* store, std::function<std::string()> apiKey, play::CommitGate& commits)
    : store_(store), apiKey_(std::move(apiKey)), commits_(commits) {}

std::string ArenaStore::gameKey(size_t sequence) const {
    return std::string(kArenaGamePrefix) + std::to_string(epoch_) + "." + std::to_string(sequence);
}

std::string ArenaStore::runningKey(int id) const {
    return std::string(kArenaRunningPrefix) + std::to_string(epoch_) + "." + std::to_string(id);
}

std::string ArenaStore::runningMoveKey(int id, size_t ply) const {
    return runningKey(id) + ".m" + std::to_string(ply);
}

// A running game: its record once, then each new move as its own small record, so a move costs one
// short write whatever the length of the game (the record of a 200-ply game with reasoning is
// hundreds of kilobytes). A game whose stored moves are not a prefix of its moves (a takeback)
// is written whole again.
std::optional<std::string> ArenaStore::syncRunning(const GameRecord& g, const std::string& key) {
    const int id = g.pairing.id;
    auto stored = running_.find(id);
    if (stored != running_.end() && stored->second.plies == g.moves.size()) return std::nullopt;
    if (stored != running_.end() && stored->second.plies < g.moves.size()) {
        for (size_t ply = stored->second.plies; ply < g.moves.size(); ++ply) {
            Parsed<std::string> text = turnJsonLine(g.moves[ply], key, TurnLayout::Compact);
            if (!text.ok()) return "the tournament could not be saved: game #" + std::to_string(id) + ": " + text.error;
            if (auto refused = store_->set(runningMoveKey(id, ply), *text.value))
                return "the tournament could not be saved in this browser: " + *refused;
            stored->second.plies = ply + 1;
        }
        return std::nullopt;
    }
    if (stored != running_.end()) {
        removeRunning(id, stored->second);
        running_.erase(stored);
    }
    Parsed<std::string> text = gameJsonLine(g, key, TurnLayout::Compact);
    if (!text.ok()) return "the tournament could not be saved: " + text.error;
    if (auto refused = store_->set(runningKey(id), *text.value))
        return "the tournament could not be saved in this browser: " + *refused;
    running_[id] = {g.moves.size(), g.moves.size()};
    return std::nullopt;
}

void ArenaStore::removeRunning(int id, const RunningStored& stored) {
    store_->remove(runningKey(id));
    for (size_t ply = stored.basePlies; ply < stored.plies; ++ply) store_->remove(runningMoveKey(id, ply));
}

bool ArenaStore::stored(int gameId) const { return !store_ || sequenceOf(gameId) >= 0; }

std::ptrdiff_t ArenaStore::sequenceOf(int gameId) const {
    const auto it = sequence_.find(gameId);
    return it == sequence_.end() ? -1 : std::ptrdiff_t(it->second);
}

void ArenaStore::truncateStored(size_t size) {
    while (storedIds_.size() > size) {
        sequence_.erase(storedIds_.back());
        commits_.forget(storedIds_.back());
        storedIds_.pop_back();
    }
}

void ArenaStore::appendStored(int gameId) {
    if (gameId >= 0) sequence_[gameId] = storedIds_.size();
    storedIds_.push_back(gameId);
}

void ArenaStore::readFinished(std::vector<int> gameIds, const TournamentConfig& config,
                              std::function<void(std::vector<Parsed<GameRecord>>)> done) const {
    std::vector<std::string> keys;
    std::vector<std::ptrdiff_t> sequences;
    for (int id : gameIds) {
        sequences.push_back(store_ ? sequenceOf(id) : -1);
        if (sequences.back() >= 0) keys.push_back(gameKey(size_t(sequences.back())));
    }
    auto decode = [gameIds, sequences, config, done = std::move(done)](std::vector<std::optional<std::string>> values,
                                                                       std::string error) {
        std::vector<Parsed<GameRecord>> out;
        size_t next = 0; // the value of the next stored game
        for (size_t i = 0; i < gameIds.size(); ++i) {
            const std::string game = "game " + std::to_string(gameIds[i] + 1);
            if (sequences[i] < 0) {
                out.push_back(Parsed<GameRecord>::fail(game + " is not in the store"));
                continue;
            }
            const std::optional<std::string>* text = next < values.size() ? &values[next] : nullptr;
            ++next;
            if (!error.empty()) {
                out.push_back(Parsed<GameRecord>::fail(game + ": the store could not be read (" + error + ")"));
                continue;
            }
            if (!text || !*text) {
                out.push_back(Parsed<GameRecord>::fail(game + ": its stored record is missing"));
                continue;
            }
            Parsed<GameRecord> g = decodeGameJson(**text, config);
            if (!g.ok()) g = Parsed<GameRecord>::fail(game + ": " + g.error);
            else if (g.value->pairing.id != gameIds[i] || !g.value->finished())
                g = Parsed<GameRecord>::fail(game + ": the stored record is another game's");
            out.push_back(std::move(g));
        }
        done(std::move(out));
    };
    if (keys.empty()) return decode({}, {});
    store_->readMany(std::move(keys), std::move(decode));
}

std::optional<std::string> ArenaStore::writeHead(const TournamentConfig& config, const LeaderboardOptions& options,
                                                 const std::string& phase, const std::set<int>& running) {
    if (headInputs_ && headInputs_->epoch == epoch_ && headInputs_->phase == phase && headInputs_->running == running &&
        headInputs_->options == options && headInputs_->config == config)
        return std::nullopt;
    Parsed<std::string> configText = configJson(config, true);
    if (!configText.ok()) return "the tournament could not be saved: " + configText.error;
    json head = {{"format", kHeadFormat},
                 {"version", kArenaStoreVersion},
                 {"mode", kBundleMode},
                 {"epoch", epoch_},
                 {"config", json::parse(*configText.value, nullptr, false)},
                 {"ratingOptions", optionsJson(options)},
                 {"phase", phase},
                 {"running", std::vector<int>(running.begin(), running.end())}};
    std::string text = head.dump(-1, ' ', false, json::error_handler_t::replace);
    if (text != headWritten_) {
        if (auto refused = store_->set(kArenaHeadKey, text)) return "the tournament could not be saved in this browser: " + *refused;
        headWritten_ = std::move(text);
    }
    headInputs_ = HeadInputs{config, options, phase, running, epoch_};
    return std::nullopt;
}

std::optional<std::string> ArenaStore::sync(const TournamentConfig& config, const LeaderboardOptions& options,
                                            const std::string& phase, const std::vector<GameRecord>& games,
                                            const std::vector<GameRecord>& more, bool gamesAllFinished) {
    if (!store_) return std::nullopt;
    const std::string key = apiKey_ ? apiKey_() : std::string();
    if (epoch_ == 0) {
        // A new tournament: a number never used before, so records of an earlier one that a
        // cleared store may still hold are never read as this one's.
        uint64_t last = 0;
        if (auto text = store_->get(kArenaEpochKey)) last = std::strtoull(text->c_str(), nullptr, 10);
        epoch_ = last + 1;
        if (auto refused = store_->set(kArenaEpochKey, std::to_string(epoch_)))
            return "the tournament could not be saved in this browser: " + *refused;
    }
    // Step 1. Finished games not stored yet, one record each, in finish order. The fast path
    // skips the prefix already stored when the lists agree on its last game.
    size_t sequence = 0;
    std::set<int> running;
    auto visit = [&](const std::vector<GameRecord>& list, size_t from) -> std::optional<std::string> {
        for (size_t i = from; i < list.size(); ++i) {
            const GameRecord& g = list[i];
            if (!g.finished()) {
                running.insert(g.pairing.id);
                if (auto error = syncRunning(g, key)) return error;
                continue;
            }
            const size_t at = sequence++;
            if (at < storedIds_.size() && storedIds_[at] == g.pairing.id) continue;
            if (g.isFolded()) // folded only once stored: its moves would be lost
                return "the tournament could not be saved: game " + std::to_string(g.pairing.id + 1) +
                       " is no longer in memory and not in the store";
            Parsed<std::string> text = gameJsonLine(g, key, TurnLayout::Compact);
            if (!text.ok()) return "the tournament could not be saved: " + text.error;
            if (auto refused = store_->set(gameKey(at), *text.value))
                return "the tournament could not be saved in this browser: " + *refused;
            store_->release(gameKey(at)); // read back when needed (readFinished)
            truncateStored(at);
            appendStored(g.pairing.id);
            commits_.wrote(g.pairing.id);
        }
        return std::nullopt;
    };
    size_t from = 0;
    const size_t stored = storedIds_.size();
    if (stored > 0 && games.size() >= stored && games[stored - 1].finished() && games[stored - 1].pairing.id == storedIds_.back() &&
        (gamesAllFinished ||
         std::all_of(games.begin(), games.begin() + std::ptrdiff_t(stored), [](const GameRecord& g) { return g.finished(); }))) {
        // (a runner's list is finished games only: a save at every move with 10 000 games
        // checked them all)
        from = stored;
        sequence = stored;
    }
    if (auto error = visit(games, from)) return error;
    if (auto error = visit(more, 0)) return error;
    // Step 2. Records past the end (a list that shrank: an import) are dropped.
    for (size_t i = storedIds_.size(); i > sequence; --i) store_->remove(gameKey(i - 1));
    truncateStored(sequence);
    // Step 3. The head, then the running records of games no longer running (after the head, so
    // a reload between the two still finds what the head names).
    if (auto error = writeHead(config, options, phase, running)) return error;
    for (auto it = running_.begin(); it != running_.end();) {
        if (running.count(it->first)) {
            ++it;
            continue;
        }
        removeRunning(it->first, it->second);
        it = running_.erase(it);
    }
    return std::nullopt;
}

std::optional<std::string> ArenaStore::rewriteFinished(const GameRecord& game) {
    if (!store_ || !game.finished()) return std::nullopt;
    const std::ptrdiff_t at = sequenceOf(game.pairing.id);
    if (at < 0) return std::nullopt;
    Parsed<std::string> text = gameJsonLine(game, apiKey_ ? apiKey_() : std::string(), TurnLayout::Compact);
    if (!text.ok()) return "the tournament could not be saved: " + text.error;
    if (auto refused = store_->set(gameKey(size_t(at)), *text.value))
        return "the tournament could not be saved in this browser: " + *refused;
    store_->release(gameKey(size_t(at)));
    return std::nullopt;
}

void ArenaStore::clear() {
    if (!store_) return;
    store_->remove(kArenaHeadKey);
    for (size_t i = 0; i < storedIds_.size(); ++i) store_->remove(gameKey(i));
    for (const auto& [id, stored] : running_) removeRunning(id, stored);
    store_->remove(kArenaBundleKey);
    store_->remove(kArenaStateKey);
    storedIds_.clear();
    sequence_.clear();
    commits_.clear();
    running_.clear();
    headWritten_.clear();
    headInputs_.reset();
    epoch_ = 0;
}

Parsed<std::optional<StoredTournament>> ArenaStore::load(size_t keepWhole) {
    using Result = Parsed<std::optional<StoredTournament>>;
    if (!store_) return {std::optional<StoredTournament>(), {}};
    const std::optional<std::string> headText = store_->get(kArenaHeadKey);
    if (!headText) return loadOldBundle();
    auto corrupt = [&](const std::string& why) {
        store_->set(std::string(kArenaHeadKey) + ".corrupt", *headText);
        store_->remove(kArenaHeadKey);
        return Result::fail(why);
    };
    const json head = json::parse(*headText, nullptr, false);
    if (head.is_discarded() || !head.is_object()) return corrupt("not a JSON document");
    play::JsonDecoder d;
    std::string format, mode, phase;
    int version = 0;
    d.read(head, "format", "", format);
    d.read(head, "version", "", version, 1, 1000);
    d.read(head, "mode", "", mode);
    if (d.failed()) return corrupt(d.error());
    if (format != kHeadFormat) return corrupt("format: not the arena's stored tournament");
    if (version > kArenaStoreVersion)
        return corrupt("version: version " + std::to_string(version) + " was written by a newer page");
    if (mode != kBundleMode) return corrupt("mode: not a chess tournament");
    StoredTournament out;
    double epoch = 0;
    d.read(head, "epoch", "", epoch);
    d.read(head, "phase", "", out.phase);
    if (const json* config = d.object(head, "config", "")) {
        Parsed<TournamentConfig> parsed = parseConfigJson(config->dump());
        if (!parsed.ok()) d.fail("config", parsed.error);
        else out.config = *parsed.value;
    }
    if (const json* o = d.object(head, "ratingOptions", "")) {
        d.read(*o, "excludeForfeits", "ratingOptions", out.options.excludeForfeits);
        d.read(*o, "bootstrapSamples", "ratingOptions", out.options.bootstrapSamples, 0, 100000);
        d.read(*o, "seed", "ratingOptions", out.options.seed);
        d.read(*o, "virtualDraws", "ratingOptions", out.options.virtualDraws);
    }
    std::vector<int> runningIds;
    if (const json* list = d.array(head, "running", "")) {
        for (size_t i = 0; i < list->size() && !d.failed(); ++i) {
            if (!(*list)[i].is_number_integer()) d.fail("running[" + std::to_string(i) + "]", "expected a game id");
            else runningIds.push_back((*list)[i].get<int>());
        }
    }
    if (!d.failed() && (epoch < 1 || epoch > 9e15)) d.fail("epoch", "expected a positive number");
    if (d.failed()) return corrupt(d.error());
    epoch_ = uint64_t(epoch);
    headWritten_ = *headText;
    headInputs_.reset();

    // The finished games, record after record until the first missing one. An unreadable record
    // is kept aside and skipped (that game is played again), never a reason to drop the rest.
    std::set<int> ids;
    std::vector<std::string> problems;
    for (size_t at = 0;; ++at) {
        const std::string key = gameKey(at);
        const std::optional<std::string> text = store_->get(key);
        if (!text) break;
        Parsed<GameRecord> g = decodeGameJson(*text, out.config);
        std::string why;
        if (!g.ok()) why = g.error;
        else if (!g.value->finished()) why = "the game is not finished";
        else if (ids.count(g.value->pairing.id)) why = "it repeats game " + std::to_string(g.value->pairing.id + 1);
        if (!why.empty()) {
            store_->set(key + ".corrupt", *text);
            problems.push_back("finished game record " + std::to_string(at + 1) + " (" + why + ")");
            appendStored(-1);
            continue;
        }
        ids.insert(g.value->pairing.id);
        appendStored(g.value->pairing.id);
        store_->release(key);
        out.games.push_back(std::move(*g.value));
        // All but the latest keepWhole finished games are held folded (readFinished gives one back).
        if (out.games.size() > keepWhole) foldRecord(out.games[out.games.size() - keepWhole - 1]);
    }
    // The running games the head names (a game stored as finished meanwhile is not running).
    for (int id : runningIds) {
        if (ids.count(id)) continue;
        const std::optional<std::string> text = store_->get(runningKey(id));
        if (!text) continue; // started just before the page closed: it is scheduled again
        // The moves appended after the record, up to the first missing one. A move that cannot be
        // read (a write cut short) ends the list there: the game goes on from the move before.
        const json base = json::parse(*text, nullptr, false);
        const size_t basePlies = base.is_object() && base.contains("moves") && base["moves"].is_array()
                                     ? base["moves"].size()
                                     : 0;
        std::vector<std::string> appended;
        for (size_t ply = basePlies;; ++ply) {
            std::optional<std::string> move = store_->get(runningMoveKey(id, ply));
            if (!move) break;
            appended.push_back(std::move(*move));
        }
        Parsed<GameRecord> g = decodeGameJson(*text, out.config, appended);
        const size_t found = appended.size();
        if (!g.ok() && found > 0 && decodeGameJson(*text, out.config).ok()) {
            // The record reads, an appended move does not: keep the moves before the first bad one
            // (a slow search, paid only when something is wrong) and forget the rest.
            const std::string why = g.error;
            size_t good = 0;
            while (good + 1 < found &&
                   decodeGameJson(*text, out.config, {appended.begin(), appended.begin() + std::ptrdiff_t(good + 1)}).ok())
                ++good;
            appended.resize(good);
            g = decodeGameJson(*text, out.config, appended);
            for (size_t ply = basePlies + good; ply < basePlies + found; ++ply) store_->remove(runningMoveKey(id, ply));
            problems.push_back("running game " + std::to_string(id + 1) + " from move " + std::to_string(basePlies + good + 1) +
                               " (" + why + "); it goes on from the move before");
        }
        if (!g.ok() || g.value->finished() || g.value->pairing.id != id) {
            store_->set(runningKey(id) + ".corrupt", *text);
            problems.push_back("running game " + std::to_string(id + 1) + " (" +
                               (g.ok() ? std::string("it does not belong to this game") : g.error) + ")");
            continue;
        }
        running_[id] = {basePlies, basePlies + appended.size()};
        ids.insert(id);
        out.games.push_back(std::move(*g.value));
    }
    if (!problems.empty()) {
        out.note = "Some saved games could not be read and are played again: ";
        for (size_t i = 0; i < problems.size(); ++i) out.note += (i ? "; " : "") + problems[i];
        out.note += ".";
    }
    return {std::move(out), {}};
}

// The whole bundle of older pages (and their per-game keys of newer moves): read, written again in
// this layout, then removed.
Parsed<std::optional<StoredTournament>> ArenaStore::loadOldBundle() {
    using Result = Parsed<std::optional<StoredTournament>>;
    const std::optional<std::string> text = store_->get(kArenaBundleKey);
    if (!text) return {std::optional<StoredTournament>(), {}};
    StoredTournament out;
    if (auto stateText = store_->get(kArenaStateKey)) {
        json state = json::parse(*stateText, nullptr, false);
        if (!state.is_discarded() && state.is_object() && state.contains("phase") && state["phase"].is_string())
            out.phase = state["phase"].get<std::string>();
    }
    Parsed<TournamentBundle> bundle = importBundle(*text);
    if (!bundle.ok()) {
        store_->set(std::string(kArenaBundleKey) + ".corrupt", *text);
        store_->remove(kArenaBundleKey);
        store_->remove(kArenaStateKey);
        return Result::fail(bundle.error);
    }
    out.config = bundle.value->config;
    out.options = bundle.value->ratingOptions;
    out.games = std::move(bundle.value->games);
    std::vector<std::string> liveKeys;
    for (GameRecord& g : out.games) {
        if (g.finished()) continue;
        const std::string key = std::string(kArenaLivePrefix) + std::to_string(g.pairing.id);
        const std::optional<std::string> liveText = store_->get(key);
        if (!liveText) continue;
        liveKeys.push_back(key);
        Parsed<TournamentBundle> live = importBundle(*liveText);
        const bool fits = live.ok() && live.value->config == out.config && live.value->games.size() == 1 &&
                          live.value->games[0].pairing == g.pairing && !live.value->games[0].finished() &&
                          live.value->games[0].moves.size() >= g.moves.size();
        if (fits) g = std::move(live.value->games[0]);
        else {
            store_->set(key + ".corrupt", *liveText);
            out.note = "The last moves of game " + std::to_string(g.pairing.id + 1) + " could not be loaded (" +
                       (live.ok() ? std::string("they do not belong to this game") : live.error) +
                       "); it continues from its last saved move. ";
        }
    }
    // Finished games first (finish order), then the running ones, as this layout keeps them.
    std::stable_partition(out.games.begin(), out.games.end(), [](const GameRecord& g) { return g.finished(); });
    size_t finished = 0;
    for (const GameRecord& g : out.games) finished += g.finished() ? 1 : 0;
    if (auto error = sync(out.config, out.options, out.phase, out.games)) {
        // The old bundle stays where it was: nothing is lost, the next load tries again.
        out.note += "The saved tournament (older format) was loaded but could not be converted: " + *error;
        return {std::move(out), {}};
    }
    commits_.clear(); // stored before (in the old bundle): committed
    store_->remove(kArenaBundleKey);
    store_->remove(kArenaStateKey);
    for (const std::string& key : liveKeys) store_->remove(key);
    out.note += "The saved tournament was converted to the new storage format (" + std::to_string(finished) +
                " finished games, one record each).";
    return {std::move(out), {}};
}

} // namespace chaiba::chessmode
