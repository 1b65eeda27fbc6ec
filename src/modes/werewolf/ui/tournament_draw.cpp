// The Werewolf Arena page: a sidebar (status, progress, spend against the cap, the buttons,
// errors and notices) beside the setup form, or the games (in progress and finished) and the
// leaderboard. Reads the screen's state and calls its commands; no rule of the game lives here.
#include "src/modes/werewolf/ui/tournament_screen.h"

#include "src/ui/flow_row.h"
#include "src/ui/fonts.h"
#include "src/ui/format.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <vector>

namespace chaiba {

using namespace chaiba::werewolfmode;

namespace {

ImVec4 colour(ImU32 c) { return ImGui::ColorConvertU32ToFloat4(c); }

void muted(const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().muted);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
}

std::string percent(int part, int whole) {
    if (whole == 0) return "\xE2\x80\x93"; // –
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.0f%% (%d/%d)", 100.0 * part / whole, part, whole);
    return buffer;
}

// "1595 ±29" (the wider side of the 95% interval); the interval itself is the cell's tooltip.
std::string ratingText(const RatingValue& r) {
    if (r.games == 0) return "\xE2\x80\x93";
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.0f \xC2\xB1%.0f", r.elo, std::max(r.high - r.elo, r.elo - r.low));
    return buffer;
}

std::string ratingTip(const RatingValue& r) {
    if (r.games == 0) return "no games in this role against another player";
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, "95%% interval %.0f\xE2\x80\x93%.0f from %d encounters", r.low, r.high, r.games);
    return buffer;
}

// "75%" in the cell, "24 of 32" in the tooltip.
std::string share(int part, int whole) {
    if (whole == 0) return "\xE2\x80\x93";
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "%.0f%%", 100.0 * part / whole);
    return buffer;
}

std::string shareTip(int part, int whole) {
    return whole == 0 ? std::string("nothing to count yet") : std::to_string(part) + " of " + std::to_string(whole);
}

// A leaderboard table of `rows` text rows: the player column and the header frozen, sideways scroll.
bool beginBoardTable(const char* id, int columns, std::size_t rows) {
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                  ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
    const float height = ImGui::GetTextLineHeightWithSpacing() * float(rows + 1) +
                         ImGui::GetStyle().ScrollbarSize + ImGui::GetStyle().CellPadding.y * 4;
    if (!ImGui::BeginTable(id, columns, flags, ImVec2(0, height))) return false;
    ImGui::TableSetupScrollFreeze(1, 1);
    return true;
}

// "bot", "gpt-4o" for "llm:openai/gpt-4o".
std::string shortName(const std::string& player) {
    if (player.rfind("llm:", 0) != 0) return player;
    const std::size_t slash = player.rfind('/');
    return slash == std::string::npos ? player.substr(4) : player.substr(slash + 1);
}

} // namespace

void WerewolfArenaScreen::draw() {
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float em = context_.fonts->uiSize;
    const bool wide = avail.x > em * 48;
    if (wide) {
        drawSidebar(std::clamp(avail.x * 0.24f, em * 17, em * 22), avail.y);
        ImGui::SameLine(0, ImGui::GetStyle().ItemSpacing.x * 2);
        ImGui::BeginChild("##wwArenaMain", ImVec2(0, avail.y), false);
    } else {
        ImGui::BeginChild("##wwArenaMain", ImVec2(0, 0), false);
        drawSidebar(ImGui::GetContentRegionAvail().x, 0);
    }
    if (session_.phase() == Phase::Setup) {
        drawSetup();
    } else if (ImGui::BeginTabBar("##wwArenaTabs")) {
        const ImGuiTabItemFlags gamesFlags = tabRequested_ && tab_ == 0 ? ImGuiTabItemFlags_SetSelected : 0;
        const ImGuiTabItemFlags boardFlags = tabRequested_ && tab_ == 1 ? ImGuiTabItemFlags_SetSelected : 0;
        tabRequested_ = false;
        if (ImGui::BeginTabItem("Games", nullptr, gamesFlags)) {
            ui::markItem("wwarena.tab.games");
            tab_ = 0;
            drawGames();
            ImGui::EndTabItem();
        } else {
            ui::markItem("wwarena.tab.games");
        }
        if (ImGui::BeginTabItem("Leaderboard", nullptr, boardFlags)) {
            ui::markItem("wwarena.tab.leaderboard");
            tab_ = 1;
            drawLeaderboard();
            ImGui::EndTabItem();
        } else {
            ui::markItem("wwarena.tab.leaderboard");
        }
        ImGui::EndTabBar();
    }
    ImGui::EndChild();
}

