// Shared helpers for the rules commands (perft, moves, fen, status, parse-move, replay): reading
// the --fen/--960 options into a Position with the CLI's error contract (malformed FEN: exit 2).
#pragma once

#include "engine/chess/position.h"
#include "src/cli/args.h"

#include <optional>

namespace chaiba::cli {

// Exit codes of the rules commands.
constexpr int kExitOk = 0;
constexpr int kExitIllegal = 1;
constexpr int kExitBadInput = 2;

// Prints "error: <message>" to stdout (the contract scripts read) and returns code.
int fail(const std::string& message, int code);

// The options every rules command takes, worded once for their --help (positionFromArgs reads them).
inline Option fenOption() { return {"fen", "FEN", "the position (default: the start position)"}; }
inline Option chess960Option() { return {"960", "", "read the position as Chess960 (castling as king takes rook)"}; }

// fail("usage: chaiba NAME SYNOPSIS", kExitBadInput): the rules commands' synopses are one line.
int failUsage(const Usage& usage);

// The position from --fen (default: the start position); --960 marks it Chess960. On a malformed
// FEN prints "error: <reason>" and returns nothing (the caller exits with kExitBadInput).
std::optional<chess::Position> positionFromArgs(const Args& args);

} // namespace chaiba::cli
