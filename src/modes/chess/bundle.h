// The tournament bundle: config + every game + ratings + how it was run (the harness) as one JSON
// document, for export/import, browser storage and `chaiba arena --out/--resume`. Never carries
// an API key. Decoded once, here, into typed structs; any malformed field is a clear error naming
// its path.
#pragma once

#include "src/modes/chess/layers.h"
#include "src/modes/chess/leaderboard.h"
#include "src/modes/chess/tournament.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::chessmode {

// Layout (version 5; play/bundle.h's envelope): {"format": "chaiba-tournament", "version": 5,
//   "mode": "chess",
//   "config": {name, participants: [{spec, name, anchorElo|null, contextPolicy?}], format, games,
//              concurrency, tempo, tickerSeconds, chess960, openings: [{name, fen, moves: [uci]}],
//              budgetUsd|null, seed, gauntletPlayer, maxPlies, contextPolicy, contextWindowMoves,
//              gameTokenBudget|null, pairing, calls|null: {temperature|null, maxTokens|null,
//              reasoningEffort, legalMoves, retries, fenOnError, contextMessage,
//              prompts: {base, white, black}}},
//   "ratingOptions": {excludeForfeits, bootstrapSamples, seed, virtualDraws},
//   "games": [{id, white, black, round, chess960Position, opening, startFen, result, termination,
//              detail, startedAt?, finishedAt? (when known), moves: [turn], openTurn?: turn}],
//              turn = {uci, san, reasoning, attempts, illegalAttempts, costUsd, promptTokens,
//              completionTokens, cachedTokens, reasoningTokens, cpLoss, judgement,
//              evalCp?, evalMate? (analysed moves)},
//   "leaderboard": {gamesRated, gamesUnfinished, rows: [LeaderboardRow fields]},
//   "harness": {appVersion|null, exportedAt|null, plyLimit, calls|null (config.calls restated),
//               prompts: {name: text}|null, judge: {engine, maxNodesPerPosition, thresholds}|null,
//               firstGameAt|null, lastGameAt|null (the games' times),
//               participants: [{spec, kind: "model"|"engine"|"random", modelId?, engineLevel?
//                               (-1 = the strongest), contextPolicy? and contextWindowMoves?
//                               (models only; the window for windowed ones)}]}}
inline constexpr std::string_view kBundleFormat = "chaiba-tournament";
// Version 1 (still read): no "mode", turns without cachedTokens/reasoningTokens (read as 0).
// Version 3: turns carry cpLoss/judgement (move quality; absent = not analysed, -1), rows carry
// analysedMoves, avgCpLoss, blunders, blundersPer100Moves (absent = 0). Versions 1-2 still load.
// Version 4: "harness", how the tournament was run, so a reader can cite and reproduce it; its
// per-participant part is the config's, restated (checked against it on import). Versions 1-3
// have none and load with an unknown app version and export time.
// Version 5: the windowed context policy with its "contextWindowMoves" (required when a player is
// windowed), the per-game token budget "gameTokenBudget" (null: none) and its termination
// "forfeit_token_budget". Versions 1-4 load with neither: a window of 8 moves, no token budget.
// Version 6: how the models were called ("calls" in the config: temperature, answer limit,
// reasoning effort, the legal-move list, retries, what each turn carries, the system prompt's
// overrides) restated in the harness with the prompt texts and the judge; each game's start and
// end ("startedAt", "finishedAt", when known); each analysed move's evaluation ("evalCp",
// "evalMate"; an analysed compact move has 14 fields). Versions 1-5 load with none of them.
inline constexpr int kBundleVersion = 6;
inline constexpr std::string_view kBundleMode = "chess";

// What the bundle says about how it was made beyond the config. The caller gives both: the chess
// library knows neither the app's version (CHAIBA_VERSION is the CLI's) nor the time, and
// exports stay deterministic. Empty = unknown (bundles before version 4, callers that do not say).
struct BundleHarness {
    std::string appVersion; // the CHAIBA that ran the tournament, e.g. "0.1.0"
    std::string exportedAt; // when the bundle was written: UTC ISO 8601, "2025-03-01T12:00:00Z"
    // Version 6. The prompt texts the app that ran it ships (promptTexts: name, text), the
    // system prompt's part with the config's overrides (ModelCalls) applied; empty = not said.
    std::vector<std::pair<std::string, std::string>> prompts;
    // The move-quality judge: nodes per position of the built-in search that judged the games
    // (the same search and budget as the leaderboard's marks); 0 = the games were not judged.
    long long judgeNodes = 0;
    bool operator==(const BundleHarness&) const = default;
};
// A moment as BundleHarness::exportedAt writes it: seconds since 1970 UTC -> "2025-03-01T12:00:00Z".
std::string utcIsoTime(int64_t unixSeconds);
// True for text utcIsoTime could have written (the only form the bundle takes).
bool isUtcIsoTime(std::string_view text);
// The moment such a text names, or nothing when it is not of that form.
std::optional<int64_t> parseUtcIsoTime(std::string_view text);

