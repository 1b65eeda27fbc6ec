// The Werewolf screen's main view: controls, the phase banner, the table with its seats and vote
// arrows, the chat (day chat with phase separators; the wolves' chat in the spectator view or for
// a wolf), and a person's actions. It reads the game up to the events revealed so far.
#include "src/modes/werewolf/ui/werewolf_screen.h"
#include "src/ui/flow_row.h"
#include "src/ui/theme.h"

#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"

#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <map>

namespace chaiba::werewolfmode {

using werewolf::Event;
using werewolf::EventKind;

namespace {
const ImU32 kWolf = IM_COL32(196, 58, 58, 255);
const ImU32 kVillage = IM_COL32(64, 128, 196, 255);
const ImU32 kDead = IM_COL32(120, 120, 120, 255);
const ImVec4 kWolfText(0.80f, 0.25f, 0.25f, 1);
const ImVec4 kMuted(0.55f, 0.55f, 0.58f, 1);
const char* kSpeedLabels[] = {"0.25x", "1x", "4x", "16x", "max"};

// What the revealed events say, as the point of view knows it.
struct TableView {
    werewolf::Phase phase = werewolf::Phase::Night;
    int round = 0;
    std::vector<bool> alive;
    std::vector<std::optional<werewolf::Role>> knownRole;
    std::vector<std::pair<int, int>> votes; // this (or the last) vote: voter, target
    std::string nightResult;                // the last dawn
    std::string lastEvent;
    std::int64_t phaseStartSimMs = 0;
    std::optional<werewolf::Team> winner;
};
} // namespace

bool ShownGame::visible(const Event& e) const {
    if (pov < 0 || static_cast<std::size_t>(pov) >= roles.size()) return true;
    return werewolf::visibleTo(e, pov, roles[static_cast<std::size_t>(pov)]);
}

ShownGame WerewolfScreen::liveShown() const {
    ShownGame s;
    const werewolf::Game& g = session_->game();
    s.events = &g.events();
    s.count = std::min(shownEvents_, g.events().size());
    s.pov = povSeat();
    s.person = personSeat();
    for (int i = 0; i < g.seats(); ++i) {
        s.roles.push_back(g.roleOf(i));
        const TableSeat& spec = session_->config().seats[static_cast<std::size_t>(i)];
        s.who.push_back(spec.kind == SeatKind::Bot ? "bot" : (spec.kind == SeatKind::Person ? "you" : spec.ai.model));
    }
    return s;
}

void sameLineIfFits(const char* label) {
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    const ImGuiStyle& st = ImGui::GetStyle();
    const float w = ImGui::CalcTextSize(label, nullptr, true).x + st.FramePadding.x * 2;
    if (ImGui::GetItemRectMax().x + st.ItemSpacing.x + w <= right) ImGui::SameLine();
}

void WerewolfScreen::draw() {
    if (replay_) {
        drawReplayBar(ImGui::GetContentRegionAvail().x);
        drawBody(replayShown());
        return;
    }
    drawControls();
    if (!session_ || session_->setupError() != werewolf::SetupError::None) {
        ImGui::TextWrapped("No game: press New game.");
        return;
    }
    drawBody(liveShown());
}

void WerewolfScreen::drawBody(const ShownGame& shown) {
    const float width = ImGui::GetContentRegionAvail().x;
    drawBanner(width, shown);
    const float height = ImGui::GetContentRegionAvail().y;
    const float em = context_.fonts ? context_.fonts->uiSize : ImGui::GetFontSize();
    if (const bool phone = width < em * kPhoneWidthEms; phone != phone_) {
        phone_ = phone;
        ++changes_; // the automation API's state says which layout
    }
    if (phone_) {
        drawPhone(width, height, shown);
        return;
    }
    const float tableW = std::min(width * 0.40f, height);
    const float chatW = (width - tableW) * 0.50f;
    ImGui::BeginChild("werewolf.table", ImVec2(tableW, height), false, ImGuiWindowFlags_NoScrollbar);
    drawTable(std::min(tableW, height), shown);
    if (!shown.replay) drawPersonActions();
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("werewolf.chat", ImVec2(chatW, height), true);
    drawChat(shown);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("werewolf.player", ImVec2(0, height), true);
    if (shown.replay) drawReplayMind();
    else drawPlayerPanel(ImGui::GetContentRegionAvail().x, height);
    ImGui::EndChild();
}

void WerewolfScreen::drawPhone(float width, float, const ShownGame& shown) {
    // One column: three tabs a finger high (the table with the person's actions, the chat with
    // them too, the seat's knowledge and reasoning), the chosen view below.
    const float em = context_.fonts ? context_.fonts->uiSize : ImGui::GetFontSize();
    const struct {
        PhoneView view;
        const char* label;
        const char* item;
    } tabs[] = {{PhoneView::Table, "Table", "werewolf.tab.table"},
                {PhoneView::Chat, "Chat", "werewolf.tab.chat"},
                {PhoneView::Seat, "Seat", "werewolf.tab.seat"}};
    const float spacing = ImGui::GetStyle().ItemSpacing.x * 0.5f;
    const float tabWidth = (width - spacing * 2) / 3;
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(spacing, ImGui::GetStyle().ItemSpacing.y));
    for (std::size_t i = 0; i < std::size(tabs); ++i) {
        const bool active = phoneView_ == tabs[i].view;
        if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        if (ImGui::Button(tabs[i].label, ImVec2(tabWidth, em * 2.2f))) {
            phoneView_ = tabs[i].view;
            ++changes_;
        }
        if (active) ImGui::PopStyleColor();
        ui::markItem(tabs[i].item);
        if (i + 1 < std::size(tabs)) ImGui::SameLine();
    }
    ImGui::PopStyleVar();
    const float height = ImGui::GetContentRegionAvail().y;
    switch (phoneView_) {
    case PhoneView::Table: {
        ImGui::BeginChild("werewolf.table", ImVec2(width, height), false);
        // The table as wide as the phone (the seats readable), the person's actions under it.
        drawTable(std::min(width, std::max(height - em * 7.5f, em * 16)), shown);
        if (!shown.replay) drawPersonActions();
        ImGui::EndChild();
        break;
    }
    case PhoneView::Chat: {
        // The chat above, the person's box below it: reading and answering on one view.
        const float actions = personSeat() >= 0 && !shown.replay ? std::min(height * 0.45f, em * 9.5f) : 0.0f;
        ImGui::BeginChild("werewolf.chat", ImVec2(width, height - actions), true);
        drawChat(shown);
        ImGui::EndChild();
        if (actions > 0) {
            ImGui::BeginChild("werewolf.chatActions", ImVec2(width, 0), false);
            drawPersonActions();
            ImGui::EndChild();
        }
        break;
    }
    case PhoneView::Seat:
        ImGui::BeginChild("werewolf.player", ImVec2(width, height), true);
        if (shown.replay) drawReplayMind();
        else drawPlayerPanel(width, height);
        ImGui::EndChild();
        break;
    }
}

