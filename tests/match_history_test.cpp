// The match history (match_history.h): finished match-screen games kept one record each in the
// store, read back, a damaged record skipped with a message, a full store refusing a write without
// losing what was kept, the session's older save format, the shared games filter, the review.
#include "src/modes/chess/match_history.h"

#include "engine/search/levels.h"
#include "src/modes/chess/engine_player.h"
#include "src/persist/file_store.h"

#include <filesystem>

#include <doctest/doctest.h>

using namespace chaiba;

namespace {

SessionEnvironment environment(bool engines) {
    SessionEnvironment e;
    e.maxEngineLevel = search::maxLevel();
    if (engines)
        e.makeEngine = [](const std::string& id, int level, uint64_t seed,
                          int) -> std::unique_ptr<chessmode::Player> {
            return std::make_unique<chessmode::EnginePlayer>(id, *search::levelSpec(level), seed);
        };
    e.engineName = [](int level) { return "Engine level " + std::to_string(level); };
    return e;
}

GameSetup setupOf(const char* white, const char* black, const char* fen = "") {
    GameSetup s;
    s.white = *parsePlayerSpec(white, search::maxLevel()).value;
    s.black = *parsePlayerSpec(black, search::maxLevel()).value;
    if (*fen) {
        s.mode = StartMode::Fen;
        s.fen = fen;
    }
    return s;
}

// A person plays e4, the random mover answers, the person resigns: a finished game, seed `seed`.
std::unique_ptr<MatchSession> resignedGame(uint64_t seed, const char* black = "random") {
    auto s = std::make_unique<MatchSession>(environment(true));
    chessmode::ChessPlaySettings settings;
    REQUIRE_FALSE(s->newGame(setupOf("human", black), settings, seed));
    REQUIRE_FALSE(s->humanMove(chess::Move(chess::E2, chess::E4)));
    for (int i = 0; i < 200 && s->runner()->moves().size() < 2; ++i) s->poll();
    s->resign();
    REQUIRE(s->runner()->decided());
    return s;
}

// Refuses every write while full (a browser's quota).
class FullStore final : public KeyValueStore {
public:
    MemoryStore inner;
    bool full = false;
    std::optional<std::string> get(std::string_view key) const override { return inner.get(key); }
    std::optional<std::string> set(std::string_view key, std::string_view value) override {
        if (full) return std::string("quota exceeded");
        return inner.set(key, value);
    }
    void remove(std::string_view key) override { inner.remove(key); }
};

} // namespace

TEST_CASE("history: a finished game round-trips through the store and opens for review without players") {
    MemoryStore store;
    MatchHistory history(&store);
    history.load();
    auto s = resignedGame(11);
    auto game = historyGameOf(*s, "King's Pawn", "2026-11-28T18:00:00Z");
    REQUIRE(game);
    REQUIRE_FALSE(history.add(*game));
    // The same game recorded again (a takeback, then a new end) replaces its entry.
    REQUIRE_FALSE(history.add(*game));
    CHECK(history.games().size() == 1);

    MatchHistory again(&store);
    again.load();
    CHECK(again.problems().empty());
    REQUIRE(again.games().size() == 1);
    const HistoryGame& g = again.games()[0];
    CHECK(g.id == 1);
    CHECK(g.white == "Person");
    CHECK(g.black == "Random mover");
    CHECK(g.whiteSpec == "human");
    CHECK(g.result == chessmode::GameResult::BlackWins);
    CHECK(g.ending == "resignation");
    CHECK(g.termination == "White resigns");
    CHECK(g.opening == "King's Pawn");
    CHECK(g.plies == 2);
    CHECK(g.finishedAt == "2026-11-28T18:00:00Z");
    CHECK(g.gameKey == s->gameKey());
    CHECK(g.pgn == s->pgn());

    // The review restores the game with nothing behind the players (no engine maker, no chat).
    MatchSession review(environment(false));
    chessmode::ChessPlaySettings settings;
    REQUIRE_FALSE(review.restoreForReview(g.saveJson, settings));
    REQUIRE(review.runner());
    CHECK(review.runner()->finished());
    CHECK(review.runner()->result() == "0-1");
    CHECK(review.runner()->game().moves().size() == 2);
    CHECK(review.playerName(chess::Color::Black) == "Random mover");
    for (int i = 0; i < 20; ++i) review.poll();
    CHECK(review.runner()->game().moves().size() == 2); // it never moves on
}

