// The arena's cost estimate shown before Start: catalog prices per token x the tokens a chess
// game is expected to use, per participant, from the schedule of a tournament config.
#pragma once

#include "src/modes/chess/layers.h"
#include "src/modes/chess/tournament.h"
#include "src/play/budget.h"

#include <string>
#include <vector>

namespace chaiba::chessmode {

// What one LLM player is expected to use per game. Defaults: a 40-move game, a prompt that grows
// with the history (~1500 tokens on average), a short answer with reasoning (~400 tokens), and
// 10% of answers repeated after an illegal or malformed move.
struct TokenExpectation {
    double movesPerGame = 40;
    double promptTokensPerMove = 1500;
    double completionTokensPerMove = 400;
    double attemptsPerMove = 1.1;
    // The whole conversation grows with the game: the prompt at ply p is about
    // promptBaseTokens + promptGrowthPerPly * p (fitted on the measured game; 0: not measured, the
    // flat average holds at every ply).
    double promptBaseTokens = 0;
    double promptGrowthPerPly = 0;
    // The same line for the stateless policy (0: the constants measured once with the stand-in).
    double statelessBaseTokens = 0;
    double statelessGrowthPerPly = 0;
    // The windowed policy, measured with a window of windowPlies / 2 turns: the line through its
    // prompts while the window fills (plies 0..windowPlies); after that the prompt stays flat but
    // for the move list (the stateless growth). windowPlies 0: not measured (estimatePromptTokens
    // then takes the full conversation's line, capped at the window: never less than it sends).
    double windowedBaseTokens = 0;
    double windowedGrowthPerPly = 0;
    int windowPlies = 0;
};

struct BudgetEstimate {
    double totalUsd = 0; // games of the typical length (TokenExpectation::movesPerGame)
    // The range's upper end: every game played to the ply limit (weak players' games run long:
    // 336-473 plies were seen where 80 were assumed, and the whole conversation's prompt grows
    // with every ply), or to a model's per-game token budget when that comes first. With measured
    // costs, each played model's share is its measured cost a game.
    double upToUsd = 0;
    // Its lower end: games of the typical length (at most the ply limit) with the prompts alone, no
    // answer tokens and no repeats: a tournament of such games spends at least this.
    double fromUsd = 0;
    int typicalPlies = 0;
    int longestPlies = 0;
    std::vector<double> perParticipantUsd;   // 0 for engines and the random mover
    std::vector<double> gamesPerParticipant; // expected games (the arena's are an average)
    int games = 0;                           // games in the whole tournament
    std::vector<std::string> unpricedModels; // LLM models without a catalog price (counted as 0)
    bool exceedsCap = false;                 // totalUsd > the config's budget
    double promptTokensPerMove = 0;          // the expectation used (measured prompt sizes)
    bool measured = false;                   // from the costs of games played (else from prompt sizes)
    // Some model's share is its cost per game measured in earlier tournaments of this browser (kept
    // over Reset, ArenaSession): said beside the estimate.
    bool measuredBefore = false;
    // The config's per-game token budget bounds each model's game (a model that has used it
    // forfeits at its next turn: at most one turn over it); the range respects it.
    bool tokenBudgetBounds = false;
};

// Prompt tokens of one request at `ply` (0-based half-move of the game) under a context policy.
// Stateless: the system prompt, the position and the move list only (measured with the stand-in,
// README "Context policy"). Full: TokenExpectation's flat average until the measured model of the
// growing conversation replaces it. Windowed (`windowMoves` turns kept): grows up to the window,
// then flat but for the move list.
double estimatePromptTokens(ContextPolicy policy, int ply, const TokenExpectation& expectation = {},
                            int windowMoves = kDefaultContextWindowMoves);

// Games each participant plays in the schedule of a valid config.
std::vector<double> expectedGamesPerParticipant(const TournamentConfig& config);
BudgetEstimate estimateBudget(const TournamentConfig& config, const PriceLookup& prices,
                              const TokenExpectation& expectation = {});

// What a change of format did to the tournament, said where the format is chosen: the games field
// means "games in total" in the arena and "meetings per pair" in the others, so 60 can become
// 1 800 games. "Round robin: 60 meetings per pair make 1 800 games (it was 60); the estimate is
// now $72.00 to $435.00 (it was $2.40 to $14.50)." Empty when the number of games did not change.
std::string formatChangeNote(const BudgetEstimate& beforeEstimate, const TournamentConfig& after,
                             const BudgetEstimate& afterEstimate);

} // namespace chaiba::chessmode
