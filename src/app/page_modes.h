// The page's modes, composed: chess (match, arena), Werewolf (a table, the Werewolf Arena), Story,
// and the planner beside the arena whose plans run on both arenas. The one place above the modes
// that names them; App is handed makePageModes and knows no game.
#pragma once

#include "src/app/mode_module.h"
#include "src/modes/chess/chess_screens.h"
#include "src/play/rating_job.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace chaiba {

// What the page (web/, or a test) gives the modes besides the shell's ModeHost.
struct PageServices {
    // Tournaments, worlds and games too large for the host's store (IndexedDB on the web); null:
    // the host's store.
    KeyValueStore* largeStore = nullptr;
    std::string largeStoreWarning; // why tournaments are not kept, if they are not
    // Background storage failures (IndexedDB writes), polled once per tick.
    std::function<std::optional<std::string>()> takeStorageError;
    // The arenas' rating intervals drawn off the page's thread (web: the engine worker); null: here.
    std::function<std::unique_ptr<play::BootstrapRunner>()> makeBootstrapRunner;
    // The built-in chess engine and scorer (its stores and the above are filled in from here).
    ChessServices chess;
};

std::vector<std::unique_ptr<ModeModule>> makePageModes(ModeHost& host, PageServices services);

} // namespace chaiba