TEST_CASE("history: the native file store keeps the games between runs") {
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() / "chaiba_match_history_test.json";
    std::filesystem::remove(file);
    {
        FileStore store(file);
        MatchHistory history(&store);
        history.load();
        REQUIRE_FALSE(history.add(*historyGameOf(*resignedGame(51), "", "")));
        REQUIRE_FALSE(history.add(*historyGameOf(*resignedGame(52), "", "")));
        REQUIRE_FALSE(history.remove(1));
    }
    FileStore store(file);
    CHECK(store.loadError().empty());
    MatchHistory history(&store);
    history.load();
    REQUIRE(history.games().size() == 1);
    CHECK(history.games()[0].id == 2);
    CHECK(history.problems().empty());
    std::filesystem::remove(file);
}

TEST_CASE("history: an engine game is reviewed without an engine and a checkmate is named") {
    auto s = std::make_unique<MatchSession>(environment(true));
    chessmode::ChessPlaySettings settings;
    REQUIRE_FALSE(s->newGame(setupOf("human", "engine:2", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), settings, 3));
    REQUIRE_FALSE(s->humanMove(chess::Move(chess::A1, chess::A8)));
    REQUIRE(s->runner()->decided());
    CHECK(s->ending() == "checkmate");
    auto game = historyGameOf(*s, "", "");
    REQUIRE(game);
    CHECK(game->result == chessmode::GameResult::WhiteWins);
    CHECK(game->black == "Engine level 2");
    MatchSession review(environment(false)); // no engine maker: an engine seat would be refused
    REQUIRE_FALSE(review.restoreForReview(game->saveJson, settings));
    CHECK(review.runner()->game().moves().size() == 1);
    CHECK(review.ending() == "checkmate");
}

TEST_CASE("history: an unfinished game is not kept") {
    MatchSession s(environment(true));
    chessmode::ChessPlaySettings settings;
    REQUIRE_FALSE(s.newGame(setupOf("human", "random"), settings, 2));
    CHECK_FALSE(historyGameOf(s, "", ""));
}

TEST_CASE("history: a damaged record is skipped with a message and the others load") {
    MemoryStore store;
    MatchHistory history(&store);
    history.load();
    for (uint64_t seed : {21, 22, 23})
        REQUIRE_FALSE(history.add(*historyGameOf(*resignedGame(seed), "", "")));
    REQUIRE(history.games().size() == 3);
    store.set(MatchHistory::gameKeyOf(2), "{\"format\":\"chaiba-match-game\",\"version\":2,\"summ");
    MatchHistory again(&store);
    again.load();
    REQUIRE(again.games().size() == 2);
    CHECK(again.games()[0].id == 1);
    CHECK(again.games()[1].id == 3);
    REQUIRE(again.problems().size() == 1);
    CHECK(again.problems()[0].find("Game 2") != std::string::npos);
    CHECK(store.get(MatchHistory::gameKeyOf(2)).has_value()); // left as it is
    // A new game takes a new number, never the damaged one's.
    REQUIRE_FALSE(again.add(*historyGameOf(*resignedGame(24), "", "")));
    CHECK(again.games().back().id == 4);

    // A damaged head: kept aside, the games found by their numbers.
    store.set(MatchHistory::kHeadKey, "not json");
    MatchHistory found(&store);
    found.load();
    CHECK(found.games().size() == 3);
    CHECK(found.problems().size() == 2);
    CHECK(store.get(std::string(MatchHistory::kHeadKey) + ".corrupt") ==
          std::optional<std::string>("not json"));
}

TEST_CASE("history: a full store refuses a new game with a sentence and keeps what was stored") {
    FullStore store;
    MatchHistory history(&store);
    history.load();
    REQUIRE_FALSE(history.add(*historyGameOf(*resignedGame(31), "", "")));
    store.full = true;
    const auto error = history.add(*historyGameOf(*resignedGame(32), "", ""));
    REQUIRE(error);
    CHECK(error->find("quota exceeded") != std::string::npos);
    CHECK(error->find("kept") != std::string::npos);
    CHECK(history.games().size() == 1);
    CHECK(history.remove(1).has_value()); // a delete is refused too, and the game stays
    CHECK(history.games().size() == 1);
    store.full = false;
    MatchHistory again(&store);
    again.load();
    CHECK(again.games().size() == 1);
    CHECK(again.problems().empty());
    REQUIRE_FALSE(again.remove(1));
    MatchHistory after(&store);
    after.load();
    CHECK(after.games().empty());
    CHECK_FALSE(store.get(MatchHistory::gameKeyOf(1)));
}

