// The page arena's move-quality queue (arena_analysis.h) inside ArenaSession: the same per-move
// judgements and per-player ACPL / blunders as `chaiba arena`'s analysis of the same games
// (chessmode::analyseFinishedRecords), replies that come later or not at all while the CPU is
// busy, and the analysis kept in the stored records (a reload neither loses nor redoes it; old
// records without it get it).
#include "src/modes/chess/arena_session.h"

#include "engine/chess/notation.h"
#include "engine/search/levels.h"
#include "src/modes/chess/engine_player.h"
#include "src/modes/chess/game_analyser.h"
#include "tests/fakes/cold_store.h"

#include <doctest/doctest.h>

#include <map>
#include <malloc.h>
#include <set>
#include <nlohmann/json.hpp>

using namespace chaiba;

namespace {

// A scorer whose replies wait until deliver() (a worker's message), and which refuses requests
// while `cpuBusy` (engine searches use every core).
struct DeferredScorer final : chessmode::PositionScorer {
    bool* cpuBusy = nullptr;
    int* requests = nullptr;
    std::optional<chessmode::ScoreRequest> pending;
    Callback callback;
    search::Searcher searcher{8};
    bool ready() const override { return !pending && !(cpuBusy && *cpuBusy); }
    void request(const chessmode::ScoreRequest& r, Callback cb) override {
        pending = r;
        callback = std::move(cb);
        if (requests) ++*requests;
    }
    void deliver() {
        if (!pending) return;
        const chessmode::ScoreReply reply = chessmode::scorePosition(*pending, searcher);
        pending.reset();
        Callback cb = std::move(callback);
        cb(reply);
    }
};

using fakes::ColdStore; // a store like the page's IndexedDB (tests/fakes/cold_store.h)

ArenaEnvironment engineEnvironment(KeyValueStore* store) {
    ArenaEnvironment e;
    e.store = store;
    e.makeScorer = chessmode::inThreadScorer();
    e.maxEngineLevel = search::maxLevel();
    e.makeEngine = [](const std::string& id, int level, uint64_t seed, int) -> std::unique_ptr<chessmode::Player> {
        return std::make_unique<chessmode::EnginePlayer>(id, *search::levelSpec(level), seed);
    };
    e.engineRating = [](int level) -> std::optional<double> {
        const auto spec = level < 0 ? search::levelSpec(search::maxLevel()) : search::levelSpec(level);
        if (!spec || spec->ratingElo <= 0) return std::nullopt;
        return double(spec->ratingElo);
    };
    e.apiKey = [] { return std::string(); };
    e.clock = [] { return int64_t{1740830400}; }; // two sessions' games and exports alike, whatever the hour
    return e;
}

chessmode::TournamentConfig engineLadder() {
    chessmode::TournamentConfig c;
    for (const char* spec : {"random", "engine:1", "engine:3"}) c.participants.push_back({spec, "", -1});
    c.format = play::Format::RoundRobin;
    c.games = 1;
    c.concurrency = 2;
    c.maxPlies = 36;
    c.seed = 5;
    return c;
}

// Plays the tournament out, then polls until the queue has analysed every finished game.
void playAndAnalyse(ArenaSession& s, double& now, const std::function<void()>& between = {}) {
    for (int i = 0; i < 20000 && (s.phase() == ArenaPhase::Running || s.phase() == ArenaPhase::Stopping); ++i) {
        s.poll(now);
        now += 50;
    }
    REQUIRE(s.phase() == ArenaPhase::Finished);
    for (int i = 0; i < 5000 && s.analysing(); ++i) {
        if (between) between();
        s.poll(now);
        now += 50;
    }
    REQUIRE_FALSE(s.analysing());
}

std::vector<chessmode::GameRecord> withoutAnalysis(std::vector<chessmode::GameRecord> games) {
    for (chessmode::GameRecord& g : games)
        for (chessmode::TurnRecord& t : g.moves) {
            t.cpLoss = -1;
            t.judgement = 0;
            t.evalCp = 0;
            t.evalMate = 0;
        }
    return games;
}

const chessmode::LeaderboardRow& rowOf(const chessmode::Leaderboard& board, int participant) {
    for (const auto& r : board.rows)
        if (r.participant == participant) return r;
    FAIL("no row for participant " << participant);
    return board.rows.front();
}

} // namespace