void WerewolfScreen::drawWindows() {
    if (dialog_.DrawWindow(context_)) {
        if (auto e = newGame(dialog_.draft)) {
            dialog_.error = *e;
        } else {
            dialog_.open = false;
            dialog_.error.clear();
        }
    }
    drawCallLog();
    if (!importWanted_) return;
    if (std::optional<PickedFile> file = context_.platform ? context_.platform->takePickedFile() : std::nullopt) {
        importWanted_ = false;
        if (!file->error.empty()) {
            message_ = "The file could not be read: " + file->error;
            messageIsError_ = true;
        } else if (auto e = importFile(file->text)) {
            message_ = "The file could not be imported: " + *e;
            messageIsError_ = true;
        }
    }
}

void WerewolfScreen::drawControls() {
    // On a narrow page the row wraps: an item goes on the line when it fits, else below.
    const bool over = session_ && session_->finished();
    ImGui::BeginDisabled(!session_ || over || replayTo_.has_value());
    if (!running_) {
        if (ImGui::Button(shownEvents_ == 0 ? "Start###werewolf.start" : "Resume###werewolf.start")) command("start", "", nullptr);
        ui::markItem("werewolf.start");
    } else if (ImGui::Button("Pause###werewolf.start")) {
        command("pause", "", nullptr);
    }
    sameLineIfFits("Step");
    if (ImGui::Button("Step###werewolf.step")) command("step", "", nullptr);
    ImGui::EndDisabled();
    sameLineIfFits("xxxxxxxxxxxxxxxxxxxxx Speed");
    ImGui::SetNextItemWidth(90);
    ImGui::Combo("Speed###werewolf.speed", &speedIndex_, kSpeedLabels, 5);
    sameLineIfFits("New game");
    if (ImGui::Button("New game###werewolf.new")) {
        dialog_.open = true;
        dialog_.draft = setup_;
        // A fresh deal each new game (the same seed would deal the same roles again, a spoiler
        // for a second game); shown and settable in the dialog.
        dialog_.draft.seed = 1 + static_cast<std::uint64_t>(ImGui::GetTime() * 1000003.0) % 999983;
    }
    ui::markItem("werewolf.newGame");
    sameLineIfFits("Export");
    if (ImGui::Button("Export###werewolf.export") && context_.platform)
        context_.platform->downloadTextFile("chaiba-werewolf.json", "application/json", exportText());
    sameLineIfFits("Import");
    if (ImGui::Button("Import###werewolf.import") && context_.platform) {
        importWanted_ = true;
        context_.platform->pickTextFile(".json,application/json");
    }
    sameLineIfFits("Model calls");
    if (ImGui::Button("Model calls###werewolf.calls")) callLog_.open = !callLog_.open;
    ui::markItem("werewolf.calls");
    if (session_ && (session_->finished() || personOut())) {
        sameLineIfFits("Replay");
        if (ImGui::Button("Replay###werewolf.replay"))
            if (auto e = openCurrentReplay()) message_ = "The replay did not open: " + *e, messageIsError_ = true;
        ui::markItem("werewolf.replay");
    }
    if (session_ && (personSeat() < 0 || personOut())) {
        sameLineIfFits("xxxxxxxxxxxxxxxxxxxxxxxxx View");
        ImGui::SetNextItemWidth(150);
        const std::string label = pov_ < 0 ? "Spectator (all)" : "As " + werewolf::seatName(pov_) + " sees it";
        if (ImGui::BeginCombo("View###werewolf.pov", label.c_str())) {
            if (ImGui::Selectable("Spectator (all)", pov_ < 0)) pov_ = -1;
            for (int i = 0; i < session_->game().seats(); ++i)
                if (ImGui::Selectable(("As " + werewolf::seatName(i) + " sees it").c_str(), pov_ == i)) pov_ = i;
            ImGui::EndCombo();
        }
    }
    if (session_) {
        char spend[96];
        std::snprintf(spend, sizeof spend, "$%.4f  %lld tokens  %d fallbacks", session_->costUsd(), session_->tokens(),
                      session_->fallbacks());
        sameLineIfFits(spend);
        ImGui::TextDisabled("%s", spend);
    }
    if (!context_.chat) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("No API key: rule-based bots play (and you may take a seat). Add an OpenRouter key in "
                           "Settings to seat language models.");
        ImGui::PopStyleColor();
    }
    if (!promptsError_.empty()) ImGui::TextColored(kWolfText, "%s", promptsError_.c_str());
    if (!message_.empty()) {
        ImGui::TextColored(messageIsError_ ? kWolfText : kMuted, "%s", message_.c_str());
        if (corruptKept_ && store_) {
            ImGui::SameLine();
            if (chaiba::ui::smallButton("Download the damaged data") && context_.platform)
                if (auto text = store_->get("chaiba.werewolf.game.corrupt"))
                    context_.platform->downloadTextFile("chaiba-werewolf-damaged.json", "application/json", *text);
        }
    }
}