TEST_CASE("history: a record in the session's older save format still loads") {
    MemoryStore store;
    auto s = resignedGame(41);
    // Version 1: the session's own save, as the match screen kept a game for resume.
    store.set(MatchHistory::gameKeyOf(5), s->saveJson());
    store.set(MatchHistory::kHeadKey,
              "{\"format\":\"chaiba-match-history\",\"version\":1,\"next\":6,\"ids\":[5]}");
    MatchHistory history(&store);
    history.load();
    CHECK(history.problems().empty());
    REQUIRE(history.games().size() == 1);
    const HistoryGame& g = history.games()[0];
    CHECK(g.id == 5);
    CHECK(g.whiteSpec == "human");
    CHECK(g.result == chessmode::GameResult::BlackWins);
    CHECK(g.ending == "resignation");
    CHECK(g.plies == 2);
    CHECK(g.gameKey == s->gameKey());
    // A later version's record is refused by name, not misread.
    CHECK(readHistoryRecord("{\"format\":\"chaiba-match-game\",\"version\":9}", 1).error.find("newer") !=
          std::string::npos);
    // An unfinished save is not a past game.
    MatchSession running(environment(true));
    chessmode::ChessPlaySettings settings;
    REQUIRE_FALSE(running.newGame(setupOf("human", "random"), settings, 4));
    CHECK_FALSE(readHistoryRecord(running.saveJson(), 1).ok());
}

TEST_CASE("history: the shared games filter by player, result, ending and opening") {
    auto game = [](const char* white, const char* black, chessmode::GameResult r, const char* ending,
                   const char* opening) {
        HistoryGame g;
        g.white = white;
        g.black = black;
        g.result = r;
        g.ending = ending;
        g.opening = opening;
        return g;
    };
    using R = chessmode::GameResult;
    const std::vector<HistoryGame> games = {
        game("Person", "Random mover", R::BlackWins, "resignation", ""),
        game("gpt", "Person", R::Draw, "agreement", "Ruy Lopez"),
        game("gpt", "Engine 3", R::BlackWins, "forfeit", "French"),
        game("Engine 3", "Person", R::WhiteWins, "checkmate", "Ruy Lopez")};
    std::vector<std::string> players, openings;
    std::vector<chessmode::GameFacts> facts;
    for (const HistoryGame& g : games) facts.push_back(historyFacts(g, players, openings));
    CHECK(players == std::vector<std::string>{"Person", "Random mover", "gpt", "Engine 3"});
    CHECK(openings == std::vector<std::string>{"Ruy Lopez", "French"});
    auto listed = [&](const chessmode::GamesFilter& f) {
        std::vector<int> out;
        for (size_t i = 0; i < facts.size(); ++i)
            if (f.matches(facts[i])) out.push_back(int(i));
        return out;
    };
    chessmode::GamesFilter f;
    CHECK(listed(f) == std::vector<int>{0, 1, 2, 3});
    f.player = 0; // the person, either colour
    CHECK(listed(f) == std::vector<int>{0, 1, 3});
    f.result = chessmode::GamesFilter::Decisive;
    CHECK(listed(f) == std::vector<int>{0, 3});
    f.ending = "checkmate";
    CHECK(listed(f) == std::vector<int>{3});
    f = {};
    f.result = chessmode::GamesFilter::Forfeits;
    CHECK(listed(f) == std::vector<int>{2});
    f = {};
    f.result = chessmode::GamesFilter::Draws;
    CHECK(listed(f) == std::vector<int>{1});
    f = {};
    f.opening = 0;
    CHECK(listed(f) == std::vector<int>{1, 3});
    CHECK(chessmode::endingLabel("agreement") == "draw agreed");
    CHECK(chessmode::endingLabel("threefold_repetition") == "threefold repetition");
}

TEST_CASE("history: the opening is the longest suite line the game began with") {
    std::vector<chessmode::Opening> suite = {{"King's Pawn", "", {"e2e4"}},
                                             {"Ruy Lopez", "", {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"}},
                                             {"French", "", {"e2e4", "e7e6"}}};
    const chess::Position start = chess::Position::startPosition();
    CHECK(historyOpeningName(suite, start, {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"}) == "Ruy Lopez");
    CHECK(historyOpeningName(suite, start, {"e2e4", "c7c5"}) == "King's Pawn");
    CHECK(historyOpeningName(suite, start, {"d2d4"}).empty());
    const chess::Position other =
        *chess::Position::fromFen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", false).position;
    CHECK(historyOpeningName(suite, other, {"e2e4"}).empty());
}
