// play::TournamentStore, the layout every arena of the page keeps its tournament in, with a mode of
// its own (games of numbered steps): finished records in finish order, running games by steps, a
// record that does not read set aside and named, a new tournament never reading an old one's
// records, a folded game that was never stored refused.
#include "src/play/tournament_store.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

using namespace chaiba;
using nlohmann::json;

namespace {

struct ToyGame {
    int id = 0;
    bool finished = false;
    bool folded = false;
    std::vector<int> steps;
};

class ToyGames final : public play::GameSource {
public:
    explicit ToyGames(const std::vector<ToyGame>& games) : games_(games) {}
    size_t size() const override { return games_.size(); }
    play::StoredGameEntry entry(size_t i) const override {
        const ToyGame& g = games_[i];
        return {g.id, g.finished, g.folded, g.steps.size()};
    }
    play::Parsed<std::string> record(size_t i) const override {
        const ToyGame& g = games_[i];
        return {json{{"id", g.id}, {"finished", g.finished}, {"steps", g.steps}}.dump(), {}};
    }
    play::Parsed<std::string> step(size_t i, size_t s) const override {
        return {std::to_string(games_[i].steps[s]), {}};
    }

private:
    const std::vector<ToyGame>& games_;
};

class ToyReader final : public play::GameReader {
public:
    std::vector<ToyGame> kept;
    std::string config;
    std::optional<std::string> readConfig(const std::string& configJson) override {
        const json c = json::parse(configJson, nullptr, false);
        if (!c.is_object() || !c.contains("name") || !c["name"].is_string()) return std::string("no name");
        config = c["name"].get<std::string>();
        return std::nullopt;
    }
    size_t baseSteps(std::string_view record) const override {
        const json j = json::parse(record, nullptr, false);
        return j.is_object() && j.contains("steps") ? j["steps"].size() : 0;
    }
    Read read(std::string_view record, const std::vector<std::string>& steps) override {
        held_.reset();
        const json j = json::parse(record, nullptr, false);
        if (j.is_discarded() || !j.is_object() || !j.contains("id")) return {-1, false, "not a game"};
        ToyGame g;
        g.id = j["id"].get<int>();
        g.finished = j["finished"].get<bool>();
        for (const json& s : j["steps"]) g.steps.push_back(s.get<int>());
        for (const std::string& s : steps) {
            if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
                return {g.id, false, "step " + std::to_string(g.steps.size() + 1) + " is damaged"};
            g.steps.push_back(std::stoi(s));
        }
        held_ = g;
        return {g.id, g.finished, {}};
    }
    void keep() override {
        if (held_) kept.push_back(*held_);
        held_.reset();
    }

private:
    std::optional<ToyGame> held_;
};

play::StoreLayout toyLayout() { return {"toy.", "toy-store", 1, "toy"}; }

} // namespace

TEST_CASE("tournament store: finished games one record each, running games step by step, a reload gives them back") {
    MemoryStore kv;
    play::CommitGate gate(&kv, std::nullopt);
    play::TournamentStore store(&kv, toyLayout(), gate);
    std::vector<ToyGame> games = {{0, true, false, {1, 2}}, {1, false, false, {5}}};
    const json fields = {{"config", {{"name", "two games"}}}};
    REQUIRE_FALSE(store.sync(&fields, "running", ToyGames(games)));
    CHECK(kv.get("toy.head"));
    CHECK(kv.get("toy.game.1.0"));
    CHECK(kv.get("toy.running.1.1"));
    games[1].steps = {5, 6, 7}; // two steps: two small records, the game's record untouched
    const std::string runningRecord = *kv.get("toy.running.1.1");
    REQUIRE_FALSE(store.sync(nullptr, "running", ToyGames(games)));
    CHECK(*kv.get("toy.running.1.1") == runningRecord);
    CHECK(*kv.get("toy.running.1.1.m1") == "6");
    CHECK(*kv.get("toy.running.1.1.m2") == "7");

    play::TournamentStore again(&kv, toyLayout(), gate);
    ToyReader reader;
    auto loaded = again.load(reader);
    REQUIRE_MESSAGE(loaded.ok(), loaded.error);
    REQUIRE(*loaded.value);
    CHECK((*loaded.value)->phase == "running");
    CHECK(reader.config == "two games");
    REQUIRE(reader.kept.size() == 2);
    CHECK(reader.kept[1].steps == std::vector<int>{5, 6, 7});

    // The running game finishes: its record is finished game 1, its step records go.
    games[1].finished = true;
    REQUIRE_FALSE(again.sync(nullptr, "finished", ToyGames(games)));
    CHECK(kv.get("toy.game.1.1"));
    CHECK_FALSE(kv.get("toy.running.1.1"));
    CHECK_FALSE(kv.get("toy.running.1.1.m1"));
    bool read = false;
    again.readFinished({1, 7}, [&](std::vector<std::optional<std::string>> records, std::string error) {
        read = true;
        CHECK(error.empty());
        REQUIRE(records.size() == 2);
        CHECK(records[0]);
        CHECK_FALSE(records[1]); // never stored
    });
    CHECK(read);
}

