// drawGamesFilterBar: see games_filter_bar.h.
#include "src/modes/chess/ui/games_filter_bar.h"

#include "src/ui/item_registry.h"

#include <imgui.h>

#include <algorithm>

namespace chaiba::ui {

void drawGamesFilterBar(const Fonts& fonts, chessmode::GamesFilter& filter, const GamesFilterChoices& choices,
                        const std::string& idPrefix, FlowRow& row) {
    const int players = int(choices.players.size());
    if (filter.player >= players) filter.player = -1;
    ImGui::PushID(idPrefix.c_str());
    row.placeWidth(fonts.uiSize * 12);
    ImGui::SetNextItemWidth(fonts.uiSize * 12);
    const std::string current =
        filter.player < 0 ? std::string("every player") : choices.players[size_t(filter.player)];
    if (ImGui::BeginCombo("##gamesPlayer", current.c_str())) {
        if (ImGui::Selectable("every player", filter.player < 0)) filter.player = -1;
        for (int i = 0; i < players; ++i) {
            ImGui::PushID(i);
            if (ImGui::Selectable(choices.players[size_t(i)].c_str(), filter.player == i)) filter.player = i;
            markItem(idPrefix + ".player." + std::to_string(i));
            ImGui::PopID();
        }
        ImGui::EndCombo();
    }
    markItem(idPrefix + ".player");
    static constexpr const char* kResults[] = {"any result", "decisive", "draws", "forfeits"};
    row.placeWidth(fonts.uiSize * 8);
    ImGui::SetNextItemWidth(fonts.uiSize * 8);
    ImGui::Combo("##gamesResult", &filter.result, kResults, IM_ARRAYSIZE(kResults));
    markItem(idPrefix + ".result");
    // How the games ended, among the endings that occurred.
    row.placeWidth(fonts.uiSize * 10);
    ImGui::SetNextItemWidth(fonts.uiSize * 10);
    const std::string ending =
        filter.ending.empty() ? std::string("any ending") : chessmode::endingLabel(filter.ending);
    if (ImGui::BeginCombo("##gamesEnding", ending.c_str())) {
        if (ImGui::Selectable("any ending", filter.ending.empty())) filter.ending.clear();
        for (const std::string& name : choices.endings) {
            if (ImGui::Selectable(chessmode::endingLabel(name).c_str(), filter.ending == name))
                filter.ending = name;
            markItem(idPrefix + ".ending." + name);
        }
        ImGui::EndCombo();
    }
    markItem(idPrefix + ".ending");
    const auto& openings = choices.openings;
    if (filter.opening >= int(openings.size())) filter.opening = -1;
    if (openings.size() >= std::max<size_t>(1, choices.minOpenings)) {
        row.placeWidth(fonts.uiSize * 10);
        ImGui::SetNextItemWidth(fonts.uiSize * 10);
        const std::string shown =
            filter.opening < 0 ? std::string("any opening") : openings[size_t(filter.opening)];
        if (ImGui::BeginCombo("##gamesOpening", shown.c_str())) {
            if (ImGui::Selectable("any opening", filter.opening < 0)) filter.opening = -1;
            for (size_t i = 0; i < openings.size(); ++i) {
                ImGui::PushID(int(i));
                if (ImGui::Selectable(openings[i].empty() ? "(unnamed)" : openings[i].c_str(),
                                      filter.opening == int(i)))
                    filter.opening = int(i);
                markItem(idPrefix + ".opening." + std::to_string(i));
                ImGui::PopID();
            }
            ImGui::EndCombo();
        }
        markItem(idPrefix + ".opening");
    }
    ImGui::PopID();
}

} // namespace chaiba::ui