static TableView viewOf(const ShownGame& shown, const std::vector<std::int64_t>& times) {
    TableView v;
    const std::size_t seats = shown.roles.size();
    v.alive.assign(seats, true);
    v.knownRole.assign(seats, std::nullopt);
    if (shown.pov >= 0 && static_cast<std::size_t>(shown.pov) < seats)
        v.knownRole[static_cast<std::size_t>(shown.pov)] = shown.roles[static_cast<std::size_t>(shown.pov)];
    for (std::size_t i = 0; i < shown.count && i < shown.events->size(); ++i) {
        const Event& e = (*shown.events)[i];
        if (!shown.visible(e)) continue;
        const auto t = static_cast<std::size_t>(std::max(0, e.target));
        switch (e.kind) {
        case EventKind::Deal:
            for (std::size_t s = 0; s < e.roles.size() && s < v.knownRole.size(); ++s) v.knownRole[s] = e.roles[s];
            break;
        case EventKind::PackRevealed:
            for (int s : e.seats) v.knownRole[static_cast<std::size_t>(s)] = werewolf::Role::Werewolf;
            break;
        case EventKind::PhaseStart:
            v.phase = e.phase;
            v.round = e.round;
            v.phaseStartSimMs = i < times.size() ? times[i] : 0;
            if (e.phase == werewolf::Phase::Vote) v.votes.clear();
            break;
        case EventKind::Revote: v.votes.clear(); break;
        case EventKind::VoteCast:
            if (e.target >= 0) v.votes.push_back({e.seat, e.target}); // (an abstention draws no arrow)
            break;
        case EventKind::DawnDeath:
        case EventKind::Elimination:
            if (t >= seats) break;
            v.alive[t] = false;
            if (e.revealedRole) v.knownRole[t] = *e.revealedRole;
            if (e.kind == EventKind::DawnDeath) v.nightResult = werewolf::describeEvent(e);
            break;
        case EventKind::DawnNoDeath: v.nightResult = werewolf::describeEvent(e); break;
        case EventKind::GameOver:
            v.winner = e.team;
            v.phase = werewolf::Phase::Over;
            for (std::size_t s = 0; s < e.roles.size() && s < v.knownRole.size(); ++s) v.knownRole[s] = e.roles[s];
            break;
        default: break;
        }
        v.lastEvent = werewolf::describeEvent(e);
    }
    return v;
}

