// What bundle.cpp and bundle_pgn.cpp share, not part of the bundle's interface.
#pragma once

#include "src/modes/chess/bundle.h"

namespace chaiba::chessmode {

// Game i of the bundle whole: as it is, or read back through `whole` when it is folded (into
// `storage`, which then holds it until the next game). The error names the game.
Parsed<const GameRecord*> wholeGame(const TournamentBundle& bundle, size_t i, const WholeRecordSource& whole,
                                    GameRecord& storage);

} // namespace chaiba::chessmode