void WerewolfArenaScreen::drawSidebar(float width, float height) {
    const ui::Palette& pal = ui::palette();
    const bool own = height > 0;
    const float em = context_.fonts->uiSize;
    if (own) ImGui::BeginChild("##wwArenaSide", ImVec2(width, height), false);
    ImGui::PushFont(context_.fonts->bold);
    ImGui::TextUnformatted("Werewolf Arena");
    ImGui::PopFont();
    static const char* kWords[] = {"New tournament", "Running", "Stopping", "Paused", "Stopped", "Finished"};
    const Phase phase = session_.phase();
    const ImU32 tone = phase == Phase::Running ? pal.ok : phase == Phase::Paused ? pal.warning : pal.muted;
    ImGui::PushStyleColor(ImGuiCol_Text, tone);
    ImGui::TextUnformatted(kWords[int(phase)]);
    ImGui::PopStyleColor();
    ui::markItem("wwarena.status");
    const TournamentConfig& config = shownConfig();
    if (session_.phase() != Phase::Setup) {
        const int done = int(stored_.results.size());
        ImGui::Text("%d of %d games played", done, config.games);
        ImGui::ProgressBar(config.games ? float(done) / float(config.games) : 0.f, ImVec2(-1, em * 0.5f), "");
        std::string spent = "spent " + formatCost(tournamentSpentUsd());
        if (config.budgetUsd) spent += " of " + formatCost(*config.budgetUsd) + " cap";
        ImGui::TextUnformatted(spent.c_str());
        ui::markItem("wwarena.spent");
        int villagers = 0, wolves = 0;
        for (const auto& [i, r] : stored_.results) {
            villagers += r.winner == werewolf::Team::Villagers;
            wolves += r.winner == werewolf::Team::Wolves;
        }
        muted("villagers won " + std::to_string(villagers) + ", wolves " + std::to_string(wolves) + " \xC2\xB7 " +
              std::string(werewolf::rulesPresetName(config.rules)) + " rules \xC2\xB7 seed " + std::to_string(config.seed));
    }
    ImGui::Spacing();
    // The buttons of the phase.
    const float big = context_.fonts->uiSize * 2.2f;
    auto report = [this](const std::optional<std::string>& why) {
        if (why) session_.setError(*why);
    };
    ui::FlowRow row;
    switch (session_.phase()) {
    case Phase::Setup: {
        const std::optional<std::string> problem = validate(draft_);
        ImGui::BeginDisabled(problem.has_value());
        if (ImGui::Button("Start tournament", ImVec2(-1, big))) report(start());
        ui::markItem("wwarena.start");
        ImGui::EndDisabled();
        ImGui::PushTextWrapPos(0.0f);
        if (problem) {
            ImGui::TextColored(colour(pal.danger), "%s", problem->c_str());
        } else {
            const CostEstimate e = estimateCost(draft_, *context_.catalog);
            std::string cost = e.modelSeatGames == 0 ? std::string("bots only: no model costs")
                                                     : "estimated " + formatCost(e.usd) + " for " +
                                                           std::to_string(e.modelSeatGames) + " model seat-games";
            if (!e.unpriced.empty()) cost += " \xC2\xB7 " + context_.unpricedNote(std::to_string(e.unpriced.size()) + " model(s)");
            muted(std::to_string(draft_.games) + " games \xC2\xB7 " + cost);
            ui::markItem("wwarena.estimate");
        }
        ImGui::PopTextWrapPos();
        break;
    }
    case Phase::Running:
        row.place("Pause");
        if (ImGui::Button("Pause")) report(pause());
        ui::markItem("wwarena.pause");
        row.place("Stop");
        if (ImGui::Button("Stop")) report(stop());
        ui::markItem("wwarena.stop");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Stops now; the running games are not rated and are dealt again on Resume.");
        break;
    case Phase::Paused:
    case Phase::Stopped:
        if (budgetSpent()) break; // Resume could start nothing: the notice says why
        row.place("Resume");
        if (ImGui::Button("Resume")) report(resume());
        ui::markItem("wwarena.resume");
        if (session_.phase() == Phase::Paused) {
            row.place("Stop");
            if (ImGui::Button("Stop")) report(stop());
            ui::markItem("wwarena.stop");
        }
        break;
    case Phase::Stopping: // (never: a stop ends the running games at once)
    case Phase::Finished: break;
    }
    if (session_.phase() != Phase::Setup && session_.phase() != Phase::Running) {
        row.place("New tournament");
        if (ImGui::Button("New tournament")) reset();
        ui::markItem("wwarena.new");
    }
    if (session_.phase() != Phase::Setup) {
        if (chaiba::ui::smallButton("Export JSON")) {
            StoredArena copy = stored_;
            copy.spentUsd = tournamentSpentUsd();
            context_.platform->downloadTextFile("chaiba-werewolf-arena.json", "application/json", arenaBundleJson(copy));
            notice_ = "Downloaded chaiba-werewolf-arena.json (no API key inside).";
        }
        ui::markItem("wwarena.export");
    }
    if (!session_.underWay()) {
        if (chaiba::ui::smallButton("Import JSON\xE2\x80\xA6")) {
            context_.platform->pickTextFile(".json,application/json");
            importPicking_ = true;
        }
        ui::markItem("wwarena.import");
    }
    if (importPicking_)
        if (auto file = context_.platform->takePickedFile()) {
            importPicking_ = false;
            if (!file->error.empty()) session_.setError("Not imported: " + file->name + ": " + file->error);
            else pickedImport_ = std::move(file->text);
        }
    // Errors and notices, where the buttons are.
    ImGui::PushTextWrapPos(0.0f);
    if (!session_.error().empty()) {
        ImGui::Spacing();
        ImGui::TextColored(colour(pal.danger), "%s", session_.error().c_str());
        ui::markItem("wwarena.error");
        const bool settings = session_.error().find("Settings") != std::string::npos;
        if (settings && chaiba::ui::smallButton("Open Settings")) context_.openSettings();
        if (session_.phase() != Phase::Setup || !storedDamaged_) {
            // Under the message, as the chess arena's (beside a wrapped one it fell off the sidebar).
            if (settings) ImGui::SameLine();
            if (chaiba::ui::smallButton("Dismiss##wwError")) session_.clearError();
        }
    }
    if (!notice_.empty()) {
        ImGui::Spacing();
        muted(notice_);
        ui::markItem("wwarena.notice");
    }
    if (!promptsError_.empty() && config.anyModel()) ImGui::TextColored(colour(pal.warning), "%s", promptsError_.c_str());
    ImGui::PopTextWrapPos();
    // The pool, always in view.
    ImGui::Spacing();
    ImGui::Separator();
    ImGui::TextUnformatted("Seats");
    for (std::size_t i = 0; i < config.players.size(); ++i)
        ImGui::BulletText("%s", shortName(config.players[i]).c_str());
    if (own) ImGui::EndChild();
}

