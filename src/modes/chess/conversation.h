// The shared game conversation: one log of everything said and played in a game, each entry with
// its audience, and its conversion into one agent's chat messages (only the entries it may see; own
// replies as assistant, the opponent's text as "[@name] ...", own context as "[SYSTEM] ...").
#pragma once

#include "src/modes/chess/layers.h"
#include "src/llm/assets.h"
#include "src/modes/chess/chess_prompts.h"
#include "src/llm/audience.h"
#include "src/llm/chat.h"

#include <optional>
#include <string_view>
#include <string>
#include <vector>

namespace chaiba::chessmode {

enum class Side { White, Black };
const char* sideName(Side side); // "White" / "Black"

struct ConversationEntry {
    enum class Kind {
        GameStart,  // renders as the game-start message pair for each agent
        AgentReply, // an agent's answer: text and/or tool calls
        ToolResult, // the arena's answer to an agent's tool call
        Context,    // the per-turn state message for one agent (FEN, history, ...)
        Feedback,   // a correction for one agent (no move, illegal move in text mode)
        Moderator,  // for everyone
        MovePlayed, // a move made on the board, by any player
    };
    Kind kind = Kind::Moderator;
    std::string agentId;   // author (AgentReply, MovePlayed) or addressee (ToolResult, Context, Feedback)
    std::string agentName; // display name of agentId
    std::string text;      // content; the SAN for MovePlayed
    std::vector<ToolCall> toolCalls;
    std::string toolCallId;
    std::string reasoningDetailsJson;
    int fullmoveNumber = 0; // Context: the move number it describes
    bool chess960 = false;  // GameStart
    // Who sees the entry. Unset: by kind, as chess routes its messages: context, feedback and tool
    // results are for agentId alone; replies, moves, the moderator and the start are for everyone.
    std::optional<llm::Audience> audience;
    llm::Audience effectiveAudience() const;
};

class GameConversation {
public:
    void add(ConversationEntry entry) { entries_.push_back(std::move(entry)); }
    const std::vector<ConversationEntry>& entries() const { return entries_; }
    void clear() { entries_.clear(); }

    void gameStart(bool chess960);
    void moderator(std::string text);
    void movePlayed(const std::string& agentId, const std::string& agentName, const std::string& san);

private:
    std::vector<ConversationEntry> entries_;
};

// What an agent is sent each turn. Full: the whole shared conversation of the game (the original
// design: every reply, tool exchange and move so far). Stateless: the game start, this turn's
// context (position and moves so far) and, of this turn's answers, only the last one with its
// rejection (as the peer benchmarks do); far fewer tokens per move. Windowed: the game start, what
// was said and played during the agent's last N turns (its answers, tool exchanges, feedback, the
// opponent's moves and words; not those turns' context messages, which the current one supersedes)
// and this turn whole from its context on: the prompt grows for N turns, then stays flat but for
// the move list in the context message.
enum class ContextPolicy { Full, Stateless, Windowed };
inline constexpr ContextPolicy kContextPolicies[] = {ContextPolicy::Full, ContextPolicy::Stateless,
                                                     ContextPolicy::Windowed};
const char* contextPolicyName(ContextPolicy policy); // "full" / "stateless" / "windowed"
std::optional<ContextPolicy> parseContextPolicy(std::string_view name);
// The windowed policy's N (the agent's earlier turns kept): its default and range.
inline constexpr int kDefaultContextWindowMoves = 8;
inline constexpr int kMaxContextWindowMoves = 500;
// "full", "stateless", "windowed 8": the policy as the setup and the CLI say it.
std::string contextPolicyLabel(ContextPolicy policy, int windowMoves);

// The entries a stateless agent sees (see ContextPolicy), in order.
GameConversation statelessView(const GameConversation& conversation, const std::string& agentId);
// The entries a windowed agent sees with a window of `windowMoves` earlier turns, in order.
GameConversation windowedView(const GameConversation& conversation, const std::string& agentId, int windowMoves);

// Who an agent is, for the conversion.
struct AgentIdentity {
    std::string id;
    std::string name;
    Side side = Side::White;
    std::string opponentName;
};

struct ConversionOptions {
    bool cacheBreakpoint = false; // mark one context message (moves 1, 11, 21, ...) for caching
};

// Fullmove number whose context message carries the cache breakpoint when the game is at
// `currentMove`: 1 for moves 1..10, 11 for 11..20, ...
int cacheBreakpointMove(int currentMove);

// The agent's view of the conversation, after the system prompt (which the caller prepends).
std::vector<ChatMessage> convertConversation(const GameConversation& conversation, const AgentIdentity& self,
                                             const AgentPrompts& prompts, const ConversionOptions& options);

} // namespace chaiba::chessmode
