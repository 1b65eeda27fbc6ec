// The chess screens' shared parts: the assets both load, the catalog as the New Game dialog shows it.
#include "src/modes/chess/chess_screens.h"

#include "src/modes/chess/arena_session.h"

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

ui::NewGameContext newGameContext(const ui::ScreenContext& context, const ChessServices& services) {
    ui::NewGameContext c;
    c.haveKey = context.chat != nullptr;
    c.maxEngineLevel = services.maxEngineLevel;
    c.engineName = services.engineName;
    static_cast<ui::ModelCatalogView&>(c) = ui::modelCatalogView(context);
    return c;
}

} // namespace chaiba
