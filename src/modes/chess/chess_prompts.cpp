// Chess prompt loading: every file must be present and each tool schema valid.
#include "src/modes/chess/chess_prompts.h"

namespace chaiba::chessmode {

llm::Result<AgentPrompts> loadAgentPrompts(const llm::AssetSource& assets) {
    AgentPrompts p;
    struct Item {
        const char* path;
        std::string* out;
    };
    const Item items[] = {{"chess/prompts/system_base.md", &p.systemBase},
                          {"chess/prompts/system_white.md", &p.systemWhite},
                          {"chess/prompts/system_black.md", &p.systemBlack},
                          {"chess/prompts/text_mode.md", &p.textMode},
                          {"chess/prompts/game_start.md", &p.gameStart},
                          {"chess/prompts/game_start_reply.md", &p.gameStartReply},
                          {"chess/prompts/context.md", &p.context},
                          {"chess/prompts/invalid_move.md", &p.invalidMove},
                          {"chess/prompts/no_move.md", &p.noMove},
                          {"chess/prompts/draw_offer.md", &p.drawOffer},
                          {"chess/prompts/draw_offer_text.md", &p.drawOfferText},
                          {"chess/prompts/draw_answer_invalid.md", &p.drawAnswerInvalid}};
    for (const Item& item : items) {
        llm::Result<std::string> r = llm::loadText(assets, item.path);
        if (!r.isOk()) return llm::Result<AgentPrompts>::fail(r.error);
        *item.out = std::move(*r.value);
    }
    for (auto [path, tool] : {std::pair{"chess/tools/make_move.json", &p.makeMove},
                              std::pair{"chess/tools/respond_to_draw_offer.json", &p.respondToDraw}}) {
        llm::Result<llm::ToolDefinition> r = llm::loadTool(assets, path);
        if (!r.isOk()) return llm::Result<AgentPrompts>::fail(r.error);
        *tool = std::move(*r.value);
    }
    return llm::Result<AgentPrompts>::ok(std::move(p));
}

} // namespace chaiba::chessmode
