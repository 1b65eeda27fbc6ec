// The debug overlay of one LLM player: every model call with its HTTP attempts (request body,
// response text, status, latency), usage and cost. Request bodies never contain the API key (it
// travels only in the Authorization header, which is not recorded).
#pragma once

#include "src/llm/call_log.h"

#include <string>
#include <vector>

namespace chaiba::ui {

struct Fonts;

struct DebugWindow {
    bool open = false;
    // Draws its own window; `calls` and `notes` are the agent's log.
    void DrawWindow(const Fonts& fonts, const char* title, const std::vector<llm::CallRecord>& calls,
                    const std::vector<std::string>& notes, void (*copy)(const std::string&, void*), void* copyArg);
};

} // namespace chaiba::ui
