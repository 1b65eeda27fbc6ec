// A mode's tournament screen as another part of the page drives it (the planner's stages): how far
// its tournament got, typed, so nobody reads a screen's state JSON to find out. Starting one takes
// the mode's own config type (each arena screen's startTournament), composed in src/app.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace chaiba::play {

enum class HostedPhase { Setup, Running, Stopping, Paused, Stopped, Finished };
std::string_view hostedPhaseName(HostedPhase phase); // "setup", "running", ...

struct TournamentProgress {
    HostedPhase phase = HostedPhase::Setup;
    int finished = 0; // games
    int total = 0;
    std::string error;  // why something failed, as the screen shows it
    std::string notice; // a result (the budget reached, an export)
    double spentUsd = 0; // what the tournament spent
    // Once finished: the participants' seat specs ("llm:MODEL", "engine:3", "bot"), best first.
    std::vector<std::string> ranking;
    // Once finished: the table behind the ranking, best first (the same order), and the rule that
    // orders equal ratings.
    struct Standing {
        std::string seat;
        double rating = 0; // the rating the ranking sorts by
        int games = 0;
        double score = 0; // wins, a draw counting half
    };
    std::vector<Standing> standings;
    std::string tieRule;
    bool busy() const { return phase == HostedPhase::Running || phase == HostedPhase::Stopping || phase == HostedPhase::Paused; }
};

inline std::string_view hostedPhaseName(HostedPhase phase) {
    switch (phase) {
    case HostedPhase::Setup: return "setup";
    case HostedPhase::Running: return "running";
    case HostedPhase::Stopping: return "stopping";
    case HostedPhase::Paused: return "paused";
    case HostedPhase::Stopped: return "stopped";
    case HostedPhase::Finished: return "finished";
    }
    return "setup";
}

} // namespace chaiba::play
