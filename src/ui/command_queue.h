// Changes a click asks for, applied between frames: draw code walks a mode's state by reference,
// so a button that replaces that state (a branch, an edit that rebuilds the plan) posts its change
// here and the screen runs the queue at the start of its next tick, when nothing points into it.
// Dear ImGui's own rule: widgets say what happened; the caller changes state afterwards.
#pragma once

#include <functional>
#include <utility>
#include <vector>

namespace chaiba::ui {

class CommandQueue {
public:
    // Queues a change; it runs at the next run(), in the order posted.
    void post(std::function<void()> change) { pending_.push_back(std::move(change)); }
    // Runs what was queued (a change that posts another runs that one at the next call), and
    // returns how many ran.
    std::size_t run() {
        std::vector<std::function<void()>> now;
        now.swap(pending_);
        for (auto& change : now) change();
        return now.size();
    }
    bool empty() const { return pending_.empty(); }

private:
    std::vector<std::function<void()>> pending_;
};

} // namespace chaiba::ui
