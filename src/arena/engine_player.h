// The built-in engine as a Player: a named level (engine/search/levels.h), deterministic for a
// seed, with an optional pause before it answers so a person can follow the game.
#pragma once

#include "engine/search/levels.h"
#include "src/arena/player.h"
#include "src/net/http.h"

#include <cstdint>

namespace chaiba::arena {

class EnginePlayer final : public Player {
public:
    // clock may be null when delayMs is 0.
    EnginePlayer(std::string id, search::LevelSpec level, std::uint64_t seed,
                 const net::Clock* clock = nullptr, int delayMs = 0);

    std::string id() const override { return id_; }
    std::string name() const override;
    std::string kind() const override { return "engine"; }
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
    std::int64_t readyAtMs_ = 0;
};

} // namespace chaiba::arena
