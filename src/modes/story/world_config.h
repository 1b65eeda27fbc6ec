// The world's config.yaml as a typed struct: setting, tone, institutions, the player's character
// and optional model choices; validated with messages that name the key, and a default world (with
// a visible warning) when the file is missing or invalid.
#pragma once

#include "src/modes/story/world_files.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::story {

// The person the player plays.
struct PlayerCharacter {
    std::string name;        // required
    std::string description; // optional
};

// OpenRouter model ids per role; empty = the app's choice.
struct StoryModels {
    std::string narrator;
    std::string orchestrator;
    std::string world;   // world_advance
    std::string faction; // faction_turn
};

// What a turn may send and spend (config.yaml's `memory:`, every key optional):
//   context_tokens: the budget of one request's prompt, in estimated tokens (files that name no
//     key of the player's line or the recent turns, then keyed files, fill what the rest leaves)
//   recent_turns: the last N turns sent whole; older ones are folded into the rolling summary
//   turn_cost_cap_usd: no new model round once the turn spent this much (0: no cap)
struct MemorySettings {
    int contextTokens = 16000;
    int recentTurns = 6;
    double turnCostCapUsd = 0.50;
};

// What it is: the settings of one world (config.yaml):
//   title: text (optional)            setting: text (required)      tone: text (required)
//   institutions: list of text        player: {name (required), description}
//   opening: text (the first scene)   models: {narrator, orchestrator, world, faction}
//   memory: {context_tokens, recent_turns, turn_cost_cap_usd} (MemorySettings)
struct WorldConfig {
    std::string title;
    std::string setting;
    std::string tone;
    std::vector<std::string> institutions;
    PlayerCharacter player;
    std::string opening;
    StoryModels models;
    MemorySettings memory;
};

// The config, or errors (each names its key, or the line of a YAML syntax error); warnings (unknown
// keys, which are ignored) come either way.
struct ConfigParse {
    std::optional<WorldConfig> config;
    // With errors but readable YAML: what was read, the values that failed or are missing taken
    // from the default world (one bad key no longer costs the others).
    std::optional<WorldConfig> partial;
    std::vector<std::string> errors;
    std::vector<std::string> warnings;
    bool ok() const { return config.has_value(); }
};

ConfigParse parseWorldConfig(std::string_view yamlText);

// A plain world to play when config.yaml is missing or invalid.
WorldConfig defaultWorldConfig();

// What it is: the config a game runs with, and what the screen must show about it.
struct LoadedWorldConfig {
    WorldConfig config;
    std::vector<std::string> warnings; // unknown keys, and the errors when the default is used
    bool usedDefault = false; // the whole default world (config.yaml missing, unreadable, not YAML)
    bool partlyDefault = false; // config.yaml had errors: its other values are used
    std::string banner; // a visible one-line warning when usedDefault or partlyDefault, else ""
};

// Reads config.yaml from the world; the default world with a banner when it is missing or invalid.
LoadedWorldConfig loadWorldConfig(const WorldFiles& files);

} // namespace chaiba::story
