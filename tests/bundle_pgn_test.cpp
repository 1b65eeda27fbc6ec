// Tournament bundles as PGN: every game with its tags, the judge's [%eval] and NAGs, reasoning as
// comments, dates, times and costs, and the game's detail after its last move.
#include "tests/bundle_fixtures.h"

#include <doctest/doctest.h>

#include <algorithm>

using namespace bundle_fixtures;

TEST_CASE("bundle PGN: every game with names, results, Chess960 start and redacted comments") {
    TournamentBundle b = sampleBundle();
    b.games[0].moves[1].reasoning = std::string("leaked ") + kKey;
    const Parsed<std::string> pgn = bundlePgn(b, kKey);
    REQUIRE_MESSAGE(pgn.ok(), pgn.error);
    CHECK(pgn.value->find(kKey) == std::string::npos);
    const chaiba::chess::PgnReadResult read = chaiba::chess::readPgn(*pgn.value);
    REQUIRE_MESSAGE(read.ok(), read.error);
    REQUIRE(read.games.size() == 4);
    CHECK(read.games[0].tag("White") == "llm:vendor/model-b");
    CHECK(read.games[0].tag("Black") == "Model A");
    CHECK(read.games[0].tag("Event") == b.config.name);
    CHECK(read.games[0].result == "0-1");
    CHECK(read.games[0].tag("Termination") == "checkmate");
    CHECK(read.games[0].moves.size() == 4);
    CHECK(read.games[0].comments[1] == "leaked [redacted]");
    CHECK(toGame(read.games[0]).status() == chaiba::chess::GameStatus::Checkmate);
    CHECK(read.games[1].start.fen() == b.games[1].startFen);
    CHECK(read.games[1].tag("Termination") == "forfeit_illegal_move");
    CHECK(read.games[2].tag("Variant") == "Chess960");
    CHECK(read.games[2].start.fen() == b.games[2].startFen);
    CHECK(read.games[2].result == "1/2-1/2");
    CHECK(read.games[3].result == "*");
    for (size_t i = 0; i < 4; ++i) CHECK(read.games[i].moves.size() == b.games[i].moves.size());

    b.games[0].moves[1].uci = "e7e4";
    CHECK(bundlePgn(b).error.rfind("games[0].moves[1].uci: ", 0) == 0);
}

TEST_CASE("bundle PGN: the game's detail follows its last move, not the start") {
    TournamentBundle b = sampleBundle();
    std::string text;
    chaiba::chess::PgnReadResult read = pgnOf(b, &text);
    // Game 1: 3... Nf6 4. d3, then Black forfeits on its open turn.
    const chaiba::chess::PgnGame& forfeit = read.games[1];
    REQUIRE(forfeit.moves.size() == 2);
    CHECK(forfeit.preComment.empty());
    CHECK(forfeit.comments.back() == "Black forfeits: 4 illegal moves");
    const size_t game = text.find(b.games[1].startFen);
    REQUIRE(game != std::string::npos);
    CHECK(text.find("3... Nf6 4. d3 {Black forfeits: 4 illegal moves} 1-0", game) != std::string::npos);
    // Game 0: the mating move's reasoning stays first, the detail joins it.
    CHECK(read.games[0].preComment.empty());
    CHECK(read.games[0].comments.back() == "Qh4# \xE2\x80\x94 \"mate\" done -- checkmate");

    // The detail is redacted like the rest, and a game without a move keeps it before the moves.
    b.games[1].moves.back().reasoning = "quiet move";
    b.games[1].detail = std::string("Black forfeits with ") + kKey;
    b.games[3].moves.clear();
    b.games[3].openTurn.reset();
    b.games[3].detail = "stopped before the first move";
    read = pgnOf(b);
    CHECK(read.games[1].comments.back() == "quiet move -- Black forfeits with [redacted]");
    CHECK(read.games[3].moves.empty());
    CHECK(read.games[3].preComment == "stopped before the first move");
}

