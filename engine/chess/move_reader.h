// Reads one move out of free text written by a language model (or a person): SAN with or without
// annotations, move numbers, 0-0/o-o, UCI, long algebraic, promotion variants, figurines, prose,
// markdown, quotes and JSON fragments. Never guesses between two legal moves, never returns an
// illegal one; otherwise explains why, in words a person and a model can act on.
#pragma once

#include "engine/chess/position.h"
#include "engine/chess/types.h"

#include <string>
#include <string_view>

namespace chaiba::chess {

struct MoveReading {
    Move move;         // the one legal move found (when error is empty)
    std::string error; // e.g. "Nf3 is ambiguous: Nbd2 or Nfd2?", "no move found"
    bool ok() const { return error.empty(); }
};

// How the reader works:
// 1. A JSON fragment {"move": "..."} (keys move/san/uci/answer) wins: only its value is read.
// 2. Otherwise candidate tokens are pulled from the text (markdown, quotes, brackets, move
//    numbers like "12..." and trailing annotations stripped; figurines mapped to letters).
// 3. Each token is normalised (0-0 -> O-O, e8Q/e8(Q) -> e8=Q, e.p. dropped, long algebraic
//    Ng1-f3 -> from/to) and matched against the legal moves.
// 4. If the text names exactly one distinct legal move (the last bolded/quoted/JSON one is
//    preferred when several appear, e.g. "I considered Nf3 but play **e4**"), it is returned.
//    Otherwise the error names the problem for the first move-like token: ambiguity (with
//    the candidates), illegality (with the check or the blocking reason), or "no move found".
MoveReading readMove(const Position& pos, std::string_view freeText);

} // namespace chaiba::chess
