// SettingsPanel: the API key never leaves this panel except into Settings (and from there only
// into localStorage and the Authorization header).
#include "src/app/settings_panel.h"

#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <cstring>

namespace chaiba::ui {

namespace {

void copyInto(char* buffer, size_t size, const std::string& text) {
    std::strncpy(buffer, text.c_str(), size - 1);
    buffer[size - 1] = '\0';
}

std::string trimmed(const char* text) {
    std::string s(text);
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return "";
    const auto last = s.find_last_not_of(" \t\r\n");
    return s.substr(first, last - first + 1);
}

} // namespace

void SettingsPanel::syncBuffers(const Settings& settings) {
    copyInto(keyBuffer_, sizeof keyBuffer_, settings.apiKey);
    copyInto(baseUrlBuffer_, sizeof baseUrlBuffer_, settings.baseUrl);
    buffersLoaded_ = true;
}

bool SettingsPanel::drawModels(const Fonts& fonts, Settings& settings, const SettingsContext& context) {
    const Palette& pal = palette();
    bool changed = false;
    sectionTitle(fonts, "Models");
    ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
    ImGui::TextWrapped("The models offered first and used for new LLM games. Empty: the shipped list.");
    ImGui::PopStyleColor();
    const std::vector<std::string>& shown = settings.selectedModels.empty() ? context.defaultModels
                                                                             : settings.selectedModels;
    int remove = -1;
    ImGui::PushFont(fonts.mono);
    for (size_t i = 0; i < shown.size(); ++i) {
        ImGui::PushID(static_cast<int>(i));
        if (chaiba::ui::smallButton("remove")) remove = static_cast<int>(i);
        ImGui::SameLine();
        ImGui::TextUnformatted(shown[i].c_str());
        ImGui::PopID();
    }
    ImGui::PopFont();
    if (remove >= 0) {
        settings.selectedModels = shown;
        settings.selectedModels.erase(settings.selectedModels.begin() + remove);
        if (settings.selectedModels.empty()) settings.selectedModels = {context.defaultModels.empty() ? "openai/gpt-4o" : context.defaultModels.back()};
        changed = true;
    }
    ImGui::SetNextItemWidth(fonts.uiSize * 16);
    if (ImGui::BeginCombo("##addmodel", "add a model\xE2\x80\xA6", ImGuiComboFlags_HeightLarge)) {
        ImGui::SetNextItemWidth(-1);
        ImGui::InputTextWithHint("##modelfilter", "search", modelFilter_, sizeof modelFilter_);
        int count = 0;
        for (const std::string& id : context.catalogIds) {
            if (modelFilter_[0] && id.find(modelFilter_) == std::string::npos) continue;
            if (++count > 200) break;
            if (ImGui::Selectable(id.c_str())) {
                settings.selectedModels = shown;
                settings.selectedModels.push_back(id);
                changed = true;
            }
        }
        if (modelFilter_[0] && ImGui::Selectable((std::string("use \"") + modelFilter_ + "\"").c_str())) {
            settings.selectedModels = shown;
            settings.selectedModels.push_back(modelFilter_);
            changed = true;
        }
        if (context.catalogIds.empty()) ImGui::TextDisabled("type a model id (the catalog is not loaded)");
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::BeginDisabled(settings.selectedModels.empty());
    if (ImGui::Button("Reset models")) {
        settings.selectedModels.clear();
        changed = true;
    }
    ImGui::EndDisabled();
    return changed;
}

bool SettingsPanel::DrawWindow(const Fonts& fonts, Settings& settings, const SettingsContext& context) {
    if (!open) return false;
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float width = std::min(vp->WorkSize.x - 2 * fonts.uiSize, fonts.uiSize * 34.0f);
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + fonts.uiSize * 4.0f),
                            ImGuiCond_Appearing, ImVec2(0.5f, 0.0f));
    ImGui::SetNextWindowSize(ImVec2(width, 0), ImGuiCond_Appearing);
    ImGui::SetNextWindowSizeConstraints(ImVec2(fonts.uiSize * 16, 0), ImVec2(vp->WorkSize.x, vp->WorkSize.y * 0.9f));
    bool changed = false;
    if (ImGui::Begin("Settings", &open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
        markWindow("settings.window");
        if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) && !ImGui::IsAnyItemActive() &&
            ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
            open = false;
        changed = DrawContents(fonts, settings, context);
    }
    ImGui::End();
    if (!open) buffersLoaded_ = false;
    return changed;
}

