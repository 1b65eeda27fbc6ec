// The Story screen's library of worlds: new (from a pitch, empty, a copy of the sample), rename,
// duplicate, delete (asked first), and SillyTavern imports (a character card as a new world, a
// lorebook into the open world) with their report; the buttons, dialogs and automation commands.
#include "src/modes/story/card_import.h"
#include "src/modes/story/conversation_store.h"
#include "src/modes/story/ui/story_screen.h"
#include "src/modes/story/world_library.h"

#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace chaiba::story {

namespace {

// The next file picked is a card: PNGs are a few hundred KiB, JSON cards less.
constexpr std::size_t kMaxPickedCardBytes = kMaxCardFileBytes;

std::string stemOf(const std::string& fileName) {
    const std::string base = fileName.substr(fileName.find_last_of("/\\") + 1);
    return base.substr(0, base.rfind('.'));
}

// SameLine when a button labelled `label` still fits this row, else it starts the next one.
void sameLineIfFits(const char* label) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float width = ImGui::CalcTextSize(label, nullptr, true).x + style.FramePadding.x * 2;
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + style.ItemSpacing.x + width <= right) ImGui::SameLine();
}

std::string field(const nlohmann::json& args, const char* name) {
    return args.is_object() && args.contains(name) && args[name].is_string() ? args[name].get<std::string>() : "";
}

} // namespace

void StoryScreen::closeWorld() {
    files_.reset();
    world_ = 0;
    config_ = LoadedWorldConfig{};
    conversations_.clear();
    conversation_ = Conversation{};
    conversation_.id = "main";
    openFile_.clear();
    fileEditor_.end();
    fileList_.clear();
    conversationLabels_.clear();
    estimate_.reset(); // the meter spoke of the deleted world
    bump();
}

std::optional<std::string> StoryScreen::addWorld(const std::string& title, const WorldFiles& from) {
    const WorldEntry entry{newWorldId(worlds_, title), title};
    KvWorldFiles files(*worldStore_, entry.id);
    if (WorldError e = copyWorldFiles(from, files); !e.ok()) {
        files.clear();
        return e.message;
    }
    worlds_.push_back(entry);
    if (auto e = saveWorldList(*worldStore_, worlds_)) {
        worlds_.pop_back();
        files.clear();
        return "the world list was not saved: " + *e;
    }
    stopReplay();
    openWorld(worlds_.size() - 1);
    return std::nullopt;
}

std::optional<std::string> StoryScreen::newWorldFrom(NewWorldFrom from, const std::string& title,
                                                     const std::string& pitch) {
    if (from == NewWorldFrom::Pitch) return newWorld(title, pitch);
    if (turn_ && turn_->running()) return "wait for the turn to finish first";
    if (title.find_first_not_of(' ') == std::string::npos) return "give the world a title";
    if (from == NewWorldFrom::Sample && !services_.assets) return "the page has no sample world to copy";
    MemoryWorldFiles scratch;
    const WorldError made =
        from == NewWorldFrom::Sample
            ? installSampleWorld(*services_.assets, scratch)
            : scratch.write(kConfigPath, "# Fill these in: the game master reads them every turn.\ntitle: " +
                                           nlohmann::json(title).dump() + "\nsetting: \"Where and when the story happens.\"\n"
                                           "tone: \"How it should feel.\"\ninstitutions: []\nplayer:\n"
                                           "  name: \"You\"\n  description: \"Who you are.\"\n");
    if (!made.ok()) return made.message;
    if (auto e = addWorld(title, scratch)) return e;
    notice_ = from == NewWorldFrom::Sample ? "A copy of the sample world, yours to change."
                                           : "An empty world: fill in config.yaml (Files), then play.";
    return std::nullopt;
}

std::optional<std::string> StoryScreen::renameWorld(const std::string& id, const std::string& title) {
    if (auto e = story::renameWorld(*worldStore_, worlds_, id, title)) return e;
    notice_ = "Renamed to \"" + title + "\".";
    bump();
    return std::nullopt;
}

