// SettingsPanel: the API key never leaves this panel except into Settings (and from there only
// into localStorage and the Authorization header).
#include "src/app/settings_panel.h"
#include "src/modes/chess/ui/board_style.h"
#include "src/modes/story/ui/story_settings.h"

#include "src/modes/werewolf/ui/werewolf_settings.h"

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

void sectionTitle(const Fonts& fonts, const char* title) {
    ImGui::Spacing();
    ImGui::PushFont(fonts.bold);
    ImGui::TextUnformatted(title);
    ImGui::PopFont();
    ImGui::Separator();
}

// Keeps the next widget on this line when `width` more pixels fit, else starts a new line (the
// choices wrap on a phone instead of running off the panel).
void sameLineIfFits(float width) {
    const float right = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width;
    if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

// A 2×2 patch of a board theme's squares, the height of a line of text.
void boardSwatch(chessmode::BoardTheme theme, Theme pageTheme) {
    const float side = ImGui::GetTextLineHeight();
    const ImVec2 a = ImGui::GetCursorScreenPos();
    const float y = a.y + (ImGui::GetFrameHeight() - side) * 0.5f;
    const BoardColours c = boardThemeColours(theme, pageTheme);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float h = side * 0.5f;
    dl->AddRectFilled(ImVec2(a.x, y), ImVec2(a.x + h, y + h), c.light);
    dl->AddRectFilled(ImVec2(a.x + h, y), ImVec2(a.x + side, y + h), c.dark);
    dl->AddRectFilled(ImVec2(a.x, y + h), ImVec2(a.x + h, y + side), c.dark);
    dl->AddRectFilled(ImVec2(a.x + h, y + h), ImVec2(a.x + side, y + side), c.light);
    ImGui::Dummy(ImVec2(side, ImGui::GetFrameHeight()));
}

} // namespace

