// The match screen's history: every finished game recorded as it ends, the History view (the
// shared games filter over a table, newest first), a past game opened in the match screen's
// review (read-only; a live game goes on and "Back to the live game" returns to it), Delete
// (asked first) and the PGN export; and the history's part of the automation API.
#include "src/modes/chess/match_screen.h"

#include "engine/chess/notation.h"
#include "src/modes/chess/bundle.h"
#include "src/modes/chess/ui/games_filter_bar.h"
#include "src/ui/flow_row.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/theme.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace chaiba {

using nlohmann::json;

namespace {

// "2026-11-28 18:02" from the finish time, else the PGN date ("2026.11.28"), else "?".
std::string whenText(const HistoryGame& g) {
    if (g.finishedAt.size() >= 16) return g.finishedAt.substr(0, 10) + " " + g.finishedAt.substr(11, 5);
    if (!g.date.empty()) return g.date;
    return "?";
}

std::string fileName(const HistoryGame& g) {
    std::string day = g.finishedAt.size() >= 10 ? g.finishedAt.substr(0, 10) : std::string("game");
    return "chaiba-game-" + day + "-" + std::to_string(g.id) + ".pgn";
}

} // namespace

// A game that just ended (any players) goes into the history, once; one that is taken back and
// ends again replaces its entry (the history's gameKey).
void MatchScreen::recordFinishedGame() {
    const chessmode::MatchRunner* r = session_ ? session_->runner() : nullptr;
    if (!r || !r->decided()) return;
    const std::string key = session_->gameKey() + "/" + std::to_string(r->moves().size()) + "/" + r->result();
    if (key == recordedKey_) return;
    recordedKey_ = key;
    const int plies = int(r->game().moves().size());
    for (const HistoryGame& g : history_.games()) // kept already (a reload of a finished game)
        if (g.gameKey == session_->gameKey() && g.plies == plies &&
            std::string(chessmode::resultText(g.result)) == r->result())
            return;
    std::vector<std::string> uci;
    chess::Position pos = r->game().startPosition();
    for (chess::Move m : r->game().moves()) {
        uci.push_back(chess::toUci(pos, m));
        pos.makeMove(m);
    }
    const std::string opening = historyOpeningName(assets_.openingSuite, r->game().startPosition(), uci);
    auto game = historyGameOf(*session_, opening, chessmode::utcIsoTime(int64_t(std::time(nullptr))));
    if (!game) return;
    if (auto error = history_.add(std::move(*game))) historyNotice_ = *error;
}

std::vector<int> MatchScreen::historyListed() const {
    std::vector<std::string> players, openings;
    std::vector<int> ids;
    const auto& games = history_.games();
    std::vector<chessmode::GameFacts> facts;
    for (const HistoryGame& g : games) facts.push_back(historyFacts(g, players, openings));
    for (size_t i = games.size(); i-- > 0;)
        if (historyFilter_.matches(facts[i])) ids.push_back(games[i].id);
    return ids;
}

void MatchScreen::drawHistory() {
    const ui::Palette& pal = ui::palette();
    if (ImGui::Button(review_ ? "\xE2\x86\x90 Back to the review" : "\xE2\x86\x90 Back to the game"))
        commands_.post([this] { historyOpen_ = false; });
    ui::markItem("match.history.back");
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    ImGui::PushFont(context_.fonts->bold);
    ImGui::TextUnformatted("Past games");
    ImGui::PopFont();
    if (session_ && session_->runner() && !session_->runner()->finished()) {
        static constexpr const char* kGoesOn = "(the live game goes on meanwhile)";
        ui::FlowRow row{false}; // a phone: on a line of its own
        row.placeWidth(ImGui::CalcTextSize(kGoesOn).x);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.muted), "%s", kGoesOn);
    }
    drawHistoryNotice();
    // The filters (the arena's games list draws the same bar) and the count.
    std::vector<std::string> players, openings;
    std::vector<std::string> endings;
    for (const HistoryGame& g : history_.games()) {
        historyFacts(g, players, openings);
        if (!g.ending.empty() && std::find(endings.begin(), endings.end(), g.ending) == endings.end())
            endings.push_back(g.ending);
    }
    ui::GamesFilterChoices choices;
    choices.players = players;
    choices.endings = endings;
    choices.openings = openings;
    choices.minOpenings = 1;
    ui::FlowRow filters;
    ui::drawGamesFilterBar(*context_.fonts, historyFilter_, choices, "match.history", filters);
    const std::vector<int> ids = historyListed();
    char count[96];
    std::snprintf(count, sizeof count,
                  "%zu of %zu game%s \xC2\xB7 newest first \xC2\xB7 a row opens the review", ids.size(),
                  history_.games().size(), history_.games().size() == 1 ? "" : "s");
    filters.placeWidth(ImGui::CalcTextSize(count).x);
    ImGui::TextDisabled("%s", count);
    ui::markItem("match.history.count");
    if (history_.games().empty()) {
        ImGui::Spacing();
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(
            ImGui::ColorConvertU32ToFloat4(pal.muted),
            "No finished games yet. Every game played on this screen is kept here when it ends "
            "(in this browser), with its moves, its players' reasoning and what it cost.");
        ImGui::PopTextWrapPos();
        return;
    }
    drawHistoryRows(ids);
}