std::optional<std::string> StoryScreen::duplicateWorld(const std::string& id) {
    if (turn_ && turn_->running()) return "wait for the turn to finish first";
    const auto source = std::find_if(worlds_.begin(), worlds_.end(), [&](const WorldEntry& w) { return w.id == id; });
    if (source == worlds_.end()) return "no world \"" + id + "\"";
    const std::string title = (source->title.empty() ? source->id : source->title) + " (copy)";
    // Its agent logs are read back first (the page keeps them out of memory): the copy is made
    // when every file is at hand, in this call or a moment later.
    gatherWorldFiles(KvWorldFiles(*worldStore_, id), [this, life = std::weak_ptr<int>(life_), title](
                                                         llm::Result<MemoryWorldFiles> files) {
        if (life.expired()) return;
        if (!files.isOk())
            error_ = "Not duplicated: the copy was not made: " + files.error;
        else if (auto e = addWorld(title, *files.value))
            error_ = "Not duplicated: " + *e;
        else
            notice_ = "Made \"" + title + "\", a copy with every file and conversation.";
        bump();
    });
    return std::nullopt;
}

std::optional<std::string> StoryScreen::deleteWorld(const std::string& id) {
    if (turn_ && turn_->running()) return "wait for the turn to finish first";
    const bool open = !worlds_.empty() && worlds_[world_].id == id;
    std::string title;
    for (const WorldEntry& w : worlds_)
        if (w.id == id) title = w.title.empty() ? w.id : w.title;
    if (open) forgetPictures();
    if (auto e = story::deleteWorld(*worldStore_, worlds_, id)) return e;
    deleteAskOpen_ = false;
    if (worlds_.empty()) {
        closeWorld();
    } else if (open) {
        openWorld(0);
    } else {
        for (std::size_t i = 0; i < worlds_.size(); ++i) // the open world's index may have moved
            if (files_ && worlds_[i].id == files_->worldId()) world_ = i;
    }
    notice_ = "Deleted \"" + title + "\" from this browser.";
    bump();
    return std::nullopt;
}

std::optional<std::string> StoryScreen::importCard(const std::string& bytes) {
    if (turn_ && turn_->running()) return "wait for the turn to finish first";
    llm::Result<CharacterCard> card = parseCharacterCard(bytes);
    if (!card.isOk()) return card.error;
    // Into a scratch world first: the store changes only when every file can be written.
    MemoryWorldFiles scratch;
    const WorldImport plan = planCardImport(*card.value, scratch);
    if (WorldError e = applyWorldImport(plan, scratch); !e.ok()) return e.message;
    if (auto e = addWorld(plan.title, scratch)) return e;
    importReport_ = importReportText(plan);
    importReportOpen_ = true;
    notice_ = "A new world from the card of " + plan.title + ".";
    return std::nullopt;
}

std::optional<std::string> StoryScreen::importLorebook(const std::string& text, const std::string& fileName) {
    if (turn_ && turn_->running()) return "wait for the turn to finish first";
    if (!files_) return "open a world first: a lorebook goes into the open world";
    llm::Result<Lorebook> book = parseLorebook(text);
    if (!book.isOk()) return book.error;
    const WorldImport plan = planLorebookImport(*book.value, stemOf(fileName), *files_);
    if (WorldError e = applyWorldImport(plan, *files_); !e.ok()) return e.message;
    // A turn of the story's history: Undo takes the files away again, Branch can start before them.
    const std::string what = "You imported the lorebook \"" + plan.title + "\": " + std::to_string(plan.files.size()) +
                             " keyed file(s)";
    if (WorldError e = recordPersonImport(*files_, conversation_, plan.files, what); !e.ok()) {
        reloadFiles();
        return e.message;
    }
    saveCurrent();
    logTurn_ = conversation_.turns.back().number;
    scrollToEnd_ = true;
    importReport_ = importReportText(plan);
    importReportOpen_ = true;
    notice_ = "Added " + std::to_string(plan.files.size()) + " keyed file(s) from the lorebook " + plan.title +
              ": edit " + std::to_string(logTurn_) + " of the story's history (Undo takes them away).";
    reloadFiles();
    bump();
    return std::nullopt;
}

