// The Werewolf strategy documents in Settings (see werewolf_settings.h).
#include "src/modes/werewolf/ui/werewolf_settings.h"

#include "src/ui/document_editor.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <string>

namespace chaiba::werewolfmode {

namespace {
KeyValueStore* gStore = nullptr;
WerewolfPrompts* gPrompts = nullptr;
Platform* gPlatform = nullptr;
const ui::Fonts* gFonts = nullptr;
int gRole = 0;
int gLoadedRole = -1;
std::string gNote;         // what the last Save or Reset did
bool gNoteIsError = false; // the store refused the write
// The open role's document: the browser's own editor (long lines wrap), ImGui's where there is none.
ui::DocumentEditor gEditor{"settings.werewolf.strategy"};

std::string keyFor(werewolf::Role r) {
    std::string name(werewolf::roleName(r));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return "chaiba.werewolf.strategy." + name;
}

// Fills the editor with the role's document as it stands (edited or shipped).
void load(werewolf::Role role) {
    gEditor.begin(gPlatform, gPrompts->strategy(role),
                  "Strategy document of the " + std::string(werewolf::roleName(role)));
    if (gLoadedRole != static_cast<int>(role)) gNote.clear();
    gLoadedRole = static_cast<int>(role);
}
} // namespace

void registerStrategyEditor(KeyValueStore* store, WerewolfPrompts* prompts, Platform* platform, const ui::Fonts* fonts) {
    gStore = store;
    gPrompts = prompts;
    gPlatform = platform;
    gFonts = fonts;
    gLoadedRole = -1;
    gEditor.end();
}

void applyStoredStrategies(KeyValueStore* store, WerewolfPrompts& prompts) {
    for (int i = 0; i < werewolf::kRoleCount; ++i) {
        const auto r = static_cast<werewolf::Role>(i);
        std::optional<std::string> text = store ? store->get(keyFor(r)) : std::nullopt;
        if (text) prompts.setStrategy(r, *text);
        else prompts.resetStrategy(r);
    }
}

void drawWerewolfStrategySettings() {
    if (!gPrompts) return;
    const bool open = ImGui::CollapsingHeader("Werewolf strategy documents###settings.werewolf");
    ui::markItem("settings.werewolf");
    if (!open) return;
    ImGui::TextWrapped("Each AI player reads its role's strategy document at the start of every game. Edits "
                       "apply to the next game.");
    for (int i = 0; i < werewolf::kRoleCount; ++i) {
        if (i) ImGui::SameLine();
        const std::string name(werewolf::roleName(static_cast<werewolf::Role>(i)));
        if (ImGui::RadioButton(name.c_str(), gRole == i)) gRole = i;
        ui::markItem("settings.werewolf.role." + name);
    }
    const auto role = static_cast<werewolf::Role>(gRole);
    if (gLoadedRole != gRole || !gEditor.active()) load(role);
    const bool edited = gPrompts->strategyOverrides[static_cast<std::size_t>(gRole)].has_value();
    ImGui::TextDisabled(edited ? "edited (kept in this browser)" : "the shipped document");
    static const ui::Fonts kNoFonts{};
    gEditor.draw(ImVec2(-1, ImGui::GetTextLineHeight() * 14), gFonts ? *gFonts : kNoFonts);
    const std::string roleName(werewolf::roleName(role));
    if (ImGui::Button("Save strategy###settings.werewolf.save")) {
        const std::string text = gEditor.text();
        gPrompts->setStrategy(role, text); // this session's next games read it in any case
        const std::optional<std::string> refused = gStore ? gStore->set(keyFor(role), text) : std::nullopt;
        gNoteIsError = refused.has_value();
        gNote = refused ? "Used from the next game, but not kept in this browser: " + *refused
                        : "Saved: the next game's " + roleName + " players read it.";
    }
    ui::markItem("settings.werewolf.save");
    ImGui::SameLine();
    if (ImGui::Button("Reset to the shipped document###settings.werewolf.reset")) {
        gPrompts->resetStrategy(role);
        if (gStore) gStore->remove(keyFor(role));
        load(role);
        gNoteIsError = false;
        gNote = "Back to the shipped document for the " + roleName + ".";
    }
    ui::markItem("settings.werewolf.reset");
    if (!gNote.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::PushStyleColor(ImGuiCol_Text, gNoteIsError ? ui::palette().danger : ui::palette().muted);
        ImGui::TextUnformatted(gNote.c_str());
        ImGui::PopStyleColor();
        ImGui::PopTextWrapPos();
        ui::markItem("settings.werewolf.note");
    }
}

} // namespace chaiba::werewolfmode