TEST_CASE("bundle PGN: Date from the export and cost and token tags for the sides models played") {
    const chaiba::chess::PgnReadResult read = pgnOf(withHarness());
    REQUIRE(read.games.size() == 4);
    for (const chaiba::chess::PgnGame& g : read.games) CHECK(g.tag("Date") == "2025.03.01");
    // Game 0, model B (White) against model A (Black): each side's turns summed.
    const chaiba::chess::PgnGame& mate = read.games[0];
    CHECK(mate.tag("WhiteCostUSD") == "0.4");      // 0.1 + (0.1 + 0.2)
    CHECK(mate.tag("BlackCostUSD") == "0.533333"); // 0.2 + 1/3, to the micro-dollar
    CHECK(mate.tag("WhiteTokens") == "3220");      // 1200 + 300 + 1400 + 320
    CHECK(mate.tag("BlackTokens") == "3440");
    // Game 1, the engine (White) against model B (Black): the forfeited open turn counts for Black.
    const chaiba::chess::PgnGame& forfeit = read.games[1];
    CHECK(forfeit.tag("BlackCostUSD") == "0.06");
    CHECK(forfeit.tag("BlackTokens") == "5790"); // 900 + 90 + 4000 + 800
    CHECK(forfeit.tag("WhiteCostUSD").empty());
    CHECK(forfeit.tag("WhiteTokens").empty());
    // Game 2, random mover against the engine: no model, no spend tags.
    for (const char* tag : {"WhiteCostUSD", "BlackCostUSD", "WhiteTokens", "BlackTokens"})
        CHECK(read.games[2].tag(tag).empty());
    // Game 3, model A (White) still running: what it spent so far, Black (random) none.
    CHECK(read.games[3].tag("WhiteCostUSD") == "0.004");
    CHECK(read.games[3].tag("BlackCostUSD").empty());

    // No export time known: no date invented.
    const chaiba::chess::PgnReadResult undated = pgnOf(sampleBundle());
    for (const chaiba::chess::PgnGame& g : undated.games) CHECK(g.tag("Date") == "????.??.??");
}

TEST_CASE("bundle PGN: the judge's evaluations as lichess's [%eval], and the game's own date, time and duration") {
    std::string text;
    const chaiba::chess::PgnReadResult read = pgnOf(withCallsAndTimes(), &text);
    REQUIRE(read.games.size() == 4);
    const chaiba::chess::PgnGame& mate = read.games[0];
    CHECK(mate.tag("Date") == "2025.03.01");
    CHECK(mate.tag("UTCDate") == "2025.03.01");
    CHECK(mate.tag("UTCTime") == "12:00:00");
    CHECK(mate.tag("GameDuration") == "1:02:05");
    REQUIRE(mate.comments.size() == 4);
    CHECK(mate.comments[0] == "[%eval -0.40]");
    CHECK(mate.comments[1] == "[%eval -0.55]");
    CHECK(mate.comments[2] == "[%eval #-1]");
    // The mating move: nothing left to evaluate, the reasoning (and the game's end) only.
    CHECK(mate.comments[3].find("[%eval") == std::string::npos);
    CHECK(mate.comments[3].find("Qh4#") != std::string::npos);
    std::string oneLine = text; // the writer wraps at 80 columns
    std::replace(oneLine.begin(), oneLine.end(), '\n', ' ');
    CHECK(oneLine.find("g4 $4 {[%eval #-1]}") != std::string::npos); // the blunder's NAG, then lichess's form
    REQUIRE(mate.nags.size() >= 3);
    CHECK(mate.nags[2] == std::vector<int>{4});
    // The forfeit started later and has no end: its start, no duration.
    CHECK(read.games[1].tag("UTCTime") == "12:01:00");
    CHECK(read.games[1].tag("GameDuration").empty());
    // Games without times: the export's date, no time tags, and no evaluation claimed.
    CHECK(read.games[2].tag("Date") == "2025.03.01");
    CHECK(read.games[2].tag("UTCTime").empty());
    for (const std::string& c : read.games[2].comments) CHECK(c.find("[%eval") == std::string::npos);
}

