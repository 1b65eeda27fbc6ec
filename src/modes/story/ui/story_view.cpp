// The Story screen's drawing: the worlds sidebar, the story column (read like a book: the player's
// lines set apart, the narrator's markdown, dice as a band bar with the roll, off-screen summaries
// folded under each reply), the composer, and the side panel (scene, files, agent log).
#include "src/modes/story/ui/markdown_view.h"
#include "src/modes/story/ui/story_screen.h"

#include "src/ui/flow_row.h"
#include "src/ui/fonts.h"
#include "src/ui/format.h"
#include "src/ui/item_registry.h"
#include "src/ui/platform.h"
#include "src/ui/theme.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace chaiba::story {

namespace {

void boldText(const ui::Fonts& fonts, const std::string& text, float scale = 1.0f) {
    if (fonts.bold) ImGui::PushFont(fonts.bold);
    if (scale != 1.0f) ImGui::SetWindowFontScale(scale);
    ImGui::TextUnformatted(text.c_str());
    if (scale != 1.0f) ImGui::SetWindowFontScale(1.0f);
    if (fonts.bold) ImGui::PopFont();
}

void mutedWrapped(const std::string& text) {
    ui::mutedText(text);
}

void coloredWrapped(ImU32 color, const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
}

// "the turn" phases in a reader's words.
const char* phaseSentence(TurnPhase phase) {
    switch (phase) {
    case TurnPhase::Memory: return "The game master sums up the older turns…";
    case TurnPhase::Orchestrator: return "The game master considers what happens next…";
    case TurnPhase::PreSteps: return "Off-screen, the world moves…";
    case TurnPhase::Narrator: return "The narrator is writing…";
    case TurnPhase::Images: return "An image is being painted…";
    default: return "";
    }
}

} // namespace

