// What bundle.cpp and bundle_pgn.cpp share, not part of the bundle's interface.
#pragma once

#include "src/modes/chess/bundle.h"

#include "src/play/bundle.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace chaiba::chessmode {

using json = play::Json;
using play::JsonDecoder;

// Game i of the bundle whole: as it is, or read back through `whole` when it is folded (into
// `storage`, which then holds it until the next game). The error names the game.
Parsed<const GameRecord*> wholeGame(const TournamentBundle& bundle, size_t i, const WholeRecordSource& whole,
                                    GameRecord& storage);

// The config's "calls" object: how models were asked (bundle.cpp; the harness restates it).
json callsObject(const ModelCalls& m);

// The harness (bundle_harness.cpp): why the caller's part of it cannot go into a bundle (the member
// and the message), the object written, and its strict reading, checked against the config.
std::optional<std::pair<const char*, std::string>> harnessProblem(const BundleHarness& h);
json harnessObject(const BundleHarness& h, const TournamentConfig& c, const std::vector<GameRecord>& games);
void decodeHarness(JsonDecoder& d, const json& j, const TournamentConfig& c, BundleHarness& h);

} // namespace chaiba::chessmode