void StoryScreen::takePickedFile() {
    if (!context_.platform || pickFor_ == PickFor::None) return;
    std::optional<PickedFile> picked = context_.platform->takePickedFile();
    if (!picked) return;
    const PickFor what = pickFor_;
    pickFor_ = PickFor::None;
    std::optional<std::string> error;
    if (!picked->error.empty()) {
        error = "the file could not be read: " + picked->error;
    } else if (what == PickFor::World) {
        error = importWorld(picked->text);
    } else if (what == PickFor::Card) {
        std::optional<std::string> bytes = base64Decode(picked->text);
        error = bytes ? importCard(*bytes) : std::optional<std::string>("the file could not be read");
    } else {
        error = importLorebook(picked->text, picked->name);
    }
    if (error) error_ = "Import refused (" + picked->name + "): " + *error;
    bump();
}

void StoryScreen::drawWorldTools() {
    const bool any = !worlds_.empty() && files_;
    ImGui::BeginDisabled(!any);
    sameLineIfFits("Rename…");
    if (ImGui::Button("Rename…") && any) {
        std::snprintf(renameBuffer_, sizeof renameBuffer_, "%s", worlds_[world_].title.c_str());
        renameOpen_ = true;
    }
    ui::markItem("story.renameWorld");
    sameLineIfFits("Duplicate");
    if (ImGui::Button("Duplicate") && any)
        commands_.post([this, id = worlds_[world_].id] {
            if (auto e = duplicateWorld(id)) error_ = "Not duplicated: " + *e;
        });
    ui::markItem("story.duplicateWorld");
    sameLineIfFits("Delete…");
    if (ImGui::Button("Delete…") && any) {
        deleteAsked_ = worlds_[world_].id;
        deleteAskOpen_ = true;
    }
    ui::markItem("story.deleteWorld");
    ImGui::EndDisabled();
    sameLineIfFits("Import card…");
    if (ImGui::Button("Import card…") && context_.platform) {
        context_.platform->pickTextFile(".png,.json,image/png,application/json", kMaxPickedCardBytes, true);
        pickFor_ = PickFor::Card;
    }
    ui::markItem("story.importCard");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("A SillyTavern character card (PNG or JSON, V1-V3) as a new world");
    sameLineIfFits("Import lorebook…");
    ImGui::BeginDisabled(!any);
    if (ImGui::Button("Import lorebook…") && context_.platform && any)
        unlessRedoLost("Importing a lorebook", [this] { // an edit turn of the history
            context_.platform->pickTextFile(".json,application/json", kMaxCardFileBytes);
            pickFor_ = PickFor::Lorebook;
        });
    ImGui::EndDisabled();
    ui::markItem("story.importLorebook");
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("A lorebook / World Info JSON into this world, as keyed files");
}

