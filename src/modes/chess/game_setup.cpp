// GameSetup validation: every error comes from the rules engine's own messages, prefixed with
// where the user typed it.
#include "src/modes/chess/game_setup.h"

#include "engine/chess/pgn.h"
#include "src/modes/chess/tournament.h"


namespace chaiba {

std::string PlayerSpec::text() const {
    switch (kind) {
    case PlayerKind::Llm: return "llm:" + model;
    case PlayerKind::Engine: return "engine:" + std::to_string(level);
    case PlayerKind::Human: return "human";
    case PlayerKind::Random: return "random";
    }
    return "human";
}

PlayerSpecResult parsePlayerSpec(std::string_view text, int maxEngineLevel) {
    // The one seat grammar (play/seat.h); the page adds "human" and checks the engine level
    // against the levels this build has.
    play::SeatGrammar grammar = chessmode::chessSeatGrammar(maxEngineLevel);
    grammar.person = true;
    PlayerSpecResult r;
    const play::Parsed<play::SeatSpec> parsed = play::parseSeatSpec(text, grammar);
    if (!parsed.ok()) {
        r.error = parsed.error;
        return r;
    }
    const play::SeatSpec& p = *parsed.value;
    switch (p.kind) {
    case play::SeatKind::Random: r.spec = PlayerSpec{PlayerKind::Random, "", 0}; break;
    case play::SeatKind::Person: r.spec = PlayerSpec{PlayerKind::Human, "", 0}; break;
    case play::SeatKind::Model: r.spec = PlayerSpec{PlayerKind::Llm, p.modelId, 0}; break;
    case play::SeatKind::Engine: r.spec = PlayerSpec{PlayerKind::Engine, "", p.level < 0 ? maxEngineLevel : p.level}; break;
    case play::SeatKind::Bot: r.error = "bots do not play chess"; break;
    }
    return r;
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
