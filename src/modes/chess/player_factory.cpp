// makeChessPlayer: see player_factory.h.
#include "src/modes/chess/player_factory.h"

#include "engine/search/levels.h"
#include "src/modes/chess/engine_player.h"
#include "src/modes/chess/players.h"

#include <algorithm>

namespace chaiba::chessmode {

EngineMaker searchingEngine() {
    return [](const std::string& id, int level, uint64_t seed, int) -> std::unique_ptr<Player> {
        const std::optional<search::LevelSpec> spec = search::levelSpec(level);
        if (!spec) return nullptr;
        return std::make_unique<EnginePlayer>(id, *spec, seed);
    };
}

play::Parsed<std::unique_ptr<Player>> makeChessPlayer(const play::SeatSpec& spec, const ChessSeat& seat,
                                                      const ChessPlaySettings& settings,
                                                      const ChessPlayerServices& services,
                                                      const std::function<void(AgentConfig&)>& configure) {
    using Result = play::Parsed<std::unique_ptr<Player>>;
    auto made = [](std::unique_ptr<Player> player) { return Result{std::move(player), {}}; };
    switch (spec.kind) {
    case play::SeatKind::Person: return made(std::make_unique<HumanPlayer>(seat.id, "You"));
    case play::SeatKind::Random: return made(std::make_unique<RandomPlayer>(seat.id, seat.seed));
    case play::SeatKind::Engine: {
        if (!services.makeEngine) return Result::fail("the built-in engine is not available here");
        const int level = spec.level < 0 ? services.maxEngineLevel : spec.level;
        if (level > services.maxEngineLevel)
            return Result::fail("engine level must be 0 to " + std::to_string(services.maxEngineLevel));
        std::unique_ptr<Player> player = services.makeEngine(seat.id, level, seat.seed, settings.engineMoveDelayMs);
        if (!player) return Result::fail("no engine level " + std::to_string(level));
        return made(std::move(player));
    }
    case play::SeatKind::Bot: return Result::fail("no such player in chess");
    case play::SeatKind::Model: break;
    }
    if (!services.chat || !services.prompts)
        return Result::fail("language models need an OpenRouter API key: add one in Settings");
    const Side side = seat.side == chess::Color::White ? Side::White : Side::Black;
    AgentConfig config = agentConfigFromSettings(settings, seat.id, spec.modelId, spec.modelId, side);
    if (services.modelInfo) {
        if (const std::optional<llm::ModelInfo> info = services.modelInfo(spec.modelId)) {
            config.useTools = info->supportsTools;
            config.pricing = info->pricing;
        }
    }
    if (configure) configure(config);
    auto player = std::make_unique<LlmPlayer>(config, *services.prompts, *services.chat, seat.opponentName);
    player->onNote = services.onNote;
    return made(std::move(player));
}

ModelCalls modelCallsOf(const ChessPlaySettings& s) {
    ModelCalls m;
    if (s.temperature >= 0) m.temperature = s.temperature;
    if (s.maxTokens > 0) m.maxTokens = s.maxTokens;
    m.reasoningEffort = s.reasoningEffort;
    m.sendLegalMoves = s.sendLegalMoves;
    m.retryAttempts = std::clamp(s.retryAttempts, 0, kMaxRetryAttempts);
    m.sendFenOnError = s.sendFenOnError;
    m.sendContextMessage = s.sendContextMessage;
    m.promptBase = s.promptBase;
    m.promptWhite = s.promptWhite;
    m.promptBlack = s.promptBlack;
    return m;
}

ChessPlaySettings withModelCalls(ChessPlaySettings s, const std::optional<ModelCalls>& calls) {
    if (!calls) return s;
    s.temperature = calls->temperature.value_or(-1.0);
    s.maxTokens = calls->maxTokens.value_or(0);
    s.reasoningEffort = calls->reasoningEffort;
    s.sendLegalMoves = calls->sendLegalMoves;
    s.retryAttempts = calls->retryAttempts;
    s.sendFenOnError = calls->sendFenOnError;
    s.sendContextMessage = calls->sendContextMessage;
    s.promptBase = calls->promptBase;
    s.promptWhite = calls->promptWhite;
    s.promptBlack = calls->promptBlack;
    return s;
}

} // namespace chaiba::chessmode
