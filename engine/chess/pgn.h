// PGN: writing a game (seven-tag roster + extra tags, comments, result) and reading multi-game
// files (comments, NAGs, variations skipped, % escape lines, FEN/SetUp/Variant for Chess960).
#pragma once

#include "engine/chess/game.h"
#include "engine/chess/position.h"
#include "engine/chess/types.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace chaiba::chess {

struct PgnTag {
    std::string name;
    std::string value;
};

// One game as read from or written to PGN.
struct PgnGame {
    // Seven-tag roster first (Event, Site, Date, Round, White, Black, Result), then extras in order.
    std::vector<PgnTag> tags;
    Position start = Position::startPosition();
    std::vector<Move> moves;
    // comments[i] = comment after move i (i < moves.size()); empty string if none.
    std::vector<std::string> comments;
    // nags[i] = Numeric Annotation Glyphs after move i ($2 mistake, $4 blunder, $6 dubious); may be
    // shorter than moves (missing = none). Read back from PGN too.
    std::vector<std::vector<int>> nags;
    std::string preComment; // comment before the first move
    std::string result = "*";

    // Tag value or "" if absent.
    std::string tag(std::string_view name) const;
    void setTag(std::string_view name, std::string value);
};

// Writes one game: missing roster tags are written as "?" (Date "????.??.??", Result from
// game.result); SetUp/FEN (and Variant "Chess960") are added when the start is not standard.
// Comment text has '}' replaced so it cannot close the comment early. Lines wrap at 80 columns.
std::string writePgn(const PgnGame& game);

struct PgnReadResult {
    std::vector<PgnGame> games; // games parsed successfully (all of them when error is empty)
    std::string error;          // first error: "game 2 (White - Black), move 14... Nxe5: ..."
    bool ok() const { return error.empty(); }
};
// Reads every game of a PGN text. Stops at the first malformed game and reports it.
PgnReadResult readPgn(std::string_view text);

// Builds a Game (with status/repetitions) from a PgnGame's start and moves.
Game toGame(const PgnGame& pgn);
// The PgnGame of a Game: start, moves, result (no tags, no comments yet).
PgnGame pgnFromGame(const Game& game);

} // namespace chaiba::chess
