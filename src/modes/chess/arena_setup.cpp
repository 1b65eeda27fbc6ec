// The arena's setup form: participants (models from the catalog, engine levels with their
// ratings, the random mover), format, games, boards, tempo, Chess960 or the opening suite, the
// spending cap, and the cost estimate before Start. Edits the ArenaSession's draft.
#include "src/modes/chess/arena_screen.h"

#include "src/ui/flow_row.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/modes/chess/ui/new_game_dialog.h"
#include "src/ui/text_fit.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace chaiba {

namespace {

constexpr const char* kFormats[] = {"Continuous arena", "Round robin", "Double round robin", "Gauntlet"};
constexpr play::Format kFormatValues[] = {play::Format::Arena, play::Format::RoundRobin,
                                           play::Format::DoubleRoundRobin, play::Format::Gauntlet};

const char* formatHelp(play::Format f) {
    switch (f) {
    case play::Format::Arena:
        return "Idle players are paired with the nearest in rating, colours alternating, until the total is played.";
    case play::Format::RoundRobin: return "Every pair meets the given number of times, colours alternating.";
    case play::Format::DoubleRoundRobin: return "Every pair meets twice as often, each meeting with both colours.";
    case play::Format::Gauntlet: return "One player meets every other player the given number of times.";
    }
    return "";
}

void heading(const ui::Fonts& fonts, const char* text) {
    ImGui::Spacing();
    ImGui::PushFont(fonts.bold);
    ImGui::TextUnformatted(text);
    ImGui::PopFont();
}

} // namespace