void StoryScreen::draw() {
    const ui::Fonts& fonts = *context_.fonts;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    viewHeight_ = avail.y;
    shownPictures_.clear();
    storyPictures_ = pictures("story.image.");
    if (const bool phone = avail.x < fonts.uiSize * kPhoneWidthEms; phone != phone_) {
        phone_ = phone;
        bump(); // the automation API's state says which layout
    }
    if (phone_) {
        drawPhone(avail.x, avail.y);
        return;
    }
    const float sidebar = std::min(fonts.uiSize * 14.0f, avail.x * 0.2f);
    const float side = std::min(fonts.uiSize * 22.0f, avail.x * 0.3f);
    const float center = avail.x - sidebar - side - ImGui::GetStyle().ItemSpacing.x * 2;

    ImGui::BeginChild("story.sidebar", ImVec2(sidebar, avail.y), true);
    drawSidebar(sidebar);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("story.center", ImVec2(center, avail.y), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    drawStory(center, avail.y);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("story.side", ImVec2(side, avail.y), true);
    drawSidePanel(side, avail.y, true);
    ImGui::EndChild();
}

void StoryScreen::drawPhone(float width, float) {
    // One column: a row of five equal tabs (each view one tap away), the chosen view below it.
    const ui::Fonts& fonts = *context_.fonts;
    const struct {
        PhoneView view;
        StoryPanel panel;
        const char* label;
        const char* item;
    } tabs[] = {{PhoneView::Story, panel_, "Story", "story.tab.story"},
                {PhoneView::Worlds, panel_, "Worlds", "story.tab.worlds"},
                {PhoneView::Panel, StoryPanel::Scene, "Scene", "story.tab.scene"},
                {PhoneView::Panel, StoryPanel::Files, "Files", "story.tab.files"},
                {PhoneView::Panel, StoryPanel::Log, "Log", "story.tab.log"}};
    const float spacing = ImGui::GetStyle().ItemSpacing.x * 0.5f;
    const float tabWidth = (width - spacing * 4) / 5;
    const float tabHeight = fonts.uiSize * 2.2f; // a finger's height
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(spacing, ImGui::GetStyle().ItemSpacing.y));
    for (std::size_t i = 0; i < std::size(tabs); ++i) {
        const auto& tab = tabs[i];
        const bool active = phoneView_ == tab.view && (tab.view != PhoneView::Panel || panel_ == tab.panel);
        if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        if (ImGui::Button(tab.label, ImVec2(tabWidth, tabHeight))) {
            phoneView_ = tab.view;
            panel_ = tab.panel;
            bump();
        }
        if (active) ImGui::PopStyleColor();
        ui::markItem(tab.item);
        if (i + 1 < std::size(tabs)) ImGui::SameLine();
    }
    ImGui::PopStyleVar();
    const float height = ImGui::GetContentRegionAvail().y;
    switch (phoneView_) {
    case PhoneView::Story:
        ImGui::BeginChild("story.center", ImVec2(width, height), false,
                          ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
        drawStory(width, height);
        ImGui::EndChild();
        break;
    case PhoneView::Worlds:
        ImGui::BeginChild("story.sidebar", ImVec2(width, height), true);
        drawSidebar(width);
        ImGui::EndChild();
        break;
    case PhoneView::Panel:
        ImGui::BeginChild("story.side", ImVec2(width, height), true);
        drawSidePanel(width, height, false);
        ImGui::EndChild();
        break;
    }
}

void StoryScreen::drawSidebar(float) {
    const ui::Fonts& fonts = *context_.fonts;
    boldText(fonts, "Worlds");
    for (std::size_t i = 0; i < worlds_.size(); ++i) {
        const std::string label =
            (worlds_[i].title.empty() ? worlds_[i].id : worlds_[i].title) + "##w" + worlds_[i].id;
        if (ImGui::Selectable(label.c_str(), i == world_ && !replaying_)) {
            commands_.post([this, id = worlds_[i].id] {
                if (auto e = selectWorld(id)) error_ = *e;
            });
            phoneView_ = PhoneView::Story;
        }
        ui::markItem("story.world." + worlds_[i].id);
    }
    if (ImGui::Button("New world…")) newWorldOpen_ = true;
    ui::markItem("story.newWorld");
    if (ImGui::Button("Export")) {
        // The agent logs are read back first: the download starts when the archive is whole.
        notice_ = "Exporting…";
        exportWorld([this, name = (worlds_.empty() ? "world" : worlds_[world_].id) + ".story.json"](
                        llm::Result<std::string> archive) {
            notice_.clear();
            if (!archive.isOk())
                error_ = "Export failed: " + archive.error;
            else if (context_.platform)
                context_.platform->downloadTextFile(name, "application/json", *archive.value);
            bump();
        });
    }
    ui::markItem("story.export");
    ImGui::SameLine();
    if (ImGui::Button("Import…") && context_.platform) {
        context_.platform->pickTextFile(".json,application/json");
        pickFor_ = PickFor::World; // the next picked file is ours (other screens pick files too)
    }
    ui::markItem("story.import");
    drawWorldTools();

    ImGui::Spacing();
    boldText(fonts, "Conversations");
    std::vector<std::string> ids = conversations_;
    if (std::find(ids.begin(), ids.end(), conversation_.id) == ids.end()) ids.push_back(conversation_.id);
    for (const std::string& id : ids) {
        const auto label = conversationLabels_.find(id);
        const std::string shown = label == conversationLabels_.end() || label->second.empty() ? id : label->second;
        if (ImGui::Selectable((shown + "##c" + id).c_str(), id == conversation_.id && !replaying_)) {
            commands_.post([this, id] {
                stopReplay();
                if (auto e = selectConversation(id)) error_ = *e;
            });
            phoneView_ = PhoneView::Story;
        }
        ui::markItem("story.conversation." + id);
    }
    if (!conversation_.branchedFrom.empty()) {
        const auto from = conversationLabels_.find(conversation_.branchedFrom);
        const bool named = from != conversationLabels_.end() && !from->second.empty();
        mutedWrapped("Branched from " + (named ? "\"" + from->second + "\"" : conversation_.branchedFrom) +
                     " at turn " + std::to_string(conversation_.branchedAtTurn));
    }

    if (!recordingError_.empty()) {
        ImGui::Spacing();
        coloredWrapped(ui::palette().danger, recordingError_);
    }
    if (recording_) {
        ImGui::Spacing();
        boldText(fonts, "Recorded adventure");
        mutedWrapped(
            "A scripted sample adventure: CHAIBA's own turns (decisions, off-screen steps, rolls, file edits, a "
            "picture, a turn taken back with Undo, a branch) recorded against scripted stand-in models; no AI "
            "wrote it. Read it step by step, no key needed.");
        if (ImGui::Button(replaying_ ? "Close the recording" : "Replay it")) {
            if (replaying_)
                stopReplay();
            else if (auto e = startReplay())
                error_ = *e;
            phoneView_ = PhoneView::Story;
        }
        ui::markItem("story.replay");
    }

    ImGui::Spacing();
    boldText(fonts, "Cost");
    ImGui::Text("This conversation: %s", formatCost(totalCostUsd()).c_str());
    ImGui::Text("This session: %s", formatCost(sessionCostUsd_).c_str());
}

void StoryScreen::drawStory(float width, float height) {
    const ui::Fonts& fonts = *context_.fonts;
    // The composer's height: on a phone the buttons go under the input, and the texts wrap more.
    const float composerHeight = fonts.uiSize * (replaying_ ? (phone_ ? 5.6f : 3.0f)
                                                 : phone_   ? (needsKey_ ? 16.0f : 7.6f)
                                                            : (needsKey_ ? 11.0f : 6.0f)) +
                                fonts.uiSize * (replaying_ || !estimate_ ? 0.0f : phone_ ? 3.8f : 2.6f); // the meter
    ImGui::BeginChild("story.text", ImVec2(width, height - composerHeight), false);
    const float column = std::min(width - fonts.uiSize * 2, fonts.uiSize * 40.0f);
    const float margin = std::max(fonts.uiSize, (width - column) / 2);
    ImGui::SetCursorPosX(margin);
    ImGui::BeginGroup();
    ImGui::Dummy(ImVec2(column, fonts.uiSize * 0.5f));
    const std::string title = replaying_        ? "The Lamps of Brackwater — the recorded adventure"
                              : worlds_.empty() ? "No world"
                              : !worlds_[world_].title.empty() ? worlds_[world_].title // renamed here
                                                               : config_.config.title;
    if (fonts.bold) ImGui::PushFont(fonts.bold);
    ImGui::SetWindowFontScale(1.5f);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + column);
    ImGui::TextUnformatted(title.c_str());
    ImGui::PopTextWrapPos();
    ImGui::SetWindowFontScale(1.0f);
    if (fonts.bold) ImGui::PopFont();
    if (!config_.banner.empty() && !replaying_) {
        coloredWrapped(ui::palette().warning, config_.banner);
        for (const std::string& problem : config_.warnings) mutedWrapped("• config.yaml: " + problem);
    }
    if (replaying_ && recording_)
        mutedWrapped("Scripted, not written by a model. Showing " + demoView(*recording_, replayEntries_).showing + ".");
    if (!promptsError_.empty()) coloredWrapped(ui::palette().danger, promptsError_);
    ImGui::Spacing();
    if (!config_.config.opening.empty())
        ui::drawMarkdownText(config_.config.opening, fonts, {column, 1.05f, true, &storyPictures_});

    if (replaying_ && recording_) {
        drawReplay(column);
    } else {
        drawConversation(conversation_, static_cast<std::size_t>(-1), false, column);
        if (turn_ && turn_->running()) {
            TurnRecord live;
            live.number = static_cast<int>(conversation_.turns.size()) + 1;
            TranscriptEntry player;
            player.kind = EntryKind::Player;
            player.text = pendingPlayer_;
            if (runKind_ != RunKind::Continue) live.entries.push_back(player); // a continuation adds to the reply
            live.entries.insert(live.entries.end(), liveEntries_.begin(), liveEntries_.end());
            drawTurn(live, static_cast<std::size_t>(-1), true, false, column);
            if (!streamText_.empty())
                ui::drawMarkdownText(streamText_ + " \xE2\x80\xA6", fonts, // (… : the font has no block cursor)
                                     {column, 1.05f, false, &storyPictures_});
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            ImGui::TextUnformatted(phaseSentence(phase_));
            ImGui::PopStyleColor();
            ui::markItem("story.phase");
        }
    }
    if (!error_.empty()) {
        ImGui::Spacing();
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + column);
        coloredWrapped(ui::palette().danger, error_);
        ImGui::PopTextWrapPos();
        ui::markItem("story.error");
        // Settings only where they can help: a model that failed, a key.
        if (error_.rfind("The game master failed", 0) == 0 || error_.find(" key") != std::string::npos) {
            if (chaiba::ui::smallButton("Open Settings") && context_.openSettings) context_.openSettings();
            ImGui::SameLine();
        }
        if (chaiba::ui::smallButton("Dismiss")) error_.clear();
    }
    if (!notice_.empty()) {
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + column);
        mutedWrapped(notice_);
        ImGui::PopTextWrapPos();
    }
    ImGui::Dummy(ImVec2(column, fonts.uiSize * 2));
    ImGui::EndGroup();
    // A story read at its end stays at its end when the view changes size (a phone turned, the
    // layout switched between one column and three).
    const bool resized = width != storyViewSize_[0] || height != storyViewSize_[1];
    if (scrollToEnd_ || (resized && storyAtEnd_)) {
        ImGui::SetScrollHereY(1.0f);
        scrollToEnd_ = false;
    }
    storyViewSize_[0] = width;
    storyViewSize_[1] = height;
    storyAtEnd_ = ImGui::GetScrollY() >= ImGui::GetScrollMaxY() - 2.0f;
    ImGui::EndChild();
    drawComposer(width);
}