void MatchScreen::drawHistoryRows(const std::vector<int>& ids) {
    const float u = context_.fonts->uiSize;
    const float width = ImGui::GetContentRegionAvail().x;
    const bool compact = width < u * 46; // a phone: one cell a game, wrapped
    const bool anyCost = std::any_of(history_.games().begin(), history_.games().end(),
                                     [](const HistoryGame& g) { return g.models; });
    const int columns = compact ? 1 : (anyCost ? 8 : 7);
    if (!ImGui::BeginTable("##history", columns,
                           ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                               ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_BordersInnerH,
                           ImVec2(0, std::max(u * 8, ImGui::GetContentRegionAvail().y))))
        return;
    ImGui::TableSetupScrollFreeze(0, 1);
    if (compact) {
        ImGui::TableSetupColumn("Game", ImGuiTableColumnFlags_WidthStretch);
    } else {
        ImGui::TableSetupColumn("Date", ImGuiTableColumnFlags_WidthFixed, u * 8);
        ImGui::TableSetupColumn("White", ImGuiTableColumnFlags_WidthStretch, 3);
        ImGui::TableSetupColumn("Black", ImGuiTableColumnFlags_WidthStretch, 3);
        ImGui::TableSetupColumn("Result", ImGuiTableColumnFlags_WidthFixed, u * 3.4f);
        ImGui::TableSetupColumn("How it ended", ImGuiTableColumnFlags_WidthStretch, 2.2f);
        ImGui::TableSetupColumn("Opening", ImGuiTableColumnFlags_WidthStretch, 2.2f);
        ImGui::TableSetupColumn("Moves", ImGuiTableColumnFlags_WidthFixed, u * 3.2f);
        if (anyCost) ImGui::TableSetupColumn("Cost", ImGuiTableColumnFlags_WidthFixed, u * 4);
    }
    ImGui::TableHeadersRow();
    auto drawRow = [&](int row) {
        const HistoryGame* g = history_.find(ids[size_t(row)]);
        if (!g) return;
        const int id = g->id; // (the click acts between frames, on the id, never on this row)
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::PushID(id);
        auto open = [this, id] {
            commands_.post([this, id] {
                if (auto error = openReview(id)) historyNotice_ = *error;
            });
        };
        const std::string moves = std::to_string((g->plies + 1) / 2);
        const std::string result(chessmode::resultText(g->result));
        if (compact) {
            // A phone: one cell a game, the players (wrapped) over the date, result and length.
            const std::string players = g->white + " \xE2\x80\x93 " + g->black;
            std::string detail = whenText(*g) + " \xC2\xB7 " + result + " " +
                                 chessmode::endingLabel(g->ending) + " \xC2\xB7 " + moves +
                                 (moves == "1" ? " move" : " moves");
            if (g->models) detail += " \xC2\xB7 " + formatCost(g->costUsd);
            const float w = ImGui::GetContentRegionAvail().x;
            const float h = ImGui::CalcTextSize(players.c_str(), nullptr, false, w).y +
                            ImGui::CalcTextSize(detail.c_str(), nullptr, false, w).y +
                            ImGui::GetStyle().ItemSpacing.y;
            const ImVec2 at = ImGui::GetCursorPos();
            if (ImGui::Selectable("##row", reviewId_ == id, ImGuiSelectableFlags_SpanAllColumns,
                                  ImVec2(0, h)))
                open();
            ui::markItem("match.history.row." + std::to_string(id));
            ImGui::SetCursorPos(at);
            ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);
            ImGui::TextUnformatted(players.c_str());
            ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().muted);
            ImGui::TextUnformatted(detail.c_str());
            ImGui::PopStyleColor();
            ImGui::PopTextWrapPos();
            ImGui::PopID();
            return;
        }
        if (ImGui::Selectable(whenText(*g).c_str(), reviewId_ == id, ImGuiSelectableFlags_SpanAllColumns))
            open();
        ui::markItem("match.history.row." + std::to_string(id));
        ImGui::PopID();
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(g->white.c_str());
        ImGui::TableSetColumnIndex(2);
        ImGui::TextUnformatted(g->black.c_str());
        ImGui::TableSetColumnIndex(3);
        ImGui::TextUnformatted(result.c_str());
        ImGui::TableSetColumnIndex(4);
        ImGui::TextUnformatted(chessmode::endingLabel(g->ending).c_str());
        ImGui::TableSetColumnIndex(5);
        if (g->opening.empty())
            ImGui::TextDisabled("\xE2\x80\x94");
        else
            ImGui::TextUnformatted(g->opening.c_str());
        ImGui::TableSetColumnIndex(6);
        ImGui::TextUnformatted(moves.c_str());
        if (anyCost) {
            ImGui::TableSetColumnIndex(7);
            if (g->models)
                ImGui::TextUnformatted(formatCost(g->costUsd).c_str());
            else
                ImGui::TextDisabled("\xE2\x80\x94");
        }
    };
    if (compact) { // rows of different heights: all drawn (the clipper needs one height)
        for (int row = 0; row < int(ids.size()); ++row) drawRow(row);
    } else {
        ImGuiListClipper clipper;
        clipper.Begin(int(ids.size()));
        while (clipper.Step())
            for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) drawRow(row);
    }
    ImGui::EndTable();
    ui::markItem("match.history.list");
}