TEST_CASE("arena analysis: the page's queue judges every move as `chaiba arena` does, per player ACPL and blunders equal") {
    MemoryStore store;
    bool cpuBusy = false;
    int requests = 0;
    DeferredScorer* scorer = nullptr;
    ArenaEnvironment env = engineEnvironment(&store);
    env.makeScorer = [&]() -> std::unique_ptr<chessmode::PositionScorer> {
        auto made = std::make_unique<DeferredScorer>();
        made->cpuBusy = &cpuBusy;
        made->requests = &requests;
        scorer = made.get();
        return made;
    };
    ArenaSession s(env);
    s.draft() = engineLadder();
    chessmode::ChessPlaySettings settings;
    settings.engineMoveDelayMs = 0;
    REQUIRE_FALSE(s.start(settings, 0));
    double now = 0;
    // While every core searches, nothing is sent; the replies come between polls, as a worker's do.
    cpuBusy = true;
    for (int i = 0; i < 20000 && s.phase() == ArenaPhase::Running; ++i) {
        s.poll(now);
        now += 50;
    }
    REQUIRE(s.phase() == ArenaPhase::Finished);
    CHECK(requests == 0);
    CHECK(s.gamesAwaitingAnalysis() == 3);
    for (const auto& r : s.leaderboard().rows) CHECK(r.analysedMoves == 0);
    cpuBusy = false;
    playAndAnalyse(s, now, [&] { scorer->deliver(); });
    CHECK(s.analysis().error().empty());

    // `chaiba arena`'s computation on the same games.
    std::vector<chessmode::GameRecord> native = withoutAnalysis(s.games());
    int analysed = 0;
    REQUIRE_FALSE(chessmode::analyseFinishedRecords(native, chessmode::arenaAnalysisBudget(), analysed));
    CHECK(analysed == 3);
    int positions = 0;
    for (size_t g = 0; g < native.size(); ++g) {
        positions += int(native[g].moves.size()) + 1;
        for (size_t m = 0; m < native[g].moves.size(); ++m) {
            CAPTURE(g);
            CAPTURE(m);
            CHECK(s.games()[g].moves[m].cpLoss == native[g].moves[m].cpLoss);
            CHECK(s.games()[g].moves[m].judgement == native[g].moves[m].judgement);
            CHECK(s.games()[g].moves[m].evalCp == native[g].moves[m].evalCp);
            CHECK(s.games()[g].moves[m].evalMate == native[g].moves[m].evalMate);
        }
    }
    CHECK(requests == positions); // one request per position, none repeated
    const chessmode::Leaderboard expected = chessmode::computeLeaderboard(s.config(), native);
    int blunders = 0;
    for (int p = 0; p < 3; ++p) {
        CAPTURE(p);
        const auto& mine = rowOf(s.leaderboard(), p);
        const auto& theirs = rowOf(expected, p);
        CHECK(mine.analysedMoves > 0);
        CHECK(mine.analysedMoves == theirs.analysedMoves);
        CHECK(mine.avgCpLoss == theirs.avgCpLoss);
        CHECK(mine.blunders == theirs.blunders);
        CHECK(mine.blundersPer100Moves == theirs.blundersPer100Moves);
        blunders += mine.blunders;
    }
    CHECK(blunders > 0); // the random mover blunders: the figures are not all zero
    CHECK(rowOf(s.leaderboard(), 0).avgCpLoss > rowOf(s.leaderboard(), 2).avgCpLoss);

    // The same analysis of games held folded (`chaiba arena --out`): each is read back whole, judged,
    // handed to the sink (which stores and folds it again); the same verdicts, the same board.
    const std::vector<chessmode::GameRecord> unanalysed = withoutAnalysis(s.games());
    std::vector<chessmode::GameRecord> folded = unanalysed;
    for (chessmode::GameRecord& g : folded) chessmode::foldRecord(g);
    const chessmode::WholeRecordSource readBack = [&](const chessmode::GameRecord& f) {
        for (const chessmode::GameRecord& g : unanalysed)
            if (g.pairing.id == f.pairing.id) return chessmode::Parsed<chessmode::GameRecord>{g, {}};
        return chessmode::Parsed<chessmode::GameRecord>::fail("not stored");
    };
    std::map<int, chessmode::GameRecord> sunk;
    int foldedAnalysed = 0;
    REQUIRE_FALSE(chessmode::analyseFinishedRecords(folded, chessmode::arenaAnalysisBudget(), foldedAnalysed, {}, readBack,
                                                    [&](chessmode::GameRecord& g) -> std::optional<std::string> {
                                                        sunk[g.pairing.id] = g;
                                                        chessmode::foldRecord(g);
                                                        return std::nullopt;
                                                    }));
    CHECK(foldedAnalysed == 3);
    for (size_t g = 0; g < native.size(); ++g) {
        CAPTURE(g);
        REQUIRE(sunk.count(native[g].pairing.id) == 1);
        const chessmode::GameRecord& judged = sunk[native[g].pairing.id];
        REQUIRE(judged.moves.size() == native[g].moves.size());
        for (size_t m = 0; m < judged.moves.size(); ++m) {
            CHECK(judged.moves[m].cpLoss == native[g].moves[m].cpLoss);
            CHECK(judged.moves[m].judgement == native[g].moves[m].judgement);
        }
        CHECK(folded[g].isFolded());
        CHECK(folded[g].analysed());
    }
    CHECK(chessmode::sameLeaderboard(chessmode::computeLeaderboard(s.config(), folded), expected));
    // Nowhere to read a folded game from, or the wrong game read back: an error naming the game.
    std::vector<chessmode::GameRecord> lost = unanalysed;
    chessmode::foldRecord(lost[1]);
    int none = 0;
    const std::optional<std::string> nowhere =
        chessmode::analyseFinishedRecords(lost, chessmode::arenaAnalysisBudget(), none);
    REQUIRE(nowhere);
    CHECK(nowhere->find("game 2 (#" + std::to_string(lost[1].pairing.id) + "): held folded") == 0);
    CHECK(none == 1); // the first game was judged before it stopped
    std::vector<chessmode::GameRecord> mixed = unanalysed;
    for (chessmode::GameRecord& g : mixed) chessmode::foldRecord(g);
    const std::optional<std::string> wrong = chessmode::analyseFinishedRecords(
        mixed, chessmode::arenaAnalysisBudget(), none, {},
        [&](const chessmode::GameRecord&) { return chessmode::Parsed<chessmode::GameRecord>{unanalysed[2], {}}; });
    REQUIRE(wrong);
    CHECK(wrong->find("what was read back is not this game whole") != std::string::npos);

    // The bundle carries them, and its PGN the verdicts as NAGs.
    chessmode::Parsed<std::string> bundle = s.exportJson();
    REQUIRE(bundle.ok());
    chessmode::Parsed<chessmode::TournamentBundle> back = chessmode::importBundle(*bundle.value);
    REQUIRE(back.ok());
    REQUIRE(back.value->leaderboard);
    for (int p = 0; p < 3; ++p) CHECK(rowOf(*back.value->leaderboard, p).avgCpLoss == rowOf(expected, p).avgCpLoss);
    CHECK(back.value->games == s.games());
    chessmode::Parsed<std::string> pgn = s.exportPgn();
    REQUIRE(pgn.ok());
    CHECK(pgn.value->find(" $4") != std::string::npos);
}

