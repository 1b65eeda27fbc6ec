// Tournament bundle: export/import round trip reproduces config, games and leaderboard exactly;
// API keys are refused or redacted; corrupt bundles give clear errors and never crash.
#include "src/modes/chess/bundle.h"
#include "src/play/bundle.h"

#include "engine/chess/pgn.h"
#include "engine/chess/position.h"

#include "tests/bundle_fixtures.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>

using namespace bundle_fixtures;

TEST_CASE("bundle: round trip keeps config and games and reproduces the leaderboard exactly") {
    const TournamentBundle original = sampleBundle();
    const std::string text = exported(original);
    const Parsed<TournamentBundle> imported = importBundle(text);
    REQUIRE_MESSAGE(imported.ok(), imported.error);
    const TournamentBundle& b = *imported.value;
    CHECK(b.config == original.config);
    CHECK(b.ratingOptions == original.ratingOptions);
    REQUIRE(b.games.size() == original.games.size());
    for (size_t i = 0; i < b.games.size(); ++i) CHECK(b.games[i] == original.games[i]);

    const Leaderboard before = computeLeaderboard(original.config, original.games, original.ratingOptions);
    const Leaderboard after = computeLeaderboard(b.config, b.games, b.ratingOptions);
    CHECK(after == before); // bit for bit
    REQUIRE(b.leaderboard);
    CHECK(*b.leaderboard == before);
    CHECK(sameLeaderboard(*b.leaderboard, after));
    CHECK(exported(b) == text); // and the export is stable
}

TEST_CASE("bundle: version 2 keeps cached and reasoning tokens, a version 1 file still loads") {
    const TournamentBundle original = sampleBundle();
    json doc = json::parse(exported(original), nullptr, false);
    CHECK(doc["version"] == kBundleVersion);
    CHECK(doc["mode"] == "chess");
    CHECK(doc["games"][0]["moves"][3]["cachedTokens"] == 1024);
    CHECK(doc["games"][0]["moves"][3]["reasoningTokens"] == 77);
    // The version 1 layout: no mode, turns without the two token counts.
    doc["version"] = 1;
    doc.erase("mode");
    for (json& g : doc["games"]) {
        for (json& t : g["moves"]) {
            t.erase("cachedTokens");
            t.erase("reasoningTokens");
        }
        if (g.contains("openTurn")) {
            g["openTurn"].erase("cachedTokens");
            g["openTurn"].erase("reasoningTokens");
        }
    }
    const Parsed<TournamentBundle> v1 = importBundle(doc.dump());
    REQUIRE_MESSAGE(v1.ok(), v1.error);
    REQUIRE(v1.value->games.size() == original.games.size());
    CHECK(v1.value->games[0].moves[3].cachedTokens == 0);
    CHECK(v1.value->games[0].moves[3].reasoningTokens == 0);
    CHECK(v1.value->games[0].moves[3].promptTokens == original.games[0].moves[3].promptTokens);
    CHECK(v1.value->config == original.config);
    // Read again, it is written as the current version.
    CHECK(json::parse(exported(*v1.value))["version"] == kBundleVersion);
}

TEST_CASE("bundle: version 3 carries move quality and context policies, a version 2 file still loads") {
    TournamentBundle original = sampleBundle();
    original.config.contextPolicy = ContextPolicy::Stateless;
    original.config.contextOverrides = {std::nullopt, std::nullopt, std::nullopt, ContextPolicy::Full};
    original.games[0].moves[2].cpLoss = 912; // 2. g4??
    original.games[0].moves[2].judgement = 3;
    for (int i : {0, 1, 3}) original.games[0].moves[size_t(i)].cpLoss = 5;
    original.leaderboard.reset();
    json doc = json::parse(exported(original), nullptr, false);
    CHECK(doc["version"] == kBundleVersion);
    CHECK(doc["config"]["contextPolicy"] == "stateless");
    CHECK(doc["config"]["participants"][3]["contextPolicy"] == "full");
    CHECK(doc["games"][0]["moves"][2]["cpLoss"] == 912);
    const Parsed<TournamentBundle> back = importBundle(doc.dump());
    REQUIRE_MESSAGE(back.ok(), back.error);
    CHECK(back.value->config == original.config);
    CHECK(back.value->games == original.games);
    CHECK(contextPolicyOf(back.value->config, 0) == ContextPolicy::Stateless);
    CHECK(contextPolicyOf(back.value->config, 3) == ContextPolicy::Full);
    // The leaderboard: model B (participant 3) played 2. g4?? among its analysed moves.
    const Leaderboard& board = *back.value->leaderboard;
    for (const LeaderboardRow& r : board.rows) {
        if (r.participant != 3) continue;
        CHECK(r.contextPolicy == "full");
        CHECK(r.analysedMoves == 2);
        CHECK(r.blunders == 1);
        CHECK(r.blundersPer100Moves == doctest::Approx(50.0));
        CHECK(r.avgCpLoss == doctest::Approx((912 + 5) / 2.0));
    }
    // Version 2: no policies, no move quality -> full, not analysed.
    doc["version"] = 2;
    doc["config"].erase("contextPolicy");
    doc["config"]["participants"][3].erase("contextPolicy");
    for (json& g : doc["games"])
        for (json& t : g["moves"]) {
            t.erase("cpLoss");
            t.erase("judgement");
        }
    for (json& r : doc["leaderboard"]["rows"])
        for (const char* k : {"analysedMoves", "avgCpLoss", "blunders", "blundersPer100Moves", "contextPolicy"}) r.erase(k);
    const Parsed<TournamentBundle> v2 = importBundle(doc.dump());
    REQUIRE_MESSAGE(v2.ok(), v2.error);
    CHECK(v2.value->config.contextPolicy == ContextPolicy::Full);
    CHECK(v2.value->games[0].moves[2].cpLoss == -1);
    // A bad policy is a clear error.
    doc["config"]["contextPolicy"] = "sometimes";
    const Parsed<TournamentBundle> bad = importBundle(doc.dump());
    CHECK_FALSE(bad.ok());
    CHECK(bad.error.find("contextPolicy") != std::string::npos);
}

