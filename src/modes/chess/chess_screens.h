// What the chess screens (match, arena) need from the page besides the shell's ScreenContext:
// the stores, the assets, the built-in engine; and what both load once and share (the prompts,
// the opening suite).
#pragma once

#include "src/llm/assets.h"
#include "src/modes/chess/arena_analysis.h"
#include "src/modes/chess/chess_prompts.h"
#include "src/modes/chess/player.h"
#include "src/modes/chess/player_factory.h"
#include "src/modes/chess/tournament.h"
#include "src/modes/chess/ui/new_game_dialog.h"
#include "src/persist/key_value_store.h"
#include "src/play/rating_job.h"
#include "src/ui/screen.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace chaiba {

// The page's services for chess, filled by web/ (or a test): where games and tournaments are
// kept and how the built-in engine plays.
struct ChessServices {
    KeyValueStore* store = nullptr;      // the saved game (localStorage on the web)
    KeyValueStore* arenaStore = nullptr; // tournaments (IndexedDB on the web; may equal store)
    std::string arenaStoreWarning;       // why tournaments are not kept, if they are not
    // Background storage failures (IndexedDB writes), polled once per tick.
    std::function<std::optional<std::string>()> takeStorageError;
    // The same failures as the match history hears them (shareStorageErrors splits one source so
    // that each screen hears every failure once); null: the history hears none in the background.
    std::function<std::optional<std::string>()> takeHistoryStorageError;
    const llm::AssetSource* assets = nullptr;
    chessmode::EngineMaker makeEngine;
    // Scores positions for the move-quality analysis of the arena and of the shown match (web: an
    // engine worker); null: a searcher on the calling thread.
    std::function<std::unique_ptr<chessmode::PositionScorer>()> makeScorer;
    // The arena's rating intervals drawn off the page's thread (web: the engine worker); null: here.
    std::function<std::unique_ptr<play::BootstrapRunner>()> makeBootstrapRunner;
    double analysisShareWhileRunning = 1.0; // ArenaEnvironment's
    std::function<std::string(int level)> engineName;
    std::function<std::optional<double>(int level)> engineRating; // calibrated; -1 = strongest
    int maxEngineLevel = 8;
};

// One source of background-write failures (IndexedDB's: the match history and the arena share its
// store) told to both screens: takeStorageError (the arena's) and takeHistoryStorageError.
void shareStorageErrors(ChessServices& services);

// Loaded once from the assets and shared by both screens.
struct ChessAssets {
    chessmode::AgentPrompts prompts;
    std::string promptsError; // non-empty: models cannot play (the prompts did not load)
    std::vector<chessmode::Opening> openingSuite;
    std::string openingSuiteError;
};
ChessAssets loadChessAssets(const llm::AssetSource* assets);

// The New Game dialog's (and the arena setup's) view of the catalog and the engine levels.
ui::NewGameContext newGameContext(const ui::ScreenContext& context, const ChessServices& services);

} // namespace chaiba
