// Bundle PGN: every game of a tournament bundle as PGN text (tags, the judge's [%eval] and NAGs,
// reasoning as comments, the game's detail after its last move), a game at a time.
#include "src/modes/chess/bundle.h"
#include "src/modes/chess/bundle_detail.h"

#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "engine/chess/position.h"
#include "engine/search/analysis.h"

#include "src/play/bundle.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace chaiba::chessmode {

using play::redactSecrets;

Parsed<std::string> bundlePgn(const TournamentBundle& bundle, std::string_view apiKey) {
    std::string out;
    if (auto error = bundlePgnPieces(bundle, apiKey, [&](std::string_view piece) {
            out += piece;
            return true;
        }))
        return Parsed<std::string>::fail(*error);
    return {std::move(out), {}};
}

namespace {

// "[%eval 0.35]" / "[%eval #-3]" for an analysed move (White's view, pawns), "" otherwise and for
// the move that mates (nothing is left to evaluate).
std::string evalCommand(const TurnRecord& t) {
    if (t.cpLoss < 0) return {};
    if (t.evalMate != 0) return "[%eval #" + std::to_string(t.evalMate) + "]";
    if (std::abs(t.evalCp) >= kCheckmateEvalCp) return {};
    char text[40];
    std::snprintf(text, sizeof text, "[%%eval %.2f]", t.evalCp / 100.0);
    return text;
}

// The game's moves with their reasoning as comments and the engine's verdicts as NAGs; the error
// names the first move that is not legal.
std::optional<std::string> addMoves(chess::PgnGame& pgn, const GameRecord& g, std::string_view apiKey,
                                    const std::string& where) {
    chess::Position pos = pgn.start;
    for (size_t m = 0; m < g.moves.size(); ++m) {
        const chess::MoveResult move = chess::parseUci(pos, g.moves[m].uci);
        if (!move.ok()) return where + ".moves[" + std::to_string(m) + "].uci: " + move.error;
        pgn.moves.push_back(move.move);
        // The judge's evaluation after the move first, as lichess writes it ([%eval 0.35],
        // [%eval #-3]); the model's reasoning after it.
        std::string comment = evalCommand(g.moves[m]);
        const std::string reasoning = redactSecrets(g.moves[m].reasoning, apiKey);
        if (!reasoning.empty()) comment = comment.empty() ? reasoning : comment + " " + reasoning;
        pgn.comments.push_back(std::move(comment));
        // The engine's verdict as a NAG ($6 ?!, $2 ?, $4 ??) once the move is analysed.
        const int judgement = g.moves[m].judgement;
        const int nag = g.moves[m].cpLoss >= 0 && judgement > 0 && judgement <= 3
                            ? search::judgementNag(static_cast<search::MoveJudgement>(judgement))
                            : 0;
        pgn.nags.push_back(nag != 0 ? std::vector<int>{nag} : std::vector<int>{});
        pos.makeMove(move.move);
    }
    return std::nullopt;
}

// How the game ended ("Black forfeits: 4 illegal moves") goes after the last move: a PGN comment
// annotates the move before it, and before the first move it read as if the game had started
// with the forfeit. Joined to that move's reasoning (the writer keeps one comment per move; a
// reader joins two in a row anyway). With no move at all, before the moves is all there is.
void addDetail(chess::PgnGame& pgn, std::string detail) {
    if (detail.empty()) return;
    if (pgn.moves.empty()) {
        pgn.preComment = std::move(detail);
        return;
    }
    std::string& last = pgn.comments.back();
    last = last.empty() ? std::move(detail) : last + " -- " + detail;
}

// Dollars as the cost tags write them: to the micro-dollar, without trailing zeros ("0.0123", "0").
std::string usdText(double usd) {
    char text[352]; // the largest double has 309 digits before the point
    std::snprintf(text, sizeof text, "%.6f", usd);
    std::string out = text;
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
    return out;
}

bool playsAsModel(const TournamentConfig& c, int participant) {
    const Parsed<PlayerSpec> spec = parsePlayerSpec(c.participants[size_t(participant)].spec);
    return spec.ok() && spec.value->kind == play::SeatKind::Model;
}

// WhiteCostUSD/BlackCostUSD and WhiteTokens/BlackTokens for each side a model played, summed over
// its turns as the leaderboard sums them (foldTurns: the open turn counts, tokens = prompt +
// completion). Engines and random movers cost nothing and get no tags rather than a zero that
// would read as a free model. Errors: a cost that is not a number (as the JSON refuses it).
std::optional<std::string> addSpendTags(chess::PgnGame& pgn, const TournamentConfig& c, const GameRecord& g,
                                        const std::string& where) {
    const FoldedTurns sums = foldTurns(g);
    for (const auto& [colour, participant] :
         {std::pair{"White", g.pairing.white}, std::pair{"Black", g.pairing.black}}) {
        if (!playsAsModel(c, participant)) continue;
        const size_t side = sums.movers[0] == participant ? 0 : 1;
        if (!std::isfinite(sums.costUsd[side])) return where + ": a cost is not a number";
        pgn.setTag(std::string(colour) + "CostUSD", usdText(sums.costUsd[side]));
        pgn.setTag(std::string(colour) + "Tokens", std::to_string(sums.tokens[side]));
    }
    return std::nullopt;
}

// The PGN date of a game: the day it started (UTC); a record that does not know it (before
// version 6) has the export's date (the latest it can have been played), else nothing (the
// writer's "????.??.??").
std::string pgnDate(const GameRecord& g, const BundleHarness& h) {
    const std::string when = g.startedAt > 0 ? utcIsoTime(g.startedAt) : h.exportedAt;
    if (!isUtcIsoTime(when)) return {};
    std::string date = when.substr(0, 10);
    std::replace(date.begin(), date.end(), '-', '.');
    return date;
}

// UTCDate/UTCTime (lichess's tags) of a game's start and its GameDuration ("1:02:03"), when known.
void addTimeTags(chess::PgnGame& pgn, const GameRecord& g) {
    if (g.startedAt <= 0) return;
    const std::string start = utcIsoTime(g.startedAt);
    pgn.setTag("UTCDate", pgnDate(g, {}));
    pgn.setTag("UTCTime", start.substr(11, 8));
    if (g.finishedAt >= g.startedAt) {
        const int64_t s = g.finishedAt - g.startedAt;
        char text[48];
        std::snprintf(text, sizeof text, "%lld:%02d:%02d", static_cast<long long>(s / 3600), int(s / 60 % 60),
                      int(s % 60));
        pgn.setTag("GameDuration", text);
    }
}

// One game of the bundle as PGN text, or the error naming where it is wrong.
Parsed<std::string> gamePgn(const TournamentBundle& bundle, const GameRecord& g, std::string_view apiKey,
                            const std::string& where) {
    const TournamentConfig& c = bundle.config;
    const int players = int(c.participants.size());
    if (g.pairing.white < 0 || g.pairing.white >= players || g.pairing.black < 0 ||
        g.pairing.black >= players)
        return Parsed<std::string>::fail(where + ": players are not participants");
    chess::FenResult start = chess::Position::fromFen(g.startFen, g.pairing.seededStart >= 0);
    if (!start.ok()) return Parsed<std::string>::fail(where + ".startFen: " + start.error);
    chess::PgnGame pgn;
    pgn.start = *start.position;
    if (auto error = addMoves(pgn, g, apiKey, where)) return Parsed<std::string>::fail(*error);
    pgn.setTag("Event", c.name);
    pgn.setTag("Date", pgnDate(g, bundle.harness));
    pgn.setTag("Round", std::to_string(g.pairing.round));
    pgn.setTag("White", c.participants[size_t(g.pairing.white)].displayName());
    pgn.setTag("Black", c.participants[size_t(g.pairing.black)].displayName());
    pgn.result = std::string(resultText(g.result));
    pgn.setTag("Result", pgn.result);
    pgn.setTag("Termination", std::string(terminationName(g.termination)));
    addTimeTags(pgn, g);
    if (auto error = addSpendTags(pgn, c, g, where)) return Parsed<std::string>::fail(*error);
    addDetail(pgn, redactSecrets(g.detail, apiKey));
    return {chess::writePgn(pgn), {}};
}

} // namespace

std::optional<std::string> bundlePgnPieces(const TournamentBundle& bundle, std::string_view apiKey,
                                           const std::function<bool(std::string_view)>& write,
                                           const WholeRecordSource& whole) {
    if (auto error = validateConfig(bundle.config)) return "config: " + *error;
    GameRecord readBack;
    for (size_t i = 0; i < bundle.games.size(); ++i) {
        Parsed<const GameRecord*> game = wholeGame(bundle, i, whole, readBack);
        if (!game.ok()) return game.error;
        Parsed<std::string> text = gamePgn(bundle, **game.value, apiKey, "games[" + std::to_string(i) + "]");
        if (!text.ok()) return text.error;
        if (!write(*text.value + "\n")) return std::string("the PGN could not be written");
    }
    return std::nullopt;
}


} // namespace chaiba::chessmode
