// The Werewolf screen's replay viewer: a finished game (this one, an arena game, a file) drawn
// with the live table's banner, table and chat at any event, with a timeline (step, jump by day or
// night, a slider), a point of view (all or a seat) and each AI seat's reasoning, suspicions and
// notes at that moment. The automation API's replay* commands mirror the controls.
#include "src/modes/werewolf/ui/werewolf_screen.h"

#include "src/modes/werewolf/game_export.h"
#include "src/modes/werewolf/results.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace chaiba::werewolfmode {

using nlohmann::json;
using werewolf::Event;

namespace {
// "Night 2", "Day 2", "Day 2, vote", "Game over", "The deal": where an event falls.
std::string momentOf(const Event& e) {
    if (e.kind == werewolf::EventKind::GameOver) return "Game over";
    if (e.round == 0) return "The deal";
    if (e.phase == werewolf::Phase::Night) return "Night " + std::to_string(e.round);
    if (e.phase == werewolf::Phase::Discussion) return "Day " + std::to_string(e.round);
    return "Day " + std::to_string(e.round) + ", vote";
}

std::string povLabel(int pov) { return pov < 0 ? "All (spectator)" : "As " + werewolf::seatName(pov) + " sees it"; }

// A player as the table names it: "bot", "person", or a model's name without its provider.
std::string shortWho(const std::string& player) {
    std::string who = player.rfind("llm:", 0) == 0 ? player.substr(4) : player;
    if (const auto slash = who.find('/'); slash != std::string::npos) who = who.substr(slash + 1);
    return who;
}
} // namespace

std::optional<std::string> WerewolfScreen::openReplay(const std::string& text, const std::string& title) {
    llm::Result<GameRecord> read = readGameRecord(text);
    if (!read.isOk()) return read.error;
    replay_ = std::move(*read.value);
    replayAt_ = replay_->events.size() - 1; // the end: step back from the result
    replayPov_ = -1;
    replayTitle_ = title;
    selected_ = std::clamp(selected_, 0, static_cast<int>(replay_->players.size()) - 1);
    scrollChat_ = true;
    ++changes_;
    return std::nullopt;
}

std::optional<std::string> WerewolfScreen::openCurrentReplay() {
    if (!session_ || session_->setupError() != werewolf::SetupError::None) return "there is no game";
    if (replayTo_) return "the game is being restored; wait a moment";
    return openReplay(exportGameJson(*session_, summarize(*session_, 1)),
                      session_->finished() ? "this game" : "this game so far");
}

bool WerewolfScreen::replayMoved(std::size_t to) {
    to = std::min(to, replay_->events.size() - 1);
    if (to == replayAt_) return false;
    replayAt_ = to;
    scrollChat_ = true;
    ++changes_;
    return true;
}

ShownGame WerewolfScreen::replayShown() const {
    ShownGame s;
    s.events = &replay_->events;
    s.count = replayAt_ + 1;
    s.pov = replayPov_;
    s.roles = replay_->events.front().roles;
    for (const std::string& p : replay_->players) s.who.push_back(shortWho(p));
    s.status = "event " + std::to_string(replayAt_ + 1) + "/" + std::to_string(replay_->events.size());
    s.replay = true;
    return s;
}

