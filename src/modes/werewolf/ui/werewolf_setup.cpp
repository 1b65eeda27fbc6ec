// The Werewolf table's setup: JSON form, validation into a session config, the New Game dialog.
#include "src/modes/werewolf/ui/werewolf_setup.h"

#include "src/modes/werewolf/tournament.h"
#include "src/ui/dialog_place.h"
#include "src/ui/flow_row.h"
#include "src/ui/fonts.h"
#include "src/ui/item_registry.h"
#include "src/ui/model_picker.h"
#include "src/ui/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <utility>

namespace chaiba::werewolfmode {

using nlohmann::json;
using werewolf::Role;

namespace {

struct Switch {
    const char* key;
    const char* label;
    bool werewolf::Rules::*field;
};
constexpr Switch kSwitches[] = {
    {"doctor_self_save", "Doctor may save himself", &werewolf::Rules::doctorSelfSave},
    {"doctor_repeat_save", "Doctor may save the same player twice in a row", &werewolf::Rules::doctorRepeatSave},
    {"rotate_first_speaker", "First speaker rotates each day", &werewolf::Rules::rotateFirstSpeaker},
    {"reveal_roles", "The role of the dead is revealed", &werewolf::Rules::revealRoles},
    // Since the kaggle preset (older saved setups lack them: off, as they played).
    {"seer_sees_role", "The Seer learns the role (else only the team)", &werewolf::Rules::seerSeesRole},
    {"abstain_allowed", "A vote may abstain (day and wolves)", &werewolf::Rules::abstainAllowed},
    {"random_first_speaker", "First speaker drawn each day", &werewolf::Rules::randomFirstSpeaker},
    {"random_wolf_tie", "The wolves' tie is drawn (else the earliest vote)", &werewolf::Rules::randomWolfTie},
};

// The day's tie rule as two switches (a saved setup of an older build has tie_revote only).
constexpr std::pair<const char*, werewolf::TieRule> kTieSwitches[] = {{"tie_revote", werewolf::TieRule::Revote},
                                                                     {"tie_random", werewolf::TieRule::Random}};

std::optional<std::string> parseRoleList(const json& j, std::vector<Role>& out) {
    std::vector<std::string> items;
    if (j.is_string()) {
        std::string text = j.get<std::string>(), item;
        for (char c : text + ",") {
            if (c == ',') {
                if (!item.empty()) items.push_back(item);
                item.clear();
            } else if (c != ' ') {
                item += c;
            }
        }
    } else if (j.is_array()) {
        for (const json& e : j) {
            if (!e.is_string()) return "roles: every role is a name (werewolf, villager, seer, doctor)";
            items.push_back(e.get<std::string>());
        }
    } else {
        return "roles: a list of role names or \"werewolf:2,seer,...\"";
    }
    out.clear();
    for (const std::string& item : items) {
        const std::size_t colon = item.find(':');
        const std::optional<Role> role = werewolf::parseRole(item.substr(0, colon));
        int n = 1;
        if (colon != std::string::npos) n = std::atoi(item.c_str() + colon + 1);
        if (!role || n < 1 || n > werewolf::kMaxSeats)
            return "roles: '" + item + "' is not ROLE or ROLE:N (werewolf, villager, seer, doctor)";
        for (int i = 0; i < n; ++i) out.push_back(*role);
    }
    return std::nullopt;
}

} // namespace

json setupToJson(const TableSetup& s) {
    json roles = json::array();
    for (Role r : s.roles) roles.push_back(std::string(werewolf::roleName(r)));
    json switches = json::object();
    for (const Switch& sw : kSwitches) switches[sw.key] = s.rules.*sw.field;
    for (const auto& [key, rule] : kTieSwitches) switches[key] = s.rules.tieRule == rule;
    json channels = json::array();
    for (const auto& c : s.channels) channels.push_back(c ? json(llm::answerChannelName(*c)) : json());
    return {{"players", s.players}, {"roles", roles}, {"rules", s.preset}, {"switches", switches},
            {"seed", s.seed}, {"channels", channels}};
}

std::optional<std::string> setupFromJson(const json& j, TableSetup& out) {
    if (!j.is_object()) return "the setup is not a JSON object";
    TableSetup s;
    if (j.contains("players")) {
        if (!j["players"].is_array()) return "players: a list of seat specs (bot, llm:MODEL, human)";
        s.players.clear();
        for (const json& p : j["players"]) {
            if (!p.is_string()) return "players: every seat is a spec string (bot, llm:MODEL, human)";
            s.players.push_back(p.get<std::string>());
        }
    }
    if (j.contains("roles"))
        if (auto e = parseRoleList(j["roles"], s.roles)) return e;
    if (j.contains("rules")) {
        const std::optional<werewolf::RulesPreset> preset =
            j["rules"].is_string() ? werewolf::parseRulesPreset(j["rules"].get<std::string>()) : std::nullopt;
        if (!preset) return "rules: \"balanced\", \"plain\" or \"kaggle\"";
        s.preset = j["rules"].get<std::string>();
        s.rules = werewolf::rulesOf(*preset);
    }
    if (j.contains("switches")) {
        const json& sw = j["switches"];
        if (!sw.is_object()) return "switches: an object of true/false rule switches";
        for (auto it = sw.begin(); it != sw.end(); ++it) {
            if (!it.value().is_boolean()) return "switches: '" + it.key() + "' must be true or false";
            bool known = false;
            for (const Switch& k : kSwitches)
                if (it.key() == k.key) s.rules.*k.field = it.value().get<bool>(), known = true;
            for (const auto& [key, rule] : kTieSwitches) {
                if (it.key() != key) continue;
                known = true;
                if (it.value().get<bool>())
                    s.rules.tieRule = rule;
                else if (s.rules.tieRule == rule) // off only undoes its own rule (keys come sorted)
                    s.rules.tieRule = werewolf::TieRule::NoElimination;
            }
            if (!known) return "switches: unknown switch '" + it.key() + "'";
        }
    }
    if (j.contains("channels") && j["channels"].is_array()) {
        for (const json& c : j["channels"]) {
            std::optional<llm::AnswerChannel> channel;
            for (auto k : {llm::AnswerChannel::JsonSchema, llm::AnswerChannel::ToolCall, llm::AnswerChannel::Text})
                if (c.is_string() && c.get<std::string>() == llm::answerChannelName(k)) channel = k;
            if (!c.is_null() && !channel) return "channels: unknown answer channel " + c.dump();
            s.channels.push_back(channel);
        }
    }
    if (j.contains("seed")) {
        if (!j["seed"].is_number_integer() || j["seed"].get<long long>() < 0) return "seed: a whole number >= 0";
        s.seed = j["seed"].get<std::uint64_t>();
    }
    out = std::move(s);
    return std::nullopt;
}

std::optional<std::string> sessionConfig(const TableSetup& s, const ui::ScreenContext& context, SessionConfig& out) {
    const int seats = static_cast<int>(s.players.size());
    if (seats < werewolf::kMinSeats || seats > werewolf::kMaxSeats)
        return "a table has 5 to 16 seats (this one has " + std::to_string(seats) + ")";
    if (werewolf::SetupError e = werewolf::validateRoles(seats, s.roles.empty() ? werewolf::defaultRoles(seats) : s.roles);
        e != werewolf::SetupError::None)
        return "roles: " + std::string(werewolf::setupErrorText(e));
    SessionConfig c;
    c.setup.seed = s.seed;
    c.setup.roles = s.roles;
    c.setup.rules = s.rules;
    int people = 0;
    play::SeatGrammar grammar = werewolfSeatGrammar();
    grammar.person = true;
    grammar.maxRepeat = 1;
    for (const std::string& p : s.players) {
        // "person" is the page's older word for a human seat.
        const play::Parsed<play::SeatSpec> seat = play::parseSeatSpec(p == "person" ? "human" : p, grammar);
        if (!seat.ok()) return "seat: " + seat.error;
        TableSeat spec;
        if (seat.value->kind == SeatKind::Person) {
            spec.kind = SeatKind::Person;
            spec.player = "person";
            ++people;
        } else if (seat.value->kind == SeatKind::Model) {
            spec.kind = SeatKind::Model;
            spec.player = p;
            spec.ai.model = seat.value->modelId;
            std::optional<llm::ModelInfo> info = context.catalog ? context.modelInfo(spec.ai.model) : std::nullopt;
            const std::size_t index = c.seats.size();
            spec.ai.channel = index < s.channels.size() && s.channels[index] ? *s.channels[index]
                                                                             : llm::channelFor(info ? &*info : nullptr);
            if (info) spec.ai.pricing = info->pricing;
            spec.ai.timeoutMs = 30000;
        } else { // the bot ("random" is the same bot)
            spec.player = "bot";
        }
        c.seats.push_back(std::move(spec));
    }
    if (people > 1) return "one person per table on this screen (" + std::to_string(people) + " human seats)";
    out = std::move(c);
    return std::nullopt;
}

bool SetupDialog::DrawWindow(const ui::ScreenContext& context) {
    if (!open) return false;
    bool started = false;
    // Tall enough for Start below the rules on a laptop (it sat under the fold); a phone scrolls.
    // Never wider or taller than the page (on a phone it was 620 pixels wide, its left part off
    // the screen): the rows below wrap instead.
    const float uiSize = context.fonts ? context.fonts->uiSize : 16.0f;
    ui::placeDialog(uiSize, 39, 760.0f / uiSize, 3); // below the header
    if (!ImGui::Begin("New Werewolf game###werewolf.new", &open, ImGuiWindowFlags_NoCollapse)) {
        ImGui::End();
        return false;
    }
    ui::markWindow("werewolf.new.window");
    if (ui::escapeClosesDialog(popupWasOpen_)) open = false; // as the chess one
    if (!context.chat)
        ImGui::TextWrapped("No API key: models cannot play. Bots and a person can; add an OpenRouter key in "
                           "Settings to seat language models.");
    ImGui::SetNextItemWidth(120);
    if (ImGui::InputInt("Seats", &seatCount_)) seatCount_ = std::clamp(seatCount_, werewolf::kMinSeats, werewolf::kMaxSeats);
    draft.players.resize(static_cast<std::size_t>(seatCount_), "bot");
    // The model the LLM seats get, from the catalog with its prices (or typed by hand).
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Model for \"LLM\"");
    // On a phone the model's dropdown and the two buttons wrap under the label.
    ui::FlowRow modelRow;
    modelRow.first = false;
    const float comboWidth = std::min(uiSize * 16, ImGui::GetContentRegionAvail().x);
    modelRow.placeWidth(comboWidth);
    ImGui::SetNextItemWidth(comboWidth);
    bool refresh = false;
    if (ui::drawModelCombo(ui::modelCatalogView(context), "##werewolf.model", model_.c_str(), model_, modelFilter_,
                           sizeof modelFilter_, refresh))
        for (auto& p : draft.players)
            if (p.rfind("llm:", 0) == 0) p = "llm:" + model_; // the LLM seats follow the choice
    ui::markItem("werewolf.new.model");
    if (refresh && context.refreshCatalog) context.refreshCatalog();
    modelRow.place("All LLM");
    if (chaiba::ui::smallButton("All LLM"))
        for (auto& p : draft.players) p = "llm:" + model_;
    ui::markItem("werewolf.new.allLlm");
    modelRow.place("All bots");
    if (chaiba::ui::smallButton("All bots"))
        for (auto& p : draft.players) p = "bot";
    if (ImGui::BeginTable("seats", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY, ImVec2(0, 220))) {
        // The seat, its three choices (each label whole: "me" was cut to "n"), who plays it.
        const float box = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x;
        const float spacing = ImGui::GetStyle().ItemSpacing.x;
        ImGui::TableSetupColumn("seat", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("P88").x);
        ImGui::TableSetupColumn("kind", ImGuiTableColumnFlags_WidthFixed,
                                box * 3 + spacing * 2 + ImGui::CalcTextSize("botLLMme").x);
        ImGui::TableSetupColumn("player", ImGuiTableColumnFlags_WidthStretch);
        for (std::size_t i = 0; i < draft.players.size(); ++i) {
            ImGui::PushID(static_cast<int>(i));
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::AlignTextToFramePadding(); // level with the choices' circles
            ImGui::Text("P%d", static_cast<int>(i) + 1);
            ImGui::TableNextColumn();
            std::string& p = draft.players[i];
            const int kind = p == "bot" ? 0 : (p == "human" ? 2 : 1);
            const std::string seat = "werewolf.new.seat" + std::to_string(i + 1);
            if (ImGui::RadioButton("bot", kind == 0)) p = "bot";
            ui::markItem(seat + ".bot");
            ImGui::SameLine();
            if (ImGui::RadioButton("LLM", kind == 1)) p = "llm:" + model_;
            ui::markItem(seat + ".llm");
            ImGui::SameLine();
            if (ImGui::RadioButton("me", kind == 2)) {
                for (auto& other : draft.players)
                    if (other == "human") other = "bot";
                p = "human";
            }
            ui::markItem(seat + ".me");
            ImGui::TableNextColumn();
            ImGui::AlignTextToFramePadding();
            ImGui::TextWrapped("%s", kind == 1 ? p.c_str() + 4
                                               : (kind == 2 ? "you play this seat" : "rule-based bot"));
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Rules");
    ui::FlowRow rulesRow;
    rulesRow.first = false;
    for (werewolf::RulesPreset p : {werewolf::RulesPreset::Balanced, werewolf::RulesPreset::Plain, werewolf::RulesPreset::Kaggle}) {
        const std::string name(werewolf::rulesPresetName(p));
        rulesRow.placeToggle(name.c_str());
        if (ImGui::RadioButton(name.c_str(), draft.preset == name)) draft.preset = name, draft.rules = werewolf::rulesOf(p);
        ui::markItem("werewolf.new.rules." + name);
    }
    // The preset in a line; its eleven switches folded away (the dialog fits a laptop's height).
    static constexpr const char* kGists[] = {
        "No doctor self-save or repeated save; a tie eliminates nobody; the first speaker rotates.",
        "Self-save and repeated saves; a tie is voted again; the lowest living seat speaks first.",
        "As Kaggle's envs/werewolf plays: the Seer sees the role, votes may abstain, ties are drawn."};
    if (const std::optional<werewolf::RulesPreset> p = werewolf::parseRulesPreset(draft.preset)) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s%s", kGists[static_cast<int>(*p)],
                           draft.rules == werewolf::rulesOf(*p) ? "" : " Switches changed below.");
        ImGui::PopStyleColor();
    }
    const bool eachRule = ImGui::TreeNode("Each rule###werewolf.new.switches");
    ui::markItem("werewolf.new.switches");
    if (eachRule) {
        for (const Switch& sw : kSwitches) ImGui::Checkbox(sw.label, &(draft.rules.*sw.field));
        bool revote = draft.rules.tieRule == werewolf::TieRule::Revote;
        if (ImGui::Checkbox("A tied vote is voted again (else nobody leaves)", &revote))
            draft.rules.tieRule = revote ? werewolf::TieRule::Revote : werewolf::TieRule::NoElimination;
        bool drawn = draft.rules.tieRule == werewolf::TieRule::Random;
        if (ImGui::Checkbox("A tied vote is drawn at random (all abstaining: anyone living)", &drawn))
            draft.rules.tieRule = drawn ? werewolf::TieRule::Random : werewolf::TieRule::NoElimination;
        ImGui::TreePop();
    }
    int seed = static_cast<int>(draft.seed);
    ImGui::SetNextItemWidth(160);
    if (ImGui::InputInt("Seed (deals the roles)", &seed)) draft.seed = static_cast<std::uint64_t>(std::max(0, seed));
    ui::FlowRow seedRow;
    seedRow.first = false;
    seedRow.place("New deal");
    if (ImGui::SmallButton("New deal")) draft.seed = 1 + (draft.seed * 2654435761u + 12345u) % 999983u;
    const std::vector<Role> deal = werewolf::defaultRoles(seatCount_);
    int wolves = 0;
    for (Role r : deal) wolves += r == Role::Werewolf;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("Roles: %d werewolves, a seer, a doctor and %d villagers, dealt by the seed.", wolves,
                       seatCount_ - wolves - 2);
    ImGui::PopStyleColor();
    draft.roles.clear();
    if (!error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ui::palette().danger);
        ImGui::TextWrapped("%s", error.c_str());
        ImGui::PopStyleColor();
    }
    if (ImGui::Button("Start the game###werewolf.new.start")) started = true;
    ui::markItem("werewolf.new.start");
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) open = false;
    popupWasOpen_ = ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel);
    ImGui::End();
    return started;
}

} // namespace chaiba::werewolfmode
