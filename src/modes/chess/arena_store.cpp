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

namespace {

play::StoreLayout chessLayout() {
    play::StoreLayout l;
    l.prefix = "chaiba.arena.";
    l.format = std::string(kHeadFormat);
    l.version = kArenaStoreVersion;
    l.mode = kBundleMode;
    return l;
}

// The arena's games as the shared store sees them: `games` then `more`.
class ChessGames final : public play::GameSource {
public:
    ChessGames(const std::vector<GameRecord>& games, const std::vector<GameRecord>& more, std::string key)
        : games_(games), more_(more), key_(std::move(key)) {}
    size_t size() const override { return games_.size() + more_.size(); }
    play::StoredGameEntry entry(size_t i) const override {
        const GameRecord& g = at(i);
        return {g.pairing.id, g.finished(), g.isFolded(), g.moves.size()};
    }
    Parsed<std::string> record(size_t i) const override { return gameJsonLine(at(i), key_, TurnLayout::Compact); }
    Parsed<std::string> step(size_t i, size_t ply) const override {
        const GameRecord& g = at(i);
        if (ply >= g.moves.size()) return Parsed<std::string>::fail("no move " + std::to_string(ply + 1));
        return turnJsonLine(g.moves[ply], key_, TurnLayout::Compact);
    }

private:
    const GameRecord& at(size_t i) const { return i < games_.size() ? games_[i] : more_[i - games_.size()]; }
    const std::vector<GameRecord>& games_;
    const std::vector<GameRecord>& more_;
    std::string key_;
};

// Loading: the head's config and rating options, each record read with the bundle's checks.
class ChessReader final : public play::GameReader {
public:
    ChessReader(StoredTournament& out, size_t keepWhole) : out_(out), keepWhole_(keepWhole) {}
    std::optional<std::string> readConfig(const std::string& configJson) override {
        Parsed<TournamentConfig> parsed = parseConfigJson(configJson);
        if (!parsed.ok()) return parsed.error;
        out_.config = *parsed.value;
        return std::nullopt;
    }
    std::optional<std::string> readHead(const json& head) override {
        play::JsonDecoder d;
        if (const json* o = d.object(head, "ratingOptions", "")) {
            d.read(*o, "excludeForfeits", "ratingOptions", out_.options.excludeForfeits);
            d.read(*o, "bootstrapSamples", "ratingOptions", out_.options.bootstrapSamples, 0, 100000);
            d.read(*o, "seed", "ratingOptions", out_.options.seed);
            d.read(*o, "virtualDraws", "ratingOptions", out_.options.virtualDraws);
        }
        if (d.failed()) return d.error();
        return std::nullopt;
    }
    size_t baseSteps(std::string_view record) const override {
        const json base = json::parse(record, nullptr, false);
        return base.is_object() && base.contains("moves") && base["moves"].is_array() ? base["moves"].size() : 0;
    }
    Read read(std::string_view record, const std::vector<std::string>& steps) override {
        Parsed<GameRecord> g = decodeGameJson(std::string(record), out_.config, steps);
        held_.reset();
        if (!g.ok()) return {-1, false, g.error};
        held_ = std::move(*g.value);
        return {held_->pairing.id, held_->finished(), {}};
    }
    void keep() override {
        if (!held_) return;
        const bool finished = held_->finished();
        out_.games.push_back(std::move(*held_));
        held_.reset();
        if (!finished) return;
        ++finished_;
        // All but the latest keepWhole finished games are held folded (readFinished gives one back).
        if (finished_ > keepWhole_) foldRecord(out_.games[out_.games.size() - keepWhole_ - 1]);
    }

private:
    StoredTournament& out_;
    size_t keepWhole_;
    size_t finished_ = 0;
    std::optional<GameRecord> held_;
};

} // namespace

ArenaStore::ArenaStore(KeyValueStore* store, std::function<std::string()> apiKey, play::CommitGate& commits)
    : store_(store), apiKey_(std::move(apiKey)), commits_(commits), records_(store, chessLayout(), commits) {}

