// The Werewolf section of Settings: the strategy document of each role, editable and resettable.
// Edits are kept in the page's key-value store ("chaiba.werewolf.strategy.<role>") and read at
// the start of each game.
#pragma once

#include "src/modes/werewolf/werewolf_prompts.h"
#include "src/persist/key_value_store.h"

namespace chaiba {
class Platform;
}
namespace chaiba::ui {
struct Fonts;
}

namespace chaiba::werewolfmode {

// The Werewolf screen registers where the strategies live and the page's platform and fonts (for
// the editor), nullptr when it goes.
void registerStrategyEditor(KeyValueStore* store, WerewolfPrompts* prompts, Platform* platform = nullptr,
                            const ui::Fonts* fonts = nullptr);
// Replaces the prompts' strategies with the stored edits (and resets the others).
void applyStoredStrategies(KeyValueStore* store, WerewolfPrompts& prompts);
// Draws the section inside the Settings panel (nothing when no Werewolf screen is registered).
void drawWerewolfStrategySettings();

} // namespace chaiba::werewolfmode
