// Conversion of the shared conversation into one agent's messages. Deterministic and append-only:
// earlier entries always render to the same bytes, so a provider's prompt cache keeps matching.
#include "src/modes/chess/conversation.h"

#include <algorithm>

namespace chaiba::chessmode {

const char* sideName(Side side) {
    return side == Side::White ? "White" : "Black";
}

void GameConversation::gameStart(bool chess960) {
    ConversationEntry e;
    e.kind = ConversationEntry::Kind::GameStart;
    e.chess960 = chess960;
    add(std::move(e));
}

void GameConversation::moderator(std::string text) {
    ConversationEntry e;
    e.kind = ConversationEntry::Kind::Moderator;
    e.text = std::move(text);
    add(std::move(e));
}

void GameConversation::movePlayed(const std::string& agentId, const std::string& agentName,
                                  const std::string& san) {
    ConversationEntry e;
    e.kind = ConversationEntry::Kind::MovePlayed;
    e.agentId = agentId;
    e.agentName = agentName;
    e.text = san;
    add(std::move(e));
}

llm::Audience ConversationEntry::effectiveAudience() const {
    if (audience) return *audience;
    switch (kind) {
    case Kind::Context:
    case Kind::Feedback:
    case Kind::ToolResult: return llm::Audience::seat(agentId);
    case Kind::GameStart:
    case Kind::AgentReply:
    case Kind::Moderator:
    case Kind::MovePlayed: return llm::Audience::everyone();
    }
    return llm::Audience::spectators();
}

const char* contextPolicyName(ContextPolicy policy) {
    switch (policy) {
    case ContextPolicy::Full: return "full";
    case ContextPolicy::Stateless: return "stateless";
    case ContextPolicy::Windowed: return "windowed";
    }
    return "full";
}

std::optional<ContextPolicy> parseContextPolicy(std::string_view name) {
    for (ContextPolicy p : kContextPolicies)
        if (name == contextPolicyName(p)) return p;
    return std::nullopt;
}

std::string contextPolicyLabel(ContextPolicy policy, int windowMoves) {
    std::string label = contextPolicyName(policy);
    if (policy == ContextPolicy::Windowed) label.append(1, ' ').append(std::to_string(windowMoves));
    return label;
}

GameConversation statelessView(const GameConversation& conversation, const std::string& agentId) {
    using Kind = ConversationEntry::Kind;
    const std::vector<ConversationEntry>& e = conversation.entries();
    const std::size_t none = e.size();
    std::size_t context = none;
    for (std::size_t i = 0; i < e.size(); ++i)
        if (e[i].kind == Kind::Context && e[i].agentId == agentId) context = i;
    // This turn's last own answer (the one just rejected, when the agent is asked again).
    std::size_t from = context == none ? none : context + 1;
    for (std::size_t i = from; i < e.size(); ++i)
        if (e[i].kind == Kind::AgentReply && e[i].agentId == agentId) from = i;
    GameConversation view;
    for (std::size_t i = 0; i < e.size(); ++i) {
        const bool start = e[i].kind == Kind::GameStart;
        const bool turnNotice = context != none && i > context && i < from && e[i].kind == Kind::Feedback &&
                                e[i].agentId == agentId; // e.g. a draw offer for this turn
        if (start || i == context || turnNotice || (from != none && i >= from)) view.add(e[i]);
    }
    return view;
}

GameConversation windowedView(const GameConversation& conversation, const std::string& agentId, int windowMoves) {
    using Kind = ConversationEntry::Kind;
    const std::vector<ConversationEntry>& e = conversation.entries();
    // The agent's turns start at its context entries: the window opens at the context of the turn
    // windowMoves before the current one (a whole turn: its tool calls and their results together).
    std::vector<std::size_t> turns;
    for (std::size_t i = 0; i < e.size(); ++i)
        if (e[i].kind == Kind::Context && e[i].agentId == agentId) turns.push_back(i);
    const std::size_t kept = std::size_t(std::max(0, windowMoves));
    const std::size_t from = turns.size() > kept + 1 ? turns[turns.size() - 1 - kept] : 0;
    const std::size_t current = turns.empty() ? e.size() : turns.back();
    GameConversation view;
    for (std::size_t i = 0; i < e.size(); ++i) {
        const bool oldContext = e[i].kind == Kind::Context && e[i].agentId == agentId && i < current;
        if (e[i].kind == Kind::GameStart || (i >= from && !oldContext)) view.add(e[i]);
    }
    return view;
}

int cacheBreakpointMove(int currentMove) {
    if (currentMove < 1) return 1;
    return ((currentMove - 1) / 10) * 10 + 1;
}

std::vector<ChatMessage> convertConversation(const GameConversation& conversation, const AgentIdentity& self,
                                             const AgentPrompts& prompts, const ConversionOptions& options) {
    using Kind = ConversationEntry::Kind;
    std::vector<ChatMessage> out;
    // The breakpoint goes on the first context message of the latest move 1, 11, 21, ... present.
    int latestContextMove = 0;
    for (const ConversationEntry& e : conversation.entries())
        if (e.kind == Kind::Context && e.agentId == self.id) latestContextMove = e.fullmoveNumber;
    const int breakpointMove = cacheBreakpointMove(latestContextMove);
    bool breakpointPlaced = !options.cacheBreakpoint || latestContextMove == 0;

    auto user = [&](std::string text) {
        ChatMessage m;
        m.role = Role::User;
        m.content = std::move(text);
        out.push_back(std::move(m));
    };
    for (const ConversationEntry& e : conversation.entries()) {
        if (!e.effectiveAudience().includes(self.id)) continue;
        const bool own = e.agentId == self.id;
        switch (e.kind) {
        case Kind::GameStart: {
            const std::map<std::string, std::string> values = {
                {"name", self.name},
                {"id", self.id},
                {"colour", sideName(self.side)},
                {"opponent", self.opponentName},
                {"variant", e.chess960 ? "Chess960 (Fischer random chess)" : "standard chess"}};
            user(fillTemplate(prompts.gameStart, values));
            ChatMessage ack;
            ack.role = Role::Assistant;
            ack.content = fillTemplate(prompts.gameStartReply, values);
            out.push_back(std::move(ack));
            break;
        }
        case Kind::AgentReply:
            if (own) {
                ChatMessage m;
                m.role = Role::Assistant;
                m.content = e.text;
                m.toolCalls = e.toolCalls;
                m.reasoningDetailsJson = e.reasoningDetailsJson;
                out.push_back(std::move(m));
            } else if (!e.text.empty()) {
                user("[@" + e.agentName + "] " + e.text);
            }
            break;
        case Kind::ToolResult: {
            ChatMessage m;
            m.role = Role::Tool;
            m.toolCallId = e.toolCallId;
            m.content = e.text;
            out.push_back(std::move(m));
            break;
        }
        case Kind::Context:
            user("[SYSTEM] " + e.text);
            if (!breakpointPlaced && e.fullmoveNumber == breakpointMove) {
                out.back().cacheBreakpoint = true;
                breakpointPlaced = true;
            }
            break;
        case Kind::Feedback: user("[SYSTEM] " + e.text); break;
        case Kind::Moderator: user("[MODERATOR] " + e.text); break;
        case Kind::MovePlayed:
            if (!own) user("Opponent played " + e.text + ".");
            break;
        }
    }
    return out;
}

} // namespace chaiba::chessmode