TEST_CASE("bundle: the play envelope checks size, format, version and mode") {
    chaiba::play::EnvelopeRule rule;
    rule.format = "chaiba-test";
    rule.description = "a test bundle";
    rule.maxVersion = 3;
    rule.mode = "cards";
    rule.modeSince = 2;
    CHECK(chaiba::play::openBundle(R"({"format":"chaiba-test","version":1})", rule).value->envelope.mode == "cards");
    CHECK(chaiba::play::openBundle(R"({"format":"chaiba-test","version":2,"mode":"cards"})", rule).ok());
    CHECK(chaiba::play::openBundle(R"({"format":"chaiba-test","version":2})", rule).error == "mode: missing");
    CHECK(chaiba::play::openBundle(R"({"format":"x","version":2})", rule).error == "format: not a test bundle");
    CHECK(chaiba::play::openBundle(R"({"format":"chaiba-test","version":4})", rule).error ==
          "version: version 4 is not supported (expected 1, 2 or 3)");
    CHECK(chaiba::play::openBundle("[1]", rule).error == "expected a JSON object at the top");
    CHECK(chaiba::play::openBundle("{", rule).error == "not a JSON document");
    CHECK(chaiba::play::openBundle(std::string(chaiba::play::kMaxBundleBytes + 1, ' '), rule).error.find("too large") !=
          std::string::npos);
    const json env = chaiba::play::envelopeJson({"chaiba-test", 2, "cards"});
    CHECK(env.dump() == R"({"format":"chaiba-test","mode":"cards","version":2})");
    CHECK(chaiba::play::redactSecrets("key sk-or-" "v1-0123456789abcdef0123 end", "") == "key [redacted] end");
}

TEST_CASE("bundle: sameLeaderboard tolerates last-bit rating noise only") {
    const TournamentBundle b = sampleBundle();
    const Leaderboard board = computeLeaderboard(b.config, b.games, b.ratingOptions);
    Leaderboard noisy = board;
    noisy.rows[0].rating += 1e-9;
    CHECK(noisy != board);
    CHECK(sameLeaderboard(noisy, board));
    noisy.rows[0].rating += 1.0;
    CHECK(!sameLeaderboard(noisy, board));
    Leaderboard other = board;
    other.rows[1].wins += 1;
    CHECK(!sameLeaderboard(other, board));
}

TEST_CASE("bundle: API keys never leave, never come in") {
    SUBCASE("a key in the config is refused at export") {
        TournamentBundle b = sampleBundle();
        b.config.participants[3].name = kKey;
        const Parsed<std::string> text = exportBundle(b, kKey);
        CHECK(!text.ok());
        CHECK(text.error == "config: participant 4: looks like an API key; keys never go into a tournament");
    }
    SUBCASE("the key or key-like text in game text is redacted") {
        TournamentBundle b = sampleBundle();
        b.games[0].moves[3].reasoning = std::string("my key is ") + kKey + " ok";
        b.games[1].detail = "header Bearer abc.def";
        b.games[1].openTurn->reasoning =
            "secret-but-not-key-like: hunter2 and sk-or-" "v1-ffffffffffffffffffffffff";
        const Parsed<std::string> text = exportBundle(b, "hunter2");
        REQUIRE_MESSAGE(text.ok(), text.error);
        CHECK(text.value->find(kKey) == std::string::npos);
        CHECK(text.value->find("hunter2") == std::string::npos);
        CHECK(text.value->find("sk-or-v1-ffff") == std::string::npos);
        CHECK(text.value->find("Bearer abc") == std::string::npos);
        const Parsed<TournamentBundle> back = importBundle(*text.value);
        REQUIRE(back.ok());
        CHECK(back.value->games[0].moves[3].reasoning == "my key is [redacted] ok");
        CHECK(back.value->games[1].detail == "header [redacted].def");
    }
    SUBCASE("an imported bundle carrying a key is refused") {
        CHECK(importError([](json& d) { d["config"]["apiKey"] = kKey; }) ==
              "config.apiKey: bundles never carry an API key");
        CHECK(importError([](json& d) { d["config"]["OPENROUTER_API_KEY"] = "x"; }) ==
              "config.OPENROUTER_API_KEY: bundles never carry an API key");
        CHECK(importError([](json& d) { d["config"]["participants"][0]["name"] = kKey; }) ==
              "config: participant 1: looks like an API key; keys never go into a tournament");
    }
}

