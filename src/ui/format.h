// Screen logic kept outside ImGui so it is unit-tested natively: stepping through a history
// (MoveNavigator), the formatting of elapsed time, costs and token counts, and the theme names.
#pragma once

#include <cstdint>
#include <string>

namespace chaiba {

enum class Theme { Light, Dark };
const char* themeName(Theme theme);

// Which position the board shows: a ply of the game (0 = the start position) or "live" (the
// newest position, following new moves as they arrive).
class MoveNavigator {
public:
    // The game now has `plies` half-moves; a live view follows, a fixed view stays (clamped).
    void setPlyCount(int plies);
    int plyCount() const { return plies_; }
    int viewPly() const { return live_ ? plies_ : viewPly_; }
    bool isLive() const { return live_; }

    void select(int ply);  // selecting the last ply goes live
    void stepBack();
    void stepForward();
    void toStart();
    void goLive();

private:
    int plies_ = 0;
    int viewPly_ = 0;
    bool live_ = true;
};

// "0.4 s", "12 s", "1:05", "1:02:03" (elapsed thinking time).
std::string formatElapsed(double ms);
// "$0", "<$0.0001", "$0.0012", "$0.42", "$12.30".
std::string formatCost(double usd);
// "0", "950", "1.2k", "12k", "1.5M".
std::string formatTokens(uint64_t tokens);

} // namespace chaiba
