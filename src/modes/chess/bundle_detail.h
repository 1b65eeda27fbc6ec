// What bundle.cpp, bundle_harness.cpp and bundle_pgn.cpp share, not part of the bundle's interface.
#pragma once

#include "src/modes/chess/bundle.h"
#include "src/play/bundle.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace chaiba::chessmode {

// Game i of the bundle whole: as it is, or read back through `whole` when it is folded (into
// `storage`, which then holds it until the next game). The error names the game.
Parsed<const GameRecord*> wholeGame(const TournamentBundle& bundle, size_t i, const WholeRecordSource& whole,
                                    GameRecord& storage);

// How the models were called (config.calls, restated by harness.calls): bundle.cpp.
play::Json callsObject(const ModelCalls& m);

// The "harness" object (bundle_harness.cpp). harnessProblem: why the caller's part of it cannot go
// into a bundle or come out of one (the member and the message), or nothing. decodeHarness: the
// caller's facts are kept; the rest restates the config and must agree with it.
std::optional<std::pair<const char*, std::string>> harnessProblem(const BundleHarness& h);
play::Json harnessObject(const BundleHarness& h, const TournamentConfig& c,
                         const std::vector<GameRecord>& games);
void decodeHarness(play::JsonDecoder& d, const play::Json& j, const TournamentConfig& c, BundleHarness& h);

} // namespace chaiba::chessmode