TEST_CASE("bundle: corrupt documents give clear errors") {
    CHECK(importBundle("").error == "not a JSON document");
    CHECK(importBundle("{\"format\":").error == "not a JSON document");
    CHECK(importBundle("[1,2]").error == "expected a JSON object at the top");
    CHECK(importBundle("{}").error == "format: missing");
    CHECK(importError([](json& d) { d["format"] = "something-else"; }) ==
          "format: not a CHAIBA tournament bundle");
    CHECK(importError([](json& d) { d["version"] = 7; }) ==
          "version: version 7 is not supported (expected 1, 2, 3, 4, 5 or 6)");
    CHECK(importError([](json& d) { d["mode"] = "werewolf"; }) == "mode: a werewolf bundle, not a chess one");
    CHECK(importError([](json& d) { d.erase("mode"); }) == "mode: missing");
    CHECK(importError([](json& d) { d.erase("config"); }) == "config: missing");
    CHECK(importError([](json& d) { d["config"]["participants"] = "A,B"; }) ==
          "config.participants: expected a list");
    CHECK(importError([](json& d) { d["config"]["participants"][1]["spec"] = 7; }) ==
          "config.participants[1].spec: expected a string");
    CHECK(importError([](json& d) { d["config"]["format"] = "swiss"; }) ==
          "config.format: unknown format 'swiss'");
    CHECK(importError([](json& d) { d["config"]["seed"] = -4; }) ==
          "config.seed: expected a non-negative whole number");
    CHECK(importError([](json& d) { d["config"]["games"] = 1.5; }) ==
          "config.games: expected a whole number");
    CHECK(importError([](json& d) { d["config"]["concurrency"] = 0; }) ==
          "config.concurrency: expected a whole number from 1 to 64, got 0");
    CHECK(importError([](json& d) { d["config"]["openings"][0]["moves"][1] = "e7e4"; }) ==
          "config: opening 1: move 2 'e7e4' is not a legal UCI move");
    CHECK(importError([](json& d) { d["ratingOptions"]["virtualDraws"] = -1; }) ==
          "ratingOptions.virtualDraws: cannot be negative");
    CHECK(importError([](json& d) { d["games"] = json::object(); }) == "games: expected a list");
    CHECK(importError([](json& d) { d["games"][0]["white"] = 99; }) ==
          "games[0].white: expected a whole number from 0 to 3, got 99");
    CHECK(importError([](json& d) { d["games"][0]["black"] = 3; }) ==
          "games[0]: a player cannot play itself");
    CHECK(importError([](json& d) { d["games"][1]["result"] = "2-0"; }) ==
          "games[1].result: expected \"1-0\", \"0-1\", \"1/2-1/2\" or \"*\"");
    CHECK(importError([](json& d) { d["games"][0]["result"] = "1/2-1/2"; }) ==
          "games[0]: result 1/2-1/2 does not fit termination checkmate");
    CHECK(importError([](json& d) { d["games"][3]["result"] = "1-0"; }) ==
          "games[3]: result 1-0 does not fit termination unfinished");
    CHECK(importError([](json& d) { d["games"][1]["termination"] = "resigned"; }) ==
          "games[1].termination: unknown termination 'resigned'");
    CHECK(importError([](json& d) { d["games"][0]["moves"][1]["uci"] = "e2e5"; }) ==
          "games[0].moves[1].uci: 'e2e5' is not a legal move");
    CHECK(importError([](json& d) { d["games"][0]["moves"][0]["costUsd"] = "0.1"; }) ==
          "games[0].moves[0].costUsd: expected a number");
    CHECK(importError([](json& d) { d["games"][0]["moves"][0]["costUsd"] = -0.5; }) ==
          "games[0].moves[0].costUsd: a cost cannot be negative");
    CHECK(importError([](json& d) { d["games"][0]["moves"][0].erase("promptTokens"); }) ==
          "games[0].moves[0].promptTokens: missing");
    CHECK(importError([](json& d) { d["games"][1]["openTurn"] = 5; }) ==
          "games[1].openTurn: expected an object");
    CHECK(importError([](json& d) {
              d["games"][0]["startFen"] = "8/8/8/8/8/8/8/8 w - - 0 1";
          }).rfind("games[0].startFen: bad FEN: ", 0) == 0);
    CHECK(importError([](json& d) { d["games"][2]["chess960Position"] = 960; }) ==
          "games[2].chess960Position: expected a whole number from -1 to 959, got 960");
    CHECK(importError([](json& d) { d["games"][2]["opening"] = 2; }) ==
          "games[2].opening: expected a whole number from -1 to 1, got 2");
    CHECK(importError([](json& d) { d["games"][1]["id"] = 0; }) ==
          "games[1].id: repeats an earlier game's id");
    CHECK(importError([](json& d) { d["leaderboard"]["rows"][0]["rank"] = -1; }) ==
          "leaderboard.rows[0].rank: expected a whole number from 0 to 4, got -1");
    CHECK(importError([](json& d) { d["leaderboard"]["rows"][2]["tokens"] = 18446744073709551615ULL; }) ==
          "leaderboard.rows[2].tokens: number out of range");
    CHECK(importError([](json& d) { d.erase("leaderboard"); }).empty()); // optional: recomputed by the app
}

TEST_CASE("bundle: truncated and bit-flipped documents never crash") {
    const std::string text = exported(sampleBundle());
    SplitMix64 rng(2024);
    int accepted = 0;
    for (int i = 0; i < 300; ++i) {
        std::string broken = text;
        if (i % 2 == 0) {
            broken.resize(size_t(rng.below(text.size())));
        } else {
            for (int k = 0; k < 3; ++k) broken[size_t(rng.below(broken.size()))] = char(rng.below(256));
        }
        const Parsed<TournamentBundle> r = importBundle(broken);
        CHECK(r.ok() != !r.error.empty());
        accepted += r.ok() ? 1 : 0;
    }
    CHECK(accepted < 300);
}