bool SettingsPanel::DrawContents(const Fonts& fonts, Settings& settings, const SettingsContext& context) {
    if (!buffersLoaded_) syncBuffers(settings);
    const Palette& pal = palette();
    bool changed = false;
    if (!notice.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, noticeIsError ? pal.danger : pal.ok);
        ImGui::TextWrapped("%s", notice.c_str());
        ImGui::PopStyleColor();
    }

    sectionTitle(fonts, "OpenRouter API key");
    ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
    ImGui::TextWrapped("Paste a key from openrouter.ai/keys. It is kept only in this browser (localStorage) "
                       "and sent only to the base URL below. Without a key the built-in engines play.");
    ImGui::PopStyleColor();
    ImGui::SetNextItemWidth(-fonts.uiSize * 5.5f);
    ImGui::PushFont(fonts.mono);
    const ImGuiInputTextFlags keyFlags = showKey_ ? 0 : ImGuiInputTextFlags_Password;
    ImGui::InputTextWithHint("##apikey", "sk-or-v1-…", keyBuffer_, sizeof keyBuffer_, keyFlags);
    markItem("settings.apiKey");
    ImGui::PopFont();
    ImGui::SameLine();
    ImGui::Checkbox("Show", &showKey_);
    const bool saveKey = ImGui::Button("Save key");
    markItem("settings.saveKey");
    if (saveKey) {
        const std::string key = trimmed(keyBuffer_);
        if (auto error = validateApiKey(key)) {
            keyError_ = *error;
        } else {
            keyError_.clear();
            settings.apiKey = key;
            copyInto(keyBuffer_, sizeof keyBuffer_, key);
            changed = true;
        }
    }
    ImGui::SameLine();
    ImGui::BeginDisabled(settings.apiKey.empty() && keyBuffer_[0] == '\0');
    if (ImGui::Button("Forget key")) {
        settings.apiKey.clear();
        keyBuffer_[0] = '\0';
        keyError_.clear();
        changed = true;
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (settings.apiKey.empty()) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.muted), "No key stored");
    } else if (keyRefused) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.danger), "\xE2\x9C\x97 Key stored, refused by the API");
    } else {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.ok), "\xE2\x9C\x93 Key stored");
    }
    markItem(settings.apiKey.empty() ? "settings.key.none" : keyRefused ? "settings.key.refused" : "settings.key.stored");
    if (!keyError_.empty()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.danger), "%s", keyError_.c_str());
    ImGui::BeginDisabled(settings.apiKey.empty());
    if (ImGui::Button("Check key")) checkKeyRequested_ = true;
    markItem("settings.checkKey");
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
    ImGui::TextWrapped("%s", keyStatus.empty() ? "shows the key's label and remaining credit" : keyStatus.c_str());
    ImGui::PopStyleColor();

    sectionTitle(fonts, "API base URL");
    ImGui::SetNextItemWidth(-fonts.uiSize * 5.5f);
    ImGui::PushFont(fonts.mono);
    const bool urlEntered = ImGui::InputText("##baseurl", baseUrlBuffer_, sizeof baseUrlBuffer_,
                                             ImGuiInputTextFlags_EnterReturnsTrue);
    markItem("settings.baseUrl");
    const bool urlDone = urlEntered || ImGui::IsItemDeactivatedAfterEdit();
    ImGui::PopFont();
    ImGui::SameLine();
    if (ImGui::Button("Reset")) {
        copyInto(baseUrlBuffer_, sizeof baseUrlBuffer_, kDefaultBaseUrl);
        settings.baseUrl = kDefaultBaseUrl;
        urlError_.clear();
        changed = true;
    }
    if (urlDone) {
        std::string url = trimmed(baseUrlBuffer_);
        while (!url.empty() && url.back() == '/') url.pop_back();
        if (auto error = validateBaseUrl(url)) {
            urlError_ = *error;
        } else {
            urlError_.clear();
            if (url != settings.baseUrl) {
                settings.baseUrl = url;
                changed = true;
            }
            copyInto(baseUrlBuffer_, sizeof baseUrlBuffer_, url);
        }
    }
    if (!urlError_.empty()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.danger), "%s", urlError_.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
    ImGui::TextWrapped("Any OpenAI-compatible server works, e.g. a local Ollama or llama.cpp server.");
    ImGui::PopStyleColor();

    if (drawModels(fonts, settings, context)) changed = true;
    sectionTitle(fonts, "Model parameters");
    bool modelTemperature = settings.temperature < 0;
    if (ImGui::Checkbox("Model's default temperature", &modelTemperature)) {
        settings.temperature = modelTemperature ? -1.0 : 0.7;
        changed = true;
    }
    if (!modelTemperature) {
        float t = static_cast<float>(settings.temperature);
        ImGui::SetNextItemWidth(fonts.uiSize * 10);
        if (ImGui::SliderFloat("Temperature", &t, 0.0f, 2.0f, "%.2f")) {
            settings.temperature = static_cast<double>(t);
            changed = true;
        }
    }
    ImGui::SetNextItemWidth(fonts.uiSize * 10);
    int maxTokens = settings.maxTokens;
    if (ImGui::InputInt("Max tokens (0 = model default)", &maxTokens, 256, 1024)) {
        settings.maxTokens = maxTokens < 0 ? 0 : (maxTokens > 200000 ? 200000 : maxTokens);
        changed = true;
    }
    static const ReasoningEffort kEfforts[] = {ReasoningEffort::Default, ReasoningEffort::Minimal,
                                               ReasoningEffort::Low, ReasoningEffort::Medium, ReasoningEffort::High};
    ImGui::SetNextItemWidth(fonts.uiSize * 10);
    if (ImGui::BeginCombo("Reasoning effort", effortName(settings.reasoningEffort))) {
        for (ReasoningEffort e : kEfforts) {
            if (ImGui::Selectable(effortName(e), e == settings.reasoningEffort)) {
                settings.reasoningEffort = e;
                changed = true;
            }
        }
        ImGui::EndCombo();
    }
    ImGui::SetNextItemWidth(fonts.uiSize * 10);
    if (ImGui::SliderInt("Answer timeout", &settings.requestTimeoutSeconds, 1, 600, "%d s",
                         ImGuiSliderFlags_Logarithmic))
        changed = true;
    markItem("settings.timeout");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("A model that has not answered after this long is asked again (a timeout counts as a "
                          "failed try); reasoning models can think for minutes.");

    sectionTitle(fonts, "Look");
    int theme = settings.theme == Theme::Light ? 0 : 1;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Page");
    ImGui::SameLine();
    if (ImGui::RadioButton("Light", &theme, 0)) changed = true;
    ImGui::SameLine();
    if (ImGui::RadioButton("Dark", &theme, 1)) changed = true;
    settings.theme = theme == 0 ? Theme::Light : Theme::Dark;
    // The modes' own sections (chess, Werewolf, the planner, Story), in the header's order.
    if (context.drawModeSections && context.drawModeSections()) changed = true;
    return changed;
}

} // namespace chaiba::ui
