// The Werewolf table's setup as a person or a test gives it: seat specs ("bot", "llm:MODEL",
// "human"), roles, rules (a preset plus switches) and seed; its JSON form (the automation API's
// newGame argument and the stored game's "setup"); the session config it becomes; and the New
// Game dialog that edits it.
#pragma once

#include "src/modes/werewolf/game_session.h"
#include "src/ui/screen.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace chaiba::werewolfmode {

struct TableSetup {
    std::vector<std::string> players = std::vector<std::string>(8, "bot");
    std::vector<werewolf::Role> roles; // empty: the default deal for the table
    std::string preset = "balanced";   // "balanced", "plain" or "kaggle": the switches start from it
    werewolf::Rules rules = werewolf::Rules::balanced();
    std::uint64_t seed = 1;
    // How each model seat answered (a stored game keeps it, so a replay does not depend on the
    // catalog of the day); empty entries: from the catalog.
    std::vector<std::optional<llm::AnswerChannel>> channels;
};

nlohmann::json setupToJson(const TableSetup& s);
// Accepts {"players": [...], "roles": [...] or "werewolf:2,seer,...", "rules": "balanced"|"plain"|"kaggle",
// "switches": {"doctor_self_save", "doctor_repeat_save", "tie_revote", "tie_random", "rotate_first_speaker",
// "reveal_roles", "seer_sees_role", "abstain_allowed", "random_first_speaker", "random_wolf_tie"}, "seed": N};
// missing fields keep their preset's values. The error names the bad field.
std::optional<std::string> setupFromJson(const nlohmann::json& j, TableSetup& out);
// Checks the seats and roles (and that models have a key) and builds the session's config.
std::optional<std::string> sessionConfig(const TableSetup& s, const ui::ScreenContext& context, SessionConfig& out);

// The New Game dialog (its own popup window).
struct SetupDialog {
    bool open = false;
    TableSetup draft;
    std::string error;
    // Draws the dialog; true when the person pressed Start (draft is the new table).
    bool DrawWindow(const ui::ScreenContext& context);
    const std::string& model() const { return model_; } // what "All LLM" seats

private:
    std::string model_ = "openai/gpt-4o-mini"; // the model the LLM seats get
    char modelFilter_[64] = {};
    int seatCount_ = 8;
    bool popupWasOpen_ = false; // a dropdown was open last frame: that Esc closes it, not the dialog
};

} // namespace chaiba::werewolfmode