void SettingsPanel::syncBuffers(const Settings& settings, const SettingsContext& context) {
    copyInto(keyBuffer_, sizeof keyBuffer_, settings.apiKey);
    copyInto(baseUrlBuffer_, sizeof baseUrlBuffer_, settings.baseUrl);
    const std::string* current[3] = {&settings.promptBase, &settings.promptWhite, &settings.promptBlack};
    const std::string* defaults[3] = {&context.defaultPromptBase, &context.defaultPromptWhite,
                                      &context.defaultPromptBlack};
    for (int i = 0; i < 3; ++i)
        copyInto(promptBuffers_[i], sizeof promptBuffers_[i], current[i]->empty() ? *defaults[i] : *current[i]);
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

bool SettingsPanel::drawPrompts(const Fonts& fonts, Settings& settings, const SettingsContext& context) {
    bool changed = false;
    sectionTitle(fonts, "Prompts");
    std::string* targets[3] = {&settings.promptBase, &settings.promptWhite, &settings.promptBlack};
    const std::string* defaults[3] = {&context.defaultPromptBase, &context.defaultPromptWhite,
                                      &context.defaultPromptBlack};
    const char* labels[3] = {"Base (both sides)", "White", "Black"};
    for (int i = 0; i < 3; ++i) {
        ImGui::PushID(i);
        const bool custom = !targets[i]->empty();
        if (ImGui::TreeNode(labels[i], "%s%s", labels[i], custom ? " (edited)" : "")) {
            ImGui::PushFont(fonts.mono);
            if (ImGui::InputTextMultiline("##prompt", promptBuffers_[i], sizeof promptBuffers_[i],
                                          ImVec2(-1, fonts.uiSize * 9))) {
                // Text equal to the default is stored as "default", so later shipped fixes apply.
                *targets[i] = promptBuffers_[i] == *defaults[i] ? std::string() : std::string(promptBuffers_[i]);
                changed = true;
            }
            ImGui::PopFont();
            ImGui::BeginDisabled(!custom);
            if (chaiba::ui::smallButton("Reset to default")) {
                targets[i]->clear();
                copyInto(promptBuffers_[i], sizeof promptBuffers_[i], *defaults[i]);
                changed = true;
            }
            ImGui::EndDisabled();
            ImGui::TreePop();
        }
        ImGui::PopID();
    }
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
    if (!buffersLoaded_) syncBuffers(settings, context);
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
    } else {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.ok), "\xE2\x9C\x93 Key stored");
    }
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
    if (drawPrompts(fonts, settings, context)) changed = true;

    sectionTitle(fonts, "How models play");
    if (ImGui::Checkbox("Send a context message each turn (FEN and move history)", &settings.sendContextMessage))
        changed = true;
    ImGui::BeginDisabled(!settings.sendContextMessage);
    if (ImGui::Checkbox("Include the list of legal moves", &settings.sendLegalMoves)) changed = true;
    ImGui::EndDisabled();
    if (ImGui::Checkbox("Send the current FEN with the error after an invalid move", &settings.sendFenOnError))
        changed = true;
    ImGui::SetNextItemWidth(fonts.uiSize * 10);
    if (ImGui::SliderInt("Retries after an invalid move", &settings.retryAttempts, 0, 10)) changed = true;
    markItem("settings.retryAttempts");
    ImGui::PushStyleColor(ImGuiCol_Text, palette().muted);
    ImGui::TextWrapped("When the retries run out the model forfeits the game; a model never loses a turn.");
    ImGui::PopStyleColor();
    ImGui::SetNextItemWidth(fonts.uiSize * 10);
    if (ImGui::SliderInt("Answer timeout", &settings.requestTimeoutSeconds, 1, 600, "%d s",
                         ImGuiSliderFlags_Logarithmic))
        changed = true;
    markItem("settings.timeout");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("A model that has not answered after this long is asked again (a timeout counts as a "
                          "failed try); reasoning models can think for minutes.");

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

    sectionTitle(fonts, "Look and pace");
    int theme = settings.theme == Theme::Light ? 0 : 1;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Page");
    ImGui::SameLine();
    if (ImGui::RadioButton("Light", &theme, 0)) changed = true;
    ImGui::SameLine();
    if (ImGui::RadioButton("Dark", &theme, 1)) changed = true;
    settings.theme = theme == 0 ? Theme::Light : Theme::Dark;
    if (drawBoardLook(settings, context)) changed = true;
    ImGui::SetNextItemWidth(fonts.uiSize * 14);
    if (ImGui::SliderInt("Engine move delay", &settings.engineMoveDelayMs, 0, 5000, "%d ms")) changed = true;
    if (ImGui::IsItemDeactivatedAfterEdit()) changed = true;
    werewolfmode::drawWerewolfStrategySettings();
    if (context.drawModeSections) context.drawModeSections(); // they store their own settings
    drawStorySettingsSection(fonts);
    return changed;
}

// The pieces and the squares of every board (match, arena tiles, the arena's game view).
bool SettingsPanel::drawBoardLook(Settings& settings, const SettingsContext& context) {
    bool changed = false;
    const ImGuiStyle& style = ImGui::GetStyle();
    const float radio = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Pieces");
    for (chessmode::PieceSet set : chessmode::kPieceSets) {
        sameLineIfFits(radio + ImGui::CalcTextSize(chessmode::pieceSetLabel(set)).x);
        if (ImGui::RadioButton(chessmode::pieceSetLabel(set), settings.pieceSet == set)) {
            changed = changed || settings.pieceSet != set;
            settings.pieceSet = set;
        }
        markItem(std::string("settings.pieces.") + chessmode::pieceSetName(set));
    }
    if (!context.pieceSetProblem.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, palette().warning);
        ImGui::TextWrapped("%s", context.pieceSetProblem.c_str());
        markItem("settings.pieces.problem");
        ImGui::PopStyleColor();
    }
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Board");
    for (chessmode::BoardTheme theme : chessmode::kBoardThemes) {
        const char* label = chessmode::boardThemeLabel(theme);
        sameLineIfFits(radio + ImGui::CalcTextSize(label).x + style.ItemInnerSpacing.x + ImGui::GetTextLineHeight());
        if (ImGui::RadioButton(label, settings.boardTheme == theme)) {
            changed = changed || settings.boardTheme != theme;
            settings.boardTheme = theme;
        }
        markItem(std::string("settings.board.") + chessmode::boardThemeName(theme));
        ImGui::SameLine(0.0f, style.ItemInnerSpacing.x);
        boardSwatch(theme, settings.theme);
    }
    return changed;
}

} // namespace chaiba::ui