TEST_CASE("config files: lenient JSON with defaults, spec strings, the same checks") {
    const Parsed<TournamentConfig> minimal = parseConfigJson(R"({"participants": ["random", "engine:1"]})");
    REQUIRE_MESSAGE(minimal.ok(), minimal.error);
    const TournamentConfig defaults;
    CHECK(minimal.value->participants == std::vector<Participant>{{"random", "", -1}, {"engine:1", "", -1}});
    CHECK(minimal.value->format == defaults.format);
    CHECK(minimal.value->games == defaults.games);
    CHECK(minimal.value->tickerSeconds == 60);
    CHECK(!minimal.value->budgetUsd);

    CHECK(parseConfigJson("{}").error == "participants: missing");
    CHECK(parseConfigJson(R"({"participants": ["random", 3]})").error ==
          "participants[1]: expected a spec or an object");
    CHECK(parseConfigJson(R"({"participants": ["random", "llm:"]})").error ==
          "participant 2: 'llm:' needs a model id without spaces after llm:");
    CHECK(parseConfigJson(R"({"participants": ["random", "engine"], "format": "knockout"})").error ==
          "format: unknown format 'knockout'");
    CHECK(parseConfigJson(R"({"participants": ["random", "engine"], "apiKey": "x"})").error ==
          "apiKey: bundles never carry an API key");

    // configJson writes every field; reading it back gives the same config.
    TournamentBundle b = sampleBundle();
    const Parsed<std::string> text = configJson(b.config);
    REQUIRE(text.ok());
    const Parsed<TournamentConfig> back = parseConfigJson(*text.value);
    REQUIRE_MESSAGE(back.ok(), back.error);
    CHECK(*back.value == b.config);
}

TEST_CASE("config files: the documented example is valid") {
    std::FILE* f = std::fopen(CHAIBA_SOURCE_DIR "/tests/data/arena_config_example.json", "rb");
    REQUIRE(f != nullptr);
    std::string text;
    char buffer[4096];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) text.append(buffer, n);
    std::fclose(f);
    Parsed<TournamentConfig> config = parseConfigJson(text);
    REQUIRE_MESSAGE(config.ok(), config.error);
    CHECK(config.value->participants.size() == 5);
    CHECK(config.value->participants[1].displayName() == "Claude");
    CHECK(config.value->format == Format::RoundRobin);
    CHECK(config.value->openings.size() == 2);
    CHECK(*config.value->budgetUsd == 5.0);
    CHECK(config.value->seed == 42);

    // Engine anchors from the caller's calibration table (here: 1000 + 200 per level, level 0 unrated).
    fillEngineAnchors(*config.value, [](int level) -> std::optional<double> {
        if (level == 0) return std::nullopt;
        return 1000.0 + 200.0 * (level < 0 ? 10 : level);
    });
    CHECK(anchorRatings(*config.value) == std::vector<double>{-1, -1, 1400, 2000, -1});
}

TEST_CASE("game records: the compact move layout decodes to the same games as the named one, with the same checks") {
    const TournamentBundle b = sampleBundle();
    for (const GameRecord& g : b.games) {
        CAPTURE(g.pairing.id);
        GameRecord withKey = g;
        if (!withKey.moves.empty()) withKey.moves.back().reasoning += " my key " + std::string(kKey);
        for (const TurnLayout layout : {TurnLayout::Named, TurnLayout::Compact}) {
            const Parsed<std::string> line = gameJsonLine(withKey, kKey, layout);
            REQUIRE(line.ok());
            CHECK(line.value->find(kKey) == std::string::npos); // redacted in both layouts
            const Parsed<std::string> plain = gameJsonLine(g, {}, layout);
            REQUIRE(plain.ok());
            const Parsed<GameRecord> back = decodeGameJson(*plain.value, b.config);
            REQUIRE_MESSAGE(back.ok(), back.error);
            CHECK(*back.value == g);
            if (layout == TurnLayout::Compact && !g.moves.empty()) {
                CHECK(plain.value->size() * 2 < gameJsonLine(g).value->size()); // well under the named text
                // A move appended as its own compact record (the page's running games).
                GameRecord shorter = g;
                shorter.moves.pop_back();
                shorter.result = GameResult::Unfinished;
                shorter.termination = Termination::Unfinished;
                shorter.openTurn.reset();
                shorter.detail.clear();
                const Parsed<GameRecord> joined = decodeGameJson(*gameJsonLine(shorter, {}, layout).value, b.config,
                                                                 {*turnJsonLine(g.moves.back(), {}, layout).value});
                REQUIRE_MESSAGE(joined.ok(), joined.error);
                CHECK(joined.value->moves == g.moves);
            }
        }
    }
    // Bad compact moves are refused with their place, as named ones are.
    const GameRecord& mate = b.games.front();
    const std::string good = *gameJsonLine(mate, {}, TurnLayout::Compact).value;
    auto withMove = [&](const std::string& move) {
        nlohmann::json doc = nlohmann::json::parse(good);
        doc["moves"][1] = nlohmann::json::parse(move);
        return decodeGameJson(doc.dump(), b.config);
    };
    const std::vector<std::pair<std::string, std::string>> bad = {
        {R"(["e7e5","e5",""])", "game.moves[1]: expected 12 fields, or 14 with the evaluation, got 3"},
        {R"([5,"e5","",1,0,0.0,0,0,0,0,-1,0])", "game.moves[1][0]: expected a string"},
        {R"(["e7e5","e5","",1.5,0,0.0,0,0,0,0,-1,0])", "game.moves[1][3]: expected a whole number"},
        {R"(["e7e5","e5","",1,0,-0.5,0,0,0,0,-1,0])", "game.moves[1][5]: a cost cannot be negative"},
        {R"(["e7e5","e5","",1,0,"x",0,0,0,0,-1,0])", "game.moves[1][5]: expected a number"},
        {R"(["e7e5","e5","",1,0,0.0,0,0,0,0,-1,4])", "game.moves[1][11]: expected a whole number from 0 to 3, got 4"},
        {R"(["e7e4","e5","",1,0,0.0,0,0,0,0,-1,0])", "game.moves[1]"},
    };
    for (const auto& [move, error] : bad) {
        CAPTURE(move);
        const Parsed<GameRecord> r = withMove(move);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error.find(error) == 0);
    }
}

