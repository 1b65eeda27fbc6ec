// The Werewolf strategy documents in Settings (see werewolf_settings.h).
#include "src/modes/werewolf/ui/werewolf_settings.h"

#include <imgui.h>

#include <string>

namespace chaiba::werewolfmode {

namespace {
KeyValueStore* gStore = nullptr;
WerewolfPrompts* gPrompts = nullptr;
int gRole = 0;
std::string gBuffer;
int gLoadedRole = -1;

std::string keyFor(werewolf::Role r) {
    std::string name(werewolf::roleName(r));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return "chaiba.werewolf.strategy." + name;
}

int resizeCallback(ImGuiInputTextCallbackData* data) {
    if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
        auto* s = static_cast<std::string*>(data->UserData);
        s->resize(static_cast<std::size_t>(data->BufTextLen));
        data->Buf = s->data();
    }
    return 0;
}
} // namespace

void registerStrategyEditor(KeyValueStore* store, WerewolfPrompts* prompts) {
    gStore = store;
    gPrompts = prompts;
    gLoadedRole = -1;
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
    if (!ImGui::CollapsingHeader("Werewolf strategy documents###settings.werewolf")) return;
    ImGui::TextWrapped("Each AI player reads its role's strategy document at the start of every game. Edits "
                       "apply to the next game.");
    for (int i = 0; i < werewolf::kRoleCount; ++i) {
        if (i) ImGui::SameLine();
        if (ImGui::RadioButton(std::string(werewolf::roleName(static_cast<werewolf::Role>(i))).c_str(), gRole == i))
            gRole = i;
    }
    const auto role = static_cast<werewolf::Role>(gRole);
    if (gLoadedRole != gRole) {
        gBuffer = gPrompts->strategy(role);
        gLoadedRole = gRole;
    }
    const bool edited = gPrompts->strategyOverrides[static_cast<std::size_t>(gRole)].has_value();
    ImGui::TextDisabled(edited ? "edited (kept in this browser)" : "the shipped document");
    ImGui::InputTextMultiline("##werewolf.strategy", gBuffer.data(), gBuffer.capacity() + 1,
                              ImVec2(-1, ImGui::GetTextLineHeight() * 14), ImGuiInputTextFlags_CallbackResize,
                              resizeCallback, &gBuffer);
    if (ImGui::Button("Save strategy###settings.werewolf.save")) {
        gPrompts->setStrategy(role, gBuffer);
        if (gStore) gStore->set(keyFor(role), gBuffer);
    }
    ImGui::SameLine();
    if (ImGui::Button("Reset to the shipped document###settings.werewolf.reset")) {
        gPrompts->resetStrategy(role);
        if (gStore) gStore->remove(keyFor(role));
        gBuffer = gPrompts->strategy(role);
    }
}

} // namespace chaiba::werewolfmode