TEST_CASE("arena analysis: stored with the game's record, a reload neither loses nor redoes it, old records get it") {
    MemoryStore store;
    double now = 0;
    std::vector<chessmode::GameRecord> analysedGames;
    {
        ArenaSession s(engineEnvironment(&store));
        s.draft() = engineLadder();
        chessmode::ChessPlaySettings settings;
        settings.engineMoveDelayMs = 0;
        REQUIRE_FALSE(s.start(settings, 0));
        playAndAnalyse(s, now);
        analysedGames = s.games();
    }
    {
        ArenaSession reloaded(engineEnvironment(&store));
        reloaded.load({}, now);
        CHECK(reloaded.phase() == ArenaPhase::Finished);
        CHECK_FALSE(reloaded.analysing()); // nothing to redo
        CHECK(reloaded.games() == analysedGames);
        CHECK(rowOf(reloaded.leaderboard(), 0).analysedMoves > 0);
    }
    // A record written by an older page (its moves named objects, as the store's version 1 wrote
    // them, without cpLoss or judgement): loaded as it is, then analysed.
    int stripped = 0;
    for (const auto& [key, value] : std::map<std::string, std::string>(store.values())) {
        if (key.rfind(chessmode::kArenaGamePrefix, 0) != 0 || key.find(".corrupt") != std::string::npos) continue;
        nlohmann::json record = nlohmann::json::parse(value);
        for (auto& move : record["moves"]) {
            REQUIRE(move.is_array()); // version 2 writes them compact
            REQUIRE((move.size() == 12 || move.size() == 14)); // 14: with the evaluation
            move = nlohmann::json{{"uci", move[0]},       {"san", move[1]},          {"reasoning", move[2]},
                                  {"attempts", move[3]},  {"illegalAttempts", move[4]}, {"costUsd", move[5]},
                                  {"promptTokens", move[6]}, {"completionTokens", move[7]},
                                  {"cachedTokens", move[8]}, {"reasoningTokens", move[9]}};
        }
        store.set(key, record.dump());
        ++stripped;
    }
    REQUIRE(stripped == 3);
    {
        ArenaSession old(engineEnvironment(&store));
        old.load({}, now);
        CHECK(old.analysing());
        CHECK(rowOf(old.leaderboard(), 0).analysedMoves == 0);
        for (int i = 0; i < 5000 && old.analysing(); ++i) old.poll(now += 50);
        CHECK(old.games() == analysedGames);
    }
    ArenaSession again(engineEnvironment(&store));
    again.load({}, now);
    CHECK_FALSE(again.analysing());
    CHECK(again.games() == analysedGames);
}