void StoryScreen::drawConversation(const Conversation& conversation, std::size_t entryLimit, bool replay,
                                   float width) {
    std::size_t shown = 0;
    // A turn being regenerated is drawn live, as its new run.
    const bool regenerating = !replay && turn_ && turn_->running() && runKind_ == RunKind::Regenerate;
    // A long campaign costs a frame what its visible turns cost: a turn wholly outside the view
    // (with half a screen's margin) that was drawn before at this width keeps its place as a gap of the
    // height it had, until it scrolls near or what it shows changes.
    const bool clip = !replay && entryLimit == static_cast<std::size_t>(-1);
    if (width != turnHeightsWidth_ || conversation.id != turnHeightsConversation_) {
        turnHeights_.clear();
        turnHeightsWidth_ = width;
        turnHeightsConversation_ = conversation.id;
    }
    const float spacing = ImGui::GetStyle().ItemSpacing.y;
    const float viewHeight = ImGui::GetWindowHeight();
    const float viewTop = ImGui::GetScrollY() - viewHeight / 2, viewBottom = ImGui::GetScrollY() + 1.5f * viewHeight;
    if (clip) turnsLaidOut_ = 0;
    for (const TurnRecord& turn : conversation.turns) {
        if (shown >= entryLimit || (regenerating && &turn == &conversation.turns.back())) break;
        const std::size_t left = entryLimit == static_cast<std::size_t>(-1) ? entryLimit : entryLimit - shown;
        shown += turn.entries.size();
        const float top = ImGui::GetCursorPosY();
        std::size_t signature = 0;
        if (clip) {
            signature = turn.entries.size() * 1000003u + static_cast<std::size_t>(turn.answerCount()) * 7919u +
                        turn.changes.changes().size() * 131u;
            for (const TranscriptEntry& e : turn.entries) signature = signature * 31u + e.text.size();
            const auto known = turnHeights_.find(turn.number);
            if (known != turnHeights_.end() && known->second.signature == signature &&
                (top + known->second.height < viewTop || top > viewBottom)) {
                ImGui::Dummy(ImVec2(width, std::max(0.0f, known->second.height - spacing)));
                continue;
            }
        }
        drawTurn(turn, left, false, replay, width);
        if (!clip) continue;
        turnHeights_[turn.number] = {signature, ImGui::GetCursorPosY() - top};
        ++turnsLaidOut_;
    }
}

