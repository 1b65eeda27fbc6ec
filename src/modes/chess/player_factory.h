// The one chess player factory: a seat spec becomes a Player (a model's agent, the built-in
// engine, the random mover, a person) for the match, the arena and the CLI alike. The platform's
// parts come in through ChessPlayerServices: the engine (a search in poll natively, a Web Worker
// in the page), the chat service and prompts, the catalog.
#pragma once

#include "engine/chess/types.h"
#include "src/llm/openrouter_json.h"
#include "src/modes/chess/chess_agent.h"
#include "src/modes/chess/chess_settings.h"
#include "src/modes/chess/player.h"
#include "src/modes/chess/tournament.h"
#include "src/play/parsed.h"
#include "src/play/seat.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace chaiba::chessmode {

// The built-in engine at a level as a player (native: searches in poll; web: a Web Worker); null
// when this build has no such level.
using EngineMaker =
    std::function<std::unique_ptr<Player>(const std::string& id, int level, uint64_t seed, int delayMs)>;
// This build's engine levels searching in poll(), answering at once (no clock: delayMs is unused).
EngineMaker searchingEngine();

// What the factory takes from its platform and caller.
struct ChessPlayerServices {
    llm::ChatService* chat = nullptr;      // null: model seats are refused (no key)
    const AgentPrompts* prompts = nullptr; // null: model seats are refused
    EngineMaker makeEngine;                // null: engine seats are refused
    int maxEngineLevel = 7;                // "engine" plays this level; higher ones are refused
    // The catalog's entry of a model (tool support, prices), if known; may be null.
    std::function<std::optional<llm::ModelInfo>(const std::string& model)> modelInfo;
    std::function<void(const std::string&)> onNote; // each note of a model's agent; may be null
};

// One side of one game.
struct ChessSeat {
    std::string id; // "white", "black" or the runner's slot id
    chess::Color side = chess::Color::White;
    uint64_t seed = 0;
    std::string opponentName;
};

// A player for `spec`, or why not ("language models need an OpenRouter API key: add one in
// Settings", "the built-in engine is not available here"). A model's agent takes the settings,
// then the catalog's tools and prices, then `configure` (stream, timeout, context, instructions).
play::Parsed<std::unique_ptr<Player>> makeChessPlayer(const play::SeatSpec& spec, const ChessSeat& seat,
                                                      const ChessPlaySettings& settings,
                                                      const ChessPlayerServices& services,
                                                      const std::function<void(AgentConfig&)>& configure = {});

// A tournament's model calls (TournamentConfig::calls) from the user's settings when it starts.
ModelCalls modelCallsOf(const ChessPlaySettings& settings);
// The settings a tournament's model players use: the user's (key, base URL, timeout, pace) with
// the tournament's own calls over them, when it has them.
ChessPlaySettings withModelCalls(ChessPlaySettings settings, const std::optional<ModelCalls>& calls);

} // namespace chaiba::chessmode
