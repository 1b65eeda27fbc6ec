// The rolling summary and the budgeted turn context (see story_memory.h).
#include "src/modes/story/story_memory.h"

#include <algorithm>

namespace chaiba::story {

namespace {

llm::ChatMessage message(llm::Role role, std::string content) {
    return {role, std::move(content), {}, {}, {}, false};
}

// A turn's text for the folding call, cut to a few thousand characters.
std::string foldedTurnText(const TurnRecord& turn) {
    constexpr std::size_t kMaxTurnBytes = 3000;
    std::string text = "## Turn " + std::to_string(turn.number) + "\nThe player: " + turn.playerText() +
                       "\nThe narrator: " + turn.narration();
    for (const TranscriptEntry& entry : turn.entries)
        if (entry.kind == EntryKind::OffScreen || entry.kind == EntryKind::Dice) text += "\n(" + entry.text + ")";
    if (text.size() > kMaxTurnBytes) text = text.substr(0, kMaxTurnBytes) + " [...]";
    return text;
}

} // namespace

std::optional<StorySummary> currentSummary(const Conversation& conversation) {
    for (auto turn = conversation.turns.rbegin(); turn != conversation.turns.rend(); ++turn)
        if (turn->summary) return turn->summary;
    return std::nullopt;
}

std::vector<const TurnRecord*> unsummarisedTurns(const Conversation& conversation,
                                                 const std::optional<StorySummary>& summary) {
    const int through = summary ? summary->throughTurn : 0;
    std::vector<const TurnRecord*> turns;
    // From the end back to the summary's last turn: the cost follows the turns sent, not the campaign.
    for (auto turn = conversation.turns.rbegin(); turn != conversation.turns.rend() && turn->number > through; ++turn)
        if (turn->kind == TurnKind::Play) turns.push_back(&*turn);
    std::reverse(turns.begin(), turns.end());
    return turns;
}

FoldPlan planFold(const Conversation& conversation, int recentTurns) {
    FoldPlan plan;
    const std::size_t keep = static_cast<std::size_t>(std::max(1, recentTurns));
    const std::vector<const TurnRecord*> waiting = unsummarisedTurns(conversation, currentSummary(conversation));
    if (waiting.size() < 2 * keep) return plan;
    plan.turns.assign(waiting.begin(), waiting.end() - static_cast<std::ptrdiff_t>(keep));
    plan.throughTurn = plan.turns.back()->number;
    return plan;
}

std::string foldRequestText(const std::optional<StorySummary>& summary, const FoldPlan& plan) {
    std::string text = "# The summary so far\n\n";
    text += summary && !summary->text.empty() ? summary->text : "(none yet: this is the story's first summary)";
    text += "\n\n# The turns to fold in (turns ";
    text += std::to_string(plan.turns.front()->number);
    text += "-";
    text += std::to_string(plan.throughTurn);
    text += ")\n";
    for (const TurnRecord* turn : plan.turns) {
        text += '\n';
        text += foldedTurnText(*turn);
        text += '\n';
    }
    text += "\nWrite the new summary now.";
    return text;
}

llm::Result<StorySummary> foldAnswer(const std::string& answer, int throughTurn) {
    std::size_t start = answer.find_first_not_of(" \n\r\t");
    if (start == std::string::npos) return llm::Result<StorySummary>::fail("the summary came back empty");
    std::string text = answer.substr(start);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r')) text.pop_back();
    if (text.size() > kMaxSummaryBytes) {
        std::size_t cut = kMaxSummaryBytes;
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut; // a whole UTF-8 character
        text = text.substr(0, cut) + " [...cut: the summary keeps " + std::to_string(kMaxSummaryBytes / 1000) +
               " KB at most]";
    }
    return llm::Result<StorySummary>::ok(StorySummary{std::move(text), throughTurn});
}

std::string summaryMessage(const std::optional<StorySummary>& summary) {
    if (!summary || summary->text.empty()) return {};
    return "# The Story So Far (turns 1-" + std::to_string(summary->throughTurn) + ", summarised)\n\n" + summary->text;
}

TurnContext buildTurnContext(const WorldFiles& files, const Conversation& conversation,
                             const std::optional<StorySummary>& summary, const std::string& playerText,
                             const std::string& offScreen, const MemorySettings& memory, long long fixedTokens) {
    TurnContext out;
    out.summary = summary;
    // Step 1. What is sent whatever the files: the summary, the recent turns, the player's line.
    std::vector<llm::ChatMessage> transcript;
    std::string mentions;
    for (const TurnRecord* turn : unsummarisedTurns(conversation, summary)) {
        transcript.push_back(message(llm::Role::User, turn->playerText()));
        mentions += turn->playerText() + "\n";
        if (std::string narration = turn->narration(); !narration.empty()) {
            mentions += narration + "\n";
            transcript.push_back(message(llm::Role::Assistant, std::move(narration)));
        }
        ++out.recentTurns;
    }
    mentions += playerText;
    const std::string memoryText = summaryMessage(summary);
    long long rest = fixedTokens + estimateTokens(memoryText) + estimateTokens(offScreen) + estimateTokens(playerText);
    for (const llm::ChatMessage& m : transcript) rest += estimateTokens(m.content);
    // Step 2. The files within what is left.
    ContextSelection selection;
    selection.mentions = std::move(mentions);
    selection.filesBudgetTokens = std::max(0LL, static_cast<long long>(memory.contextTokens) - rest);
    out.files = loadGameContext(files, selection);
    const std::string context = gameContextMessage(out.files);
    // Step 3. The messages, the unchanging parts first.
    if (!context.empty()) out.messages.push_back(message(llm::Role::User, context));
    if (!memoryText.empty()) out.messages.push_back(message(llm::Role::User, memoryText));
    out.transcriptAt = out.messages.size();
    out.transcriptCount = transcript.size();
    for (llm::ChatMessage& m : transcript) out.messages.push_back(std::move(m));
    if (!offScreen.empty()) out.messages.push_back(message(llm::Role::User, offScreen));
    out.messages.push_back(message(llm::Role::User, playerText));
    for (const llm::ChatMessage& m : out.messages) out.tokens += estimateTokens(m.content);
    return out;
}

long long narratorFixedTokens(const StoryPrompts& prompts, const WorldConfig& config, const WorldFiles& files) {
    long long tokens = estimateTokens(narratorSystemPrompt(prompts, config, files));
    for (const llm::ToolDefinition& tool : toolsFor(prompts, AgentKind::Narrator))
        tokens += estimateTokens(tool.name) + estimateTokens(tool.description) + estimateTokens(tool.parametersJson);
    return tokens;
}

ContextEstimate estimateNextTurn(const WorldFiles& files, const StoryPrompts& prompts, const WorldConfig& config,
                                 const Conversation& conversation, const std::string& playerText) {
    ContextEstimate out;
    const long long fixed = narratorFixedTokens(prompts, config, files);
    out.context = buildTurnContext(files, conversation, currentSummary(conversation), playerText, "", config.memory, fixed);
    out.promptTokens = fixed + out.context.tokens;
    out.budgetTokens = config.memory.contextTokens;
    out.foldDue = !planFold(conversation, config.memory.recentTurns).turns.empty();
    return out;
}

} // namespace chaiba::story