TEST_CASE("bundle: written a game at a time, the pieces are exportBundle's text, and a writer that fails stops it") {
    TournamentBundle b = sampleBundle();
    std::vector<std::string> pieces;
    REQUIRE_FALSE(exportBundlePieces(b, kKey, [&](std::string_view p) {
        pieces.emplace_back(p);
        return true;
    }));
    CHECK(pieces.size() == b.games.size() + 3); // before the games, one per game, the list's end, after
    std::string joined;
    for (const std::string& p : pieces) joined += p;
    const Parsed<std::string> whole = exportBundle(b, kKey);
    REQUIRE(whole.ok());
    CHECK(joined == *whole.value);
    CHECK(nlohmann::json::parse(joined)["games"].size() == b.games.size());
    int written = 0;
    const std::optional<std::string> stopped = exportBundlePieces(b, kKey, [&](std::string_view) { return ++written < 2; });
    REQUIRE(stopped);
    CHECK(written == 2);
    // A game whose text would hold the key verbatim is refused, as exportBundle refuses it.
    b.games.front().startFen = kKey;
    CHECK(exportBundlePieces(b, kKey, [](std::string_view) { return true; }).has_value());
}

TEST_CASE("bundle: folded games are read back whole one at a time, and the JSON and PGN are the whole bundle's") {
    const TournamentBundle whole = sampleBundle();
    TournamentBundle folded = whole;
    folded.leaderboard = computeLeaderboard(whole.config, whole.games, whole.ratingOptions);
    TournamentBundle expected = whole;
    expected.leaderboard = folded.leaderboard;
    int finished = 0;
    for (GameRecord& g : folded.games) {
        if (g.finished()) ++finished;
        foldRecord(g); // an unfinished game stays whole
    }
    REQUIRE(finished > 0);
    int reads = 0;
    const WholeRecordSource source = [&](const GameRecord& f) {
        ++reads;
        for (const GameRecord& g : whole.games)
            if (g.pairing.id == f.pairing.id) return Parsed<GameRecord>{g, {}};
        return Parsed<GameRecord>::fail("not stored");
    };
    std::string json, pgn;
    REQUIRE_FALSE(exportBundlePieces(folded, kKey, [&](std::string_view p) { json += p; return true; }, source));
    CHECK(reads == finished);
    CHECK(json == *exportBundle(expected, kKey).value);
    REQUIRE_FALSE(bundlePgnPieces(folded, kKey, [&](std::string_view p) { pgn += p; return true; }, source));
    CHECK(reads == 2 * finished);
    CHECK(pgn == *bundlePgn(whole, kKey).value);
    // No source, a failed read or the wrong game read back: an error naming the game.
    const std::string id = std::to_string(folded.games.front().pairing.id);
    const std::optional<std::string> nowhere = exportBundlePieces(folded, kKey, [](std::string_view) { return true; });
    REQUIRE(nowhere);
    CHECK(*nowhere == "games[0] (#" + id + "): held folded, and there is nowhere to read it back from");
    const std::optional<std::string> failed = bundlePgnPieces(folded, kKey, [](std::string_view) { return true; },
                                                              [](const GameRecord&) { return Parsed<GameRecord>::fail("disk gone"); });
    REQUIRE(failed);
    CHECK(*failed == "games[0] (#" + id + "): disk gone");
    const std::optional<std::string> wrong = exportBundlePieces(folded, kKey, [](std::string_view) { return true; },
                                                                [&](const GameRecord&) { return Parsed<GameRecord>{whole.games.back(), {}}; });
    REQUIRE(wrong);
    CHECK(wrong->find("what was read back is not this game whole") != std::string::npos);
}


TEST_CASE("bundle: version 4 records the harness, and it survives export and import") {
    const TournamentBundle original = withHarness();
    const std::string text = exported(original);
    const json doc = json::parse(text);
    CHECK(doc["version"] == kBundleVersion);
    const json& h = doc["harness"];
    CHECK(h["appVersion"] == "0.1.0");
    CHECK(h["exportedAt"] == "2025-03-01T12:00:00Z");
    CHECK(h["plyLimit"] == 300);
    REQUIRE(h["participants"].size() == 4);
    CHECK(h["participants"][0] == json{{"spec", "llm:vendor/model-a"},
                                       {"kind", "model"},
                                       {"modelId", "vendor/model-a"},
                                       {"contextPolicy", "full"}});
    // Engines and random movers are not prompted: no context policy claimed for them.
    CHECK(h["participants"][1] == json{{"spec", "engine:3"}, {"kind", "engine"}, {"engineLevel", 3}});
    CHECK(h["participants"][2] == json{{"spec", "random"}, {"kind", "random"}});
    CHECK(h["participants"][3]["contextPolicy"] == "stateless"); // its override, not the tournament's
    CHECK(text.find(kKey) == std::string::npos);

    const Parsed<TournamentBundle> back = importBundle(text);
    REQUIRE_MESSAGE(back.ok(), back.error);
    CHECK(back.value->harness == original.harness);
    CHECK(back.value->config == original.config);
    CHECK(exported(*back.value) == text); // the harness goes out again as it came in

    // A caller that does not say: unknown, written as null, read back as unknown.
    TournamentBundle unknown = sampleBundle();
    const json plain = json::parse(exported(unknown));
    CHECK(plain["harness"]["appVersion"].is_null());
    CHECK(plain["harness"]["exportedAt"].is_null());
    const Parsed<TournamentBundle> plainBack = importBundle(plain.dump());
    REQUIRE_MESSAGE(plainBack.ok(), plainBack.error);
    CHECK(plainBack.value->harness == BundleHarness{});
}

