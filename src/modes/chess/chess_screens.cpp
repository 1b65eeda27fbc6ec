// The chess screens' shared parts: the assets both load, the catalog as the New Game dialog shows it.
#include "src/modes/chess/chess_screens.h"

#include "src/modes/chess/arena_session.h"

#include <deque>
#include <memory>

namespace chaiba {

ChessAssets loadChessAssets(const llm::AssetSource* assets) {
    ChessAssets out;
    if (!assets) return out;
    llm::Result<chessmode::AgentPrompts> prompts = chessmode::loadAgentPrompts(*assets);
    if (prompts.isOk()) out.prompts = *prompts.value;
    else out.promptsError = "the model prompts could not be loaded: " + prompts.error;
    llm::Result<std::string> suite = assets->read("chess/openings/classical.json");
    chessmode::Parsed<std::vector<chessmode::Opening>> parsed =
        suite.isOk() ? ArenaSession::parseOpeningSuite(*suite.value)
                     : chessmode::Parsed<std::vector<chessmode::Opening>>::fail(suite.error);
    if (parsed.ok()) out.openingSuite = *parsed.value;
    else out.openingSuiteError = "(opening suite unavailable: " + parsed.error + ")";
    return out;
}

void shareStorageErrors(ChessServices& services) {
    if (!services.takeStorageError) return;
    struct Shared {
        std::function<std::optional<std::string>()> source;
        std::deque<std::string> heard[2]; // per listener: failures it has not taken yet
    };
    auto shared = std::make_shared<Shared>();
    shared->source = std::move(services.takeStorageError);
    auto listener = [shared](int who) -> std::function<std::optional<std::string>()> {
        return [shared, who]() -> std::optional<std::string> {
            while (auto error = shared->source())
                for (auto& queue : shared->heard) queue.push_back(*error);
            if (shared->heard[who].empty()) return std::nullopt;
            std::string error = std::move(shared->heard[who].front());
            shared->heard[who].pop_front();
            return error;
        };
    };
    services.takeStorageError = listener(0);
    services.takeHistoryStorageError = listener(1);
}

ui::NewGameContext newGameContext(const ui::ScreenContext& context, const ChessServices& services) {
    ui::NewGameContext c;
    c.haveKey = context.chat != nullptr;
    c.maxEngineLevel = services.maxEngineLevel;
    c.engineName = services.engineName;
    static_cast<ui::ModelCatalogView&>(c) = ui::modelCatalogView(context);
    return c;
}

} // namespace chaiba
