// The leaderboard as a person publishes it: the CSV reads back to the table's figures, the HTML
// page stands alone (no script, nothing fetched) with a plot line per player and the methods, and
// the methods card names this tournament's anchors, prior, bootstrap and judge.
#include "src/modes/chess/leaderboard_report.h"

#include <doctest/doctest.h>

#include <sstream>

using namespace chaiba::chessmode;

namespace {

GameRecord decided(int id, int white, int black, GameResult result) {
    GameRecord g;
    g.pairing.id = id;
    g.pairing.white = white;
    g.pairing.black = black;
    g.startFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    TurnRecord t;
    t.uci = "e2e4";
    t.costUsd = white == 0 ? 0.25 : 0;
    g.moves = {t};
    g.result = result;
    g.termination = result == GameResult::Draw ? Termination::Threefold : Termination::Checkmate;
    return g;
}

struct Fixture {
    TournamentConfig config;
    std::vector<GameRecord> games;
    Leaderboard board;
    LeaderboardReport report;
    explicit Fixture(bool anchored) {
        config.name = "Spring <ladder>";
        config.participants = {{"llm:acme/model-a", "Model, \"A\"", -1}, {"engine:3", "Engine 3", anchored ? 1351.0 : -1.0},
                               {"random", "Random", -1}};
        config.format = Format::RoundRobin;
        config.games = 2;
        int id = 0;
        for (int round = 0; round < 2; ++round) {
            games.push_back(decided(id++, 0, 1, round == 0 ? GameResult::WhiteWins : GameResult::Draw));
            games.push_back(decided(id++, 1, 2, GameResult::WhiteWins));
            games.push_back(decided(id++, 2, 0, GameResult::BlackWins));
        }
        LeaderboardOptions options;
        options.bootstrapSamples = 200;
        board = computeLeaderboard(config, games, options);
        report.config = &config;
        report.board = &board;
        report.options = options;
        report.names = {"Model, \"A\"", "Engine 3", "Random"};
        report.history = ratingHistory(config, games, options);
        report.judgeNodes = 20000;
        report.appVersion = "9.9.9";
        report.exportedAt = "2026-11-28T12:00:00Z";
    }
};

// RFC 4180 fields of one line (quotes doubled inside quoted fields).
std::vector<std::string> csvLine(const std::string& line) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
        else if (c == '"') quoted = !quoted;
        else if (c == ',' && !quoted) out.emplace_back();
        else out.back() += c;
    }
    return out;
}

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

} // namespace

TEST_CASE("leaderboard CSV: a row per player best first that reads back to the table's figures") {
    Fixture f(true);
    std::istringstream in(leaderboardCsv(f.report));
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> header = csvLine(line);
    REQUIRE(header.size() == 19);
    CHECK(header[1] == "player");
    CHECK(header[3] == "rating");
    size_t rows = 0;
    while (std::getline(in, line)) {
        const std::vector<std::string> cells = csvLine(line);
        REQUIRE(cells.size() == header.size());
        const LeaderboardRow& row = f.board.rows[rows];
        CHECK(cells[0] == std::to_string(row.rank));
        CHECK(cells[1] == f.report.names[size_t(row.participant)]); // the comma and quotes survive
        CHECK(std::stod(cells[3]) == doctest::Approx(row.rating).epsilon(0.001));
        CHECK(std::stod(cells[4]) == doctest::Approx(row.ratingLow).epsilon(0.001));
        CHECK(cells[6] == (row.anchored ? "yes" : "no"));
        CHECK(std::stoi(cells[7]) == row.games);
        // Money only for models: the engine's and the random mover's cells are empty.
        if (row.participant == 0) CHECK(std::stod(cells[15]) == doctest::Approx(row.costUsd));
        else CHECK(cells[15].empty());
        ++rows;
    }
    CHECK(rows == f.board.rows.size());
}

TEST_CASE("leaderboard HTML report: standalone, escaped, a plot line per player, the methods") {
    Fixture f(true);
    const std::string page = leaderboardHtml(f.report);
    CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(count(page, "<script") == 0);
    CHECK(count(page, "src=") == 0); // nothing fetched from elsewhere
    CHECK(count(page, "href=") == 0);
    CHECK(count(page, "<svg") == 1);
    CHECK(count(page, "<polyline") == 3);
    CHECK(count(page, "stroke-dasharray") == 1); // the anchored engine's line
    CHECK(count(page, "<tr><td") == 3);
    CHECK(page.find("Spring &lt;ladder&gt;") != std::string::npos);
    CHECK(page.find("Spring <ladder>") == std::string::npos);
    CHECK(page.find("Model, &quot;A&quot;") != std::string::npos);
    CHECK(page.find("9.9.9") != std::string::npos);
    CHECK(page.find("2026-11-28T12:00:00Z") != std::string::npos);
    for (const std::string& line : methodsLines(f.report)) {
        std::string escaped;
        for (char c : line) escaped += c == '"' ? std::string("&quot;") : c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
        CHECK(page.find(escaped) != std::string::npos);
    }
}

TEST_CASE("methods card: anchors named with their ratings, or the scale said to be unanchored") {
    Fixture anchored(true);
    const std::vector<std::string> a = methodsLines(anchored.report);
    std::string all;
    for (const auto& line : a) all += line + "\n";
    CHECK(all.find("Anchors: Engine 3 at 1351") != std::string::npos);
    CHECK(all.find("centre of the scale (1351)") != std::string::npos);
    CHECK(all.find("200 bootstrap refits") != std::string::npos);
    CHECK(all.find("20k nodes") != std::string::npos);
    CHECK(all.find("round robin, 2 meetings per pair") != std::string::npos);
    CHECK(all.find("Unanchored") == std::string::npos);
    Fixture free(false);
    std::string none;
    for (const auto& line : methodsLines(free.report)) none += line + "\n";
    CHECK(none.find("Unanchored") != std::string::npos);
    CHECK(none.find("centre of the scale (1500)") != std::string::npos);
    CHECK(none.find("Anchors:") == std::string::npos);
}

TEST_CASE("leaderboard HTML report without a rated game says there is no plot") {
    Fixture f(true);
    std::vector<GameRecord> none;
    Leaderboard empty = computeLeaderboard(f.config, none, f.report.options);
    f.report.board = &empty;
    f.report.history.clear();
    const std::string page = leaderboardHtml(f.report);
    CHECK(count(page, "<svg") == 0);
    CHECK(page.find("No rated game yet") != std::string::npos);
}

TEST_CASE("leaderboard CSV and methods: a windowed model's context says its window") {
    Fixture f(true);
    f.config.contextPolicy = ContextPolicy::Windowed;
    f.config.contextWindowMoves = 12;
    std::istringstream in(leaderboardCsv(f.report));
    std::string line;
    std::getline(in, line);
    bool modelSeen = false;
    while (std::getline(in, line)) {
        const std::vector<std::string> cells = csvLine(line);
        REQUIRE(cells.size() == 19);
        if (cells[2] != "model") {
            CHECK(cells[18].empty()); // no context is claimed for engines
            continue;
        }
        modelSeen = true;
        CHECK(cells[18] == "windowed 12");
    }
    CHECK(modelSeen);
    bool said = false;
    for (const std::string& l : methodsLines(f.report))
        said = said || l.find("models sent windowed 12 context") != std::string::npos;
    CHECK(said);
}