TEST_CASE("bundle: a harness that contradicts its config or carries a bad time is refused") {
    auto importWithHarness = [](const std::function<void(json&)>& change) {
        json doc = json::parse(exported(withHarness()));
        change(doc);
        return importBundle(doc.dump()).error;
    };
    CHECK(importWithHarness([](json& d) { d.erase("harness"); }) == "harness: missing");
    CHECK(importWithHarness([](json& d) { d["harness"] = 3; }) == "harness: expected an object");
    CHECK(importWithHarness([](json& d) { d["harness"]["appVersion"] = 1; }) ==
          "harness.appVersion: expected a string");
    CHECK(importWithHarness([](json& d) { d["harness"]["exportedAt"] = "2025-02-30T12:00:00Z"; }) ==
          "harness.exportedAt: expected a UTC time like 2025-03-01T12:00:00Z");
    CHECK(importWithHarness([](json& d) { d["harness"]["apiKey"] = "x"; }) ==
          "harness.apiKey: bundles never carry an API key");
    CHECK(importWithHarness([](json& d) { d["harness"]["appVersion"] = kKey; }) ==
          "harness.appVersion: looks like an API key; keys never go into a tournament");
    CHECK(importWithHarness([](json& d) { d["harness"]["plyLimit"] = 301; }) ==
          "harness.plyLimit: does not match config.maxPlies (300)");
    CHECK(importWithHarness([](json& d) { d["harness"]["participants"].erase(3); }) ==
          "harness.participants: expected 4 entries, one per participant, got 3");
    CHECK(importWithHarness([](json& d) { d["harness"]["participants"][3]["contextPolicy"] = "full"; }) ==
          "harness.participants[3]: does not match config.participants[3]");
    CHECK(importWithHarness([](json& d) { d["harness"]["participants"][1]["engineLevel"] = 4; }) ==
          "harness.participants[1]: does not match config.participants[1]");

    // Export refuses what import would refuse, rather than write a bundle nobody can read.
    TournamentBundle b = withHarness();
    b.harness.exportedAt = "2025-03-01 12:00";
    CHECK(exportBundle(b).error == "harness.exportedAt: expected a UTC time like 2025-03-01T12:00:00Z");
    b.harness.exportedAt.clear();
    b.harness.appVersion = kKey;
    CHECK(exportBundle(b, kKey).error ==
          "harness.appVersion: looks like an API key; keys never go into a tournament");
    b.harness.appVersion = std::string(65, '9');
    CHECK(exportBundle(b).error == "harness.appVersion: longer than 64 characters");
}

TEST_CASE("bundle: a version 3 file written by the previous release still imports, harness unknown") {
    const std::string text = dataFile("bundle_v3.json");
    REQUIRE_FALSE(text.empty());
    REQUIRE(json::parse(text)["version"] == 3);
    REQUIRE(!json::parse(text).contains("harness"));
    const Parsed<TournamentBundle> old = importBundle(text);
    REQUIRE_MESSAGE(old.ok(), old.error);
    CHECK(old.value->harness == BundleHarness{});
    CHECK(old.value->config.participants.size() == 4);
    REQUIRE(old.value->games.size() == 4);
    CHECK(old.value->games[1].termination == Termination::ForfeitIllegalMove);
    CHECK(old.value->games[0].moves[3].reasoningTokens == 77);
    // Written again, it is the current version with the harness it can state; everything else is
    // laid out as version 3 laid it out.
    json again = json::parse(exported(*old.value));
    CHECK(again["version"] == kBundleVersion);
    CHECK(again["harness"]["appVersion"].is_null());
    CHECK(again["harness"]["participants"].size() == 4);
    again.erase("harness");
    again["version"] = 3;
    CHECK(again["config"]["contextWindowMoves"] == kDefaultContextWindowMoves); // version 5's, defaulted
    CHECK(again["config"]["gameTokenBudget"].is_null());
    CHECK(again["config"]["calls"].is_null()); // version 6's, not known
    again["config"].erase("contextWindowMoves");
    again["config"].erase("gameTokenBudget");
    again["config"].erase("calls");
    CHECK(again == json::parse(text));
}

