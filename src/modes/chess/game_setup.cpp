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
    // One grammar for every SPEC (the arena's parser); the page adds "human" and checks the
    // engine level against the levels this build has.
    PlayerSpecResult r;
    if (text == "human") {
        r.spec = PlayerSpec{PlayerKind::Human, "", 0};
        return r;
    }
    chessmode::Parsed<chessmode::PlayerSpec> parsed = chessmode::parsePlayerSpec(text);
    if (!parsed.ok()) {
        r.error = parsed.error + (text.find(':') == std::string_view::npos ? " or human" : "");
        return r;
    }
    const chessmode::PlayerSpec& p = *parsed.value;
    switch (p.kind) {
    case chessmode::PlayerSpec::Kind::Random: r.spec = PlayerSpec{PlayerKind::Random, "", 0}; break;
    case chessmode::PlayerSpec::Kind::Llm: r.spec = PlayerSpec{PlayerKind::Llm, p.modelId, 0}; break;
    case chessmode::PlayerSpec::Kind::Engine: {
        const int level = p.level < 0 ? maxEngineLevel : p.level;
        if (level > maxEngineLevel) {
            r.error = "engine level must be a number from 0 to " + std::to_string(maxEngineLevel) + ", got " +
                      std::to_string(level);
            return r;
        }
        r.spec = PlayerSpec{PlayerKind::Engine, "", level};
        break;
    }
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
