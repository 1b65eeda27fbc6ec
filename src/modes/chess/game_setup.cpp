// GameSetup validation: every error comes from the rules engine's own messages, prefixed with
// where the user typed it.
#include "src/modes/chess/game_setup.h"

#include "engine/chess/pgn.h"
#include "src/modes/chess/tournament.h"


namespace chaiba {

play::Parsed<PlayerSpec> parsePlayerSpec(std::string_view text, int maxEngineLevel) {
    play::SeatGrammar grammar = chessmode::chessSeatGrammar(maxEngineLevel);
    grammar.person = true;
    play::Parsed<PlayerSpec> parsed = play::parseSeatSpec(text, grammar);
    // The dialog's level slider keeps its value across kinds: 0 for the others, as it always was.
    if (parsed.ok() && parsed.value->level < 0)
        parsed.value->level = parsed.value->kind == PlayerKind::Engine ? maxEngineLevel : 0;
    return parsed;
}

ValidatedStart validateStart(const GameSetup& setup, uint64_t randomSeed) {
    ValidatedStart v;
    switch (setup.mode) {
    case StartMode::Standard: v.start = chess::Position::startPosition(); break;
    case StartMode::Chess960: {
        int n = setup.chess960Number;
        if (n == -1) n = static_cast<int>(randomSeed % 960);
        if (n < 0 || n > 959) {
            v.error = "Chess960 position number must be 0 to 959";
            break;
        }
        v.start = chess::Position::chess960(n);
        v.chess960Number = n;
        break;
    }
    case StartMode::Fen: {
        chess::FenResult r = chess::Position::fromFen(setup.fen);
        if (!r.ok()) v.error = "FEN: " + r.error;
        else v.start = r.position;
        break;
    }
    case StartMode::Pgn: {
        chess::PgnReadResult r = chess::readPgn(setup.pgn);
        if (!r.ok()) v.error = "PGN: " + r.error;
        else if (r.games.empty()) v.error = "PGN: no game found";
        else {
            v.start = r.games.front().start;
            v.moves = r.games.front().moves;
        }
        break;
    }
    }
    return v;
}

} // namespace chaiba