struct TournamentBundle {
    TournamentConfig config;
    LeaderboardOptions ratingOptions;
    std::vector<GameRecord> games;          // in finish order (unfinished ones last is fine)
    std::optional<Leaderboard> leaderboard; // export: written as given, computed if missing;
                                            // import: as stored in the file
    BundleHarness harness;                  // version 4; unknown (empty) before
};

// The bundle as JSON (2-space indented). Errors: a config that fails validateConfig (which also
// refuses key-like text), a harness whose exportedAt is not isUtcIsoTime's form or whose
// appVersion is key-like or over 64 characters. Free text of the games (reasoning, detail, SAN)
// has key-like strings and the given apiKey replaced by "[redacted]"; the output is checked not to
// contain apiKey.
Parsed<std::string> exportBundle(const TournamentBundle& bundle, std::string_view apiKey = {});
// The same text handed over piece by piece (a game at a time), so a file can take a bundle larger
// than the memory its text would need: `write` takes each piece (false: stop). Folded games are
// read back whole through `whole`, one at a time (an error without it). Returns the error.
std::optional<std::string> exportBundlePieces(const TournamentBundle& bundle, std::string_view apiKey,
                                              const std::function<bool(std::string_view)>& write,
                                              const WholeRecordSource& whole = {});

// Decodes and checks a bundle: format and version, every field's type and range, the config
// (validateConfig), each game against the config (players, ids, result vs termination, legal
// UCI moves from its start FEN), the harness (version 4: required, its restatement of the config
// must agree with it). Refuses any key-like field ("apiKey", "authorization", ...).
// Errors read like "games[3].moves[7].uci: 'e2e5' is not a legal move".
Parsed<TournamentBundle> importBundle(std::string_view json);

// Every game of the bundle as one PGN text, in order: Event = the tournament's name, Round,
// White/Black = display names, Result, Date (the records carry no time of play: the bundle's
// export date, else "????.??.??"), a Termination tag (terminationName), per side played by a
// model WhiteCostUSD/BlackCostUSD and WhiteTokens/BlackTokens (its turns' sums, the open turn
// included, as the leaderboard counts them), SetUp/FEN (and Variant) for other starts, each move's
// reasoning as its comment and the game's detail ("Black forfeits: ...") after the last move
// (redacted like the JSON). Unfinished games end in "*". Errors: a config that fails validation,
// a move that is not legal.
Parsed<std::string> bundlePgn(const TournamentBundle& bundle, std::string_view apiKey = {});
// The same PGN a game at a time, folded games read back through `whole`. Returns the error.
std::optional<std::string> bundlePgnPieces(const TournamentBundle& bundle, std::string_view apiKey,
                                           const std::function<bool(std::string_view)>& write,
                                           const WholeRecordSource& whole = {});

// How a record's moves are written: as the bundle writes them (an object per move, named fields),
// or compact (an array per move: uci, san, reasoning, attempts, illegalAttempts, costUsd,
// promptTokens, completionTokens, cachedTokens, reasoningTokens, cpLoss, judgement), what the
// page's store keeps (a third of the text, read about three times faster). Both decode alike.
enum class TurnLayout { Named, Compact };

// One game as a one-line JSON object (a bundle's "games" entry, redacted like exportBundle): the
// record of the arena's log. Errors: a cost that is not a number, the key in the text.
Parsed<std::string> gameJsonLine(const GameRecord& game, std::string_view apiKey = {},
                                 TurnLayout layout = TurnLayout::Named);
// One game entry decoded and checked against the config, as importBundle checks each game.
// `extraMoves`: one-line JSON turns (turnJsonLine) that follow the entry's "moves", checked as
// part of them (the page's running games append their moves that way).
Parsed<GameRecord> decodeGameJson(std::string_view json, const TournamentConfig& config,
                                  const std::vector<std::string>& extraMoves = {});
// One move of a game as a one-line JSON object (an entry of a game's "moves", redacted).
// Errors: a cost that is not a number, the key in the text.
Parsed<std::string> turnJsonLine(const TurnRecord& turn, std::string_view apiKey = {},
                                 TurnLayout layout = TurnLayout::Named);

// A config file (`chaiba arena --config FILE.json`): the bundle's "config" object, where only
// "participants" is required (a participant may be a spec string or {"spec", "name",
// "anchorElo"}) and every other field defaults as in TournamentConfig. Validated like a bundle.
Parsed<TournamentConfig> parseConfigJson(std::string_view json);
// The config as that JSON object, every field written (errors: validateConfig's).
Parsed<std::string> configJson(const TournamentConfig& config, bool oneLine = false);

// True when both leaderboards agree to within `toleranceElo` on ratings (everything else exact):
// what "reproduces the leaderboard" means across machines whose exp/log differ in the last bit.
bool sameLeaderboard(const Leaderboard& a, const Leaderboard& b, double toleranceElo = 1e-6);

} // namespace chaiba::chessmode
