// The one seat spec (play/seat.h): every kind, "*N", each mode's grammar and level range (chess's,
// the match's with a person; werewolf's and the planner's are checked in their own test binaries
// with their declarations), and the error sentences that name the spec and what the mode accepts.
#include "src/modes/chess/game_setup.h"
#include "src/modes/chess/tournament.h"
#include "src/play/seat.h"

#include "engine/search/levels.h"

#include <doctest/doctest.h>

using chaiba::play::parseSeatEntry;
using chaiba::play::parseSeatSpec;
using chaiba::play::SeatGrammar;
using chaiba::play::SeatKind;

namespace {

SeatGrammar everyKind(int maxRepeat = 1) {
    return {.bot = true, .person = true, .maxRepeat = maxRepeat};
}

} // namespace

TEST_CASE("seat specs: every kind parses and prints back") {
    const SeatGrammar g = everyKind();
    for (const char* text : {"llm:openai/gpt-4o", "llm:anthropic/claude-sonnet-4.5:thinking", "engine:0", "engine:12",
                             "engine", "random", "bot", "human"}) {
        const auto spec = parseSeatSpec(text, g);
        REQUIRE_MESSAGE(spec.ok(), text);
        CHECK(spec.value->text() == text);
    }
    CHECK(parseSeatSpec("llm:x/y", g).value->kind == SeatKind::Model);
    CHECK(parseSeatSpec("llm:x/y", g).value->modelId == "x/y");
    CHECK(parseSeatSpec("engine:5", g).value->kind == SeatKind::Engine);
    CHECK(parseSeatSpec("engine:5", g).value->level == 5);
    CHECK(parseSeatSpec("engine", g).value->level == -1); // the strongest level
    CHECK(parseSeatSpec("random", g).value->kind == SeatKind::Random);
    CHECK(parseSeatSpec("bot", g).value->kind == SeatKind::Bot);
    CHECK(parseSeatSpec("human", g).value->kind == SeatKind::Person);
}

TEST_CASE("seat specs: the error sentences name the spec and what the mode accepts") {
    const SeatGrammar g = everyKind();
    CHECK(parseSeatSpec("llm:", g).error == "'llm:' needs a model id without spaces after llm:");
    CHECK(parseSeatSpec("llm:gpt 4", g).error == "'llm:gpt 4' needs a model id without spaces after llm:");
    CHECK(parseSeatSpec("engine:x", g).error == "engine level must be a number from 0 to 30 in 'engine:x'");
    CHECK(parseSeatSpec("engine:31", g).error == "engine level must be a number from 0 to 30, got 31 in 'engine:31'");
    CHECK(!parseSeatSpec("engine:-1", g).ok());
    CHECK(!parseSeatSpec("engine:", g).ok());
    CHECK(parseSeatSpec("x", g).error ==
          "unknown player spec 'x' (expected llm:MODEL_ID, engine:LEVEL, engine, random, bot or human)");
    CHECK(!parseSeatSpec("", g).ok());
    CHECK(!parseSeatSpec("bot:cautious", g).ok()); // one kind of bot
    // A kind the mode does not seat reads as unknown, with the mode's forms.
    const SeatGrammar table{.engine = false, .bot = true, .maxRepeat = 16};
    CHECK(parseSeatSpec("engine:3", table).error ==
          "unknown player spec 'engine:3' (expected llm:MODEL_ID, random or bot, each maybe *N)");
}