void StoryScreen::drawReplay(float width) {
    const ui::Fonts& fonts = *context_.fonts;
    const ui::Palette& colors = ui::palette();
    const DemoView view = demoView(*recording_, replayEntries_); // the recording is never replaced
    for (std::size_t i = 0; i < view.items.size(); ++i) {
        const DemoItem& item = view.items[i];
        ImGui::PushID(static_cast<int>(i));
        if (item.kind == DemoItem::Kind::Banner) {
            // A framed note across the column: what the undo or the branch did.
            const bool undo = item.text.rfind("Undo", 0) == 0;
            ImGui::Dummy(ImVec2(width, fonts.uiSize * 0.4f));
            ImDrawList* list = ImGui::GetWindowDrawList();
            list->ChannelsSplit(2);
            list->ChannelsSetCurrent(1);
            const ImVec2 at = ImGui::GetCursorScreenPos();
            const float pad = fonts.uiSize * 0.5f;
            ImGui::SetCursorScreenPos(ImVec2(at.x + pad, at.y + pad));
            ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width - 2 * pad);
            if (fonts.bold) ImGui::PushFont(fonts.bold);
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(undo ? colors.warning : colors.accent));
            ImGui::TextUnformatted(item.text.c_str());
            ImGui::PopStyleColor();
            if (fonts.bold) ImGui::PopFont();
            ImGui::PopTextWrapPos();
            const float bottom = ImGui::GetItemRectMax().y + pad;
            list->ChannelsSetCurrent(0);
            const ImU32 edge = undo ? colors.warning : colors.accent;
            list->AddRectFilled(at, ImVec2(at.x + width, bottom), (edge & 0x00FFFFFFu) | 0x26000000u, 4.0f);
            list->AddRect(at, ImVec2(at.x + width, bottom), edge, 4.0f, 0, 1.5f);
            list->ChannelsMerge();
            ImGui::SetCursorScreenPos(ImVec2(at.x, bottom));
            ImGui::Dummy(ImVec2(width, fonts.uiSize * 0.4f));
            ui::markItem(undo ? "story.replay.undoBanner" : "story.replay.branchBanner");
        } else if (item.kind == DemoItem::Kind::Undone) {
            // Taken back: greyed under a line saying so, its diff kept to read.
            ImGui::Dummy(ImVec2(width, fonts.uiSize * 0.4f));
            coloredWrapped(colors.warning, "Turn " + std::to_string(item.turn->number) +
                                               " as it was played, before the player took it back:");
            ImGui::PushStyleVar(ImGuiStyleVar_Alpha, 0.45f);
            drawTurn(*item.turn, item.entries, false, true, width);
            drawReplayDetails(*item.turn, true);
            ImGui::PopStyleVar();
        } else {
            drawTurn(*item.turn, item.entries, false, true, width);
            if (item.entries == item.turn->entries.size()) drawReplayDetails(*item.turn, false);
        }
        ImGui::PopID();
    }
}

