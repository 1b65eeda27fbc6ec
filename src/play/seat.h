// Seats: who sits at a game's table. A seat is a model ("llm:ID"), a built-in engine level
// ("engine:LEVEL", "engine"), a random mover ("random"), a rule-based bot ("bot") or a person
// ("human"), each maybe repeated ("bot*5") where the mode seats several alike. One type and one
// parser for every mode and command; the mode says which kinds it takes, which engine levels
// exist and how many repeats, so a bad spec is refused where it is typed.
#pragma once

#include "src/play/parsed.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace chaiba::play {

enum class SeatKind : uint8_t { Model, Engine, Random, Bot, Person };

// A parsed seat spec.
struct SeatSpec {
    using Kind = SeatKind;
    Kind kind = Kind::Random;
    std::string modelId;      // Model only, e.g. "openai/gpt-4o"
    int level = -1;           // Engine only; -1 = the strongest level ("engine")
    std::string text() const; // canonical spec text
    bool operator==(const SeatSpec&) const = default;
};

// What a mode accepts: a set of kinds, the engine's level range and the repeats ("bot*5").
struct SeatGrammar {
    bool model = true;
    bool engine = true;
    bool random = true;
    bool bot = false;
    bool person = false;
    int minEngineLevel = 0;
    int maxEngineLevel = 30;
    int maxRepeat = 1; // the largest N of "SPEC*N"; 1: each spec seats one player, no "*N"
    bool accepts(SeatKind kind) const;
    // "llm:MODEL_ID, engine:LEVEL, engine or random" (", each maybe *N" with repeats): the
    // accepted forms, for messages and help.
    std::string forms() const;
};

// One spec, or a message naming the spec and what the mode accepts: "'llm:' needs a model id
// without spaces after llm:", "engine level must be a number from 0 to 7, got 20 in 'engine:20'",
// "unknown player spec 'x' (expected llm:MODEL_ID, engine:LEVEL, engine or random)". A "*N"
// is refused here: parseSeatEntry reads it.
Parsed<SeatSpec> parseSeatSpec(std::string_view text, const SeatGrammar& grammar = {});

// A spec and how many seats it fills: "bot*5" is five bots, "random" one random mover.
struct SeatEntry {
    SeatSpec spec;
    int count = 1;
    bool operator==(const SeatEntry&) const = default;
};
// "SPEC" or "SPEC*N" (N from 1 to grammar.maxRepeat); errors as parseSeatSpec's, and "'bot*0':
// *N must be a seat count from 1 to 16", "'engine*2': each seat plays once here (no *N)".
Parsed<SeatEntry> parseSeatEntry(std::string_view text, const SeatGrammar& grammar = {});

// A tournament's participant: a seat spec with a display name and an optional fixed rating.
struct Participant {
    std::string spec;      // seat spec text
    std::string name;      // display name; empty: the spec
    double anchorElo = -1; // >= 0: fixed rating (built-in engine levels: calibrated value)
    std::string displayName() const { return name.empty() ? spec : name; }
    bool operator==(const Participant&) const = default;
};

// True for text that looks like a secret: an OpenRouter/OpenAI-style key ("sk-..." with 20+
// key characters) or a "Bearer ..." header value. Configs and bundles refuse such text.
bool looksLikeApiKey(std::string_view text);

} // namespace chaiba::play
