// A finished (or stopped) Werewolf game as one JSON document: the setup, every event with its
// audience and the reasoning behind it, each seat's player, decisions, notes over time, fallbacks,
// tokens and cost, and the result. The session never holds the API key, so the file cannot either.
// The "result" part reads back (for --resume).
#pragma once

#include "src/llm/chat.h"
#include "src/modes/werewolf/game_session.h"
#include "src/modes/werewolf/results.h"

#include <string>
#include <string_view>
#include <vector>

namespace chaiba::werewolfmode {

// "chaiba-werewolf-game" files. 2: each seat's result has beliefs_by_round and
// belief_score_by_round (version 1 files read with no per-round figures). 3: each seat's result has
// notes_asks and notes_fallbacks (the notes rewrites among asks and fallbacks) and the vote swing
// (accusations, swing_listeners, swing_swayed); older files read with none (all asks as decisions).
inline constexpr int kGameFileVersion = 3;

// indent -1: one line (a record of a run's log), else pretty with that indent (a game file).
// resultJson: gameResultJson(result) when the caller made it already (else it is made here).
std::string exportGameJson(const GameSession& session, const GameResult& result, int indent = 1,
                           std::string_view resultJson = {});

// The "result" object of an exported game.
llm::Result<GameResult> readGameResult(std::string_view json);

// The leaderboard rows as a JSON array (summary.json of `chaiba werewolf --out`, the page's state);
// beliefs_by_round and belief_accuracy_by_round (null where none) index day rounds from 1.
std::string leaderboardJson(const std::vector<PlayerStanding>& rows);

// The "result" object alone (what the arena keeps per finished game), and back.
std::string gameResultJson(const GameResult& result);
llm::Result<GameResult> readGameResultJson(std::string_view json);

} // namespace chaiba::werewolfmode