void WerewolfScreen::drawReplayBar(float width) {
    const float em = context_.fonts ? context_.fonts->uiSize : ImGui::GetFontSize();
    if (ImGui::Button("Back to the game###werewolf.replay.close")) replayCloseWanted_ = true; // (at the next tick)
    ui::markItem("werewolf.replay.close");
    sameLineIfFits("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
    ImGui::SetNextItemWidth(std::min(em * 11, width));
    if (ImGui::BeginCombo("###werewolf.replay.pov", povLabel(replayPov_).c_str())) {
        for (int pov = -1; pov < static_cast<int>(replay_->players.size()); ++pov)
            if (ImGui::Selectable(povLabel(pov).c_str(), replayPov_ == pov)) {
                replayPov_ = pov;
                ++changes_;
            }
        ImGui::EndCombo();
    }
    ui::markItem("werewolf.replay.pov");
    sameLineIfFits(replayTitle_.c_str());
    ImGui::TextDisabled("Replay: %s", replayTitle_.c_str());

    // The timeline: jumps by night and day, single steps, the ends.
    const std::size_t last = replay_->events.size() - 1;
    const struct {
        const char* label;
        const char* item;
        std::optional<std::size_t> to;
    } buttons[] = {
        {"|<", "werewolf.replay.first", std::size_t(0)},
        {"<< Night", "werewolf.replay.prevNight", replayJumpTarget(*replay_, replayAt_, ReplayJump::PrevNight)},
        {"<< Day", "werewolf.replay.prevDay", replayJumpTarget(*replay_, replayAt_, ReplayJump::PrevDay)},
        {"< Step", "werewolf.replay.back", replayAt_ > 0 ? std::optional(replayAt_ - 1) : std::nullopt},
        {"Step >", "werewolf.replay.forward", replayAt_ < last ? std::optional(replayAt_ + 1) : std::nullopt},
        {"Day >>", "werewolf.replay.nextDay", replayJumpTarget(*replay_, replayAt_, ReplayJump::NextDay)},
        {"Night >>", "werewolf.replay.nextNight", replayJumpTarget(*replay_, replayAt_, ReplayJump::NextNight)},
        {">|", "werewolf.replay.last", last},
    };
    std::optional<std::size_t> moveTo;
    for (std::size_t i = 0; i < std::size(buttons); ++i) {
        if (i > 0) sameLineIfFits(buttons[i].label);
        ImGui::BeginDisabled(!buttons[i].to || *buttons[i].to == replayAt_);
        if (ImGui::Button((std::string(buttons[i].label) + "###" + buttons[i].item).c_str())) moveTo = buttons[i].to;
        ImGui::EndDisabled();
        ui::markItem(buttons[i].item);
    }
    const std::string where = momentOf(replay_->events[replayAt_]) + " \xC2\xB7 event " + std::to_string(replayAt_ + 1) +
                              "/" + std::to_string(replay_->events.size());
    sameLineIfFits(where.c_str());
    ImGui::TextUnformatted(where.c_str());
    ui::markItem("werewolf.replay.where");
    int at = static_cast<int>(replayAt_);
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderInt("###werewolf.replay.slider", &at, 0, static_cast<int>(last), "")) moveTo = std::size_t(at);
    ui::markItem("werewolf.replay.slider");
    if (moveTo) replayMoved(*moveTo);
    if (!message_.empty() && messageIsError_) ImGui::TextColored(ImVec4(0.80f, 0.25f, 0.25f, 1), "%s", message_.c_str());
}

void WerewolfScreen::drawReplayMind() {
    const ReplayState st = replayStateAt(*replay_, replayAt_, replayPov_);
    const int seat = std::clamp(selected_, 0, static_cast<int>(replay_->players.size()) - 1);
    const auto s = static_cast<std::size_t>(seat);
    const ImVec4 muted = ImGui::ColorConvertU32ToFloat4(ui::palette().muted);
    const std::string& player = replay_->players[s];
    if (context_.fonts && context_.fonts->bold) ImGui::PushFont(context_.fonts->bold);
    ImGui::Text("%s  %s", werewolf::seatName(seat).c_str(), player.c_str());
    if (context_.fonts && context_.fonts->bold) ImGui::PopFont();
    ImGui::TextDisabled("%s%s", st.knownRole[s] ? std::string(werewolf::roleName(*st.knownRole[s])).c_str() : "role unknown to this view",
                        st.alive[s] ? "" : ", dead");
    ImGui::Separator();
    if (const std::optional<ReplayMind>& mind = st.minds[s]) {
        ImGui::TextColored(muted, "Reasoning%s", mind->reasoningAt ? "" : " (none yet)");
        if (mind->reasoningAt) {
            ImGui::TextDisabled("for: %s", werewolf::describeEvent(replay_->events[*mind->reasoningAt]).c_str());
            ImGui::TextWrapped("%s", mind->reasoning.c_str());
        }
        if (!mind->suspicions.empty()) {
            ImGui::Spacing();
            ImGui::TextColored(muted, "Suspicions (0 villager .. 1 wolf)");
            std::string line;
            for (const Suspicion& sus : mind->suspicions) {
                char one[32];
                std::snprintf(one, sizeof one, "%s %.2f   ", werewolf::seatName(sus.seat).c_str(), sus.level);
                line += one;
            }
            ImGui::TextWrapped("%s", line.c_str());
        }
        ImGui::Spacing();
        ImGui::TextColored(muted, "Notes");
        ImGui::TextWrapped("%s", mind->notes.empty() ? "(none written yet)" : mind->notes.c_str());
    } else if (player.rfind("llm:", 0) == 0) {
        ImGui::TextWrapped("Choose All or %s's view to read its reasoning and notes.", werewolf::seatName(seat).c_str());
    } else {
        ImGui::TextWrapped("%s is %s: no reasoning on record.", werewolf::seatName(seat).c_str(),
                           player == "bot" ? "a rule-based bot" : "a person");
    }
    ImGui::Spacing();
    ImGui::Separator();
    ImGui::TextColored(muted, "Night actions this view sees (%zu)", st.nightActions.size());
    for (auto it = st.nightActions.rbegin(); it != st.nightActions.rend(); ++it) ImGui::TextWrapped("%s", it->c_str());
    ImGui::Spacing();
    ImGui::TextDisabled("Click a seat on the table to read another player.");
}

