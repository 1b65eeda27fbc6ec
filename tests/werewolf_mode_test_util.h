// Helpers for the Werewolf mode tests: the shipped prompts, replies in each answer channel, a
// scripted "sensible" responder that reads the prompt's allowed targets, and a session driver on
// a simulated clock.
#pragma once

#include "src/modes/werewolf/game_session.h"
#include "tests/fakes/fake_chat.h"

#include <doctest/doctest.h>

#include <regex>
#include <string>

namespace chaiba::werewolfmode::test {

inline const WerewolfPrompts& prompts() {
    static const WerewolfPrompts loaded = [] {
        llm::DirectoryAssetSource assets(std::string(CHAIBA_SOURCE_DIR) + "/assets");
        llm::Result<WerewolfPrompts> p = loadWerewolfPrompts(assets);
        REQUIRE_MESSAGE(p.isOk(), p.error);
        return *p.value;
    }();
    return loaded;
}

inline llm::ChatReply textReply(const std::string& text, long long tokens = 100, double costUsd = 0.001) {
    llm::ChatReply r;
    r.content = text;
    r.finishReason = "stop";
    r.usage.promptTokens = tokens - 10;
    r.usage.completionTokens = 10;
    r.usage.totalTokens = tokens;
    r.usage.costUsd = costUsd;
    return r;
}

inline llm::ChatReply toolReply(const std::string& name, const std::string& arguments) {
    llm::ChatReply r = textReply("");
    r.toolCalls.push_back({"call_1", name, arguments});
    r.finishReason = "tool_calls";
    return r;
}

inline llm::ChatOutcome answer(llm::ChatReply reply) {
    llm::ChatOutcome o;
    o.reply = std::move(reply);
    return o;
}

inline llm::ChatOutcome failure(llm::ChatErrorKind kind, int status, const std::string& message) {
    llm::ChatOutcome o;
    o.error = llm::ChatError{kind, status, message, std::nullopt};
    return o;
}

inline std::string lastUser(const llm::ChatRequest& r) {
    for (auto it = r.messages.rbegin(); it != r.messages.rend(); ++it)
        if (it->role == llm::Role::User) return it->content;
    return {};
}

// The first allowed target the prompt lists, or "P1".
inline std::string firstAllowed(const llm::ChatRequest& r) {
    static const std::regex line("Allowed targets: (P[0-9]+)");
    std::smatch m;
    const std::string text = lastUser(r);
    return std::regex_search(text, m, line) ? m[1].str() : std::string("P1");
}

// The first living player the prompt lists other than the asker's pack ("Living players ...: P1, ..."),
// or "P1": the name in a night-chat proposal.
inline std::string firstLivingSeat(const std::string& user) {
    static const std::regex living("Living players[^\n]*: (P[0-9]+)");
    std::smatch m;
    return std::regex_search(user, m, living) ? m[1].str() : std::string("P1");
}

// A sensible player in the JSON-schema channel: the first allowed target, one chat message a day
// ("I suspect <first allowed>" style, naming the next seat), one line a night in the wolves' chat,
// notes as text.
inline llm::ChatOutcome sensible(const llm::ChatRequest& r) {
    const std::string user = lastUser(r);
    if (user.find("Rewrite your notes") != std::string::npos) return answer(textReply("notes: all quiet."));
    if (user.find("Decide whether to") != std::string::npos) {
        static const std::regex me("as player (P[0-9]+)");
        static const std::regex round("Round ([0-9]+)");
        std::smatch who, day;
        std::regex_search(r.messages[0].content, who, me);
        std::regex_search(user, day, round);
        const bool night = user.find("talk privately with your pack") != std::string::npos;
        const std::string mine = night ? "[Night " + day[1].str() + ", wolves only] " + who[1].str() + ":"
                                       : "[Day " + day[1].str() + "] " + who[1].str() + ":";
        if (user.find(mine) != std::string::npos)
            return answer(textReply(R"({"send":false,"message":"","reasoning":"quiet","suspicions":[]})"));
        if (night)
            return answer(textReply(R"({"send":true,"message":"Pack plan: )" + firstLivingSeat(user) +
                                    R"( tonight.","reasoning":"plan","suspicions":[]})"));
        return answer(textReply(R"({"send":true,"message":"I have my doubts.","reasoning":"talk",)"
                                R"("suspicions":[{"player":"P2","level":0.6}]})"));
    }
    return answer(textReply(R"({"target":")" + firstAllowed(r) + R"(","reasoning":"first allowed"})"));
}

// Polls the session to its end on a simulated clock (the fake delivers on its next poll).
inline void runToEnd(GameSession& session, fakes::FakeChat* chat, int maxSteps = 200000) {
    std::int64_t now = 0;
    for (int i = 0; i < maxSteps && !session.finished(); ++i) {
        session.poll(now);
        if (chat) chat->poll();
        if (session.requestsInFlight() > 0) continue;
        const std::optional<std::int64_t> wake = session.nextWakeMs();
        if (!wake) break;
        now = std::max(now, *wake);
    }
}

inline TableSeat aiSpec(const std::string& model,
                       llm::AnswerChannel channel = llm::AnswerChannel::JsonSchema) {
    TableSeat s;
    s.kind = SeatKind::Model;
    s.player = "llm:" + model;
    s.ai.model = model;
    s.ai.channel = channel;
    return s;
}

inline TableSeat botSpec() {
    TableSeat s;
    s.kind = SeatKind::Bot;
    s.player = "bot";
    return s;
}

} // namespace chaiba::werewolfmode::test
