// The Werewolf arena's storage and export bundle.
#include "src/modes/werewolf/tournament_store.h"

#include "src/modes/werewolf/game_export.h"
#include "src/play/bundle.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

namespace chaiba::werewolfmode {

using nlohmann::json;

std::string arenaV1GameKey(int index) { return "chaiba.werewolf-arena.v1.game." + std::to_string(index); }

namespace {

play::StoreLayout werewolfLayout() {
    play::StoreLayout l;
    l.prefix = kArenaStorePrefix;
    l.format = "chaiba-werewolf-arena-store";
    l.version = kArenaStoreVersion;
    l.mode = "werewolf";
    return l;
}

json headFields(const StoredArena& arena) {
    return {{"config", json::parse(configJson(arena.config))}, {"spentUsd", arena.spentUsd}, {"stopped", arena.stopped}};
}

// The games as the shared store sees them: those stored (by their stored order), then `added`.
// Game ids are the 1-based indexes. The stored list is read, not copied (a game's end would copy
// every id stored): its size is taken here, as sync appends to it but never changes what was there.
class StoredGames final : public play::GameSource {
public:
    StoredGames(const std::vector<int>& storedIds, const std::map<int, GameResult>& results,
                std::vector<const GameResult*> added)
        : storedIds_(storedIds), stored_(storedIds.size()), results_(results), added_(std::move(added)) {}
    size_t size() const override { return stored_ + added_.size(); }
    play::StoredGameEntry entry(size_t i) const override {
        if (i < stored_) return {storedIds_[i], true, false, 0};
        return {added_[i - stored_]->index, true, false, 0};
    }
    play::Parsed<std::string> record(size_t i) const override {
        if (i >= stored_) return {gameResultJson(*added_[i - stored_]), {}};
        const auto r = results_.find(storedIds_[i]);
        if (r == results_.end()) return play::Parsed<std::string>::fail("game " + std::to_string(storedIds_[i]) + " is not in memory");
        return {gameResultJson(r->second), {}};
    }
    play::Parsed<std::string> step(size_t, size_t) const override {
        return play::Parsed<std::string>::fail("a Werewolf game keeps no steps");
    }

private:
    const std::vector<int>& storedIds_;
    const size_t stored_;
    const std::map<int, GameResult>& results_;
    std::vector<const GameResult*> added_;
};

} // namespace

llm::Result<GameResult> readCheckedResult(std::string_view text, const TournamentConfig& plan, bool wholeGame, int& id) {
    id = -1;
    llm::Result<GameResult> r = wholeGame ? readGameResult(text) : readGameResultJson(text);
    if (r.isOk()) {
        id = r.value->index;
        if (std::optional<std::string> bad = impossibleResult(*r.value, plan))
            return llm::Result<GameResult>::fail("game " + std::to_string(id) + ": " + *bad);
        return r;
    }
    const json doc = json::parse(text, nullptr, false);
    const json* result = doc.is_object() && wholeGame && doc.contains("result") ? &doc["result"] : &doc;
    if (result->is_object() && result->contains("game") && (*result)["game"].is_number_integer() &&
        (*result)["game"].get<long long>() >= 1 && (*result)["game"].get<long long>() <= plan.games) {
        id = (*result)["game"].get<int>();
        return llm::Result<GameResult>::fail("game " + std::to_string(id) + ": " + r.error);
    }
    return r;
}

std::optional<std::string> ResultReader::readConfig(const std::string& configJson) {
    llm::Result<TournamentConfig> c = parseConfigJson(configJson);
    if (!c.isOk()) return c.error;
    config_ = *c.value;
    return std::nullopt;
}

std::optional<std::string> ResultReader::readHead(const json& head) {
    if (auto s = head.find("spentUsd"); s != head.end() && s->is_number()) spentUsd = s->get<double>();
    if (auto s = head.find("stopped"); s != head.end() && s->is_boolean()) stopped = s->get<bool>();
    return std::nullopt;
}

persist::RecordReader::Read ResultReader::read(std::string_view record, const std::vector<std::string>&) {
    held_.reset();
    int id = -1;
    llm::Result<GameResult> r = readCheckedResult(record, config_, false, id);
    if (!r.isOk()) return {id, true, r.error};
    held_ = std::move(*r.value);
    return {id, true, {}};
}

void ResultReader::keep() {
    if (held_) results_[held_->index] = std::move(*held_);
    held_.reset();
}

ArenaRecords::ArenaRecords(KeyValueStore* store, play::CommitGate& commits)
    : store_(store), records_(store, werewolfLayout(), commits) {}

std::optional<std::string> ArenaRecords::addGame(const StoredArena& arena, const GameResult& result,
                                                 const std::string& phase) {
    const json fields = headFields(arena);
    return records_.sync(&fields, phase, StoredGames(records_.storedIds(), arena.results, {&result}), true);
}

std::optional<std::string> ArenaRecords::saveHead(const StoredArena& arena, const std::string& phase) {
    const json fields = headFields(arena);
    return records_.sync(&fields, phase, StoredGames(records_.storedIds(), arena.results, {}), true);
}

std::optional<std::string> ArenaRecords::replace(const StoredArena& arena, const std::string& phase) {
    clear();
    std::vector<const GameResult*> all;
    for (const auto& [index, r] : arena.results) all.push_back(&r);
    const json fields = headFields(arena);
    return records_.sync(&fields, phase, StoredGames(records_.storedIds(), arena.results, std::move(all)), true);
}

void ArenaRecords::clear() { records_.clear(); }

llm::Result<StoredArena> ArenaRecords::load() {
    using R = llm::Result<StoredArena>;
    if (!store_) return R{};
    if (!store_->get(records_.layout().headKey()))
        if (std::optional<std::string> older = store_->get(kArenaV1MetaKey)) return loadOlder(*older);
    StoredArena out;
    ResultReader reader(out.config, out.results);
    play::Parsed<std::optional<play::TournamentStore::Loaded>> loaded = records_.load(reader);
    if (!loaded.ok()) return R::fail(loaded.error);
    if (!*loaded.value) return R{};
    for (const std::string& p : (*loaded.value)->problems) out.dropped.push_back(p);
    out.spentUsd = reader.spentUsd;
    out.stopped = reader.stopped;
    return R::ok(std::move(out));
}

// Versions 1 and 2: {"version", "config", "spentUsd", "stopped", "games": [indexes]} and one key a
// game. Read with the checks of today, written in this layout, then removed.
llm::Result<StoredArena> ArenaRecords::loadOlder(const std::string& text) {
    using R = llm::Result<StoredArena>;
    const json meta = json::parse(text, nullptr, false);
    if (meta.is_discarded() || !meta.is_object()) return R::fail("the stored Werewolf tournament is not JSON");
    auto version = meta.find("version");
    if (version == meta.end() || !version->is_number_integer() || version->get<int>() < 1 || version->get<int>() > 2)
        return R::fail("the stored Werewolf tournament has an unknown version (this page reads versions 1 to " +
                       std::to_string(kArenaStoreVersion) + ")");
    auto config = meta.find("config");
    if (config == meta.end()) return R::fail("the stored Werewolf tournament has no setup");
    llm::Result<TournamentConfig> c = parseConfigJson(config->dump());
    if (!c.isOk()) return R::fail("the stored Werewolf tournament's setup: " + c.error);
    StoredArena out;
    out.config = *c.value;
    if (auto s = meta.find("spentUsd"); s != meta.end() && s->is_number()) out.spentUsd = s->get<double>();
    if (auto s = meta.find("stopped"); s != meta.end() && s->is_boolean()) out.stopped = s->get<bool>();
    std::vector<int> listed;
    if (auto games = meta.find("games"); games != meta.end() && games->is_array())
        for (const json& g : *games) {
            if (!g.is_number_integer()) return R::fail("the stored game list is damaged");
            const int index = g.get<int>();
            listed.push_back(index);
            // A game that is missing, damaged or impossible for this setup is named and dealt again.
            const std::optional<std::string> game = store_->get(arenaV1GameKey(index));
            llm::Result<GameResult> r = game ? readGameResultJson(*game) : llm::Result<GameResult>::fail("it is missing");
            if (r.isOk() && r.value->index != index)
                r = llm::Result<GameResult>::fail("it holds game " + std::to_string(r.value->index));
            if (r.isOk())
                if (std::optional<std::string> bad = impossibleResult(*r.value, out.config))
                    r = llm::Result<GameResult>::fail(*bad);
            if (!r.isOk()) {
                out.dropped.push_back("game " + std::to_string(index) + ": " + r.error);
                continue;
            }
            out.results[index] = *r.value;
        }
    const bool done = int(out.results.size()) >= out.config.games;
    if (auto why = replace(out, done ? "finished" : out.stopped ? "stopped" : "paused")) {
        // The older keys stay: nothing is lost, the next load tries again.
        out.converted = "The kept tournament (older format) was loaded but could not be converted: " + *why;
        return R::ok(std::move(out));
    }
    store_->remove(kArenaV1MetaKey);
    for (int index : listed) store_->remove(arenaV1GameKey(index));
    out.converted = "The kept tournament was converted to the storage every arena shares (" +
                    std::to_string(out.results.size()) + " games, one record each).";
    return R::ok(std::move(out));
}

std::string arenaBundleJson(const StoredArena& arena) {
    json doc = play::envelopeJson({"chaiba-werewolf-arena", kArenaBundleVersion, "werewolf"});
    doc["config"] = json::parse(configJson(arena.config));
    doc["spentUsd"] = arena.spentUsd;
    json games = json::array();
    std::vector<GameResult> all;
    for (const auto& [index, r] : arena.results) {
        games.push_back(json::parse(gameResultJson(r)));
        all.push_back(r);
    }
    doc["games"] = games;
    json records = json::array();
    for (const auto& [index, text] : arena.records)
        if (arena.results.count(index))
            if (json record = json::parse(text, nullptr, false); record.is_object()) records.push_back(std::move(record));
    doc["records"] = std::move(records);
    doc["leaderboard"] = json::parse(leaderboardJson(leaderboard(all)));
    return doc.dump(1);
}

llm::Result<StoredArena> readArenaBundle(std::string_view text) {
    using R = llm::Result<StoredArena>;
    const play::EnvelopeRule rule{"chaiba-werewolf-arena", "a CHAIBA Werewolf Arena bundle", 1, kArenaBundleVersion,
                                  "werewolf", 1};
    play::Parsed<play::OpenedBundle> opened = play::openBundle(text, rule);
    if (!opened.ok()) return R::fail(opened.error);
    const json& doc = opened.value->doc;
    const auto config = doc.find("config");
    if (config == doc.end() || !config->is_object()) return R::fail("config: missing");
    llm::Result<TournamentConfig> c = parseConfigJson(config->dump());
    if (!c.isOk()) return R::fail("config: " + c.error);
    StoredArena out;
    out.config = *c.value;
    if (auto spent = doc.find("spentUsd"); spent != doc.end()) {
        if (!spent->is_number() || !(spent->get<double>() >= 0) || spent->get<double>() > 1e6)
            return R::fail("spentUsd: not an amount");
        out.spentUsd = spent->get<double>();
    }
    const auto games = doc.find("games");
    if (games == doc.end() || !games->is_array()) return R::fail("games: missing");
    double gamesCost = 0;
    for (std::size_t i = 0; i < games->size(); ++i) {
        const std::string where = "games[" + std::to_string(i) + "]";
        llm::Result<GameResult> r = readGameResultJson((*games)[i].dump());
        if (!r.isOk()) return R::fail(where + ": " + r.error);
        if (auto bad = impossibleResult(*r.value, out.config)) return R::fail(where + ": " + *bad);
        if (out.results.count(r.value->index)) return R::fail(where + ": game " + std::to_string(r.value->index) + " twice");
        gamesCost += r.value->costUsd();
        out.results[r.value->index] = std::move(*r.value);
    }
    if (auto records = doc.find("records"); records != doc.end()) {
        if (!records->is_array()) return R::fail("records: not a list");
        for (std::size_t i = 0; i < records->size(); ++i) {
            const json& record = (*records)[i];
            const std::string where = "records[" + std::to_string(i) + "]";
            const json* result = record.is_object() && record.contains("result") ? &record["result"] : nullptr;
            if (!result || !result->is_object() || !result->contains("game") || !(*result)["game"].is_number_integer())
                return R::fail(where + ": not a game record (no result naming its game)");
            const int index = (*result)["game"].get<int>();
            if (!out.results.count(index)) return R::fail(where + ": game " + std::to_string(index) + " is not among the games");
            out.records[index] = record.dump();
        }
    }
    out.bundleVersion = opened.value->envelope.version;
    // The bundle's spend includes stopped games' calls; it is never less than its games cost.
    out.spentUsd = std::max(out.spentUsd, gamesCost);
    out.stopped = true; // an imported tournament is shown at rest; Resume plays the games it lacks
    return R::ok(std::move(out));
}

} // namespace chaiba::werewolfmode