void WerewolfArenaScreen::drawSetup() {
    const float em = context_.fonts->uiSize;
    ImGui::PushFont(context_.fonts->bold);
    ImGui::TextUnformatted("Set up a Werewolf tournament");
    ImGui::PopFont();
    muted("Every game deals the roles from the seed; the players move one seat on per game, so each plays every "
          "seat. Mirrored deals replay the same deal once per rotation. Ratings come from team results: every "
          "wolf meets every villager of the game.");
    ImGui::Spacing();
    bool changed = false;
    // Step 1. The pool: one line per seat, a bot or a model.
    ImGui::TextUnformatted("Pool of seats (one player per seat)");
    const std::vector<std::string>& models = context_.models();
    int removeAt = -1;
    for (std::size_t i = 0; i < draft_.players.size(); ++i) {
        ImGui::PushID(int(i));
        ImGui::AlignTextToFramePadding();
        ImGui::Text("P%zu", i + 1);
        ImGui::SameLine(em * 2.5f);
        ImGui::SetNextItemWidth(em * 18);
        const std::string current = draft_.players[i] == "bot" ? std::string("Bot (rule-based)") : draft_.players[i].substr(4);
        if (ImGui::BeginCombo("##seat", current.c_str())) {
            if (ImGui::Selectable("Bot (rule-based)", draft_.players[i] == "bot")) {
                draft_.players[i] = "bot";
                changed = true;
            }
            for (const std::string& m : models) {
                const bool disabled = !context_.chat;
                ImGui::BeginDisabled(disabled);
                if (ImGui::Selectable(m.c_str(), draft_.players[i] == "llm:" + m)) {
                    draft_.players[i] = "llm:" + m;
                    changed = true;
                }
                ImGui::EndDisabled();
            }
            if (!context_.chat) muted("Models need an OpenRouter key (Settings).");
            ImGui::EndCombo();
        }
        ui::markItem("wwarena.seat." + std::to_string(i));
        ImGui::SameLine();
        ImGui::BeginDisabled(draft_.players.size() <= std::size_t(werewolf::kMinSeats));
        if (chaiba::ui::smallButton("Remove")) removeAt = int(i);
        ImGui::EndDisabled();
        ImGui::PopID();
    }
    if (removeAt >= 0) {
        draft_.players.erase(draft_.players.begin() + removeAt);
        changed = true;
    }
    ImGui::BeginDisabled(draft_.players.size() >= std::size_t(werewolf::kMaxSeats));
    if (chaiba::ui::smallButton("Add a seat")) {
        draft_.players.push_back("bot");
        changed = true;
    }
    ImGui::EndDisabled();
    ui::markItem("wwarena.addSeat");
    ImGui::Spacing();
    // Step 2. Roles and rules.
    const float label = em * 10;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Roles");
    ImGui::SameLine(label);
    if (!ImGui::IsAnyItemActive() || rolesText_[0] == 0) {
        const std::string text = draft_.roles.empty() ? std::string() : rolesText(draft_.roles);
        std::snprintf(rolesText_, sizeof rolesText_, "%s", text.c_str());
    }
    ImGui::SetNextItemWidth(em * 18);
    if (ImGui::InputTextWithHint("##roles", rolesText(werewolf::defaultRoles(int(draft_.players.size()))).c_str(),
                                 rolesText_, sizeof rolesText_)) {
        llm::Result<std::vector<werewolf::Role>> roles = parseRoles(rolesText_);
        if (roles.isOk()) draft_.roles = *roles.value;
        else if (rolesText_[0] == 0) draft_.roles.clear();
        changed = true;
    }
    ui::markItem("wwarena.roles");
    if (rolesText_[0] && !parseRoles(rolesText_).isOk()) {
        ImGui::SameLine();
        ImGui::TextColored(colour(ui::palette().danger), "%s", parseRoles(rolesText_).error.c_str());
    }
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Rules");
    ImGui::SameLine(label);
    static constexpr struct {
        const char* label;
        werewolf::RulesPreset preset;
        const char* gist;
    } kPresets[] = {
        {"Balanced", werewolf::RulesPreset::Balanced,
         "balanced: no self-save, no saving one player twice running, a tie eliminates nobody, the first speaker rotates"},
        {"Plain", werewolf::RulesPreset::Plain,
         "plain: self-save and repeated saves, a tie is revoted, the lowest living seat speaks first"},
        {"Kaggle", werewolf::RulesPreset::Kaggle,
         "kaggle: as Kaggle's envs/werewolf: the Seer sees the role, votes may abstain, ties drawn at random"},
    };
    for (const auto& p : kPresets) {
        if (&p != kPresets) ImGui::SameLine();
        if (ImGui::RadioButton(p.label, draft_.rules == p.preset)) {
            draft_.rules = p.preset;
            changed = true;
        }
        ui::markItem("wwarena.rules." + std::string(werewolf::rulesPresetName(p.preset)));
    }
    for (const auto& p : kPresets)
        if (draft_.rules == p.preset) muted(p.gist);
    // Step 3. Games, seed, mirroring, games at once, the budget.
    auto intField = [&](const char* text, const char* id, int& value, int lo, int hi) {
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(text);
        ImGui::SameLine(label);
        ImGui::SetNextItemWidth(em * 8);
        if (ImGui::InputInt(id, &value)) {
            value = std::clamp(value, lo, hi);
            changed = true;
        }
    };
    intField("Games", "##games", draft_.games, 1, 100000);
    ui::markItem("wwarena.games");
    int seed = int(std::min<std::uint64_t>(draft_.seed, 2000000000));
    intField("Seed", "##seed", seed, 0, 2000000000);
    draft_.seed = std::uint64_t(seed);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Mirrored deals");
    ImGui::SameLine(label);
    if (ImGui::Checkbox("##mirror", &draft_.mirror)) changed = true;
    ImGui::SameLine();
    muted("each deal is played once per seat rotation (" + std::to_string(draft_.players.size()) + " games a deal)");
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Games at once");
    ImGui::SameLine(label);
    ImGui::SetNextItemWidth(em * 8);
    if (ImGui::SliderInt("##concurrency", &draft_.concurrency, 1, 16)) changed = true;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Budget cap ($)");
    ImGui::SameLine(label);
    if (!ImGui::IsAnyItemActive())
        std::snprintf(budgetText_, sizeof budgetText_, "%s",
                      draft_.budgetUsd ? formatCost(*draft_.budgetUsd).substr(1).c_str() : "");
    ImGui::SetNextItemWidth(em * 8);
    if (ImGui::InputTextWithHint("##budget", "none", budgetText_, sizeof budgetText_,
                                 ImGuiInputTextFlags_CharsDecimal)) {
        const double v = std::atof(budgetText_);
        draft_.budgetUsd = v > 0 ? std::optional<double>(v) : std::nullopt;
        changed = true;
    }
    ui::markItem("wwarena.budget");
    ImGui::SameLine();
    muted("no new game starts once the spend reaches it");
    if (changed) {
        draftTouched_ = true;
        session_.changed();
    }
}

