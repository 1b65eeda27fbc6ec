// The built-in engine as a match Player in the browser: the search runs in a Web Worker
// (engine_worker.cpp), so the page keeps drawing while a level thinks; an optional pause before
// the answer paces engine games for a person to follow.
#pragma once

#include "engine/search/levels.h"
#include "src/modes/chess/player.h"
#include "web/engine_client_web.h"

#include <cstdint>
#include <optional>

namespace chaiba::web {

class WorkerEnginePlayer final : public chessmode::Player {
public:
    WorkerEnginePlayer(std::string id, search::LevelSpec level, uint64_t seed, int delayMs);
    std::string id() const override { return id_; }
    std::string name() const override { return search::levelLabel(level_); }
    play::SeatKind kind() const override { return play::SeatKind::Engine; }
    void beginMove(const chessmode::MoveRequest& request) override;
    std::optional<chessmode::PlayerMove> poll() override;
    void cancel() override;

private:
    std::string id_;
    search::LevelSpec level_;
    uint64_t seed_;
    int delayMs_;
    const chess::Game* game_ = nullptr;
    bool drawOffered_ = false;
    double askedAtMs_ = 0;
    WorkerEngine engine_;
    std::optional<EngineReply> reply_;
};

} // namespace chaiba::web