void StoryScreen::drawReplayDetails(const TurnRecord& turn, bool undone) {
    const std::string n = std::to_string(turn.number);
    ImGui::PushID(turn.number);
    const OrchestratorDecision& d = turn.decision;
    if (!d.reasoning.empty() || !d.preSteps.empty() || !d.suggestedTwists.empty()) {
        const bool open = ImGui::TreeNode("decision", "The orchestrator's decision");
        ui::markItem((undone ? "story.replay.undoneDecision." : "story.replay.decision.") + n);
        if (open) {
            mutedWrapped(d.reasoning);
            for (const PreStep& step : d.preSteps)
                mutedWrapped("Pre-step: " + (step.kind == PreStepKind::WorldAdvance
                                                 ? "world_advance, " + step.description
                                                 : "faction_turn, " + step.faction + ": " + step.situation));
            for (const SuggestedTwist& twist : d.suggestedTwists)
                mutedWrapped("A roll: " + twist.situation + " (" + twist.reason + ")");
            ImGui::TreePop();
        }
    }
    if (!turn.changes.empty()) {
        const std::size_t count = turn.changes.touchedPaths().size();
        const bool open = ImGui::TreeNode("changes", "%s (%zu %s)",
                                          undone ? "Its file changes, reverted" : "What the game master changed",
                                          count, count == 1 ? "file" : "files");
        ui::markItem((undone ? "story.replay.undoneDiff." : "story.replay.diff.") + n);
        if (open) {
            drawTurnDiff(turn);
            ImGui::TreePop();
        }
    }
    ImGui::PopID();
}