void StoryScreen::drawWorldDialogs() {
    const float em = ImGui::GetFontSize();
    const float wide = std::min(em * 34, ImGui::GetMainViewport()->WorkSize.x - em);
    if (renameOpen_) {
        ImGui::OpenPopup("Rename world");
        renameOpen_ = false;
    }
    ImGui::SetNextWindowSize(ImVec2(wide, 0), ImGuiCond_Appearing);
    if (ImGui::BeginPopupModal("Rename world", nullptr, ImGuiWindowFlags_NoSavedSettings)) {
        if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
        ImGui::InputText("Name", renameBuffer_, sizeof renameBuffer_);
        ui::markItem("story.renameInput");
        if (ImGui::Button("Rename") && !worlds_.empty()) {
            if (auto e = renameWorld(worlds_[world_].id, renameBuffer_))
                error_ = "Not renamed: " + *e;
            else
                ImGui::CloseCurrentPopup();
        }
        ui::markItem("story.renameOk");
        ImGui::SameLine();
        if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }

    if (deleteAskOpen_ && !ImGui::IsPopupOpen("Delete world?")) ImGui::OpenPopup("Delete world?");
    ImGui::SetNextWindowSize(ImVec2(wide, 0), ImGuiCond_Appearing);
    if (ImGui::BeginPopupModal("Delete world?", nullptr, ImGuiWindowFlags_NoSavedSettings)) {
        std::string title = deleteAsked_;
        for (const WorldEntry& w : worlds_)
            if (w.id == deleteAsked_ && !w.title.empty()) title = w.title;
        ImGui::TextWrapped("Delete \"%s\" from this browser, with its files, conversations and pictures? "
                           "This cannot be undone: Export it first to keep a copy.",
                           title.c_str());
        ImGui::PushStyleColor(ImGuiCol_Button, ImGui::ColorConvertU32ToFloat4(ui::palette().danger));
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
        const bool yes = ImGui::Button("Delete");
        ImGui::PopStyleColor(2);
        ui::markItem("story.deleteConfirm");
        ImGui::SameLine();
        const bool no = ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
        ui::markItem("story.deleteCancel");
        if (yes) // applied between frames: it replaces the world the other panels draw
            commands_.post([this, id = deleteAsked_] {
                if (auto e = deleteWorld(id)) error_ = "Not deleted: " + *e;
            });
        if (yes || no) {
            deleteAskOpen_ = false;
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndPopup();
    }

    if (importReportOpen_) {
        ImGui::OpenPopup("Imported");
        importReportOpen_ = false;
    }
    ImGui::SetNextWindowSize(ImVec2(std::min(em * 44, ImGui::GetMainViewport()->WorkSize.x - em), 0),
                             ImGuiCond_Appearing);
    if (ImGui::BeginPopupModal("Imported", nullptr, ImGuiWindowFlags_NoSavedSettings)) {
        const float textHeight = ImGui::CalcTextSize(importReport_.c_str(), nullptr, false, ImGui::GetContentRegionAvail().x).y;
        ImGui::BeginChild("story.importReport",
                          ImVec2(0, std::min(textHeight + em, ImGui::GetMainViewport()->WorkSize.y * 0.6f)));
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(importReport_.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndChild();
        if (ImGui::Button("Close") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
        ui::markItem("story.importReportClose");
        ImGui::EndPopup();
    }
}

std::optional<std::optional<std::string>> StoryScreen::worldsCommand(std::string_view name, std::string_view argumentJson,
                                                                     std::string*) {
    const nlohmann::json args =
        argumentJson.empty() ? nlohmann::json::object() : nlohmann::json::parse(argumentJson, nullptr, false);
    if (name == "newWorld" && !field(args, "from").empty() && field(args, "from") != "pitch") {
        const std::string from = field(args, "from");
        if (from != "empty" && from != "sample") return std::optional<std::string>("from is pitch, empty or sample");
        return newWorldFrom(from == "empty" ? NewWorldFrom::Empty : NewWorldFrom::Sample, field(args, "title"), "");
    }
    if (name == "renameWorld") return renameWorld(field(args, "id"), field(args, "title"));
    if (name == "duplicateWorld") return duplicateWorld(field(args, "id"));
    if (name == "deleteWorld") return deleteWorld(field(args, "id"));
    if (name == "importCard") {
        // {base64} for a PNG's bytes, or {text} for a JSON card.
        if (!field(args, "base64").empty()) {
            std::optional<std::string> bytes = base64Decode(field(args, "base64"));
            if (!bytes) return std::optional<std::string>("base64 is not base64");
            return importCard(*bytes);
        }
        return importCard(field(args, "text"));
    }
    if (name == "importLorebook") return importLorebook(field(args, "text"), field(args, "name"));
    return std::nullopt;
}

} // namespace chaiba::story
