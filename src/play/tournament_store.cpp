// TournamentStore: see tournament_store.h.
#include "src/play/tournament_store.h"

#include "src/persist/json_reader.h"

#include <algorithm>
#include <cstdlib>

namespace chaiba::play {

using nlohmann::json;

TournamentStore::TournamentStore(KeyValueStore* store, StoreLayout layout, CommitGate& commits)
    : store_(store), layout_(std::move(layout)), commits_(commits) {}

std::string TournamentStore::gameKey(size_t sequence) const {
    return layout_.prefix + "game." + std::to_string(epoch_) + "." + std::to_string(sequence);
}

std::string TournamentStore::runningKey(int id) const {
    return layout_.prefix + "running." + std::to_string(epoch_) + "." + std::to_string(id);
}

std::string TournamentStore::stepKey(int id, size_t step) const {
    return runningKey(id) + ".m" + std::to_string(step);
}

std::string TournamentStore::savingError(const std::string& refused) const {
    return "the tournament could not be saved in this browser: " + refused;
}

void TournamentStore::truncateStored(size_t size) {
    while (storedIds_.size() > size) {
        sequence_.erase(storedIds_.back());
        commits_.forget(storedIds_.back());
        storedIds_.pop_back();
    }
}

void TournamentStore::appendStored(int gameId) {
    if (gameId >= 0) sequence_[gameId] = storedIds_.size();
    storedIds_.push_back(gameId);
}

// A running game: its record once, then each new step as its own small record, so a move costs one
// short write whatever the length of the game. A game whose stored steps are not a prefix of its
// steps (a takeback) is written whole again.
std::optional<std::string> TournamentStore::syncRunning(const GameSource& games, size_t i, const StoredGameEntry& e) {
    auto stored = running_.find(e.id);
    if (stored != running_.end() && stored->second.steps == e.steps) return std::nullopt;
    if (stored != running_.end() && stored->second.steps < e.steps) {
        for (size_t step = stored->second.steps; step < e.steps; ++step) {
            Parsed<std::string> text = games.step(i, step);
            if (!text.ok()) return "the tournament could not be saved: game #" + std::to_string(e.id) + ": " + text.error;
            if (auto refused = store_->set(stepKey(e.id, step), *text.value)) return savingError(*refused);
            stored->second.steps = step + 1;
        }
        return std::nullopt;
    }
    if (stored != running_.end()) {
        removeRunning(e.id, stored->second);
        running_.erase(stored);
    }
    Parsed<std::string> text = games.record(i);
    if (!text.ok()) return "the tournament could not be saved: " + text.error;
    if (auto refused = store_->set(runningKey(e.id), *text.value)) return savingError(*refused);
    running_[e.id] = {e.steps, e.steps};
    return std::nullopt;
}

void TournamentStore::removeRunning(int id, const RunningStored& stored) {
    store_->remove(runningKey(id));
    for (size_t step = stored.baseSteps; step < stored.steps; ++step) store_->remove(stepKey(id, step));
}

std::optional<std::string> TournamentStore::writeHead(const json* fields, const std::string& phase,
                                                      const std::set<int>& running) {
    if (!fields && headInputs_ && headInputs_->epoch == epoch_ && headInputs_->phase == phase &&
        headInputs_->running == running)
        return std::nullopt;
    if (fields) fields_ = *fields;
    json head = fields_.is_object() ? fields_ : json::object();
    head["format"] = layout_.format;
    head["version"] = layout_.version;
    head["mode"] = layout_.mode;
    head["epoch"] = epoch_;
    head["phase"] = phase;
    head["running"] = std::vector<int>(running.begin(), running.end());
    std::string text = head.dump(-1, ' ', false, json::error_handler_t::replace);
    if (text != headWritten_) {
        if (auto refused = store_->set(layout_.headKey(), text)) return savingError(*refused);
        headWritten_ = std::move(text);
    }
    headInputs_ = HeadInputs{phase, running, epoch_};
    return std::nullopt;
}

std::optional<std::string> TournamentStore::sync(const json* fields, const std::string& phase, const GameSource& games,
                                                 bool finishedPrefix) {
    if (!store_) return std::nullopt;
    if (epoch_ == 0) {
        // A new tournament: a number never used before, so records of an earlier one that a
        // cleared store may still hold are never read as this one's.
        uint64_t last = 0;
        if (auto text = store_->get(layout_.epochKey())) last = std::strtoull(text->c_str(), nullptr, 10);
        epoch_ = last + 1;
        if (auto refused = store_->set(layout_.epochKey(), std::to_string(epoch_))) return savingError(*refused);
    }
    // Step 1. Finished games not stored yet, one record each, in finish order. The fast path
    // skips the prefix already stored when the lists agree on its last game.
    size_t sequence = 0;
    std::set<int> running;
    size_t from = 0;
    const size_t stored = storedIds_.size();
    if (stored > 0 && games.size() >= stored) {
        const StoredGameEntry last = games.entry(stored - 1);
        bool prefixFinished = finishedPrefix;
        // (a runner's list is finished games only: a save at every move with 10 000 games
        // checked them all)
        for (size_t i = 0; !prefixFinished && i < stored; ++i)
            if (!games.entry(i).finished) break;
            else if (i + 1 == stored) prefixFinished = true;
        if (last.finished && last.id == storedIds_.back() && prefixFinished) {
            from = stored;
            sequence = stored;
        }
    }
    for (size_t i = from; i < games.size(); ++i) {
        const StoredGameEntry e = games.entry(i);
        if (!e.finished) {
            running.insert(e.id);
            if (auto error = syncRunning(games, i, e)) return error;
            continue;
        }
        const size_t at = sequence++;
        if (at < storedIds_.size() && storedIds_[at] == e.id) continue;
        if (e.folded) // folded only once stored: its record would be lost
            return "the tournament could not be saved: game " + std::to_string(e.id + 1) +
                   " is no longer in memory and not in the store";
        Parsed<std::string> text = games.record(i);
        if (!text.ok()) return "the tournament could not be saved: " + text.error;
        if (auto refused = store_->set(gameKey(at), *text.value)) return savingError(*refused);
        store_->release(gameKey(at)); // read back when needed (readFinished)
        truncateStored(at);
        appendStored(e.id);
        commits_.wrote(e.id);
    }
    // Step 2. Records past the end (a list that shrank: an import) are dropped.
    for (size_t i = storedIds_.size(); i > sequence; --i) store_->remove(gameKey(i - 1));
    truncateStored(sequence);
    // Step 3. The head, then the running records of games no longer running (after the head, so
    // a reload between the two still finds what the head names).
    if (auto error = writeHead(fields, phase, running)) return error;
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

std::optional<std::string> TournamentStore::rewriteFinished(int gameId, const std::string& record) {
    if (!store_) return std::nullopt;
    const auto at = sequence_.find(gameId);
    if (at == sequence_.end()) return std::nullopt;
    if (auto refused = store_->set(gameKey(at->second), record)) return savingError(*refused);
    store_->release(gameKey(at->second));
    return std::nullopt;
}

void TournamentStore::readFinished(const std::vector<int>& gameIds, RecordsRead done) const {
    std::vector<std::string> keys;
    std::vector<bool> asked;
    for (int id : gameIds) {
        const auto at = store_ ? sequence_.find(id) : sequence_.end();
        asked.push_back(at != sequence_.end());
        if (asked.back()) keys.push_back(gameKey(at->second));
    }
    auto spread = [asked, done = std::move(done)](std::vector<std::optional<std::string>> values, std::string error) {
        std::vector<std::optional<std::string>> out;
        size_t next = 0;
        for (bool a : asked) {
            if (a && next < values.size()) out.push_back(std::move(values[next]));
            else out.emplace_back();
            if (a) ++next;
        }
        done(std::move(out), std::move(error));
    };
    if (keys.empty()) return spread({}, {});
    store_->readMany(std::move(keys), std::move(spread));
}

void TournamentStore::clear() {
    if (!store_) return;
    store_->remove(layout_.headKey());
    for (size_t i = 0; i < storedIds_.size(); ++i) store_->remove(gameKey(i));
    for (const auto& [id, stored] : running_) removeRunning(id, stored);
    storedIds_.clear();
    sequence_.clear();
    commits_.clear();
    running_.clear();
    fields_ = json::object();
    headWritten_.clear();
    headInputs_.reset();
    epoch_ = 0;
}

Parsed<std::optional<TournamentStore::Loaded>> TournamentStore::load(GameReader& reader) {
    using Result = Parsed<std::optional<Loaded>>;
    if (!store_) return {std::optional<Loaded>(), {}};
    const std::optional<std::string> headText = store_->get(layout_.headKey());
    if (!headText) return {std::optional<Loaded>(), {}};
    auto corrupt = [&](const std::string& why) {
        store_->set(layout_.headKey() + ".corrupt", *headText);
        store_->remove(layout_.headKey());
        return Result::fail(why);
    };
    const json head = json::parse(*headText, nullptr, false);
    if (head.is_discarded() || !head.is_object()) return corrupt("not a JSON document");
    persist::JsonDecoder d;
    std::string format, mode;
    int version = 0;
    d.read(head, "format", "", format);
    d.read(head, "version", "", version, 1, 1000);
    d.read(head, "mode", "", mode);
    if (d.failed()) return corrupt(d.error());
    if (format != layout_.format) return corrupt("format: not the arena's stored tournament");
    if (version > layout_.version)
        return corrupt("version: version " + std::to_string(version) + " was written by a newer page");
    if (mode != layout_.mode) return corrupt("mode: not a " + layout_.mode + " tournament");
    Loaded out;
    double epoch = 0;
    d.read(head, "epoch", "", epoch);
    d.read(head, "phase", "", out.phase);
    std::vector<int> runningIds;
    if (const json* list = d.array(head, "running", "")) {
        for (size_t i = 0; i < list->size() && !d.failed(); ++i) {
            if (!(*list)[i].is_number_integer()) d.fail("running[" + std::to_string(i) + "]", "expected a game id");
            else runningIds.push_back((*list)[i].get<int>());
        }
    }
    if (!d.failed() && (epoch < 1 || epoch > 9e15)) d.fail("epoch", "expected a positive number");
    if (d.failed()) return corrupt(d.error());
    const auto config = head.find("config");
    if (config == head.end() || !config->is_object()) return corrupt("config: missing");
    if (auto why = reader.readConfig(config->dump())) return corrupt("config: " + *why);
    if (auto why = reader.readHead(head)) return corrupt(*why);
    epoch_ = uint64_t(epoch);
    fields_ = head;
    for (const char* own : {"format", "version", "mode", "epoch", "phase", "running"}) fields_.erase(own);
    headWritten_ = *headText;
    headInputs_.reset();

    // The finished games, record after record until the first missing one. An unreadable record
    // is kept aside and skipped (that game is played again), never a reason to drop the rest.
    std::set<int> ids;
    for (size_t at = 0;; ++at) {
        const std::string key = gameKey(at);
        const std::optional<std::string> text = store_->get(key);
        if (!text) break;
        GameReader::Read g = reader.read(*text, {});
        std::string why = g.error;
        if (why.empty() && !g.finished) why = "the game is not finished";
        else if (why.empty() && ids.count(g.id)) why = "it repeats " + reader.gameName(g.id);
        if (!why.empty()) {
            store_->set(key + ".corrupt", *text);
            out.problems.push_back("finished game record " + std::to_string(at + 1) + " (" + why + ")");
            appendStored(-1);
            continue;
        }
        ids.insert(g.id);
        appendStored(g.id);
        store_->release(key);
        reader.keep();
    }
    // The running games the head names (a game stored as finished meanwhile is not running).
    for (int id : runningIds) {
        if (ids.count(id)) continue;
        const std::optional<std::string> text = store_->get(runningKey(id));
        if (!text) continue; // started just before the page closed: it is scheduled again
        // The steps appended after the record, up to the first missing one. A step that cannot
        // be read (a write cut short) ends the list there: the game goes on from the step before.
        const size_t base = reader.baseSteps(*text);
        std::vector<std::string> appended;
        for (size_t step = base;; ++step) {
            std::optional<std::string> more = store_->get(stepKey(id, step));
            if (!more) break;
            appended.push_back(std::move(*more));
        }
        GameReader::Read g = reader.read(*text, appended);
        const size_t found = appended.size();
        if (!g.error.empty() && found > 0 && reader.read(*text, {}).error.empty()) {
            // The record reads, an appended step does not: keep the steps before the first bad
            // one (a slow search, paid only when something is wrong) and forget the rest.
            const std::string why = g.error;
            size_t good = 0;
            while (good + 1 < found &&
                   reader.read(*text, {appended.begin(), appended.begin() + std::ptrdiff_t(good + 1)}).error.empty())
                ++good;
            appended.resize(good);
            g = reader.read(*text, appended);
            for (size_t step = base + good; step < base + found; ++step) store_->remove(stepKey(id, step));
            out.problems.push_back("running " + reader.gameName(id) + " from move " +
                                   std::to_string(base + good + 1) + " (" + why + "); it goes on from the move before");
        }
        if (!g.error.empty() || g.finished || g.id != id) {
            store_->set(runningKey(id) + ".corrupt", *text);
            out.problems.push_back("running " + reader.gameName(id) + " (" +
                                   (g.error.empty() ? std::string("it does not belong to this game") : g.error) + ")");
            continue;
        }
        running_[id] = {base, base + appended.size()};
        ids.insert(id);
        reader.keep();
    }
    return {std::move(out), {}};
}

} // namespace chaiba::play