namespace {

chess::Game gameOf(std::initializer_list<const char*> sans) {
    chess::Game g;
    for (const char* san : sans) {
        const chess::MoveResult m = chess::parseSan(g.position(), san);
        REQUIRE_MESSAGE(m.ok(), san);
        REQUIRE(g.play(m.move));
    }
    return g;
}

void analyseInThread(chessmode::GameAnalyser& a, const chess::Game& g) {
    a.follow(g);
    for (int i = 0; i < 100 && a.step(); ++i) {}
    REQUIRE(a.complete());
}

void requireSameEvals(const chessmode::GameAnalyser& a, const chessmode::GameAnalyser& b) {
    REQUIRE(a.totalPositions() == b.totalPositions());
    for (int i = 0; i < a.totalPositions(); ++i) {
        CAPTURE(i);
        REQUIRE(a.eval(i));
        REQUIRE(b.eval(i));
        CHECK(a.eval(i)->whiteCp == b.eval(i)->whiteCp);
        CHECK(a.eval(i)->mateIn == b.eval(i)->mateIn);
        CHECK(a.eval(i)->terminal == b.eval(i)->terminal);
    }
    REQUIRE(a.analysis().moves.size() == b.analysis().moves.size());
    for (std::size_t i = 0; i < a.analysis().moves.size(); ++i) {
        CHECK(a.analysis().moves[i].cpLoss == b.analysis().moves[i].cpLoss);
        CHECK(a.analysis().moves[i].judgement == b.analysis().moves[i].judgement);
    }
}

search::AnalysisBudget smallBudget() {
    search::AnalysisBudget b;
    b.maxNodes = 5000;
    return b;
}

} // namespace

TEST_CASE("match analysis through a scorer (the page's worker): the same scores as in-thread, stale replies dropped") {
    const chess::Game game = gameOf({"e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"});
    chessmode::GameAnalyser inThread(smallBudget());
    analyseInThread(inThread, game);

    bool cpuBusy = false;
    int requests = 0;
    auto owned = std::make_unique<DeferredScorer>();
    DeferredScorer* scorer = owned.get();
    scorer->cpuBusy = &cpuBusy;
    scorer->requests = &requests;
    chessmode::GameAnalyser viaScorer(smallBudget());
    viaScorer.setScorer(std::move(owned));

    SUBCASE("every position scored by the scorer, only while the CPU is free") {
        viaScorer.follow(game);
        cpuBusy = true;
        for (int i = 0; i < 5; ++i) CHECK(viaScorer.step()); // work remains, nothing sent
        CHECK(requests == 0);
        cpuBusy = false;
        for (int i = 0; i < 100 && !viaScorer.complete(); ++i) {
            CHECK(viaScorer.step());
            CHECK(viaScorer.step()); // one request at a time
            scorer->deliver();
        }
        REQUIRE(viaScorer.complete());
        CHECK(requests == viaScorer.totalPositions());
        CHECK_FALSE(viaScorer.step());
        requireSameEvals(inThread, viaScorer);
        CHECK(viaScorer.analysis().moves.back().judgement == inThread.analysis().moves.back().judgement);
    }

    SUBCASE("a takeback while a reply is on its way: the reply is dropped, the new line scored right") {
        const chess::Game first = gameOf({"e4", "e5", "Nf3", "Nc6", "Bb5"});
        viaScorer.follow(first);
        for (int i = 0; i < 4; ++i) {
            viaScorer.step();
            scorer->deliver();
        }
        CHECK(viaScorer.scoredPositions() == 4);
        viaScorer.step(); // position 4 (after Nc6) asked
        REQUIRE(scorer->pending);
        CHECK(scorer->pending->uciMoves.size() == 4);
        const chess::Game other = gameOf({"e4", "e5", "Nf3", "d6"});
        viaScorer.follow(other); // Nc6 taken back, d6 played
        scorer->deliver();       // the answer for the old line arrives
        CHECK(viaScorer.scoredPositions() == 4); // positions 0..3 kept, the stale one not taken
        for (int i = 0; i < 100 && !viaScorer.complete(); ++i) {
            viaScorer.step();
            scorer->deliver();
        }
        chessmode::GameAnalyser reference(smallBudget());
        analyseInThread(reference, other);
        requireSameEvals(reference, viaScorer);
    }

    SUBCASE("a failed worker stops the analysis with its reason, and a new game starts afresh") {
        viaScorer.follow(game);
        viaScorer.step();
        REQUIRE(scorer->pending);
        chessmode::ScoreReply failed;
        failed.error = "the engine worker crashed";
        scorer->pending.reset();
        chessmode::PositionScorer::Callback cb = std::move(scorer->callback);
        cb(failed);
        CHECK(viaScorer.error() == "move analysis stopped: the engine worker crashed");
        CHECK_FALSE(viaScorer.step());
        CHECK_FALSE(viaScorer.complete());
        CHECK(requests == 1);
        viaScorer.follow(gameOf({"d4"}));
        CHECK(viaScorer.error().empty());
        CHECK(viaScorer.step());
        CHECK(requests == 2);
    }
}