void ArenaStore::readFinished(std::vector<int> gameIds, const TournamentConfig& config,
                              std::function<void(std::vector<Parsed<GameRecord>>)> done) const {
    auto decode = [gameIds, config, done = std::move(done)](std::vector<std::optional<std::string>> values,
                                                            std::string error) {
        std::vector<Parsed<GameRecord>> out;
        for (size_t i = 0; i < gameIds.size(); ++i) {
            const std::string game = "game " + std::to_string(gameIds[i] + 1);
            const std::optional<std::string>& text = values[i];
            if (!error.empty() && !text) {
                out.push_back(Parsed<GameRecord>::fail(game + ": the store could not be read (" + error + ")"));
                continue;
            }
            if (!text) {
                out.push_back(Parsed<GameRecord>::fail(game + " is not in the store"));
                continue;
            }
            Parsed<GameRecord> g = decodeGameJson(*text, config);
            if (!g.ok()) g = Parsed<GameRecord>::fail(game + ": " + g.error);
            else if (g.value->pairing.id != gameIds[i] || !g.value->finished())
                g = Parsed<GameRecord>::fail(game + ": the stored record is another game's");
            out.push_back(std::move(g));
        }
        done(std::move(out));
    };
    if (!store_) {
        decode(std::vector<std::optional<std::string>>(gameIds.size()), {});
        return;
    }
    records_.readFinished(gameIds, std::move(decode));
}

std::optional<std::string> ArenaStore::sync(const TournamentConfig& config, const LeaderboardOptions& options,
                                            const std::string& phase, const std::vector<GameRecord>& games,
                                            const std::vector<GameRecord>& more, bool gamesAllFinished) {
    if (!store_) return std::nullopt;
    std::optional<json> fields;
    if (!headInputs_ || !(headInputs_->options == options) || !(headInputs_->config == config)) {
        Parsed<std::string> configText = configJson(config, true);
        if (!configText.ok()) return "the tournament could not be saved: " + configText.error;
        fields = json{{"config", json::parse(*configText.value, nullptr, false)}, {"ratingOptions", optionsJson(options)}};
    }
    const ChessGames list(games, more, apiKey_ ? apiKey_() : std::string());
    if (auto error = records_.sync(fields ? &*fields : nullptr, phase, list, gamesAllFinished)) {
        headInputs_.reset();
        return error;
    }
    headInputs_ = HeadInputs{config, options};
    return std::nullopt;
}

std::optional<std::string> ArenaStore::rewriteFinished(const GameRecord& game) {
    if (!store_ || !game.finished() || !records_.stored(game.pairing.id)) return std::nullopt;
    Parsed<std::string> text = gameJsonLine(game, apiKey_ ? apiKey_() : std::string(), TurnLayout::Compact);
    if (!text.ok()) return "the tournament could not be saved: " + text.error;
    return records_.rewriteFinished(game.pairing.id, *text.value);
}

void ArenaStore::clear() {
    if (!store_) return;
    records_.clear();
    store_->remove(kArenaBundleKey);
    store_->remove(kArenaStateKey);
    headInputs_.reset();
}

Parsed<std::optional<StoredTournament>> ArenaStore::load(size_t keepWhole) {
    using Result = Parsed<std::optional<StoredTournament>>;
    if (!store_) return {std::optional<StoredTournament>(), {}};
    if (!store_->get(kArenaHeadKey)) return loadOldBundle();
    StoredTournament out;
    ChessReader reader(out, keepWhole);
    Parsed<std::optional<play::TournamentStore::Loaded>> loaded = records_.load(reader);
    if (!loaded.ok()) return Result::fail(loaded.error);
    if (!*loaded.value) return {std::optional<StoredTournament>(), {}};
    out.phase = (*loaded.value)->phase;
    headInputs_.reset();
    const std::vector<std::string>& problems = (*loaded.value)->problems;
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