void ArenaScreen::drawSetup() {
    const ui::Palette& pal = ui::palette();
    chessmode::TournamentConfig& d = arena_->draft();
    const chessmode::TournamentConfig before = d;
    ImGui::BeginChild("##arenaSetup", ImVec2(0, 0), false);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.muted), "%s",
                       settings_.apiKey.empty()
                           ? "No API key: the built-in engine levels and the random mover play. Add a key in Settings "
                             "to enter language models."
                           : "Pick the models, the engine levels that anchor the rating scale, and how to play.");
    ImGui::PopTextWrapPos();

    heading(*context_.fonts, "Name");
    char name[128];
    std::snprintf(name, sizeof name, "%s", d.name.c_str());
    ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, context_.fonts->uiSize * 24));
    if (ImGui::InputText("##name", name, sizeof name)) d.name = name;
    ui::markItem("arena.setup.name");

    heading(*context_.fonts, "Participants");
    int removeAt = -1;
    // Narrow screens (phones): no kind column (the name says it) and the anchor as a bare number,
    // so names keep their room and nothing runs off the edge.
    const float em = context_.fonts->uiSize;
    const bool narrow = ImGui::GetContentRegionAvail().x < em * 28;
    const float removeW = ImGui::CalcTextSize("remove").x + ImGui::GetStyle().FramePadding.x * 2 +
                          ImGui::GetStyle().CellPadding.x * 2;
    if (ImGui::BeginTable("##participants", narrow ? 3 : 4,
                          ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) {
        if (!narrow) ImGui::TableSetupColumn("kind", ImGuiTableColumnFlags_WidthFixed, em * 5);
        ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn("rating", ImGuiTableColumnFlags_WidthFixed, narrow ? em * 3.5f : em * 8);
        ImGui::TableSetupColumn("remove", ImGuiTableColumnFlags_WidthFixed, removeW);
        for (size_t i = 0; i < d.participants.size(); ++i) {
            const chessmode::Participant& p = d.participants[i];
            const auto spec = chessmode::parsePlayerSpec(p.spec);
            ImGui::PushID(int(i));
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::AlignTextToFramePadding();
            if (!narrow) {
                const std::string kind = ArenaSession::participantKind(p);
                ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.muted), "%s", kind == "llm" ? "model" : kind.c_str());
                ImGui::TableNextColumn();
            }
            // The name, cut with "…" (provider first) when the column is narrow, on the row's text
            // line (the remove button makes the row a frame high).
            ui::fittedName(arena_->participantName(int(i)), ImGui::GetContentRegionAvail().x, ImGui::GetFrameHeight(),
                           ImGui::GetStyle().FramePadding.y);
            ui::markItem("arena.setup.participant." + std::to_string(i));
            ImGui::TableNextColumn();
            if (spec.ok() && spec.value->kind == chessmode::PlayerSpec::Kind::Engine && services_.engineRating) {
                const auto rating = services_.engineRating(spec.value->level);
                const std::string text = rating ? (narrow ? "" : "anchor ") + std::to_string(int(*rating)) : "fitted";
                ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.muted), "%s", text.c_str());
                if (narrow && rating && ImGui::IsItemHovered()) ImGui::SetTooltip("anchored at %d: a calibrated engine level", int(*rating));
            } else if (d.format == play::Format::Gauntlet && d.gauntletPlayer == int(i)) {
                ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.accent), "gauntlet");
            }
            ImGui::TableNextColumn();
            ImGui::SetCursorPosY(ImGui::GetCursorPosY() + (ImGui::GetFrameHeight() - ui::smallButtonHeight()) * 0.5f);
            if (chaiba::ui::smallButton("remove")) removeAt = int(i);
            ui::markItem("arena.setup.remove." + std::to_string(i));
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    if (removeAt >= 0) {
        d.participants.erase(d.participants.begin() + removeAt);
        if (d.gauntletPlayer >= int(d.participants.size())) d.gauntletPlayer = 0;
    }
    // Adding: a model from the catalog, an engine level, the random mover.
    ui::NewGameContext ctx = newGameContext(context_, services_);
    ImGui::BeginDisabled(!ctx.haveKey);
    std::string added;
    bool refresh = false;
    ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, context_.fonts->uiSize * 16));
    if (ui::drawModelCombo(ctx, "##addModel", "+ add a model", added, arenaModelFilter_, sizeof arenaModelFilter_,
                           refresh) &&
        !added.empty())
        d.participants.push_back({"llm:" + added, "", -1});
    ui::markItem("arena.setup.addModel");
    ImGui::EndDisabled();
    if (refresh) context_.refreshCatalog();
    // The rest of the row wraps on narrow screens.
    ui::FlowRow adders;
    adders.first = false;
    adders.placeWidth(em * 16);
    ImGui::SetNextItemWidth(em * 16);
    if (ImGui::BeginCombo("##addEngine", "+ add an engine level", ImGuiComboFlags_HeightLarge)) {
        for (int level = 1; level <= services_.maxEngineLevel; ++level) {
            const std::string label = services_.engineName ? services_.engineName(level) : "level " + std::to_string(level);
            if (ImGui::Selectable(label.c_str())) d.participants.push_back({"engine:" + std::to_string(level), "", -1});
        }
        ImGui::EndCombo();
    }
    ui::markItem("arena.setup.addEngine");
    adders.place("+ random mover");
    if (ImGui::Button("+ random mover")) d.participants.push_back({"random", "", -1});
    ui::markItem("arena.setup.addRandom");
    adders.place("Default field");
    if (ImGui::Button("Default field")) {
        const auto& models = context_.models();
        const chessmode::TournamentConfig fresh =
            ArenaSession::defaultDraft(models, !settings_.apiKey.empty(), services_.maxEngineLevel);
        d.participants = fresh.participants;
    }
    ui::markItem("arena.setup.defaults");

    heading(*context_.fonts, "Format");
    int format = int(std::find(std::begin(kFormatValues), std::end(kFormatValues), d.format) - std::begin(kFormatValues));
    ImGui::SetNextItemWidth(context_.fonts->uiSize * 14);
    if (ImGui::Combo("##format", &format, kFormats, 4) && kFormatValues[format] != d.format) {
        // The games field changes meaning with the format (in total, or per pair): say what the
        // change made of the tournament and its estimate (60 became 1 800 games without a word).
        const chessmode::BudgetEstimate estimated = arena_->estimate(settings_);
        d.format = kFormatValues[format];
        formatNote_ = chessmode::formatChangeNote(estimated, d, arena_->estimate(settings_));
    }
    ui::markItem("arena.setup.format");
    if (d.format == play::Format::Gauntlet && !d.participants.empty()) {
        ui::FlowRow row;
        row.first = false;
        row.placeWidth(context_.fonts->uiSize * 14);
        ImGui::SetNextItemWidth(context_.fonts->uiSize * 14);
        const std::string current = arena_->participantName(std::clamp(d.gauntletPlayer, 0, int(d.participants.size()) - 1));
        if (ImGui::BeginCombo("##gauntlet", current.c_str())) {
            for (size_t i = 0; i < d.participants.size(); ++i)
                if (ImGui::Selectable(arena_->participantName(int(i)).c_str(), d.gauntletPlayer == int(i))) d.gauntletPlayer = int(i);
            ImGui::EndCombo();
        }
    }
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.muted), "%s", formatHelp(d.format));
    if (!formatNote_.empty()) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.warning), "%s", formatNote_.c_str());
        ui::markItem("arena.setup.formatNote");
    }
    ImGui::PopTextWrapPos();
    ImGui::SetNextItemWidth(context_.fonts->uiSize * 8);
    if (ImGui::InputInt(d.format == play::Format::Arena ? "games in total" : "meetings per pair", &d.games))
        formatNote_.clear(); // the person set the number for this format
    d.games = std::clamp(d.games, 1, 10000);
    ui::markItem("arena.setup.games");
    ImGui::SetNextItemWidth(context_.fonts->uiSize * 8);
    ImGui::SliderInt("boards at once", &d.concurrency, 1, 16);
    ui::markItem("arena.setup.concurrency");
    // The continuous arena's pairing rule (`chaiba arena --pairing`); the other formats have a schedule.
    ImGui::BeginDisabled(d.format != play::Format::Arena);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Pairing:");
    ui::FlowRow pairingRow;
    pairingRow.first = false;
    pairingRow.placeToggle("nearest in rating");
    if (ImGui::RadioButton("nearest in rating", d.pairing == play::ArenaPairing::NearestRating))
        d.pairing = play::ArenaPairing::NearestRating;
    ui::markItem("arena.setup.pairingNearest");
    pairingRow.placeToggle("most informative");
    if (ImGui::RadioButton("most informative", d.pairing == play::ArenaPairing::MostInformative))
        d.pairing = play::ArenaPairing::MostInformative;
    ui::markItem("arena.setup.pairingInformative");
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("Idle players meet the nearest in rating, or the game that tells the most about the "
                          "ratings (the least certain players first). Continuous arena only.");

    heading(*context_.fonts, "What the models see");
    // `chaiba arena --context`: the whole game's conversation each turn, or the position alone.
    if (ImGui::RadioButton("Full conversation", d.contextPolicy == chessmode::ContextPolicy::Full))
        d.contextPolicy = chessmode::ContextPolicy::Full;
    ui::markItem("arena.setup.contextFull");
    const char* stateless = narrow ? "Stateless (the position only)" : "Stateless (the position each turn, no earlier answers)";
    ui::FlowRow contextRow;
    contextRow.first = false;
    contextRow.placeToggle(stateless);
    if (ImGui::RadioButton(stateless, d.contextPolicy == chessmode::ContextPolicy::Stateless))
        d.contextPolicy = chessmode::ContextPolicy::Stateless;
    ui::markItem("arena.setup.contextStateless");
    // `--context windowed --context-moves N`: the last N turns and the position; the prompt stops growing.
    const char* windowed = "Windowed: the last";
    contextRow.placeToggle(windowed);
    if (ImGui::RadioButton(windowed, d.contextPolicy == chessmode::ContextPolicy::Windowed))
        d.contextPolicy = chessmode::ContextPolicy::Windowed;
    ui::markItem("arena.setup.contextWindowed");
    contextRow.placeWidth(em * 6 + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("moves").x);
    ImGui::SetNextItemWidth(em * 6);
    ImGui::InputInt("moves##window", &d.contextWindowMoves, 1, 4);
    d.contextWindowMoves = std::clamp(d.contextWindowMoves, 1, chessmode::kMaxContextWindowMoves);
    ui::markItem("arena.setup.contextWindow");

    heading(*context_.fonts, "Tempo");
    bool ticker = d.tempo == chessmode::Tempo::Ticker;
    if (ImGui::RadioButton("As fast as the players answer", !ticker)) d.tempo = chessmode::Tempo::MaxSpeed;
    ui::FlowRow tempoRow;
    tempoRow.first = false;
    tempoRow.placeToggle("One move per game every");
    if (ImGui::RadioButton("One move per game every", ticker)) d.tempo = chessmode::Tempo::Ticker;
    ui::markItem("arena.setup.ticker");
    tempoRow.placeWidth(context_.fonts->uiSize * 8 + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("s").x);
    ImGui::SetNextItemWidth(context_.fonts->uiSize * 8);
    ImGui::BeginDisabled(d.tempo != chessmode::Tempo::Ticker);
    ImGui::InputInt("s##tick", &d.tickerSeconds, 5, 30);
    d.tickerSeconds = std::clamp(d.tickerSeconds, 1, 3600);
    ImGui::EndDisabled();

    heading(*context_.fonts, "Start positions");
    bool openings = !d.openings.empty();
    if (ImGui::Checkbox(narrow ? "Chess960 (each position twice)" : "Chess960 (both colours play each position)", &d.chess960) &&
        d.chess960)
        d.openings.clear();
    ui::markItem("arena.setup.chess960");
    ImGui::BeginDisabled(d.chess960 || assets_.openingSuite.empty());
    if (ImGui::Checkbox("Opening suite", &openings)) d.openings = openings ? assets_.openingSuite : std::vector<chessmode::Opening>{};
    ImGui::EndDisabled();
    {
        // Beside the box when it fits, else wrapped under it.
        const std::string note = assets_.openingSuite.empty()
                                     ? assets_.openingSuiteError
                                     : "(" + std::to_string(assets_.openingSuite.size()) +
                                           " main lines, each played with both colours)";
        ui::FlowRow row;
        row.first = false;
        row.placeWidth(ImGui::CalcTextSize(note.c_str()).x);
        ImGui::PushTextWrapPos(0.0f);
        ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
        ImGui::TextWrapped("%s", note.c_str());
        ImGui::PopStyleColor();
        ImGui::PopTextWrapPos();
    }

    heading(*context_.fonts, "Money");
    bool capped = d.budgetUsd.has_value();
    if (ImGui::Checkbox("Stop spending at", &capped))
        d.budgetUsd = capped ? std::optional<double>(chessmode::kDefaultBudgetUsd) : std::nullopt;
    ui::markItem("arena.setup.cap");
    ui::FlowRow capRow;
    capRow.first = false;
    capRow.placeWidth(context_.fonts->uiSize * 7 + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("USD").x);
    double cap = d.budgetUsd.value_or(chessmode::kDefaultBudgetUsd);
    ImGui::SetNextItemWidth(context_.fonts->uiSize * 7);
    ImGui::BeginDisabled(!capped);
    if (ImGui::InputDouble("USD##cap", &cap, 1.0, 10.0, "%.2f") && capped) d.budgetUsd = std::max(0.01, cap);
    ImGui::EndDisabled();
    // Tokens a model may use in one game (`chaiba arena --game-tokens`); then it forfeits.
    bool tokenCapped = d.gameTokenBudget.has_value();
    if (ImGui::Checkbox("Stop a model's game at", &tokenCapped))
        d.gameTokenBudget = tokenCapped ? std::optional<long long>(chessmode::kDefaultGameTokenBudget) : std::nullopt;
    ui::markItem("arena.setup.gameTokens");
    ui::FlowRow tokenRow;
    tokenRow.first = false;
    tokenRow.placeWidth(em * 7 + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("tokens").x);
    long long tokens = d.gameTokenBudget.value_or(chessmode::kDefaultGameTokenBudget);
    const long long step = 100000;
    ImGui::SetNextItemWidth(em * 7);
    ImGui::BeginDisabled(!tokenCapped);
    if (ImGui::InputScalar("tokens##gameTokens", ImGuiDataType_S64, &tokens, &step) && tokenCapped)
        d.gameTokenBudget = std::clamp(tokens, 1000LL, chessmode::kMaxGameTokenBudget);
    ImGui::EndDisabled();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
    ImGui::TextWrapped("On by default when models play ($%.0f, %s tokens). A model that has used its tokens "
                       "(prompts and answers, retries included) in a game forfeits at its next turn, like a flag "
                       "fall: forfeit_token_budget.",
                       chessmode::kDefaultBudgetUsd, formatTokens(uint64_t(chessmode::kDefaultGameTokenBudget)).c_str());
    ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
    const chessmode::BudgetEstimate estimate = arena_->estimate(settings_);
    std::string line = "Estimated cost: " + formatCost(estimate.fromUsd) + " to " + formatCost(estimate.upToUsd) +
                       " for " + std::to_string(estimate.games) + " games (about " + formatCost(estimate.totalUsd) +
                       " for games of " + std::to_string(estimate.typicalPlies) + " plies)";
    ImGui::TextUnformatted(line.c_str());
    ui::markItem("arena.setup.estimate");
    ImGui::PushTextWrapPos(0.0f);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
    for (size_t i = 0; i < estimate.perParticipantUsd.size(); ++i) {
        if (estimate.perParticipantUsd[i] <= 0) continue;
        ImGui::BulletText("%s: %s (about %.0f games)", arena_->participantName(int(i)).c_str(),
                          formatCost(estimate.perParticipantUsd[i]).c_str(), estimate.gamesPerParticipant[i]);
    }
    if (!estimate.unpricedModels.empty()) {
        std::string names;
        for (const auto& m : estimate.unpricedModels) names += (names.empty() ? "" : ", ") + m;
        std::string note = context_.unpricedNote(names) + ".";
        note[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(note[0])));
        ImGui::TextWrapped("%s", note.c_str());
    }
    // How the prompt grows under the chosen policy (the explanation said "the whole conversation"
    // whatever was chosen).
    const char* growth = d.contextPolicy == chessmode::ContextPolicy::Full
                             ? "with the whole conversation sent the prompt grows with every ply"
                         : d.contextPolicy == chessmode::ContextPolicy::Windowed
                             ? "with a window the prompt grows until the window is full, then only by the move list"
                             : "stateless, the prompt grows only by the move list";
    ImGui::TextWrapped("From games of %d plies with the prompts measured with these settings (~%s tokens a move "
                       "with the whole conversation; the prompts alone at the lower end) to every game running to "
                       "the %d-ply limit%s with ~400 answer tokens and 10%% repeated answers at the upper end: weak "
                       "players' games often run long, and %s; reasoning models can cost several times more. "
                       "Updated from the real costs once games have run%s; the cap stops new games when it is "
                       "reached.",
                       estimate.typicalPlies, formatTokens(static_cast<uint64_t>(estimate.promptTokensPerMove)).c_str(),
                       estimate.longestPlies, estimate.tokenBudgetBounds ? " or a model's token budget" : "", growth,
                       estimate.measuredBefore ? "; models that played in earlier tournaments here count what their "
                                                 "games cost then"
                                               : "");
    if (estimate.measuredBefore) ui::markItem("arena.setup.measuredBefore");
    ImGui::PopStyleColor();
    if (estimate.exceedsCap) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.warning),
                                                "The estimate is above the cap: the tournament will stop early.");
    if (auto problem = arena_->checkDraft()) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.danger), "%s", problem->c_str());
        ui::markItem("arena.setup.problem");
    }
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
    if (!(d == before)) arena_->saveDraft();
}

} // namespace chaiba