TEST_CASE("bundle: version 5 records the windowed policy, its window and the per-game token budget") {
    TournamentBundle original = withHarness();
    original.config.contextPolicy = ContextPolicy::Windowed;
    original.config.contextWindowMoves = 6;
    original.config.contextOverrides = {std::nullopt, std::nullopt, std::nullopt, ContextPolicy::Full};
    original.config.gameTokenBudget = 250000;
    original.games[1].termination = Termination::ForfeitTokenBudget; // model B had used its tokens
    original.games[1].detail = "Black forfeits: used 250120 tokens, its budget for a game is 250000";
    original.leaderboard.reset();
    const std::string text = exported(original);
    json doc = json::parse(text);
    CHECK(doc["version"] >= 5); // version 5 brought them; later versions keep them
    CHECK(doc["config"]["contextPolicy"] == "windowed");
    CHECK(doc["config"]["contextWindowMoves"] == 6);
    CHECK(doc["config"]["gameTokenBudget"] == 250000);
    CHECK(doc["games"][1]["termination"] == "forfeit_token_budget");
    // The harness says what each model was sent, the window with it.
    CHECK(doc["harness"]["participants"][0]["contextPolicy"] == "windowed");
    CHECK(doc["harness"]["participants"][0]["contextWindowMoves"] == 6);
    CHECK(!doc["harness"]["participants"][3].contains("contextWindowMoves"));
    const Parsed<TournamentBundle> back = importBundle(text);
    REQUIRE_MESSAGE(back.ok(), back.error);
    CHECK(back.value->config == original.config);
    CHECK(back.value->games == original.games);
    CHECK(exported(*back.value) == text);
    // The forfeit counts as one: model B's loss.
    for (const LeaderboardRow& r : back.value->leaderboard->rows)
        if (r.participant == 3) CHECK(r.forfeits == 1);

    // A windowed bundle without its window is refused (the default would be a guess).
    json noWindow = doc;
    noWindow["config"].erase("contextWindowMoves");
    CHECK(importBundle(noWindow.dump()).error == "config.contextWindowMoves: missing");
    json badBudget = doc;
    badBudget["config"]["gameTokenBudget"] = 0;
    CHECK(importBundle(badBudget.dump()).error.find("config.gameTokenBudget") == 0);
    // A config file may leave the window to its default.
    const Parsed<TournamentConfig> file =
        parseConfigJson(R"({"participants": ["llm:a/b", "random"], "contextPolicy": "windowed", "gameTokenBudget": 9000})");
    REQUIRE_MESSAGE(file.ok(), file.error);
    CHECK(file.value->contextWindowMoves == kDefaultContextWindowMoves);
    CHECK(file.value->gameTokenBudget == 9000);
    // A participant of its own policy: windowed with the tournament's window.
    const Parsed<TournamentConfig> one = parseConfigJson(
        R"({"participants": [{"spec": "llm:a/b", "contextPolicy": "windowed"}, "llm:c/d"], "contextWindowMoves": 3})");
    REQUIRE_MESSAGE(one.ok(), one.error);
    CHECK(contextPolicyOf(*one.value, 0) == ContextPolicy::Windowed);
    CHECK(contextPolicyOf(*one.value, 1) == ContextPolicy::Full);
    CHECK(one.value->contextWindowMoves == 3);
}

TEST_CASE("bundle: a version 4 file, written before the window and the token budget, still loads") {
    // What version 4 wrote: no contextWindowMoves, no gameTokenBudget, no windowed policy.
    json doc = json::parse(exported(withHarness()));
    doc["version"] = 4;
    doc["config"].erase("contextWindowMoves");
    doc["config"].erase("gameTokenBudget");
    const Parsed<TournamentBundle> old = importBundle(doc.dump());
    REQUIRE_MESSAGE(old.ok(), old.error);
    CHECK(old.value->config.contextWindowMoves == kDefaultContextWindowMoves);
    CHECK_FALSE(old.value->config.gameTokenBudget.has_value());
    CHECK(old.value->config.budgetUsd == 2.5);
    CHECK(old.value->harness == withHarness().harness);
    CHECK(old.value->games == withHarness().games);
}

TEST_CASE("bundle: utcIsoTime writes UTC ISO 8601 and isUtcIsoTime takes only that form") {
    CHECK(utcIsoTime(0) == "1970-01-01T00:00:00Z");
    CHECK(utcIsoTime(951782400) == "2000-02-29T00:00:00Z");
    CHECK(utcIsoTime(1740830400) == "2025-03-01T12:00:00Z");
    CHECK(utcIsoTime(-1) == "1969-12-31T23:59:59Z");
    for (const int64_t t : {int64_t(0), int64_t(951782400), int64_t(1740830400), int64_t(4102444799)})
        CHECK(isUtcIsoTime(utcIsoTime(t)));
    CHECK(isUtcIsoTime("2024-02-29T23:59:59Z"));
    CHECK_FALSE(isUtcIsoTime("2025-02-29T00:00:00Z"));
    CHECK_FALSE(isUtcIsoTime("2025-04-31T00:00:00Z"));
    CHECK_FALSE(isUtcIsoTime("2025-03-01T24:00:00Z"));
    CHECK_FALSE(isUtcIsoTime("2025-03-01 12:00:00Z"));
    CHECK_FALSE(isUtcIsoTime("2025-03-01T12:00:00+01:00"));
    CHECK_FALSE(isUtcIsoTime("2025-03-01T12:00:00.5Z"));
    CHECK_FALSE(isUtcIsoTime(""));
}


