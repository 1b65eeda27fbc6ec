// The Werewolf arena's storage and export bundle.
#include "src/modes/werewolf/tournament_store.h"

#include "src/modes/werewolf/game_export.h"
#include "src/play/bundle.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

namespace chaiba::werewolfmode {

using nlohmann::json;

std::string arenaGameKey(int index) { return "chaiba.werewolf-arena.v1.game." + std::to_string(index); }

std::optional<std::string> saveArenaMeta(KeyValueStore& store, const StoredArena& arena,
                                         const std::vector<int>& alsoListed) {
    std::set<int> listed(alsoListed.begin(), alsoListed.end());
    for (const auto& [index, r] : arena.results) listed.insert(index);
    json games = json::array();
    for (int index : listed) games.push_back(index);
    const json meta = {{"version", kArenaStoreVersion},
                       {"config", json::parse(configJson(arena.config))},
                       {"spentUsd", arena.spentUsd},
                       {"stopped", arena.stopped},
                       {"games", games}};
    return store.set(kArenaMetaKey, meta.dump());
}

std::optional<std::string> saveArenaGame(KeyValueStore& store, const GameResult& result) {
    return store.set(arenaGameKey(result.index), gameResultJson(result));
}

llm::Result<StoredArena> loadArena(const KeyValueStore& store) {
    using R = llm::Result<StoredArena>;
    const std::optional<std::string> text = store.get(kArenaMetaKey);
    if (!text) return R{};
    const json meta = json::parse(*text, nullptr, false);
    if (meta.is_discarded() || !meta.is_object()) return R::fail("the stored Werewolf tournament is not JSON");
    auto version = meta.find("version");
    if (version == meta.end() || !version->is_number_integer() || version->get<int>() < 1 ||
        version->get<int>() > kArenaStoreVersion)
        return R::fail(
            "the stored Werewolf tournament has an unknown version (this page reads versions 1 to " +
            std::to_string(kArenaStoreVersion) + ")");
    auto config = meta.find("config");
    if (config == meta.end()) return R::fail("the stored Werewolf tournament has no setup");
    llm::Result<TournamentConfig> c = parseConfigJson(config->dump());
    if (!c.isOk()) return R::fail("the stored Werewolf tournament's setup: " + c.error);
    StoredArena out;
    out.config = *c.value;
    if (auto s = meta.find("spentUsd"); s != meta.end() && s->is_number()) out.spentUsd = s->get<double>();
    if (auto s = meta.find("stopped"); s != meta.end() && s->is_boolean()) out.stopped = s->get<bool>();
    if (auto games = meta.find("games"); games != meta.end() && games->is_array())
        for (const json& g : *games) {
            if (!g.is_number_integer()) return R::fail("the stored game list is damaged");
            const int index = g.get<int>();
            // A game that is missing, damaged or impossible for this setup is named and dealt again.
            const std::optional<std::string> game = store.get(arenaGameKey(index));
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
    return R::ok(std::move(out));
}

void clearArena(KeyValueStore& store) {
    if (const std::optional<std::string> text = store.get(kArenaMetaKey)) {
        const json meta = json::parse(*text, nullptr, false);
        if (meta.is_object())
            if (auto games = meta.find("games"); games != meta.end() && games->is_array())
                for (const json& g : *games)
                    if (g.is_number_integer()) store.remove(arenaGameKey(g.get<int>()));
    }
    store.remove(kArenaMetaKey);
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
    // The bundle's spend includes stopped games' calls; it is never less than its games cost.
    out.spentUsd = std::max(out.spentUsd, gamesCost);
    out.stopped = true; // an imported tournament is shown at rest; Resume plays the games it lacks
    return R::ok(std::move(out));
}

} // namespace chaiba::werewolfmode