TEST_CASE("seat specs: *N repeats a seat where the mode allows it") {
    const SeatGrammar table = everyKind(16);
    const auto bots = parseSeatEntry("bot*5", table);
    REQUIRE(bots.ok());
    CHECK(bots.value->spec.kind == SeatKind::Bot);
    CHECK(bots.value->count == 5);
    CHECK(parseSeatEntry("llm:a/b*2", table).value->spec.modelId == "a/b");
    CHECK(parseSeatEntry("llm:a/b*2", table).value->count == 2);
    CHECK(parseSeatEntry("random", table).value->count == 1);
    CHECK(parseSeatEntry("bot*16", table).ok());
    CHECK(parseSeatEntry("bot*17", table).error == "'bot*17': *N must be a seat count from 1 to 16");
    CHECK(parseSeatEntry("bot*0", table).error == "'bot*0': *N must be a seat count from 1 to 16");
    CHECK(parseSeatEntry("bot*", table).error == "'bot*': *N must be a seat count from 1 to 16");
    CHECK(parseSeatEntry("bot*x", table).error == "'bot*x': *N must be a seat count from 1 to 16");
    CHECK(parseSeatEntry("stockfish*2", table).error ==
          "unknown player spec 'stockfish' (expected llm:MODEL_ID, engine:LEVEL, engine, random, bot or human, each "
          "maybe *N)");
    // Without repeats (chess), "*N" is refused with what the mode accepts.
    CHECK(parseSeatEntry("engine*2", chaiba::chessmode::chessSeatGrammar(7)).error ==
          "'engine*2': each seat plays once here (no *N; expected llm:MODEL_ID, engine:LEVEL, engine or random)");
    CHECK(parseSeatEntry("engine:3", chaiba::chessmode::chessSeatGrammar(7)).value->count == 1);
    CHECK(!parseSeatSpec("bot*5", table).ok()); // a single spec never has a repeat
}

TEST_CASE("seat specs: chess seats models, engine levels and the random mover") {
    using chaiba::chessmode::parsePlayerSpec;
    for (const char* text : {"llm:openai/gpt-4o", "engine:0", "engine:12", "engine", "random"})
        CHECK_MESSAGE(parsePlayerSpec(text).value->text() == text, text);
    CHECK(parsePlayerSpec("stockfish").error ==
          "unknown player spec 'stockfish' (expected llm:MODEL_ID, engine:LEVEL, engine or random)");
    const int top = chaiba::search::maxLevel();
    CHECK(parsePlayerSpec("engine:3", top).value->level == 3);
    CHECK(parsePlayerSpec("engine:0", top).value->level == 0);
    CHECK(parsePlayerSpec("engine", top).value->level == -1); // the strongest level, resolved by the factory
    for (const char* bad : {"engine:", "engine:x", "engine:3x", "engine:-1", "engine:99", "stockfish", "human", "bot",
                            "random*2"})
        CHECK_MESSAGE(!parsePlayerSpec(bad, top).ok(), bad);
    CHECK(parsePlayerSpec("engine:20", 7).error == "engine level must be a number from 0 to 7, got 20 in 'engine:20'");
}

TEST_CASE("seat specs: a match also seats a person and names the engine's level") {
    using chaiba::parsePlayerSpec;
    for (const char* text : {"llm:openai/gpt-4o", "engine:0", "engine:7", "human", "random"}) {
        const auto r = parsePlayerSpec(text, 8);
        REQUIRE_MESSAGE(r.ok(), text);
        CHECK(r.value->text() == text);
    }
    CHECK(parsePlayerSpec("engine", 8).value->level == 8);
    CHECK(parsePlayerSpec("engine", 8).value->text() == "engine:8");
    CHECK(parsePlayerSpec("llm:", 8).error.find("needs a model id") != std::string::npos);
    CHECK(parsePlayerSpec("engine:9", 8).error == "engine level must be a number from 0 to 8, got 9 in 'engine:9'");
    CHECK(parsePlayerSpec("engine:x", 8).error.find("engine level must be a number") == 0);
    CHECK(parsePlayerSpec("stockfish", 8).error ==
          "unknown player spec 'stockfish' (expected llm:MODEL_ID, engine:LEVEL, engine, random or human)");
    CHECK(parsePlayerSpec("bot", 8).error.find("unknown player spec 'bot'") == 0);
    CHECK(parsePlayerSpec("llm:a b", 8).error.find("without spaces") != std::string::npos);
}