TEST_CASE("arena analysis: older finished games held folded give the same leaderboard, analysis, game view, export and reload as whole ones") {
    // The same tournament twice: one session keeps every game whole, the other only its latest two
    // (ArenaEnvironment::keepWholeGames) over a store that keeps no finished record in memory and
    // answers reads later. The scorer is kept busy while the games run, so the folded session
    // analyses games whose moves it no longer holds (read back from its store).
    chessmode::TournamentConfig config = engineLadder();
    config.participants.push_back({"engine:0", "", -1});
    config.games = 2; // each pair twice: 12 games
    config.maxPlies = 24;
    MemoryStore wholeStore;
    ColdStore foldedStore;
    bool cpuBusy = true;
    std::vector<DeferredScorer*> scorers;
    auto withScorer = [&](ArenaEnvironment e, size_t keepWhole) {
        e.keepWholeGames = keepWhole;
        e.makeScorer = [&]() -> std::unique_ptr<chessmode::PositionScorer> {
            auto made = std::make_unique<DeferredScorer>();
            made->cpuBusy = &cpuBusy;
            scorers.push_back(made.get());
            return made;
        };
        return e;
    };
    ArenaSession whole(withScorer(engineEnvironment(&wholeStore), SIZE_MAX));
    ArenaSession folded(withScorer(engineEnvironment(&foldedStore), 2));
    chessmode::ChessPlaySettings settings;
    settings.engineMoveDelayMs = 0;
    double now = 0;
    for (ArenaSession* s : {&whole, &folded}) {
        s->draft() = config;
        const std::optional<std::string> refused = s->start(settings, now);
        REQUIRE_MESSAGE(!refused, refused.value_or(""));
        for (int i = 0; i < 20000 && s->phase() == ArenaPhase::Running; ++i) {
            s->poll(now);
            now += 50;
        }
        REQUIRE(s->phase() == ArenaPhase::Finished);
        REQUIRE(s->gamesFinished() == 12);
    }
    // Folded before any analysis: results and sums only, nothing of their moves in memory.
    CHECK(whole.foldedGames() == 0);
    CHECK(folded.foldedGames() == 10);
    for (const chessmode::GameRecord& g : folded.games()) {
        if (!g.isFolded()) continue;
        CHECK(g.moves.empty());
        CHECK(g.startFen.empty());
        CHECK_FALSE(g.openTurn);
        CHECK(g.plies() > 0);
    }
    CHECK(folded.leaderboard() == whole.leaderboard());
    CHECK(folded.gamesAwaitingAnalysis() == 12);
    // Every finished record left the store's memory once written.
    size_t stored = 0;
    for (const auto& [key, value] : foldedStore.data.values())
        if (key.rfind(chessmode::kArenaGamePrefix, 0) == 0) ++stored;
    CHECK(stored == 12);
    CHECK(foldedStore.released.size() == 12);
    cpuBusy = false;
    int reads = 0;
    for (int i = 0; i < 20000 && (whole.analysing() || folded.analysing()); ++i) {
        for (DeferredScorer* sc : scorers) sc->deliver();
        if (i % 7 == 0) reads += foldedStore.deliver(); // the reads answer a few polls later
        whole.poll(now);
        folded.poll(now);
        now += 50;
    }
    REQUIRE_FALSE(whole.analysing());
    REQUIRE_FALSE(folded.analysing());
    CHECK(folded.analysis().error().empty());
    CHECK(reads == 10); // each folded game read back once for its analysis
    CHECK(folded.foldedGames() == 10); // folded again with their analysis
    for (const chessmode::GameRecord& g : folded.games()) CHECK(g.analysed());
    CHECK(folded.leaderboard() == whole.leaderboard());
    CHECK(rowOf(folded.leaderboard(), 0).analysedMoves > 0);
    // The game view reads a folded game back whole, exactly the record the other session holds:
    // folded (and reading) until the store answers, once.
    for (const chessmode::GameRecord& g : whole.games()) {
        CAPTURE(g.pairing.id);
        const chessmode::GameRecord* back = folded.game(g.pairing.id);
        REQUIRE(back);
        if (back->isFolded()) {
            CHECK(folded.reading(g.pairing.id));
            const uint64_t before = folded.revision();
            CHECK(folded.game(g.pairing.id)->isFolded()); // asked again: still the one read
            CHECK(foldedStore.deliver() == 1);
            CHECK(folded.revision() != before);
            CHECK_FALSE(folded.reading(g.pairing.id));
            back = folded.game(g.pairing.id);
            REQUIRE(back);
        }
        CHECK_FALSE(back->isFolded());
        CHECK(*back == g);
    }
    // The export reads the folded games back first (one read for all of them).
    const chessmode::Parsed<std::string> wholeJson = whole.exportJson();
    REQUIRE(wholeJson.ok());
    CHECK_FALSE(folded.exportJson().ok()); // still reading: says so
    CHECK(foldedStore.deliver() == 1);
    auto exportNow = [&](bool pgn) {
        std::optional<chessmode::Parsed<std::string>> out;
        folded.exportLater(pgn, [&out](chessmode::Parsed<std::string> text) { out = std::move(text); });
        CHECK_FALSE(out);
        CHECK(foldedStore.deliver() == 1);
        REQUIRE(out);
        REQUIRE_MESSAGE(out->ok(), out->error);
        return *out->value;
    };
    CHECK(exportNow(false) == *wholeJson.value);
    CHECK(exportNow(true) == *whole.exportPgn().value);

    // A reload (the page's store holds every value again after its bulk read) holds the older
    // games folded from the start, releases their records, and has nothing to redo.
    foldedStore.released.clear();
    ArenaSession reloaded(withScorer(engineEnvironment(&foldedStore), 2));
    reloaded.load(settings, now);
    REQUIRE(reloaded.error().empty());
    CHECK(reloaded.foldedGames() == 10);
    CHECK(foldedStore.released.size() == 12);
    CHECK_FALSE(reloaded.analysing());
    CHECK(reloaded.leaderboard() == whole.leaderboard());
    std::optional<chessmode::Parsed<std::string>> again;
    reloaded.exportLater(false, [&again](chessmode::Parsed<std::string> text) { again = std::move(text); });
    foldedStore.deliver();
    REQUIRE(again);
    CHECK(*again->value == *wholeJson.value);

    // A folded game whose stored record is lost meanwhile: its view stays folded with the reason
    // (the screen says so), the export names the game instead of writing it without its moves.
    const chessmode::GameRecord& first = reloaded.games().front();
    REQUIRE(first.isFolded());
    int replaced = 0;
    for (const auto& [key, value] : foldedStore.data.values())
        if (key.rfind(chessmode::kArenaGamePrefix, 0) == 0 && key.size() > 2 && key.compare(key.size() - 2, 2, ".0") == 0) {
            foldedStore.data.set(key, "{not json");
            ++replaced;
            break;
        }
    REQUIRE(replaced == 1);
    REQUIRE(reloaded.game(first.pairing.id));
    foldedStore.deliver();
    const chessmode::GameRecord* lost = reloaded.game(first.pairing.id);
    REQUIRE(lost);
    CHECK(lost->isFolded());
    CHECK_FALSE(reloaded.reading(first.pairing.id));
    CHECK(reloaded.readError(first.pairing.id).find("game " + std::to_string(first.pairing.id + 1)) != std::string::npos);
    std::optional<chessmode::Parsed<std::string>> failed;
    reloaded.exportLater(false, [&failed](chessmode::Parsed<std::string> text) { failed = std::move(text); });
    foldedStore.deliver();
    REQUIRE(failed);
    REQUIRE_FALSE(failed->ok());
    CHECK(failed->error.find("game " + std::to_string(first.pairing.id + 1)) != std::string::npos);
    // A store that cannot be read at all: the same, with its reason.
    foldedStore.failReads = true;
    const int other = reloaded.games()[1].pairing.id;
    REQUIRE(reloaded.game(other)->isFolded());
    foldedStore.deliver();
    CHECK(reloaded.readError(other).find("the disk is gone") != std::string::npos);
    CHECK(reloaded.leaderboard() == whole.leaderboard()); // the sums are still there
}

