// The sample tournament bundles the bundle tests share (bundle_test.cpp, bundle_pgn_test.cpp):
// four games of every kind, the harness of versions 4 to 6, and helpers to export and read back.
#pragma once

#include "src/modes/chess/bundle.h"
#include "src/play/bundle.h"

#include "engine/chess/pgn.h"
#include "engine/chess/position.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <functional>
#include <string>

namespace bundle_fixtures {

using namespace chaiba::chessmode;
using json = nlohmann::json;


inline constexpr const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
inline constexpr const char* kKey = "sk-or-" "v1-00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

inline TurnRecord turn(std::string uci, double cost = 0, long long prompt = 0, long long completion = 0) {
    TurnRecord t;
    t.uci = std::move(uci);
    t.san.assign(1, '?');
    t.costUsd = cost;
    t.promptTokens = prompt;
    t.completionTokens = completion;
    return t;
}

inline TournamentBundle sampleBundle() {
    TournamentBundle b;
    TournamentConfig& c = b.config;
    c.name = "Weekend \"arena\" \xE2\x99\x9E";
    c.participants = {{"llm:vendor/model-a", "Model A", -1},
                      {"engine:3", "", 1412.5},
                      {"random", "", -1},
                      {"llm:vendor/model-b", "", -1}};
    c.format = Format::DoubleRoundRobin;
    c.games = 1;
    c.concurrency = 3;
    c.tempo = Tempo::Ticker;
    c.tickerSeconds = 30;
    c.openings = {{"Italian", "", {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4"}}, {"Start", "", {}}};
    c.budgetUsd = 2.5;
    c.seed = 0xFFFFFFFFFFFFFFF1ULL;
    c.maxPlies = 300;

    GameRecord mate; // fool's mate: model A mates model B
    mate.pairing = {0, 3, 0, 1, -1, 1};
    mate.startFen = kStart;
    mate.moves = {turn("f2f3", 0.1, 1200, 300), turn("e7e5", 0.2, 1300, 310),
                  turn("g2g4", 0.1 + 0.2, 1400, 320), turn("d8h4", 1.0 / 3.0, 1500, 330)};
    mate.moves[3].reasoning = "Qh4# \xE2\x80\x94 \"mate\"\n\tdone";
    mate.moves[3].illegalAttempts = 2;
    mate.moves[3].attempts = 3;
    mate.moves[3].cachedTokens = 1024;
    mate.moves[3].reasoningTokens = 77;
    mate.result = GameResult::BlackWins;
    mate.termination = Termination::Checkmate;
    mate.detail = "checkmate";
    b.games.push_back(mate);

    GameRecord forfeit; // model B forfeits against the engine
    forfeit.pairing = {1, 1, 3, 1, -1, 0};
    forfeit.startFen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";
    forfeit.moves = {turn("g8f6", 0.01, 900, 90), turn("d2d3")};
    TurnRecord open = turn("", 0.05, 4000, 800);
    open.illegalAttempts = 4;
    open.attempts = 4;
    forfeit.openTurn = open;
    forfeit.result = GameResult::WhiteWins;
    forfeit.termination = Termination::ForfeitIllegalMove;
    forfeit.detail = "Black forfeits: 4 illegal moves";
    b.games.push_back(forfeit);

    GameRecord draw; // random vs engine: a short move-limit draw from a Chess960 start
    draw.pairing = {2, 2, 1, 2, 100, -1};
    draw.startFen = chaiba::chess::Position::chess960(100).fen();
    draw.moves = {turn("a2a3"), turn("a7a6"), turn("h2h3")};
    draw.result = GameResult::Draw;
    draw.termination = Termination::MoveLimit;
    b.games.push_back(draw);

    GameRecord running; // stopped mid-game
    running.pairing = {3, 0, 2, 2, -1, 0};
    running.startFen = kStart;
    running.moves = {turn("e2e4", 0.004, 800, 100)};
    running.openTurn = turn("", 0.0, 0, 0);
    b.games.push_back(running);

    b.ratingOptions.bootstrapSamples = 200;
    b.ratingOptions.seed = 77;
    return b;
}

inline std::string exported(const TournamentBundle& b) {
    const Parsed<std::string> text = exportBundle(b);
    REQUIRE_MESSAGE(text.ok(), text.error);
    return *text.value;
}

// Export the sample, change its JSON, import: the error (empty when it imports).
inline std::string importError(const std::function<void(json&)>& change) {
    json doc = json::parse(exported(sampleBundle()), nullptr, false);
    REQUIRE(!doc.is_discarded());
    change(doc);
    return importBundle(doc.dump()).error;
}


// A whole file of tests/data as text ("" when it cannot be read: the caller's REQUIRE says so).
inline std::string dataFile(const std::string& name) {
    std::FILE* f = std::fopen((std::string(CHAIBA_SOURCE_DIR "/tests/data/") + name).c_str(), "rb");
    if (!f) return {};
    std::string text;
    char buffer[4096];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) text.append(buffer, n);
    std::fclose(f);
    return text;
}

inline TournamentBundle withHarness() {
    TournamentBundle b = sampleBundle();
    b.harness.appVersion = "0.1.0";
    b.harness.exportedAt = "2025-03-01T12:00:00Z";
    b.config.contextOverrides = {std::nullopt, std::nullopt, std::nullopt, ContextPolicy::Stateless};
    return b;
}

// The PGN of a bundle read back with the repo's own PGN reader.
inline chaiba::chess::PgnReadResult pgnOf(const TournamentBundle& b, std::string* text = nullptr) {
    const Parsed<std::string> pgn = bundlePgn(b, kKey);
    REQUIRE_MESSAGE(pgn.ok(), pgn.error);
    if (text) *text = *pgn.value;
    chaiba::chess::PgnReadResult read = chaiba::chess::readPgn(*pgn.value);
    REQUIRE_MESSAGE(read.ok(), read.error);
    return read;
}


// The sample with version 6's facts: how the models were called, the prompts, the judge, the
// times of the first game and the judge's evaluation of its moves (fool's mate: after 2.g4 Black
// mates in one; 2...Qh4# leaves nothing to evaluate).
inline TournamentBundle withCallsAndTimes() {
    TournamentBundle b = withHarness();
    ModelCalls m;
    m.temperature = 0.3;
    m.maxTokens = 4000;
    m.reasoningEffort = chaiba::llm::ReasoningEffort::High;
    m.sendLegalMoves = true;
    m.retryAttempts = 5;
    m.sendFenOnError = false;
    m.promptBase = "Play well.";
    b.config.calls = m;
    b.harness.prompts = {{"system_base", "BASE"}, {"system_white", "W"}, {"tool_make_move", "make_move: T"}};
    b.harness.judgeNodes = 30000;
    GameRecord& mate = b.games[0];
    mate.startedAt = 1740830400; // 2025-03-01T12:00:00Z
    mate.finishedAt = 1740830400 + 3725;
    const int evals[][4] = {{0, 0, -40, 0}, {12, 1, -55, 0}, {900, 3, 0, -1}, {0, 0, -kCheckmateEvalCp, 0}};
    for (size_t i = 0; i < 4; ++i) {
        mate.moves[i].cpLoss = evals[i][0];
        mate.moves[i].judgement = evals[i][1];
        mate.moves[i].evalCp = evals[i][2];
        mate.moves[i].evalMate = evals[i][3];
    }
    b.games[1].startedAt = 1740830400 + 60; // the forfeit: started, its end not known
    return b;
}


} // namespace bundle_fixtures