std::optional<std::string> WerewolfScreen::replayCommand(std::string_view name, const json& arg) {
    if (name == "replayOpen") {
        if (arg.is_object() && arg.contains("current") && arg["current"].is_boolean() && arg["current"].get<bool>())
            return openCurrentReplay();
        const json& t = arg.is_object() && arg.contains("text") ? arg["text"] : arg;
        if (!t.is_string()) return "replayOpen takes a game file's text (a string, or {\"text\": ...}) or {\"current\": true}";
        const std::string title = arg.is_object() && arg.contains("title") && arg["title"].is_string()
                                      ? arg["title"].get<std::string>() : "an imported game";
        return openReplay(t.get<std::string>(), title);
    }
    if (!replay_) return "no replay is open";
    const auto number = [&](const char* key, long long fallback) {
        const json& v = arg.is_object() && arg.contains(key) ? arg[key] : arg;
        return v.is_number_integer() ? v.get<long long>() : fallback;
    };
    if (name == "replayClose") {
        replay_.reset();
        ++changes_;
        return std::nullopt;
    }
    if (name == "replayStep") {
        const long long to = static_cast<long long>(replayAt_) + number("by", 1);
        if (to < 0 || to >= static_cast<long long>(replay_->events.size())) return "no event there";
        replayMoved(static_cast<std::size_t>(to));
        return std::nullopt;
    }
    if (name == "replaySeek") {
        const long long to = number("index", -1);
        if (to < 0 || to >= static_cast<long long>(replay_->events.size())) return "replaySeek takes an event index";
        replayMoved(static_cast<std::size_t>(to));
        return std::nullopt;
    }
    if (name == "replayJump") {
        const json& v = arg.is_object() && arg.contains("to") ? arg["to"] : arg;
        const std::optional<ReplayJump> jump = v.is_string() ? parseReplayJump(v.get<std::string>()) : std::nullopt;
        if (!jump) return "replayJump takes \"prev_day\", \"next_day\", \"prev_night\" or \"next_night\"";
        const std::optional<std::size_t> to = replayJumpTarget(*replay_, replayAt_, *jump);
        if (!to) return "there is no such day or night from here";
        replayMoved(*to);
        return std::nullopt;
    }
    if (name == "replayPov") {
        const json& v = arg.is_object() && arg.contains("pov") ? arg["pov"] : arg;
        const std::string text = v.is_string() ? v.get<std::string>() : "";
        std::optional<int> seat = text == "all" || text == "spectator" ? std::optional(-1) : werewolf::parseSeatName(text);
        if (!seat || *seat >= static_cast<int>(replay_->players.size())) return "replayPov takes \"all\" or a seat (\"P3\")";
        replayPov_ = *seat;
        ++changes_;
        return std::nullopt;
    }
    return "unknown command '" + std::string(name) + "'";
}

json WerewolfScreen::replayStateJson() const {
    if (!replay_) return {{"open", false}};
    const ReplayState st = replayStateAt(*replay_, replayAt_, replayPov_);
    const Event& e = replay_->events[replayAt_];
    json out = {{"open", true},
                {"title", replayTitle_},
                {"index", replayAt_},
                {"events", replay_->events.size()},
                {"round", st.round},
                {"phase", std::string(werewolf::phaseName(st.phase))},
                {"moment", momentOf(e)},
                {"line", werewolf::describeEvent(e)},
                {"pov", replayPov_ < 0 ? std::string("all") : werewolf::seatName(replayPov_)},
                {"winner", st.winner ? json(std::string(werewolf::teamName(*st.winner))) : json()}};
    json alive = json::array(), roles = json::object(), chat = json::array(), votes = json::array(), minds = json::object();
    for (std::size_t s = 0; s < st.alive.size(); ++s) {
        const std::string name = werewolf::seatName(static_cast<int>(s));
        if (st.alive[s]) alive.push_back(name);
        if (st.knownRole[s]) roles[name] = std::string(werewolf::roleName(*st.knownRole[s]));
        if (const std::optional<ReplayMind>& m = st.minds[s]) {
            json sus = json::object();
            for (const Suspicion& x : m->suspicions) sus[werewolf::seatName(x.seat)] = x.level;
            minds[name] = {{"reasoning", m->reasoning}, {"notes", m->notes}, {"suspicions", sus}};
        }
    }
    for (const ReplayChatLine& l : st.chat)
        chat.push_back({{"seat", werewolf::seatName(l.seat)}, {"text", l.text}, {"round", l.round}, {"wolves", l.wolves}});
    for (const ReplayVote& v : st.currentVotes)
        votes.push_back({{"voter", werewolf::seatName(v.voter)}, {"target", werewolf::seatName(v.target)}});
    out["alive"] = alive;
    out["roles"] = roles;
    out["chat"] = chat;
    out["votes"] = votes;
    out["night_actions"] = st.nightActions;
    out["minds"] = minds;
    return out;
}

} // namespace chaiba::werewolfmode