void WerewolfScreen::drawBanner(float width, const ShownGame& shown) {
    const TableView v = viewOf(shown, eventSimMs_);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float lh = ImGui::GetTextLineHeight();
    const float h = lh * 2.9f;
    const bool night = v.phase == werewolf::Phase::Night;
    const ImU32 bg = v.winner ? (*v.winner == werewolf::Team::Wolves ? kWolf : kVillage)
                              : (night ? IM_COL32(34, 40, 72, 255) : IM_COL32(214, 160, 64, 255));
    dl->AddRectFilled(p, ImVec2(p.x + width, p.y + h), bg, 6.0f);
    std::string title;
    if (v.winner) {
        title = *v.winner == werewolf::Team::Wolves ? "The werewolves win" : "The village wins";
        // A person at the table reads their own result first.
        if (const int person = shown.person; person >= 0 && static_cast<std::size_t>(person) < shown.roles.size())
            title = (werewolf::teamOf(shown.roles[static_cast<std::size_t>(person)]) == *v.winner ? "You won: " : "You lost: ") + title;
    }
    else if (shown.count == 0) title = "A new table: press Start";
    else if (night) title = "Night " + std::to_string(std::max(1, v.round)) + " - the village sleeps"; // (the deal: before night 1 starts)
    else if (v.phase == werewolf::Phase::Discussion) title = "Day " + std::to_string(v.round) + " - discussion";
    else title = "Day " + std::to_string(v.round) + " - the vote";
    const std::int64_t phaseMs = std::max<std::int64_t>(0, simNowMs_ - v.phaseStartSimMs);
    char timer[64];
    std::snprintf(timer, sizeof timer, "%s  %d:%02d", replayTo_ ? "restoring" : (running_ ? "playing" : "paused"),
                  static_cast<int>(phaseMs / 60000), static_cast<int>(phaseMs / 1000 % 60));
    if (shown.replay) std::snprintf(timer, sizeof timer, "%s", shown.status.c_str());
    if (context_.fonts && context_.fonts->bold) ImGui::PushFont(context_.fonts->bold);
    dl->AddText(ImVec2(p.x + 14, p.y + lh * 0.35f), IM_COL32_WHITE, title.c_str());
    if (context_.fonts && context_.fonts->bold) ImGui::PopFont();
    const float tw = ImGui::CalcTextSize(timer).x;
    dl->AddText(ImVec2(p.x + width - tw - 14, p.y + lh * 0.35f), IM_COL32(255, 255, 255, 220), timer);
    std::string sub = v.lastEvent.empty() ? "Eight seats, two hidden werewolves." : v.lastEvent;
    // A person out of the game watches everything (and reads their result at the end).
    if (!shown.replay && personOut() && !v.winner) sub = "You are out - watching as a spectator.  " + sub;
    dl->PushClipRect(p, ImVec2(p.x + width - 8, p.y + h), true);
    dl->AddText(ImVec2(p.x + 14, p.y + lh * 1.5f), IM_COL32(255, 255, 255, 210), sub.c_str());
    dl->PopClipRect();
    ImGui::Dummy(ImVec2(width, h + 4));
}

