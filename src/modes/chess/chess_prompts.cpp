// Chess prompt loading: every file must be present and each tool schema valid.
#include "src/modes/chess/chess_prompts.h"

namespace chaiba::chessmode {

llm::Result<llm::PromptLibrary> loadChessPromptLibrary(const llm::AssetSource& assets) {
    return llm::PromptLibrary::load(
        assets, "chess",
        {"prompts/system_base.md", "prompts/system_white.md", "prompts/system_black.md", "prompts/text_mode.md",
         "prompts/game_start.md", "prompts/game_start_reply.md", "prompts/context.md", "prompts/invalid_move.md",
         "prompts/no_move.md", "prompts/draw_offer.md", "prompts/draw_offer_text.md",
         "prompts/draw_answer_invalid.md"});
}

llm::Result<AgentPrompts> loadAgentPrompts(const llm::AssetSource& assets) {
    llm::Result<llm::PromptLibrary> library = loadChessPromptLibrary(assets);
    if (!library.isOk()) return llm::Result<AgentPrompts>::fail(library.error);
    const llm::PromptLibrary& l = *library.value;
    AgentPrompts p;
    p.systemBase = l.text("prompts/system_base.md");
    p.systemWhite = l.text("prompts/system_white.md");
    p.systemBlack = l.text("prompts/system_black.md");
    p.textMode = l.text("prompts/text_mode.md");
    p.gameStart = l.text("prompts/game_start.md");
    p.gameStartReply = l.text("prompts/game_start_reply.md");
    p.context = l.text("prompts/context.md");
    p.invalidMove = l.text("prompts/invalid_move.md");
    p.noMove = l.text("prompts/no_move.md");
    p.drawOffer = l.text("prompts/draw_offer.md");
    p.drawOfferText = l.text("prompts/draw_offer_text.md");
    p.drawAnswerInvalid = l.text("prompts/draw_answer_invalid.md");
    for (auto [path, tool] : {std::pair{"chess/tools/make_move.json", &p.makeMove},
                              std::pair{"chess/tools/respond_to_draw_offer.json", &p.respondToDraw}}) {
        llm::Result<llm::ToolDefinition> r = llm::loadTool(assets, path);
        if (!r.isOk()) return llm::Result<AgentPrompts>::fail(r.error);
        *tool = std::move(*r.value);
    }
    return llm::Result<AgentPrompts>::ok(std::move(p));
}

std::vector<std::pair<std::string, std::string>> promptTexts(const AgentPrompts& p) {
    auto tool = [](const llm::ToolDefinition& t) { return t.name + ": " + t.description + "\n" + t.parametersJson; };
    return {{"system_base", p.systemBase},
            {"system_white", p.systemWhite},
            {"system_black", p.systemBlack},
            {"text_mode", p.textMode},
            {"game_start", p.gameStart},
            {"game_start_reply", p.gameStartReply},
            {"context", p.context},
            {"invalid_move", p.invalidMove},
            {"no_move", p.noMove},
            {"draw_offer", p.drawOffer},
            {"draw_offer_text", p.drawOfferText},
            {"draw_answer_invalid", p.drawAnswerInvalid},
            {"tool_make_move", tool(p.makeMove)},
            {"tool_respond_to_draw_offer", tool(p.respondToDraw)}};
}

} // namespace chaiba::chessmode