TEST_CASE("arena analysis: without a scorer the games play and each one says why it is not judged") {
    // The page brings the engine worker's scorer; an arena given none (no searcher by default, so
    // the page does not link one) plays on and reports the reason instead of judging.
    MemoryStore store;
    ArenaEnvironment env = engineEnvironment(&store);
    env.makeScorer = nullptr;
    ArenaSession s(env);
    chessmode::TournamentConfig c;
    c.participants = {{"random", "R1", -1}, {"random", "R2", -1}};
    c.format = play::Format::RoundRobin;
    c.games = 2;
    c.maxPlies = 30;
    s.draft() = c;
    REQUIRE_FALSE(s.start(chessmode::ChessPlaySettings{}, 0));
    double now = 0;
    for (int i = 0; i < 100000 && (s.gamesFinished() < 2 || s.analysing()); ++i) s.poll(now += 5);
    CHECK(s.gamesFinished() == 2);
    CHECK_FALSE(s.analysing());
    CHECK(s.analysis().error().find("no engine to judge moves") != std::string::npos);
}

TEST_CASE("arena memory: a long tournament holds under 4 KB a finished game once folded (the runner's copy too)") {
    // 50 random movers, 16 boards, no analysis: the heap in use after 200 and after 700 finished
    // games, the store keeping nothing in memory (as the page's): ~0.9 KB a game alone, ~2.3 KB
    // after the other tests (the allocator's state). Whole, a 60-ply game is ~7 KB; copied over a
    // whole record, a folded one kept the whole record's buffers (~11 KB a game).
    ColdStore store;
    store.forgetReleased = true;
    ArenaEnvironment env = engineEnvironment(&store);
    struct NoScorer final : chessmode::PositionScorer {
        bool ready() const override { return false; }
        void request(const chessmode::ScoreRequest&, Callback) override {}
        void poll() override {}
    };
    env.makeScorer = []() -> std::unique_ptr<chessmode::PositionScorer> { return std::make_unique<NoScorer>(); };
    ArenaSession s(env);
    chessmode::TournamentConfig c;
    for (int i = 0; i < 50; ++i) c.participants.push_back({"random", "R" + std::to_string(i + 1), -1});
    c.format = play::Format::Arena;
    c.games = 100000;
    c.concurrency = 16;
    c.maxPlies = 60;
    c.seed = 3;
    s.draft() = c;
    chessmode::ChessPlaySettings settings;
    REQUIRE_FALSE(s.start(settings, 0));
    auto inUse = [] {
        malloc_trim(0);
        return double(mallinfo2().uordblks);
    };
    double now = 0, at200 = 0;
    int games200 = 0;
    for (int i = 0; i < 2000000 && s.gamesFinished() < 700; ++i) {
        s.poll(now);
        now += 5;
        if (games200 == 0 && s.gamesFinished() >= 200) {
            games200 = s.gamesFinished();
            at200 = inUse();
        }
    }
    REQUIRE(s.gamesFinished() >= 700);
    const double perGame = (inUse() - at200) / double(s.gamesFinished() - games200);
    MESSAGE("heap in use per finished game: " << perGame << " bytes");
    CHECK(s.foldedGames() >= size_t(s.gamesFinished()) - 64);
    CHECK(perGame < 4096);
}