// Above the review of a past game: what it is, the way back, its PGN and Delete.
void MatchScreen::drawReviewControls() {
    const ui::Palette& pal = ui::palette();
    const HistoryGame* g = history_.find(reviewId_);
    const bool live = session_ && session_->runner();
    const bool going = live && !session_->runner()->finished();
    ImGui::PushFont(context_.fonts->bold);
    ImGui::TextUnformatted(g ? ("Past game \xC2\xB7 " + whenText(*g)).c_str() : "Past game");
    ImGui::PopFont();
    ImGui::PushStyleColor(ImGuiCol_Text, pal.muted);
    ImGui::PushTextWrapPos(0.0f);
    if (going) {
        const int moves = (int(session_->runner()->game().moves().size()) + 1) / 2;
        ImGui::Text("Read-only. The live game goes on meanwhile (%d move%s so far).", moves,
                    moves == 1 ? "" : "s");
    } else {
        ImGui::TextUnformatted("Read-only: step through it, the graph shows each position.");
    }
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ui::FlowRow row;
    const char* back = live ? "Back to the live game" : "Close the review";
    row.place(back);
    if (ImGui::Button(back)) commands_.post([this] { closeReview(); });
    ui::markItem("match.review.back");
    row.place("History");
    if (ImGui::Button("History")) commands_.post([this] { historyOpen_ = true; });
    ui::markItem("match.review.history");
    ui::FlowRow tools;
    tools.place("Flip board");
    if (ui::smallButton("Flip board")) board_.flipped = !board_.flipped;
    ui::markItem("match.review.flip");
    tools.place("Export PGN");
    if (ui::smallButton("Export PGN")) commands_.post([this, id = reviewId_] { exportGame(id); });
    ui::markItem("match.review.pgn");
    tools.place("Delete\xE2\x80\xA6");
    if (ui::smallButton("Delete\xE2\x80\xA6")) confirmDelete_ = reviewId_;
    ui::markItem("match.review.delete");
    drawHistoryNotice();
}

// What the history last said (a refused write, damaged records, a deletion, a download).
void MatchScreen::drawHistoryNotice() {
    if (historyNotice_.empty()) return;
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().warning);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(historyNotice_.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ui::markItem("match.history.notice");
    if (ui::smallButton("Dismiss")) historyNotice_.clear();
}