void WerewolfScreen::drawTable(float size, const ShownGame& shown) {
    const TableView v = viewOf(shown, eventSimMs_);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 c(origin.x + size * 0.5f, origin.y + size * 0.5f);
    const float r = size * 0.36f;
    dl->AddCircleFilled(c, r * 0.62f, IM_COL32(92, 64, 40, 255), 64);
    dl->AddCircle(c, r * 0.62f, IM_COL32(60, 40, 24, 255), 64, 3.0f);
    const int n = static_cast<int>(shown.roles.size());
    std::vector<ImVec2> pos(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        const float a = -1.5707963f + 6.2831853f * static_cast<float>(i) / static_cast<float>(n);
        pos[static_cast<std::size_t>(i)] = ImVec2(c.x + r * std::cos(a), c.y + r * std::sin(a));
    }
    // The votes as arrows, with the tally beside each target.
    std::map<int, int> tally;
    for (auto [voter, target] : v.votes) {
        ++tally[target];
        const ImVec2 a = pos[static_cast<std::size_t>(voter)], b = pos[static_cast<std::size_t>(target)];
        const float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy);
        if (len < 1) continue;
        const float ux = dx / len, uy = dy / len, cut = size * 0.075f;
        const ImVec2 from(a.x + ux * cut, a.y + uy * cut), to(b.x - ux * cut, b.y - uy * cut);
        const ImU32 col = IM_COL32(220, 90, 40, 210);
        dl->AddLine(from, to, col, 2.5f);
        dl->AddTriangleFilled(to, ImVec2(to.x - ux * 12 - uy * 6, to.y - uy * 12 + ux * 6),
                              ImVec2(to.x - ux * 12 + uy * 6, to.y - uy * 12 - ux * 6), col);
    }
    // The seats.
    // At least three lines high and a name wide (a phone's table is ~370 px: its cards would
    // print the role over the seat's name).
    const float w = std::max(size * 0.21f, ImGui::CalcTextSize("P8  dead").x + 16),
                h = std::max(size * 0.115f, ImGui::GetTextLineHeight() * 3.0f + 6);
    for (int i = 0; i < n; ++i) {
        const auto s = static_cast<std::size_t>(i);
        const ImVec2 p = pos[s];
        const ImVec2 tl(p.x - w * 0.5f, p.y - h * 0.5f), br(p.x + w * 0.5f, p.y + h * 0.5f);
        const std::optional<werewolf::Role> role = v.knownRole[s];
        const bool wolf = role && werewolf::teamOf(*role) == werewolf::Team::Wolves;
        const ImU32 edge = !v.alive[s] ? kDead : (role ? (wolf ? kWolf : kVillage) : IM_COL32(150, 150, 160, 255));
        dl->AddRectFilled(tl, br, v.alive[s] ? IM_COL32(250, 248, 242, 255) : IM_COL32(200, 200, 200, 255), 8.0f);
        dl->AddRect(tl, br, edge, 8.0f, 0, i == selected_ ? 4.0f : 2.0f);
        std::string who = shown.who[s];
        if (const auto slash = who.find('/'); slash != std::string::npos) who = who.substr(slash + 1);
        if (who.size() > 16) who = who.substr(0, 15) + "..";
        std::string line1 = werewolf::seatName(i) + (v.alive[s] ? "" : "  dead");
        const std::string line3 = role ? std::string(werewolf::roleName(*role)) : "?";
        const float lh = ImGui::GetTextLineHeight();
        dl->AddText(ImVec2(tl.x + 8, tl.y + 3), v.alive[s] ? IM_COL32(30, 30, 30, 255) : kDead, line1.c_str());
        dl->AddText(ImVec2(tl.x + 8, tl.y + 3 + lh), IM_COL32(90, 90, 100, 255), who.c_str());
        if (h > lh * 2.9f) dl->AddText(ImVec2(tl.x + 8, tl.y + 3 + lh * 2), role ? edge : kDead, line3.c_str());
        else dl->AddText(ImVec2(br.x - ImGui::CalcTextSize(line3.c_str()).x - 6, tl.y + 3), role ? edge : kDead, line3.c_str());
        if (auto it = tally.find(i); it != tally.end()) {
            char t[16];
            std::snprintf(t, sizeof t, "%d", it->second);
            dl->AddCircleFilled(ImVec2(br.x, tl.y), lh * 0.7f, IM_COL32(220, 90, 40, 255));
            dl->AddText(ImVec2(br.x - ImGui::CalcTextSize(t).x * 0.5f, tl.y - lh * 0.5f), IM_COL32_WHITE, t);
        }
        ImGui::SetCursorScreenPos(tl);
        ImGui::PushID(i);
        if (ImGui::InvisibleButton("seat", ImVec2(w, h))) selected_ = i;
        ImGui::PopID();
    }
    // The middle: the night's result.
    const std::string middle = v.winner ? (*v.winner == werewolf::Team::Wolves ? "Wolves win" : "Village wins")
                                        : (v.nightResult.empty() ? "No night has passed" : v.nightResult);
    const float wrap = r * 1.1f;
    const ImVec2 ts = ImGui::CalcTextSize(middle.c_str(), nullptr, false, wrap);
    dl->AddText(nullptr, 0, ImVec2(c.x - ts.x * 0.5f, c.y - ts.y * 0.5f), IM_COL32(250, 240, 220, 255), middle.c_str(),
                nullptr, wrap);
    ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + size));
}