TEST_CASE("arena tally: while games run, fold and gain their analysis, the kept sums give the board and the plot summed afresh") {
    // The leaderboard's sums and the plot's grid fits are kept over the finished games (a game end
    // adds that game); analyses land on kept games while others run. At each game end the board
    // (intervals aside: they are refined later) and the plot equal a fresh pass over the games;
    // after each analysis, the move-quality columns do.
    struct CheapScorer final : chessmode::PositionScorer { // a made-up score, at once: bookkeeping is tested here
        std::optional<chessmode::ScoreRequest> pending;
        Callback callback;
        bool ready() const override { return !pending; }
        void request(const chessmode::ScoreRequest& r, Callback cb) override {
            pending = r;
            callback = std::move(cb);
        }
        void poll() override {
            if (!pending) return;
            chessmode::ScoreReply reply;
            reply.ok = true;
            reply.eval.whiteCp = int(pending->uciMoves.size() * 97 % 700) - 350;
            pending.reset();
            Callback cb = std::move(callback);
            cb(reply);
        }
    };
    MemoryStore store;
    ArenaEnvironment env = engineEnvironment(&store);
    env.keepWholeGames = 3;
    env.analysisShareWhileRunning = 0.5; // (the scorer answers at once: no pause follows)
    env.makeScorer = []() -> std::unique_ptr<chessmode::PositionScorer> { return std::make_unique<CheapScorer>(); };
    ArenaSession s(env);
    chessmode::TournamentConfig c;
    int named = 0;
    for (const char* spec : {"random", "random", "engine:0", "random", "engine:0", "random"})
        c.participants.push_back({spec, "P" + std::to_string(++named), -1});
    c.format = play::Format::Arena;
    c.games = 40;
    c.concurrency = 3;
    c.maxPlies = 20;
    c.seed = 9;
    s.draft() = c;
    chessmode::ChessPlaySettings settings;
    settings.engineMoveDelayMs = 0;
    const std::optional<std::string> refused = s.start(settings, 0);
    REQUIRE_MESSAGE(!refused, refused.value_or(""));
    auto pointsOnly = [](chessmode::Leaderboard b) { // the intervals are refined later, elsewhere
        for (chessmode::LeaderboardRow& r : b.rows) {
            r.ratingLow = r.ratingHigh = 0;
            r.gamesToPlusMinus50 = 0;
        }
        return b;
    };
    auto quality = [](const chessmode::Leaderboard& b) {
        std::vector<std::tuple<int, int, double, int>> q;
        for (const chessmode::LeaderboardRow& r : b.rows) q.emplace_back(r.participant, r.analysedMoves, r.avgCpLoss, r.blunders);
        std::sort(q.begin(), q.end());
        return q;
    };
    double now = 0;
    int gameEnds = 0, analysedWhileRunning = 0, seenFinished = 0, seenAnalysed = 0;
    for (int i = 0; i < 200000 && (s.phase() == ArenaPhase::Running || s.analysing()); ++i) {
        s.poll(now);
        now += 5;
        int analysed = 0;
        for (const chessmode::GameRecord& g : s.games()) analysed += g.finished() && g.analysed() ? 1 : 0;
        if (s.gamesFinished() != seenFinished) {
            seenFinished = s.gamesFinished();
            ++gameEnds;
            const chessmode::Leaderboard fresh = chessmode::computeLeaderboard(s.config(), s.games(), s.leaderboardOptions());
            CHECK(pointsOnly(s.leaderboard()) == pointsOnly(fresh));
            // The page's plot starts with everyone's first rating, then the points.
            const auto plot = chessmode::ratingHistory(s.config(), s.games(), s.leaderboardOptions(), 200);
            REQUIRE(s.ratingHistory().size() == plot.size() + 1);
            CHECK(std::equal(plot.begin(), plot.end(), s.ratingHistory().begin() + 1));
        } else if (analysed != seenAnalysed) {
            CHECK(quality(s.leaderboard()) == quality(chessmode::computeLeaderboard(s.config(), s.games(), s.leaderboardOptions())));
        }
        if (analysed != seenAnalysed && s.phase() == ArenaPhase::Running) ++analysedWhileRunning;
        CHECK(s.analysisShare() == (s.phase() == ArenaPhase::Running ? 0.5 : 1.0));
        seenAnalysed = analysed;
    }
    REQUIRE(s.phase() == ArenaPhase::Finished);
    REQUIRE_FALSE(s.analysing());
    CHECK(gameEnds >= 10);
    CHECK(analysedWhileRunning >= 5); // analyses landed on kept games while others ran
    CHECK(s.foldedGames() > 20);
    CHECK(s.leaderboard() == chessmode::computeLeaderboard(s.config(), s.games(), s.leaderboardOptions()));
    int analysedMoves = 0;
    for (const chessmode::LeaderboardRow& r : s.leaderboard().rows) analysedMoves += r.analysedMoves;
    CHECK(analysedMoves > 0);
}