TEST_CASE("tournament store: a damaged record is set aside and named, a damaged step ends the game there") {
    MemoryStore kv;
    play::CommitGate gate(&kv, std::nullopt);
    play::TournamentStore store(&kv, toyLayout(), gate);
    std::vector<ToyGame> games = {{0, true, false, {1}}, {1, true, false, {2}}, {2, false, false, {3, 4, 5}}};
    const json fields = {{"config", {{"name", "c"}}}};
    REQUIRE_FALSE(store.sync(&fields, "running", ToyGames(games)));
    games[2].steps.push_back(6);
    REQUIRE_FALSE(store.sync(nullptr, "running", ToyGames(games)));
    kv.set("toy.game.1.0", "{broken");
    kv.set("toy.running.1.2.m3", "x");
    play::TournamentStore again(&kv, toyLayout(), gate);
    ToyReader reader;
    auto loaded = again.load(reader);
    REQUIRE_MESSAGE(loaded.ok(), loaded.error);
    const std::vector<std::string>& problems = (*loaded.value)->problems;
    REQUIRE(problems.size() == 2);
    CHECK(problems[0] == "finished game record 1 (not a game)");
    CHECK(problems[1].find("running game 3 from move 4") != std::string::npos);
    CHECK(kv.get("toy.game.1.0.corrupt"));
    REQUIRE(reader.kept.size() == 2);
    CHECK(reader.kept[0].id == 1);
    CHECK(reader.kept[1].steps == std::vector<int>{3, 4, 5});

    // A head that does not read is set aside, never an empty tournament in silence.
    kv.set("toy.head", "[]");
    play::TournamentStore broken(&kv, toyLayout(), gate);
    ToyReader none;
    CHECK(broken.load(none).error == "not a JSON document");
    CHECK(kv.get("toy.head.corrupt"));
}

TEST_CASE("tournament store: a new tournament never reads an earlier one's records, a folded unstored game is refused") {
    MemoryStore kv;
    play::CommitGate gate(&kv, std::nullopt);
    play::TournamentStore store(&kv, toyLayout(), gate);
    std::vector<ToyGame> games = {{0, true, false, {1}}, {1, true, false, {2}}};
    const json fields = {{"config", {{"name", "first"}}}};
    REQUIRE_FALSE(store.sync(&fields, "finished", ToyGames(games)));
    store.clear();
    kv.set("toy.game.1.1", *ToyGames(games).record(1).value); // a record the clear missed
    std::vector<ToyGame> next = {{0, true, false, {9}}};
    const json second = {{"config", {{"name", "second"}}}};
    REQUIRE_FALSE(store.sync(&second, "finished", ToyGames(next)));
    ToyReader reader;
    play::TournamentStore again(&kv, toyLayout(), gate);
    REQUIRE(again.load(reader).ok());
    REQUIRE(reader.kept.size() == 1);
    CHECK(reader.kept[0].steps == std::vector<int>{9});

    std::vector<ToyGame> folded = {{0, true, false, {9}}, {5, true, true, {}}};
    const std::optional<std::string> refused = again.sync(nullptr, "running", ToyGames(folded));
    REQUIRE(refused);
    CHECK(refused->find("game 6 is no longer in memory and not in the store") != std::string::npos);
}