void MatchScreen::drawDeleteConfirm() {
    static constexpr const char* kTitle = "Delete this game?";
    if (confirmDelete_ >= 0 && !ImGui::IsPopupOpen(kTitle)) ImGui::OpenPopup(kTitle);
    ImGui::SetNextWindowSize(ImVec2(context_.fonts->uiSize * 24, 0), ImGuiCond_Appearing);
    if (ImGui::BeginPopupModal(kTitle, nullptr, ImGuiWindowFlags_NoSavedSettings)) {
        const HistoryGame* g = history_.find(confirmDelete_);
        ImGui::PushTextWrapPos(0.0f);
        if (g)
            ImGui::Text("%s vs %s, %s (%s): it is removed from this browser's storage. Export its PGN first "
                        "to keep a copy.",
                        g->white.c_str(), g->black.c_str(),
                        std::string(chessmode::resultText(g->result)).c_str(), whenText(*g).c_str());
        ImGui::PopTextWrapPos();
        ImGui::Spacing();
        if (ImGui::Button("Delete")) {
            commands_.post([this, id = confirmDelete_] {
                if (auto error = deleteGame(id)) historyNotice_ = *error;
            });
            confirmDelete_ = -1;
            ImGui::CloseCurrentPopup();
        }
        ui::markItem("match.history.confirmDelete");
        ImGui::SameLine();
        if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
            confirmDelete_ = -1;
            ImGui::CloseCurrentPopup();
        }
        ui::markItem("match.history.cancelDelete");
        ImGui::EndPopup();
    }
}

// Opens a past game in the review: its own session (stand-ins, no engine or key), analyser and
// navigator; the live game, its analysis and its navigator are left as they are.
std::optional<std::string> MatchScreen::openReview(int id) {
    const HistoryGame* g = history_.find(id);
    if (!g) return "no game " + std::to_string(id) + " in the history";
    auto session = std::make_unique<MatchSession>(sessionEnvironment());
    if (auto error = session->restoreForReview(g->saveJson, settings_))
        return "This game could not be opened (" + *error + ")";
    review_ = std::move(session);
    reviewId_ = id;
    reviewNav_ = MoveNavigator();
    reviewNav_.setPlyCount(int(review_->runner()->game().moves().size()));
    reviewNav_.toStart();
    if (!reviewAnalyser_) {
        reviewAnalyser_ = std::make_unique<chessmode::GameAnalyser>();
        if (services_.makeScorer) reviewAnalyser_->setScorer(services_.makeScorer());
    }
    historyOpen_ = false;
    board_.clearSelection();
    return std::nullopt;
}

void MatchScreen::closeReview() {
    review_.reset();
    reviewId_ = -1;
    historyOpen_ = false;
    board_.clearSelection();
    facePerson();
}

std::optional<std::string> MatchScreen::deleteGame(int id) {
    if (auto error = history_.remove(id)) return error;
    if (reviewId_ == id) {
        review_.reset();
        reviewId_ = -1;
        historyOpen_ = true; // back to the list it came from
    }
    historyNotice_ = "Deleted the game.";
    return std::nullopt;
}

void MatchScreen::exportGame(int id) {
    const HistoryGame* g = history_.find(id);
    if (!g) return;
    context_.platform->downloadTextFile(fileName(*g), "application/x-chess-pgn", g->pgn);
    historyNotice_ = "Downloaded " + fileName(*g) + ".";
}

