// The built-in engine as a Player: a named level (engine/search/levels.h), deterministic for a
// seed, with an optional pause before it answers so a person can follow the game.
#pragma once

#include "src/modes/chess/layers.h"
#include "engine/search/levels.h"
#include "src/modes/chess/player.h"
#include "src/net/http.h"

#include <cstdint>

namespace chaiba::chessmode {

// How the built-in engine answers a draw offer, natively and in the browser: it accepts when its
// own search score, from its own side, is at most kEngineDrawAcceptCp (level with or worse than
// its opponent, as that level sees it); a better engine plays on. The random mover (level 0)
// always declines: it has no opinion of the position.
constexpr int kEngineDrawAcceptCp = 0;
bool engineAcceptsDraw(int scoreCp, const search::LevelSpec& level);

class EnginePlayer final : public Player {
public:
    // clock may be null when delayMs is 0.
    EnginePlayer(std::string id, search::LevelSpec level, std::uint64_t seed,
                 const net::Clock* clock = nullptr, int delayMs = 0);

    std::string id() const override { return id_; }
    std::string name() const override;
    play::SeatKind kind() const override { return play::SeatKind::Engine; }
    void beginMove(const MoveRequest& request) override;
    // Searches synchronously inside poll() (the level's node cap bounds the time).
    std::optional<PlayerMove> poll() override;
    void cancel() override { game_ = nullptr; }

private:
    std::string id_;
    search::LevelSpec level_;
    std::uint64_t seed_;
    const net::Clock* clock_;
    int delayMs_;
    const chess::Game* game_ = nullptr;
    bool drawOffered_ = false;
    std::int64_t readyAtMs_ = 0;
};

} // namespace chaiba::chessmode