void StoryScreen::drawTurn(const TurnRecord& turn, std::size_t entryLimit, bool live, bool replay,
                           float width) {
    const ui::Fonts& fonts = *context_.fonts;
    const ui::Palette& colors = ui::palette();
    std::vector<const TranscriptEntry*> offScreen;
    const std::size_t count = std::min(entryLimit, turn.entries.size());
    ImGui::PushID(turn.number);
    for (std::size_t i = 0; i < count; ++i) {
        const TranscriptEntry& entry = turn.entries[i];
        switch (entry.kind) {
        case EntryKind::Player: {
            ImGui::Dummy(ImVec2(width, fonts.uiSize * 0.6f));
            const ImVec2 at = ImGui::GetCursorScreenPos();
            ImGui::SetCursorScreenPos(ImVec2(at.x + fonts.uiSize * 1.2f, at.y));
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colors.accent));
            if (fonts.bold) ImGui::PushFont(fonts.bold);
            ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width - fonts.uiSize * 2.4f);
            ImGui::TextUnformatted(entry.text.c_str());
            ImGui::PopTextWrapPos();
            if (fonts.bold) ImGui::PopFont();
            ImGui::PopStyleColor();
            const ImVec2 end = ImGui::GetItemRectMax();
            ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(at.x, at.y), ImVec2(at.x + 3, end.y),
                                                      colors.accent);
            ImGui::Dummy(ImVec2(width, fonts.uiSize * 0.3f));
            break;
        }
        case EntryKind::Narrator:
            ui::drawMarkdownText(entry.text, fonts, {width, 1.05f, false, &storyPictures_});
            break;
        case EntryKind::Dice: drawDice(*entry.twist, width); break;
        case EntryKind::Edit: drawEdit(turn, entry, width); break;
        case EntryKind::OffScreen: offScreen.push_back(&entry); break;
        case EntryKind::ToolCall:
            if (entry.agent == AgentKind::Narrator && entry.toolName != "twist_of_fate") {
                const std::string first = entry.text.substr(0, entry.text.find('\n'));
                ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(
                                                         entry.toolError ? colors.danger : colors.muted));
                ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
                ImGui::TextUnformatted(("\xE2\x80\xA2 " + first).c_str());
                ImGui::PopTextWrapPos();
                ImGui::PopStyleColor();
            } else if (entry.agent != AgentKind::Narrator) {
                offScreen.push_back(&entry);
            }
            break;
        }
    }
    // The pictures the turn painted (create_image), unless its reply already shows them.
    if (count == turn.entries.size()) {
        std::optional<std::string> narration; // made only for a turn that painted
        for (const FileChange& change : turn.changes.changes()) {
            const WorldPathCheck check = checkWorldPath(change.path);
            if (!change.after || !check.ok() || check.kind != WorldPathKind::Image) continue;
            if (!narration) narration = turn.narration();
            if (narration->find("(" + change.path + ")") != std::string::npos) continue;
            const std::size_t slash = change.path.rfind('/') + 1;
            ui::drawMarkdownImage(change.path, change.path.substr(slash, change.path.rfind('.') - slash),
                                  fonts, {width, 1.05f, false, &storyPictures_});
        }
    }
    if (!offScreen.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        const bool open = ImGui::TreeNode("offscreen", "What happened off-screen (%zu)", offScreen.size());
        ImGui::PopStyleColor();
        ui::markItem("story.offscreen." + std::to_string(turn.number));
        if (open) {
            for (const TranscriptEntry* e : offScreen) {
                if (e->kind == EntryKind::OffScreen)
                    ui::drawMarkdownText(e->text, fonts,
                                         {width - fonts.uiSize * 2, 0.95f, true, &storyPictures_});
                else
                    mutedWrapped(std::string(agentKindName(e->agent)) + " · " + e->toolName + ": " +
                                 e->text.substr(0, e->text.find('\n')));
            }
            ImGui::TreePop();
        }
    }
    if (!live && !replay && count == turn.entries.size()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        const std::size_t files = turn.changes.touchedPaths().size();
        if (turn.kind == TurnKind::Edit)
            ImGui::Text("Edit %d · by hand", turn.number);
        else
            ImGui::Text(
                "Turn %d · %s%s", turn.number, formatCost(turn.allAnswersCostUsd()).c_str(),
                files ? (" · " + std::to_string(files) + (files == 1 ? " file changed" : " files changed")).c_str()
                      : "");
        ImGui::PopStyleColor();
        ui::FlowRow row; // on a phone the buttons wrap under the line rather than off the edge
        row.first = false;
        row.place("Branch here");
        if (chaiba::ui::smallButton("Branch here")) {
            // After this frame: the branch replaces the conversation this loop is drawing.
            commands_.post([this, number = turn.number] {
                if (auto e = branch(number, true)) error_ = *e;
            });
        }
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("A new conversation from this reply, with the world as it was then");
        ui::markItem("story.branch." + std::to_string(turn.number));
        row.place("Agent log");
        if (chaiba::ui::smallButton("Agent log")) {
            panel_ = StoryPanel::Log;
            phoneView_ = PhoneView::Panel;
            logTurn_ = turn.number;
        }
        ui::markItem("story.log." + std::to_string(turn.number));
        if (turn.kind == TurnKind::Play && !(turn_ && turn_->running())) drawSteering(turn, width);
    }
    ImGui::PopID();
}

void StoryScreen::drawEdit(const TurnRecord& turn, const TranscriptEntry& entry, float width) {
    const ui::Fonts& fonts = *context_.fonts;
    const ui::Palette& colors = ui::palette();
    ImGui::Dummy(ImVec2(width, fonts.uiSize * 0.6f));
    if (fonts.bold) ImGui::PushFont(fonts.bold);
    coloredWrapped(colors.warning, entry.text);
    if (fonts.bold) ImGui::PopFont();
    const bool open = ImGui::TreeNode("diff", "The change");
    ui::markItem("story.edit." + std::to_string(turn.number));
    if (!open) return;
    drawTurnDiff(turn);
    ImGui::TreePop();
}