void WerewolfScreen::drawChat(const ShownGame& shown) {
    const bool spectator = shown.pov < 0;
    ImGui::TextUnformatted(spectator ? "Chat (wolf chat shown in red: spectators only)" : "Chat as this seat sees it");
    ImGui::Separator();
    ImGui::BeginChild("werewolf.chat.lines", ImVec2(0, 0), false);
    for (std::size_t i = 0; i < shown.count && i < shown.events->size(); ++i) {
        const Event& e = (*shown.events)[i];
        if (!shown.visible(e)) continue;
        switch (e.kind) {
        case EventKind::PhaseStart: {
            const std::string label = e.phase == werewolf::Phase::Night ? "Night " + std::to_string(e.round)
                                      : e.phase == werewolf::Phase::Discussion ? "Day " + std::to_string(e.round)
                                                                                 : "Vote, day " + std::to_string(e.round);
            ImGui::Spacing();
            ImGui::TextColored(kMuted, "---- %s ----", label.c_str());
            break;
        }
        case EventKind::DayChat:
        case EventKind::WolfChat: {
            const bool wolves = e.kind == EventKind::WolfChat;
            ImGui::TextColored(wolves ? kWolfText : ImVec4(0.25f, 0.45f, 0.75f, 1), "%s%s:",
                               werewolf::seatName(e.seat).c_str(), wolves ? " (wolves)" : "");
            ImGui::SameLine();
            ImGui::TextWrapped("%s", e.text.c_str());
            break;
        }
        case EventKind::DawnDeath:
        case EventKind::DawnNoDeath:
        case EventKind::Elimination:
        case EventKind::NoElimination:
        case EventKind::Revote:
        case EventKind::GameOver:
        case EventKind::SeerInspect:
        case EventKind::DoctorProtect:
        case EventKind::WolfTarget:
            ImGui::TextColored(ImVec4(0.6f, 0.45f, 0.2f, 1), "%s", werewolf::describeEvent(e).c_str());
            break;
        default: break;
        }
    }
    // Live: follow the newest line; a replay: keep the cursor's line in sight.
    if ((shown.replay ? scrollChat_ : running_ && ImGui::GetScrollY() >= ImGui::GetScrollMaxY() - 40)) {
        ImGui::SetScrollHereY(1.0f);
        scrollChat_ = false;
    }
    ImGui::EndChild();
}

