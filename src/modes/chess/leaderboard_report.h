// What the arena's leaderboard means, and the leaderboard as a person publishes it: the methods card
// (how the ratings, their intervals and the move judgements are made, with this tournament's own
// figures), a CSV of the table, and a standalone HTML page (no script, no outside file: the table,
// the rating plot as inline SVG, the methods) that can be put on any web host as it is.
#pragma once

#include "src/modes/chess/layers.h"
#include "src/modes/chess/leaderboard.h"
#include "src/modes/chess/tournament.h"

#include <string>
#include <vector>

namespace chaiba::chessmode {

struct LeaderboardReport {
    const TournamentConfig* config = nullptr;
    const Leaderboard* board = nullptr;
    LeaderboardOptions options;               // the fit's (bootstrap samples, virtual draws, forfeits)
    std::vector<std::string> names;           // per participant, as the page shows them
    std::vector<std::vector<double>> history; // the rating plot: history[k][participant] (ratingHistory)
    long judgeNodes = 0;                      // the move judge's budget a position (0: no analysis)
    std::string appVersion;                   // the build that made it
    std::string exportedAt;                   // UTC, ISO 8601
};

// The methods card, a paragraph a line: the rating model and its prior, the anchors (named, with
// their ratings) or that the scale is unanchored, the intervals, the live Elo, the judge, the
// harness (format, games, context policy, ply limit, forfeits).
std::vector<std::string> methodsLines(const LeaderboardReport& report);

// The table as CSV (RFC 4180: a header line, then a row per player, best first; text quoted when
// it holds a comma, a quote or a line break): rank, player, kind, rating, low, high, anchored, games,
// wins, draws, losses, forfeits, ACPL, blunders/100, illegal/100, cost, $/game, tokens/move, context.
std::string leaderboardCsv(const LeaderboardReport& report);

// The standalone HTML page: title, date and version, the table, the rating plot (SVG: a line per
// player over the rated games, anchors dashed, the final 95% intervals as bars) and the methods.
std::string leaderboardHtml(const LeaderboardReport& report);

// The version of CHAIBA this library was built as (what a report and a bundle's harness record).
const char* appVersion();

} // namespace chaiba::chessmode
