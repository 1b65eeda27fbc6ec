// The chess screens' shared parts: the assets both load, the catalog as the New Game dialog shows it.
#include "src/modes/chess/chess_screens.h"

#include "src/modes/chess/arena_session.h"

#include <cstdio>

namespace chaiba {

namespace {

std::string perMillion(double usdPerToken) {
    char buf[32];
    const double m = usdPerToken * 1e6;
    if (m == 0) return "$0";
    std::snprintf(buf, sizeof buf, m < 1 ? "$%.2f" : (m < 10 ? "$%.2f" : "$%.0f"), m);
    return buf;
}

} // namespace

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
    c.catalogStatus = *context.catalogStatus;
    if (!context.catalog->empty()) {
        for (const auto& m : *context.catalog)
            c.models.push_back({m.id, perMillion(m.pricing.promptUsdPerToken) + " / " +
                                          perMillion(m.pricing.completionUsdPerToken) + " per M",
                                m.supportsTools});
    } else {
        for (const auto& id : context.models()) c.models.push_back({id, "", true});
    }
    return c;
}

} // namespace chaiba
