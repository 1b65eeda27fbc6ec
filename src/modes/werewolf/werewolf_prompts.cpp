// Loading the Werewolf prompts, schemas and strategies from assets/werewolf/.
#include "src/modes/werewolf/werewolf_prompts.h"

namespace chaiba::werewolfmode {

std::string_view askKindName(AskKind k) {
    switch (k) {
    case AskKind::WolfVote: return "wolf_vote";
    case AskKind::Inspect: return "inspect";
    case AskKind::Protect: return "protect";
    case AskKind::Chat: return "chat";
    case AskKind::Vote: return "vote";
    case AskKind::Notes: return "notes";
    case AskKind::WolfChat: return "wolf_chat";
    }
    return "unknown";
}

const std::string& WerewolfPrompts::strategy(werewolf::Role r) const {
    const auto& custom = strategyOverrides[index(r)];
    return custom ? *custom : defaultStrategies[index(r)];
}

const std::string& WerewolfPrompts::task(AskKind k) const {
    switch (k) {
    case AskKind::WolfVote: return taskWolfVote;
    case AskKind::Inspect: return taskInspect;
    case AskKind::Protect: return taskProtect;
    case AskKind::Chat: return taskChat;
    case AskKind::Vote: return taskVote;
    case AskKind::Notes: return taskNotes;
    case AskKind::WolfChat: return taskWolfChat;
    }
    return taskNotes;
}

const std::string& WerewolfPrompts::format(AskKind k) const {
    switch (k) {
    case AskKind::Chat:
    case AskKind::WolfChat: return formatChat;
    case AskKind::Notes: return formatNotes;
    default: return formatTarget;
    }
}

const llm::StructuredSpec* WerewolfPrompts::spec(AskKind k) const {
    switch (k) {
    case AskKind::WolfVote:
    case AskKind::Inspect:
    case AskKind::Protect: return &nightAction;
    case AskKind::Vote: return &vote;
    case AskKind::Chat:
    case AskKind::WolfChat: return &chat;
    case AskKind::Notes: return nullptr;
    }
    return nullptr;
}

namespace {
std::string strategyFile(werewolf::Role r) {
    switch (r) {
    case werewolf::Role::Werewolf: return "werewolf";
    case werewolf::Role::Villager: return "villager";
    case werewolf::Role::Seer: return "seer";
    case werewolf::Role::Doctor: return "doctor";
    }
    return "villager";
}
} // namespace

llm::Result<WerewolfPrompts> loadWerewolfPrompts(const llm::AssetSource& assets) {
    using R = llm::Result<WerewolfPrompts>;
    WerewolfPrompts p;
    const std::pair<std::string*, const char*> texts[] = {
        {&p.system, "system"},
        {&p.user, "user"},
        {&p.taskWolfVote, "task_wolf_vote"},
        {&p.taskInspect, "task_inspect"},
        {&p.taskProtect, "task_protect"},
        {&p.taskChat, "task_chat"},
        {&p.taskVote, "task_vote"},
        {&p.taskNotes, "task_notes"},
        {&p.taskWolfChat, "task_wolf_chat"},
        {&p.formatTarget, "format_target"},
        {&p.formatChat, "format_chat"},
        {&p.formatNotes, "format_notes"},
        {&p.retry, "retry"},
    };
    for (const auto& [field, name] : texts) {
        llm::Result<std::string> text =
            llm::loadText(assets, "werewolf/prompts/" + std::string(name) + ".md");
        if (!text.isOk()) return R::fail(text.error);
        *field = std::move(*text.value);
    }
    const std::pair<llm::StructuredSpec*, const char*> specs[] = {
        {&p.nightAction, "night_action"}, {&p.vote, "vote"}, {&p.chat, "chat"}};
    for (const auto& [field, name] : specs) {
        llm::Result<llm::ToolDefinition> tool =
            llm::loadTool(assets, "werewolf/schemas/" + std::string(name) + ".json");
        if (!tool.isOk()) return R::fail(tool.error);
        *field = llm::StructuredSpec{tool.value->name, tool.value->description, tool.value->parametersJson};
    }
    for (int r = 0; r < werewolf::kRoleCount; ++r) {
        const auto role = static_cast<werewolf::Role>(r);
        llm::Result<std::string> text =
            llm::loadText(assets, "werewolf/strategies/" + strategyFile(role) + ".md");
        if (!text.isOk()) return R::fail(text.error);
        p.defaultStrategies[static_cast<std::size_t>(r)] = std::move(*text.value);
    }
    return R::ok(std::move(p));
}

} // namespace chaiba::werewolfmode