TEST_CASE("bundle: version 6 records how the models were called, the prompts, the judge and the games' times") {
    const TournamentBundle original = withCallsAndTimes();
    const std::string text = exported(original);
    const json doc = json::parse(text);
    CHECK(doc["version"] == 6);
    const json& calls = doc["config"]["calls"];
    CHECK(calls["temperature"] == 0.3);
    CHECK(calls["maxTokens"] == 4000);
    CHECK(calls["reasoningEffort"] == "high");
    CHECK(calls["legalMoves"] == true);
    CHECK(calls["retries"] == 5);
    CHECK(calls["fenOnError"] == false);
    CHECK(calls["contextMessage"] == true);
    CHECK(calls["prompts"]["base"] == "Play well.");
    const json& h = doc["harness"];
    CHECK(h["calls"] == calls); // restated
    // The prompts as sent: the config's override of the base, the shipped white part.
    CHECK(h["prompts"]["system_base"] == "Play well.");
    CHECK(h["prompts"]["system_white"] == "W");
    CHECK(h["prompts"]["tool_make_move"] == "make_move: T");
    CHECK(h["judge"]["maxNodesPerPosition"] == 30000);
    CHECK(h["judge"]["thresholds"].get<std::string>().find("MateAdvice") != std::string::npos);
    CHECK(h["firstGameAt"] == "2025-03-01T12:00:00Z");
    CHECK(h["lastGameAt"] == "2025-03-01T13:02:05Z");
    const json& game = doc["games"][0];
    CHECK(game["startedAt"] == "2025-03-01T12:00:00Z");
    CHECK(game["finishedAt"] == "2025-03-01T13:02:05Z");
    CHECK(game["moves"][2]["evalMate"] == -1);
    CHECK_FALSE(doc["games"][1].contains("finishedAt"));
    CHECK_FALSE(doc["games"][2].contains("startedAt"));
    CHECK_FALSE(doc["games"][2]["moves"][0].contains("evalCp")); // not analysed: no evaluation claimed

    const Parsed<TournamentBundle> back = importBundle(text);
    REQUIRE_MESSAGE(back.ok(), back.error);
    CHECK(back.value->config == original.config);
    CHECK(back.value->games == original.games);
    for (size_t i = 0; i < original.games.size(); ++i) {
        CHECK(back.value->games[i].startedAt == original.games[i].startedAt);
        CHECK(back.value->games[i].finishedAt == original.games[i].finishedAt);
    }
    CHECK(back.value->harness.judgeNodes == 30000);
    CHECK(exported(*back.value) == text); // the harness goes out again as it came in

    // A tournament that does not say how its models were called: null, and nothing claimed.
    const json plain = json::parse(exported(withHarness()));
    CHECK(plain["config"]["calls"].is_null());
    CHECK(plain["harness"]["calls"].is_null());
    CHECK(plain["harness"]["prompts"].is_null());
    CHECK(plain["harness"]["judge"].is_null());
    CHECK(plain["harness"]["firstGameAt"].is_null());
}

TEST_CASE("bundle: version 6's calls, times and evaluations are checked on import") {
    auto importChanged = [](const std::function<void(json&)>& change) {
        json doc = json::parse(exported(withCallsAndTimes()));
        change(doc);
        return importBundle(doc.dump()).error;
    };
    CHECK(importChanged([](json& d) { d["harness"]["calls"]["retries"] = 2; }) ==
          "harness.calls: does not match config.calls");
    CHECK(importChanged([](json& d) { d["harness"]["calls"] = nullptr; }) ==
          "harness.calls: missing, but config.calls says how the models were called");
    CHECK(importChanged([](json& d) { d["config"]["calls"]["temperature"] = 2.5; }) ==
          "config.calls.temperature: expected 0 to 2 (or null)");
    CHECK(importChanged([](json& d) { d["config"]["calls"]["reasoningEffort"] = "extreme"; }) ==
          "config.calls.reasoningEffort: expected \"default\", \"minimal\", \"low\", \"medium\" or \"high\"");
    CHECK(importChanged([](json& d) { d["config"]["calls"]["retries"] = 11; }).find("config.calls.retries") == 0);
    CHECK(importChanged([](json& d) { d["config"]["calls"]["apiKey"] = "x"; }) ==
          "config.calls.apiKey: bundles never carry an API key");
    CHECK(importChanged([](json& d) { d["games"][0]["startedAt"] = "yesterday"; }) ==
          "games[0].startedAt: expected a UTC time like 2025-03-01T12:00:00Z");
    CHECK(importChanged([](json& d) { d["games"][0]["finishedAt"] = "2025-03-01T11:00:00Z"; }) ==
          "games[0].finishedAt: is before startedAt");
    CHECK(importChanged([](json& d) { d["games"][0]["moves"][0]["evalCp"] = 99999; }).find("games[0].moves[0].evalCp") == 0);
    CHECK(importChanged([](json& d) { d["harness"]["prompts"]["system_base"] = 3; }) ==
          "harness.prompts.system_base: expected a string");
    // A config file may say only part of it: the rest keeps its defaults.
    const Parsed<TournamentConfig> file =
        parseConfigJson(R"({"participants": ["llm:a/b", "engine:1"], "calls": {"temperature": 0, "retries": 1}})");
    REQUIRE_MESSAGE(file.ok(), file.error);
    REQUIRE(file.value->calls);
    CHECK(file.value->calls->temperature == 0.0);
    CHECK(file.value->calls->retryAttempts == 1);
    CHECK(file.value->calls->sendFenOnError);
    CHECK_FALSE(file.value->calls->maxTokens);
}

TEST_CASE("game records: the compact move keeps the evaluation, and a 12-field move of an older store still loads") {
    const TournamentBundle b = withCallsAndTimes();
    const GameRecord& mate = b.games[0];
    const Parsed<std::string> compact = gameJsonLine(mate, kKey, TurnLayout::Compact);
    REQUIRE_MESSAGE(compact.ok(), compact.error);
    json doc = json::parse(*compact.value);
    CHECK(doc["moves"][2].size() == 14);
    const Parsed<GameRecord> back = decodeGameJson(*compact.value, b.config);
    REQUIRE_MESSAGE(back.ok(), back.error);
    CHECK(back.value->moves == mate.moves);
    CHECK(back.value->startedAt == mate.startedAt);
    for (json& m : doc["moves"]) // as an older store wrote it: the first 12 fields
        while (m.size() > 12) m.erase(m.size() - 1);
    const Parsed<GameRecord> old = decodeGameJson(doc.dump(), b.config);
    REQUIRE_MESSAGE(old.ok(), old.error);
    CHECK(old.value->moves[2].evalMate == 0);
    CHECK(old.value->moves[2].cpLoss == 900);
    doc["moves"][0].push_back(1);
    CHECK(decodeGameJson(doc.dump(), b.config).error == "game.moves[0]: expected 12 fields, or 14 with the evaluation, got 13");
}