// The phase the box belongs to: a draft typed in another one is set aside, never posted there.
// At each tick, as the session moves on (a frame may come later: the table draws at a calmer rate).
void WerewolfScreen::keepDraftInItsPhase() {
    if (!session_ || personSeat() < 0) return;
    const werewolf::Game& game = session_->game();
    const int key = game.round() * 4 + static_cast<int>(game.phase()); // the name is made on a change only
    if (key == draftPhaseKey_) return;
    draftPhaseKey_ = key;
    const std::string round = std::to_string(game.round());
    const std::string phase = game.phase() == werewolf::Phase::Night ? "night " + round
                              : game.phase() == werewolf::Phase::Discussion
                                  ? "the day " + round + " discussion"
                              : game.phase() == werewolf::Phase::Vote ? "the day " + round + " vote"
                                                                      : "the end of the game";
    if (phase == draftPhase_) return;
    if (sayBuffer_[0] && !draftPhase_.empty()) {
        unsentDraft_ = sayBuffer_;
        unsentWhere_ = draftPhase_;
        sayBuffer_[0] = 0;
        ++changes_;
    }
    draftPhase_ = phase;
}

void WerewolfScreen::drawPersonActions() {
    const int person = personSeat();
    if (person < 0 || !session_) return;
    const std::vector<werewolf::PendingDecision> awaited = session_->awaitedFrom(person);
    ImGui::Separator();
    ImGui::Text("You play %s, a %s.", werewolf::seatName(person).c_str(),
                std::string(werewolf::roleName(session_->game().roleOf(person))).c_str());
    if (!session_->game().isAlive(person)) {
        ImGui::PushStyleColor(ImGuiCol_Text, chaiba::ui::palette().muted);
        ImGui::TextWrapped("You are out: the view shows everything now (View chooses a seat). Replay steps through "
                           "the game so far.");
        ImGui::PopStyleColor();
        return;
    }
    const double nowMs = ImGui::GetTime() * 1000.0;
    const werewolf::Game& game = session_->game();
    // The table tells what happened at the chosen speed (the night's end, the dawn): the person's
    // turn shows once the phase it belongs to has opened on screen, not while the view still shows
    // the night (at 1x the day's box came six seconds before the dawn's news). (The draft follows
    // the session's phase, whatever the table's pace: keepDraftInItsPhase, at each tick.)
    const std::vector<werewolf::Event>& events = game.events();
    std::size_t phaseOpened = 0;
    for (std::size_t i = events.size(); i-- > 0;)
        if (events[i].kind == werewolf::EventKind::PhaseStart) {
            phaseOpened = i;
            break;
        }
    if (!awaited.empty() && shownEvents_ <= phaseOpened && !replayTo_) {
        ImGui::PushStyleColor(ImGuiCol_Text, chaiba::ui::palette().muted);
        // (No count of events: some are hidden from this seat, the night's actions among them.)
        ImGui::TextWrapped("%s",
                           running_ ? "Your turn comes in a moment: the table is still telling what happened."
                                    : "Your turn comes once the table has told what happened: paused, Resume "
                                      "or Step tells the rest.");
        ImGui::PopStyleColor();
        chaiba::ui::markItem("werewolf.person.waiting");
        composing_ = false;
        return;
    }
    bool speaking = false;
    for (const werewolf::PendingDecision& p : awaited) speaking = speaking || p.kind == werewolf::DecisionKind::Speak;
    composing_ = false;
    if (speaking) {
        const std::optional<std::int64_t> left = session_->dayTimeLeftMs();
        ImGui::PushStyleColor(ImGuiCol_Text, chaiba::ui::palette().muted);
        if (session_->personPassed())
            ImGui::TextWrapped("You are done for today: the day ends after a quiet round.");
        else if (left)
            ImGui::TextWrapped("Your turn to talk: %lld s of the day left (the clock waits while you type). "
                               "\"I'm done\" lets the vote come.",
                               static_cast<long long>((*left + 999) / 1000));
        ImGui::PopStyleColor();
        // The buttons beside the box when it keeps a useful width, else under it (a phone).
        const float buttonsW = ImGui::CalcTextSize("Say  I'm done").x + ImGui::GetStyle().FramePadding.x * 4 +
                               ImGui::GetStyle().ItemSpacing.x * 2;
        const bool beside = ImGui::GetContentRegionAvail().x - buttonsW >= ImGui::GetFontSize() * 12;
        ImGui::SetNextItemWidth(beside ? -buttonsW : -1.0f);
        const bool enter = ImGui::InputTextWithHint("##werewolf.say", "say something to the table", sayBuffer_,
                                                    sizeof sayBuffer_, ImGuiInputTextFlags_EnterReturnsTrue);
        chaiba::ui::markItem("werewolf.say");
        if (ImGui::IsItemEdited()) lastDraftEditMs_ = nowMs;
        composing_ = sayBuffer_[0] && (ImGui::IsItemActive() || nowMs - lastDraftEditMs_ < 4000);
        if (beside) ImGui::SameLine();
        if ((ImGui::Button("Say###werewolf.say.send") || enter) && sayBuffer_[0]) {
            if (auto e = submitPerson(werewolf::Decision::speak(person, sayBuffer_))) {
                message_ = *e; // the draft stays in the box
                messageIsError_ = true;
            } else {
                sayBuffer_[0] = 0;
                composing_ = false;
            }
        }
        chaiba::ui::markItem("werewolf.say.send");
        ImGui::SameLine();
        ImGui::BeginDisabled(session_->personPassed());
        if (ImGui::Button("I'm done###werewolf.say.done"))
            if (auto e = passPerson()) message_ = *e, messageIsError_ = true;
        ImGui::EndDisabled();
        chaiba::ui::markItem("werewolf.say.done");
    }
    if (!unsentDraft_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, chaiba::ui::palette().muted);
        ImGui::TextWrapped("Not sent (typed in %s): \"%s\"", unsentWhere_.c_str(), unsentDraft_.c_str());
        ImGui::PopStyleColor();
        if (chaiba::ui::smallButton("Dismiss###werewolf.unsent.dismiss")) unsentDraft_.clear();
    }
    // The decisions (a vote, a night action) apart from the box, and deaf for a moment after they
    // appear: a click meant for the box that just left does not cast a vote.
    std::string key;
    for (const werewolf::PendingDecision& p : awaited)
        if (p.kind != werewolf::DecisionKind::Speak) key += std::string(werewolf::decisionKindName(p.kind)) + ";";
    if (key != decisionsKey_) {
        decisionsKey_ = key;
        decisionsShownMs_ = nowMs;
    }
    const bool settled = nowMs - decisionsShownMs_ >= 700;
    if (awaited.empty()) ImGui::TextDisabled("Nothing to decide now.");
    for (const werewolf::PendingDecision& p : awaited) {
        if (p.kind == werewolf::DecisionKind::Speak) continue;
        ImGui::Separator();
        // In words, not the decision's id ("wolf_vote").
        const char* what = p.kind == werewolf::DecisionKind::WolfVote  ? "The wolves' victim"
                           : p.kind == werewolf::DecisionKind::Inspect ? "Inspect"
                           : p.kind == werewolf::DecisionKind::Protect ? "Protect tonight"
                           : p.kind == werewolf::DecisionKind::Vote    ? "Your vote"
                                                                       : "Your choice";
        ImGui::AlignTextToFramePadding();
        ImGui::Text("%s:", what);
        chaiba::ui::FlowRow row; // on a phone the seats wrap under the first ones, after the label
        row.first = false;
        row.indent = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + ImGui::GetStyle().ItemSpacing.x;
        for (int t : p.targets) {
            row.place(werewolf::seatName(t).c_str());
            if (chaiba::ui::smallButton((werewolf::seatName(t) + "###werewolf.act." + std::to_string(t)).c_str()) && settled)
                if (auto e = submitPerson({person, p.kind, t, {}})) message_ = *e, messageIsError_ = true;
            chaiba::ui::markItem("werewolf.act." + werewolf::seatName(t));
        }
        if (p.abstain) { // a vote for nobody, where the rules allow it (kaggle)
            row.place("Abstain");
            if (chaiba::ui::smallButton("Abstain###werewolf.act.abstain") && settled)
                if (auto e = submitPerson({person, p.kind, werewolf::kAbstain, {}})) message_ = *e, messageIsError_ = true;
            chaiba::ui::markItem("werewolf.act.abstain");
        }
    }
}

} // namespace chaiba::werewolfmode