void WerewolfArenaScreen::drawGames() {
    const float em = context_.fonts->uiSize;
    const ImGuiTableFlags flags =
        ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    std::vector<LiveGame> live = tournament_ ? tournament_->liveGames() : std::vector<LiveGame>{};
    ImGui::PushFont(context_.fonts->bold);
    ImGui::Text("In progress (%zu)", live.size());
    ImGui::PopFont();
    if (live.empty()) {
        muted(session_.phase() == Phase::Running ? "Starting the next games\xE2\x80\xA6"
              : session_.phase() == Phase::Paused ? "Paused: nothing moves until Resume."
                                        : "No game is running.");
    } else if (ImGui::BeginTable("##wwLive", 6, flags)) {
        ImGui::TableSetupColumn("game", ImGuiTableColumnFlags_WidthFixed, em * 3.5f);
        ImGui::TableSetupColumn("phase", ImGuiTableColumnFlags_WidthFixed, em * 6);
        ImGui::TableSetupColumn("round", ImGuiTableColumnFlags_WidthFixed, em * 3.5f);
        ImGui::TableSetupColumn("alive", ImGuiTableColumnFlags_WidthFixed, em * 7);
        ImGui::TableSetupColumn("$", ImGuiTableColumnFlags_WidthFixed, em * 5);
        ImGui::TableSetupColumn("latest");
        ImGui::TableHeadersRow();
        for (const LiveGame& g : live) {
            const werewolf::Game& game = g.session->game();
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("#%d", g.index);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(std::string(werewolf::phaseName(game.phase())).c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%d", game.round());
            ImGui::TableNextColumn();
            ImGui::Text("%zu (%d wolves)", game.livingSeats().size(), game.livingCount(werewolf::Team::Wolves));
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(formatCost(g.session->costUsd()).c_str());
            ImGui::TableNextColumn();
            std::string latest;
            for (auto it = game.events().rbegin(); it != game.events().rend(); ++it)
                if (it->audience.kind == werewolf::AudienceKind::Everyone) {
                    latest = werewolf::describeEvent(*it);
                    break;
                }
            ImGui::TextUnformatted(latest.c_str());
        }
        ImGui::EndTable();
    }
    ui::markItem("wwarena.live");
    ImGui::Spacing();
    ImGui::PushFont(context_.fonts->bold);
    ImGui::Text("Finished (%zu)", stored_.results.size());
    ImGui::PopFont();
    if (stored_.results.empty()) {
        muted("Finished games appear here with their winner; each is kept in this browser as it ends.");
        return;
    }
    muted(stored_.records.empty() ? "Games played from now on can be replayed (click one)."
                                  : "Click a game to replay it: step by event, jump by day or night, any seat's view.");
    if (ImGui::BeginTable("##wwFinished", 7, flags | ImGuiTableFlags_ScrollY, ImVec2(0, 0))) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("game", ImGuiTableColumnFlags_WidthFixed, em * 3.5f);
        ImGui::TableSetupColumn("winner", ImGuiTableColumnFlags_WidthFixed, em * 6);
        ImGui::TableSetupColumn("rounds", ImGuiTableColumnFlags_WidthFixed, em * 4);
        ImGui::TableSetupColumn("wolves");
        ImGui::TableSetupColumn("decision fallbacks", ImGuiTableColumnFlags_WidthFixed, em * 5.5f);
        ImGui::TableSetupColumn("tokens", ImGuiTableColumnFlags_WidthFixed, em * 4.5f);
        ImGui::TableSetupColumn("$", ImGuiTableColumnFlags_WidthFixed, em * 5);
        ImGui::TableHeadersRow();
        for (auto it = stored_.results.rbegin(); it != stored_.results.rend(); ++it) {
            const GameResult& r = it->second;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            const bool replayable = stored_.records.count(r.index) > 0;
            const std::string label = "#" + std::to_string(r.index) + (replayable ? " >" : "");
            if (ImGui::Selectable(label.c_str(), false, ImGuiSelectableFlags_SpanAllColumns)) replayWanted_ = r.index;
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("%s", replayable ? "Replay this game" : "No replay: played before this page loaded");
            ui::markItem("wwarena.game." + std::to_string(r.index));
            ImGui::TableNextColumn();
            if (!r.winner) ImGui::TextColored(colour(ui::palette().warning), "unfinished");
            else if (*r.winner == werewolf::Team::Wolves) ImGui::TextColored(colour(ui::palette().danger), "wolves");
            else ImGui::TextColored(colour(ui::palette().ok), "villagers");
            ImGui::TableNextColumn();
            ImGui::Text("%d", r.rounds);
            ImGui::TableNextColumn();
            std::string wolves;
            for (std::size_t s = 0; s < r.seats.size(); ++s)
                if (werewolf::teamOf(r.seats[s].role) == werewolf::Team::Wolves)
                    wolves += (wolves.empty() ? "" : ", ") + werewolf::seatName(int(s)) + " " + shortName(r.seats[s].player);
            ImGui::TextUnformatted(wolves.c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(percent(r.decisionFallbacks(), r.decisionAsks()).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(formatTokens(std::uint64_t(r.tokens())).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(formatCost(r.costUsd()).c_str());
        }
        ImGui::EndTable();
    }
    ui::markItem("wwarena.finished");
}

void WerewolfArenaScreen::drawLeaderboard() {
    if (rows_.empty()) {
        muted("The leaderboard fills in as games finish.");
        return;
    }
    muted("Ratings (Bradley-Terry, 95% bootstrap interval) from team results: each wolf meets each villager of "
          "a game. A player alone in its pool meets only itself, so it has role ratings but no overall one. "
          "Hover a cell for its counts. The same rows as `chaiba werewolf`.");
    // Every column of a row (index = kColumns), then three tables: results, by role, then
    // deduction, persuasion, reliability and cost.
    static const char* kColumns[] = {"player", "rating", "as wolf", "as villager", "games", "win", "wolf win",
                                     "villager win", "survived", "villager votes on a wolf", "seer found a wolf",
                                     "belief accuracy", "vote swing", "decision fallbacks", "notes fallbacks",
                                     "tokens/game", "$/game", "seer", "doctor", "werewolf", "villager"};
    constexpr int kCount = int(sizeof kColumns / sizeof kColumns[0]);
    constexpr werewolf::Role kRoleOrder[] = {werewolf::Role::Seer, werewolf::Role::Doctor, werewolf::Role::Werewolf,
                                             werewolf::Role::Villager}; // columns 17..20
    struct Row {
        std::string cells[kCount], tips[kCount];
    };
    std::vector<Row> table;
    for (const PlayerStanding& p : rows_) {
        const double games = p.games ? double(p.games) : 1.0;
        char belief[16] = "\xE2\x80\x93";
        if (p.beliefs) std::snprintf(belief, sizeof belief, "%.0f%%", 100 * p.beliefAccuracy());
        Row row{{shortName(p.player), ratingText(p.rating), ratingText(p.wolfRating), ratingText(p.villagerRating),
                 std::to_string(p.games), share(p.wins, p.games), share(p.wolfWins, p.wolfGames),
                 share(p.villagerWins, p.villagerGames), share(p.survived, p.games),
                 share(p.villagerVotesOnWolves, p.villagerVotes), share(p.inspectionsOnWolves, p.inspections), belief,
                 share(p.swing.swayed, p.swing.listeners), share(p.decisionFallbacks(), p.decisionAsks()),
                 share(p.notesFallbacks, p.notesAsks), formatTokens(std::uint64_t(double(p.tokens) / games)),
                 formatCost(p.costUsd / games)},
                {p.player, ratingTip(p.rating), ratingTip(p.wolfRating), ratingTip(p.villagerRating), "",
                 shareTip(p.wins, p.games), shareTip(p.wolfWins, p.wolfGames),
                 shareTip(p.villagerWins, p.villagerGames), shareTip(p.survived, p.games),
                 shareTip(p.villagerVotesOnWolves, p.villagerVotes) + " day votes cast as a villager",
                 shareTip(p.inspectionsOnWolves, p.inspections) + " inspections as the Seer",
                 p.beliefs ? std::to_string(p.beliefs) + " chat suspicions against the true roles (1 - |level - truth|)"
                           : std::string("no suspicions given (bots give none)"),
                 shareTip(p.swing.swayed, p.swing.listeners) + " votes for the seat this player accused, among the "
                     "voters who had not accused it before the line (" + std::to_string(p.swing.accusations) +
                     " accusations)",
                 shareTip(p.decisionFallbacks(), p.decisionAsks()) + " night actions, chat turns and votes",
                 shareTip(p.notesFallbacks, p.notesAsks) + " notes rewrites (any text is accepted)",
                 formatTokens(std::uint64_t(p.tokens)) + " tokens in all", formatCost(p.costUsd) + " in all"}};
        for (int i = 0; i < werewolf::kRoleCount; ++i) {
            const int r = int(kRoleOrder[i]);
            // "1612 ±40, won 62%" (a role never played: a dash)
            row.cells[17 + i] = p.roleGames[r] ? ratingText(p.roleRatings[r]) + ", won " + share(p.roleWins[r], p.roleGames[r])
                                               : "\xE2\x80\x93";
            row.tips[17 + i] = ratingTip(p.roleRatings[r]) + "; won " + shareTip(p.roleWins[r], p.roleGames[r]) +
                               " games as the " + std::string(werewolf::roleName(kRoleOrder[i]));
        }
        table.push_back(std::move(row));
    }
    auto drawTable = [&](const char* id, std::initializer_list<int> columns) {
        if (!beginBoardTable(id, int(columns.size()), table.size())) return;
        for (int c : columns) ImGui::TableSetupColumn(kColumns[c]);
        ImGui::TableHeadersRow();
        for (std::size_t row = 0; row < table.size(); ++row) {
            const Row& r = table[row];
            ImGui::TableNextRow();
            for (int c : columns) {
                ImGui::TableNextColumn();
                // The player's cell and a role's cell list their games (click one to replay it).
                if (c == 0 || c >= 17) {
                    ImGui::PushID(int(row * 32 + std::size_t(c)));
                    if (ImGui::Selectable(r.cells[c].c_str())) {
                        cellGames_ = CellGames{rows_[row].player, c >= 17 ? std::optional(kRoleOrder[c - 17]) : std::nullopt};
                        cellGamesOpen_ = true;
                    }
                    ImGui::PopID();
                    ui::markItem(std::string(id + 2) + "." + std::to_string(row) + "." + std::to_string(c));
                } else {
                    ImGui::TextUnformatted(r.cells[c].c_str());
                }
                if (!r.tips[c].empty() && ImGui::IsItemHovered())
                    ImGui::SetTooltip("%s", (r.tips[c] + (c == 0 || c >= 17 ? "\nClick: the games, to replay one" : "")).c_str());
            }
        }
        ImGui::EndTable();
    };
    drawTable("##wwBoard", {0, 1, 2, 3, 4, 5, 6, 7, 8});
    ui::markItem("wwarena.leaderboard");
    ImGui::Spacing();
    ImGui::PushFont(context_.fonts->bold);
    ImGui::TextUnformatted("Ratings by role");
    ImGui::PopFont();
    muted("The same team results with one identity per player and role: each werewolf meets each seer, doctor "
          "and villager of a game. Hover a cell for its interval and wins.");
    drawTable("##wwRoles", {0, 17, 18, 19, 20});
    ui::markItem("wwarena.roles");
    ImGui::Spacing();
    ImGui::PushFont(context_.fonts->bold);
    ImGui::TextUnformatted("Deduction, persuasion, reliability and cost");
    ImGui::PopFont();
    drawTable("##wwDeduction", {0, 9, 10, 11, 12, 13, 14, 15, 16});
    ui::markItem("wwarena.deduction");
    ImGui::Spacing();
    drawBeliefRounds();
    drawCellGames();
}

// The games of a leaderboard cell (a player, or a player in one role): each opens its replay.
void WerewolfArenaScreen::drawCellGames() {
    if (cellGamesOpen_) ImGui::OpenPopup("##wwCellGames");
    cellGamesOpen_ = false;
    if (!cellGames_ || !ImGui::BeginPopup("##wwCellGames")) return;
    ImGui::PushFont(context_.fonts->bold);
    ImGui::Text("%s%s%s", shortName(cellGames_->player).c_str(), cellGames_->role ? " as the " : "",
                cellGames_->role ? std::string(werewolf::roleName(*cellGames_->role)).c_str() : "");
    ImGui::PopFont();
    muted("Its games, the latest first: click one to replay it.");
    int listed = 0;
    for (auto it = stored_.results.rbegin(); it != stored_.results.rend() && listed < 200; ++it) {
        const GameResult& r = it->second;
        for (std::size_t s = 0; s < r.seats.size(); ++s) {
            const SeatResult& seat = r.seats[s];
            if (seat.player != cellGames_->player || (cellGames_->role && seat.role != *cellGames_->role)) continue;
            const bool replayable = stored_.records.count(r.index) > 0;
            const std::string label = "#" + std::to_string(r.index) + "  " + werewolf::seatName(int(s)) + " " +
                                      std::string(werewolf::roleName(seat.role)) + ", " + (seat.won ? "won" : "lost") +
                                      (replayable ? "" : "  (no replay kept)") + "###" + std::to_string(r.index) + "." +
                                      std::to_string(s);
            if (ImGui::Selectable(label.c_str(), false, replayable ? 0 : ImGuiSelectableFlags_Disabled)) {
                replayWanted_ = r.index;
                ImGui::CloseCurrentPopup();
            }
            ui::markItem("wwarena.cellGame." + std::to_string(r.index) + "." + std::to_string(s));
            ++listed;
        }
    }
    if (listed == 0) muted("No finished game.");
    else if (listed >= 200) muted("(the latest 200)");
    ImGui::EndPopup();
}

// The belief accuracy per day round: a row per player, R1..Rn (the CLI's second table).
void WerewolfArenaScreen::drawBeliefRounds() {
    ImGui::PushFont(context_.fonts->bold);
    ImGui::TextUnformatted("Belief accuracy by round");
    ImGui::PopFont();
    const int rounds = beliefRounds(rows_);
    if (rounds == 0) {
        muted("No chat suspicions yet (bots give none): each model's suspicions, scored against the "
              "true roles, fill in here by day round.");
        ui::markItem("wwarena.beliefRounds");
        return;
    }
    if (!beginBoardTable("##wwBeliefRounds", rounds + 1, rows_.size())) return;
    ImGui::TableSetupColumn("player");
    const float em = context_.fonts->uiSize;
    for (int r = 1; r <= rounds; ++r)
        ImGui::TableSetupColumn(("R" + std::to_string(r)).c_str(), ImGuiTableColumnFlags_WidthFixed, em * 3);
    ImGui::TableHeadersRow();
    for (const PlayerStanding& p : rows_) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(shortName(p.player).c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.player.c_str());
        for (std::size_t r = 0; r < std::size_t(rounds); ++r) {
            ImGui::TableNextColumn();
            const RoundBeliefs round = r < p.beliefsByRound.size() ? p.beliefsByRound[r] : RoundBeliefs{};
            if (round.beliefs == 0) {
                ImGui::TextUnformatted("\xE2\x80\x93");
                continue;
            }
            ImGui::Text("%.0f%%", 100 * round.accuracy());
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip(
                    "%d chat suspicions on day %zu against the true roles (1 - |level - truth|)",
                    round.beliefs, r + 1);
        }
    }
    ImGui::EndTable();
    ui::markItem("wwarena.beliefRounds");
}

} // namespace chaiba
