// Seats: who sits at a game's table. A seat is a model ("llm:ID"), a built-in engine level
// ("engine:LEVEL", "engine"), a random mover ("random"), a rule-based bot ("bot", "bot:NAME") or
// a person ("human"). One parser for every mode and command; the mode says which kinds it takes
// and which engine levels exist, so a bad spec is refused where it is typed.
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
    std::string botName;      // Bot only; empty = the mode's default bot
    std::string text() const; // canonical spec text
    bool operator==(const SeatSpec&) const = default;
};

// What a mode accepts: a set of kinds and the engine's level range.
struct SeatGrammar {
    bool model = true;
    bool engine = true;
    bool random = true;
    bool bot = false;
    bool person = false;
    int minEngineLevel = 0;
    int maxEngineLevel = 30;
    bool accepts(SeatKind kind) const;
    // "llm:MODEL_ID, engine:LEVEL, engine or random": the accepted forms, for messages and help.
    std::string forms() const;
};

// One spec, or a message naming what is wrong: "'llm:' needs a model id without spaces after
// llm:", "engine level must be a number from 0 to 7, got 20 in 'engine:20'", "unknown player spec
// 'x' (expected llm:MODEL_ID, engine:LEVEL, engine or random)".
Parsed<SeatSpec> parseSeatSpec(std::string_view text, const SeatGrammar& grammar = {});

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
