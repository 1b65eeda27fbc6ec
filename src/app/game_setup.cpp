// GameSetup validation: every error comes from the rules engine's own messages, prefixed with
// where the user typed it.
#include "src/app/game_setup.h"

#include "engine/chess/pgn.h"

#include <charconv>

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
    PlayerSpecResult r;
    if (text == "human") {
        r.spec = PlayerSpec{PlayerKind::Human, "", 0};
    } else if (text == "random") {
        r.spec = PlayerSpec{PlayerKind::Random, "", 0};
    } else if (text.rfind("llm:", 0) == 0) {
        const std::string_view model = text.substr(4);
        if (model.empty()) r.error = "llm: needs a model id, e.g. llm:openai/gpt-4o";
        else if (model.find_first_of(" \t\r\n") != std::string_view::npos) r.error = "a model id has no spaces";
        else r.spec = PlayerSpec{PlayerKind::Llm, std::string(model), 0};
    } else if (text == "engine") {
        r.spec = PlayerSpec{PlayerKind::Engine, "", maxEngineLevel};
    } else if (text.rfind("engine:", 0) == 0) {
        const std::string_view n = text.substr(7);
        int level = -1;
        auto [ptr, ec] = std::from_chars(n.data(), n.data() + n.size(), level);
        if (ec != std::errc() || ptr != n.data() + n.size() || level < 0 || level > maxEngineLevel)
            r.error = "engine level must be a number from 0 to " + std::to_string(maxEngineLevel) + ", got '" +
                      std::string(n) + "'";
        else r.spec = PlayerSpec{PlayerKind::Engine, "", level};
    } else {
        r.error = "unknown player '" + std::string(text) + "': use llm:MODEL_ID, engine:LEVEL, human or random";
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