void StoryScreen::drawComposer(float width) {
    const ui::Fonts& fonts = *context_.fonts;
    ImGui::Separator();
    if (replaying_) {
        const std::size_t total = recording_ ? demoSteps(*recording_) : 0;
        const ImVec2 big(0, phone_ ? fonts.uiSize * 2.2f : 0.0f);
        ui::FlowRow row;
        row.place("Next step");
        if (ImGui::Button("Next step", big)) {
            if (auto e = replayStep()) notice_ = *e;
        }
        ui::markItem("story.replayStep");
        row.place("Show all");
        if (ImGui::Button("Show all", big)) replayEntries_ = total;
        row.place("Close");
        if (ImGui::Button("Close", big)) stopReplay();
        // Which conversation is shown stays in sight when the title has scrolled away.
        const Conversation* shown = recording_ ? demoView(*recording_, replayEntries_).conversation : nullptr;
        const std::string step = "Step " + std::to_string(replayEntries_) + " of " + std::to_string(total) +
                                 (!shown                        ? ""
                                  : shown->branchedFrom.empty() ? " · main line"
                                                                : " · branch " + shown->id + " from turn " +
                                                                      std::to_string(shown->branchedAtTurn)) +
                                 (phone_ ? "" : " (no key needed)");
        row.place(step.c_str());
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(step.c_str());
        return;
    }
    if (needsKey_) drawKeyPrompt(width);
    const bool running = turn_ && turn_->running();
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    // Wide: the buttons in a column right of the input. Phone: the input full width, then Send
    // (the larger) and Undo side by side, a finger high.
    const float buttons = phone_ ? (width - spacing) * 0.55f : fonts.uiSize * 9;
    const ImVec2 inputSize = phone_ ? ImVec2(width, fonts.uiSize * 3.2f)
                                    : ImVec2(width - buttons - spacing, fonts.uiSize * 3.6f);
    const float buttonHeight = phone_ ? fonts.uiSize * 2.2f : 0.0f;
    ImGui::BeginDisabled(running);
    const bool enter = ImGui::InputTextMultiline(
        "##say", composer_, sizeof composer_, inputSize,
        ImGuiInputTextFlags_CtrlEnterForNewLine | ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::EndDisabled();
    ui::markItem("story.input");
    if (!phone_) ImGui::SameLine();
    ImGui::BeginGroup();
    if (running) {
        if (ImGui::Button("Stop", ImVec2(buttons, buttonHeight))) stop();
        ui::markItem("story.stop");
    } else {
        if (ImGui::Button("Send", ImVec2(buttons, buttonHeight)) || enter)
            unlessRedoLost("Playing a new turn", [this, text = std::string(composer_)] {
                if (auto e = say(text))
                    error_ = *e;
                else
                    composer_[0] = '\0';
            });
        ui::markItem("story.send");
    }
    if (phone_) ImGui::SameLine();
    ImGui::BeginDisabled(running || conversation_.turns.empty());
    const bool lastIsEdit = !conversation_.turns.empty() && conversation_.turns.back().kind == TurnKind::Edit;
    // With turns to redo, Undo and Redo share the row.
    const bool redoable = conversation_.redoable > 0 && !running;
    const float undoWidth = phone_ ? width - buttons - spacing : buttons;
    const ImVec2 undoSize(redoable ? (undoWidth - spacing) / 2 : undoWidth, buttonHeight);
    if (ImGui::Button(redoable ? "Undo###undo" : lastIsEdit ? "Undo last edit###undo" : "Undo last turn###undo", undoSize)) {
        commands_.post([this] {
            if (auto e = undo()) error_ = *e;
        });
    }
    ImGui::EndDisabled();
    ui::markItem("story.undo");
    if (redoable) {
        ImGui::SameLine();
        if (ImGui::Button("Redo", undoSize))
            commands_.post([this] {
                if (auto e = redo()) error_ = *e;
            });
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Bring back what Undo took (playing on asks first, then drops them)");
        ui::markItem("story.redo");
    }
    ImGui::EndGroup();
    drawMeter(width);
}

void StoryScreen::drawKeyPrompt(float) {
    const ui::Fonts& fonts = *context_.fonts;
    coloredWrapped(
        ui::palette().warning,
        "The game master needs an OpenRouter key. Paste one here (it stays in this browser), or open "
        "Settings. Without a key you can still read and replay the recorded adventure.");
    ImGui::SetNextItemWidth(std::min(fonts.uiSize * 18, ImGui::GetContentRegionAvail().x));
    ImGui::InputTextWithHint("##storykey", "sk-or-…", keyBuffer_, sizeof keyBuffer_,
                             ImGuiInputTextFlags_Password);
    ui::markItem("story.key");
    ui::FlowRow row;
    row.first = false; // after the key field
    row.place("Save key");
    if (ImGui::Button("Save key") && services_.setApiKey) {
        if (auto e = services_.setApiKey(keyBuffer_))
            error_ = "The key was refused: " + *e;
        else {
            keyBuffer_[0] = '\0';
            needsKey_ = false;
            std::snprintf(composer_, sizeof composer_, "%s", savedDraft_.c_str());
            notice_ = "Key saved. Press Send to play your turn.";
        }
    }
    ui::markItem("story.saveKey");
    row.place("Open Settings");
    if (ImGui::Button("Open Settings") && context_.openSettings) context_.openSettings();
}

void StoryScreen::drawSidePanel(float width, float height, bool tabRow) {
    const struct {
        StoryPanel panel;
        const char* label;
        const char* item;
    } tabs[] = {{StoryPanel::Scene, "Scene", "story.tab.scene"},
                {StoryPanel::Files, "Files", "story.tab.files"},
                {StoryPanel::Log, "Agent log", "story.tab.log"}};
    for (const auto& tab : tabs) {
        if (!tabRow) break; // the phone's own row shows them
        const bool active = panel_ == tab.panel;
        if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        if (ImGui::Button(tab.label)) panel_ = tab.panel;
        if (active) ImGui::PopStyleColor();
        ui::markItem(tab.item);
        ImGui::SameLine();
    }
    if (tabRow) {
        ImGui::NewLine();
        ImGui::Separator();
    }
    const float inner = width - ImGui::GetStyle().WindowPadding.x * 2;
    switch (panel_) {
    case StoryPanel::Scene: drawScene(inner); break;
    case StoryPanel::Files: drawFiles(inner, height); break;
    case StoryPanel::Log: drawLog(inner); break;
    }
}

void StoryScreen::drawNewWorldDialog() {
    if (newWorldOpen_) {
        ImGui::OpenPopup("New world");
        newWorldOpen_ = false;
    }
    const ui::Fonts& fonts = *context_.fonts;
    ImGui::SetNextWindowSize(ImVec2(std::min(fonts.uiSize * 32, ImGui::GetMainViewport()->WorkSize.x - fonts.uiSize), 0),
                             ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal("New world", nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    ui::markWindow("story.newWorld.window");
    ui::FlowRow from; // on a phone the third choice wraps under the first
    from.placeToggle("From a pitch");
    ImGui::RadioButton("From a pitch", &newWorldFrom_, int(NewWorldFrom::Pitch));
    from.placeToggle("Empty");
    ImGui::RadioButton("Empty", &newWorldFrom_, int(NewWorldFrom::Empty));
    from.placeToggle("A copy of the sample");
    ImGui::RadioButton("A copy of the sample", &newWorldFrom_, int(NewWorldFrom::Sample));
    ui::markItem("story.newWorld.sample");
    const bool pitch = newWorldFrom_ == int(NewWorldFrom::Pitch);
    ImGui::TextWrapped("%s", pitch ? "A title and a pitch of a sentence or two. The game master creates the places and "
                                     "people as the story reaches them."
                           : newWorldFrom_ == int(NewWorldFrom::Empty)
                               ? "A title, and a config.yaml to fill in (Files): the setting, the tone, who you play."
                               : "The Lamps of Brackwater as shipped, under your title, to change as you like.");
    ImGui::InputText("Title", newTitle_, sizeof newTitle_);
    if (pitch)
        ImGui::InputTextMultiline("Pitch", newPitch_, sizeof newPitch_, ImVec2(-fonts.uiSize * 4, fonts.uiSize * 5));
    if (ImGui::Button("Create")) {
        if (auto e = newWorldFrom(NewWorldFrom(newWorldFrom_), newTitle_, newPitch_))
            notice_ = *e;
        else {
            newTitle_[0] = newPitch_[0] = '\0';
            ImGui::CloseCurrentPopup();
        }
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
    if (!notice_.empty()) mutedWrapped(notice_);
    ImGui::EndPopup();
}

void StoryScreen::drawWindows() {
    drawNewWorldDialog();
    drawSteeringDialogs();
    drawWorldDialogs();
    drawCallLog();
}

// The shared model-call window: this session's finished turns, then the turn in flight.
void StoryScreen::drawCallLog() {
    if (!callLog_.open) return;
    std::vector<ui::CallSource> sources{{"", &sessionCalls_}};
    if (turn_ && turn_->running()) sources.push_back({"now", &turn_->calls().records()});
    std::vector<std::string> notes;
    if (sessionCallsDropped_)
        notes.push_back("The " + std::to_string(sessionCallsDropped_) +
                        " oldest calls of this session are no longer kept (each held its whole prompt): the totals "
                        "are of the calls shown; each turn's agent log keeps its steps.");
    callLog_.DrawWindow(
        *context_.fonts, "Story model calls###story.calllog", sources, notes,
        [](const std::string& text, void* platform) {
            static_cast<Platform*>(platform)->copyToClipboard(text);
        },
        context_.platform);
}

} // namespace chaiba::story
