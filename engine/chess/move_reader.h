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
// 4. Tokens come in tiers; the first tier holding a move-like token decides: (a) right after a
//    final marker ("final answer", "final move", "my final answer is", "make_move" written as text,
//    also with a named argument: "make_move(uci='e7e5')", "make_move with e7e5", "Action:
//    make_move / Action Input: e7e5"); punctuation between marker and move is skipped
//    ("**Final Answer**: e4", "Final answer - e4"), (a') the rest of the sentence a final marker
//    written as a label opens ("Final Answer: I will play Nf3"; a heading "**Final Answer**" opens
//    the next line; a mere mention, "before my final answer, ...", opens nothing), (b) right after
//    an answer marker ("move:", "answer:", "my move", "bestmove", "uci:", "san:"), (c) after a
//    softer one ("the move is", "the best move is", "candidate move:", "choice:"), (d) emphasised
//    (**bold**, `code`, "quoted") or after "play"/"choose"/"prefer"/"go with", (e) all tokens.
//    Piece words join their square ("the knight goes to f3" is Nf3). Exactly one distinct
//    legal move in the tier is returned ("I considered Nf3 but play **e4**" gives e4); several
//    give an error naming them; none give the first token's problem: ambiguity (with the
//    candidates), illegality (with the check, pin or blocking reason), or "no move found".
//    A move numbered after the one to play ("17.Bxc3" in a line looked ahead on, or its reply)
//    does not compete when the tier holds another move.
MoveReading readMove(const Position& pos, std::string_view freeText);

} // namespace chaiba::chess