// {open, count, ids (newest first, filtered), filter {player, result, ending, opening}, games
// [{id, date, white, black, result, ending, opening, plies, costUsd}] newest first, problems,
// notice, reviewing (an id or null), review (analysisState + viewPly, while reviewing)}.
std::string MatchScreen::historyStateJson() const {
    json games = json::array();
    std::vector<std::string> players, openings;
    for (const HistoryGame& g : history_.games()) historyFacts(g, players, openings);
    for (auto it = history_.games().rbegin(); it != history_.games().rend(); ++it)
        games.push_back({{"id", it->id},
                         {"date", whenText(*it)},
                         {"white", it->white},
                         {"black", it->black},
                         {"result", std::string(chessmode::resultText(it->result))},
                         {"ending", it->ending},
                         {"termination", it->termination},
                         {"opening", it->opening},
                         {"plies", it->plies},
                         {"costUsd", it->costUsd},
                         {"models", it->models}});
    json doc = {{"open", historyOpen_},
                {"count", history_.games().size()},
                {"ids", historyListed()},
                {"filter",
                 {{"player", historyFilter_.player >= 0 && size_t(historyFilter_.player) < players.size()
                                 ? json(players[size_t(historyFilter_.player)])
                                 : json(nullptr)},
                  {"result", historyFilter_.result},
                  {"ending", historyFilter_.ending},
                  {"opening", historyFilter_.opening >= 0 && size_t(historyFilter_.opening) < openings.size()
                                  ? json(openings[size_t(historyFilter_.opening)])
                                  : json(nullptr)}}},
                {"games", games},
                {"problems", history_.problems()},
                {"notice", historyNotice_},
                {"confirmDelete", confirmDelete_ >= 0 ? json(confirmDelete_) : json(nullptr)},
                {"reviewing", review_ ? json(reviewId_) : json(nullptr)}};
    if (review_ && reviewAnalyser_) {
        doc["review"] = chessmode::analysisState(*reviewAnalyser_);
        doc["review"]["viewPly"] = reviewNav_.viewPly();
        doc["review"]["moves"] = int(review_->runner()->game().moves().size());
        doc["review"]["fen"] = review_->runner()->game().position().fen();
        doc["review"]["result"] = review_->runner()->result();
    } else {
        doc["review"] = nullptr;
    }
    return doc.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<std::string> MatchScreen::historyCommand(std::string_view name, std::string_view argumentJson,
                                                       std::string* resultJson) {
    const json args = argumentJson.empty() ? json::object() : json::parse(argumentJson, nullptr, false);
    if (args.is_discarded() || !args.is_object()) return std::string(name) + " takes an object";
    auto idArg = [&]() -> std::optional<int> {
        if (args.contains("id") && args["id"].is_number_integer()) return args["id"].get<int>();
        return std::nullopt;
    };
    if (name == "history") {
        const bool open = !args.contains("open") || !args["open"].is_boolean() || args["open"].get<bool>();
        commands_.post([this, open] { historyOpen_ = open; });
        return std::nullopt;
    }
    if (name == "historyFilter") {
        // {player: a name or null, result: 0 any, 1 decisive, 2 draws, 3 forfeits, ending: a name or "",
        // opening: a name or null}
        std::vector<std::string> players, openings;
        for (const HistoryGame& g : history_.games()) historyFacts(g, players, openings);
        chessmode::GamesFilter f;
        auto indexOf = [](const std::vector<std::string>& names, const json& v) -> std::optional<int> {
            if (v.is_null()) return -1;
            if (!v.is_string()) return std::nullopt;
            auto it = std::find(names.begin(), names.end(), v.get<std::string>());
            if (it == names.end()) return std::nullopt;
            return int(it - names.begin());
        };
        if (args.contains("player")) {
            auto i = indexOf(players, args["player"]);
            if (!i) return std::string("historyFilter: no player of that name in the history");
            f.player = *i;
        }
        if (args.contains("opening")) {
            auto i = indexOf(openings, args["opening"]);
            if (!i) return std::string("historyFilter: no opening of that name in the history");
            f.opening = *i;
        }
        if (args.contains("result")) {
            if (!args["result"].is_number_integer() || args["result"].get<int>() < 0 ||
                args["result"].get<int>() > 3)
                return std::string(
                    "historyFilter: result is 0 (any), 1 (decisive), 2 (draws) or 3 (forfeits)");
            f.result = args["result"].get<int>();
        }
        if (args.contains("ending")) {
            if (!args["ending"].is_string())
                return std::string("historyFilter: ending is a name such as \"checkmate\"");
            f.ending = args["ending"].get<std::string>();
        }
        commands_.post([this, f] { historyFilter_ = f; });
        return std::nullopt;
    }
    if (name == "historyBack") {
        commands_.post([this] { closeReview(); });
        return std::nullopt;
    }
    const std::optional<int> id = idArg();
    if (!id) return std::string(name) + " takes {id}";
    if (!history_.find(*id)) return "no game " + std::to_string(*id) + " in the history";
    if (name == "historyReview") {
        commands_.post([this, id = *id] {
            if (auto error = openReview(id)) historyNotice_ = *error;
        });
        return std::nullopt;
    }
    if (name == "historyDelete") {
        commands_.post([this, id = *id] {
            if (auto error = deleteGame(id)) historyNotice_ = *error;
        });
        return std::nullopt;
    }
    if (name == "historyPgn") {
        if (resultJson)
            *resultJson = json(history_.find(*id)->pgn).dump(-1, ' ', false, json::error_handler_t::replace);
        return std::nullopt;
    }
    return "unknown match command '" + std::string(name) + "'";
}

} // namespace chaiba