TEST_CASE("arena analysis pace: below a share of 1 the scorer waits 1/share - 1 times each position's time, back to back at 1") {
    // A scorer that takes 10 ms of the test's clock a position; the queue polled every millisecond.
    struct ClockScorer final : chessmode::PositionScorer {
        const double* now = nullptr;
        std::optional<double> due;
        Callback callback;
        std::vector<double>* requestedAt = nullptr;
        bool ready() const override { return !due; }
        void request(const chessmode::ScoreRequest&, Callback cb) override {
            requestedAt->push_back(*now);
            due = *now + 10;
            callback = std::move(cb);
        }
        void poll() override {
            if (!due || *now < *due) return;
            due.reset();
            chessmode::ScoreReply reply;
            reply.ok = true;
            Callback cb = std::move(callback);
            cb(reply);
        }
    };
    double now = 0;
    std::vector<double> requestedAt;
    auto scorer = std::make_unique<ClockScorer>();
    scorer->now = &now;
    scorer->requestedAt = &requestedAt;
    chessmode::ArenaAnalysisQueue queue(std::move(scorer));
    std::vector<chessmode::GameRecord> games(2);
    for (int id = 0; id < 2; ++id) {
        chessmode::GameRecord& g = games[size_t(id)];
        g.pairing.id = id;
        g.pairing.white = 0;
        g.pairing.black = 1;
        g.startFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        for (const char* uci : {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"}) {
            chessmode::TurnRecord t;
            t.uci = uci;
            g.moves.push_back(t);
        }
        g.result = chessmode::GameResult::Draw;
        g.termination = chessmode::Termination::MoveLimit;
    }
    auto run = [&](double share, size_t requests) {
        requestedAt.clear();
        for (int i = 0; i < 2000 && requestedAt.size() < requests; ++i) {
            queue.pace(share, now);
            queue.poll(games);
            now += 1;
        }
        REQUIRE(requestedAt.size() == requests);
        std::vector<double> gaps;
        for (size_t k = 1; k < requestedAt.size(); ++k) gaps.push_back(requestedAt[k] - requestedAt[k - 1]);
        return gaps;
    };
    // A quarter: each 10 ms position is followed by 30 ms of rest.
    for (double gap : run(0.25, 5)) CHECK(gap == 40);
    // Back to back: the next request leaves in the poll that took the reply.
    for (double gap : run(1.0, 5)) CHECK(gap == 10);
    // Half: as long a rest as the position took.
    for (double gap : run(0.5, 3)) CHECK(gap == 20);
}

TEST_CASE("arena analysis: each judged move keeps the evaluation after it, a mate in moves and the mate given") {
    chessmode::GameRecord g;
    g.startFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for (const char* uci : {"f2f3", "e7e5", "g2g4", "d8h4"}) {
        chessmode::TurnRecord t;
        t.uci = uci;
        g.moves.push_back(t);
    }
    g.result = chessmode::GameResult::BlackWins;
    g.termination = chessmode::Termination::Checkmate;
    REQUIRE_FALSE(chessmode::analyseRecord(g, chessmode::arenaAnalysisBudget()));
    CHECK(g.moves[0].evalMate == 0);
    CHECK(std::abs(g.moves[0].evalCp) < 300); // an opening position: a small edge at most
    CHECK(g.moves[2].evalMate == -1);        // after 2.g4 Black mates in one
    CHECK(g.moves[2].judgement == 3);
    CHECK(g.moves[3].evalMate == 0);         // 2...Qh4#: the mate is on the board
    CHECK(g.moves[3].evalCp == -chessmode::kCheckmateEvalCp);
}
