// The model-call window of any mode: every call of one or more llm::CallLogs (one player, every
// seat of a table, each turn of a conversation) with its HTTP attempts (request body, response
// text, status, latency), usage and cost. Request bodies never contain the API key (it travels
// only in the Authorization header, which is not recorded).
#pragma once

#include "src/llm/call_log.h"

#include <string>
#include <vector>

namespace chaiba::ui {

struct Fonts;

// One log the window shows: its records and the label its calls are headed with ("" = none).
struct CallSource {
    std::string label;
    const std::vector<llm::CallRecord>* calls = nullptr;
};

struct DebugWindow {
    bool open = false;
    // Said under the totals while there is no call, e.g. why none will come; "" = "No model call yet."
    std::string emptyText;
    // Draws its own window; `calls` and `notes` are the agent's log.
    void DrawWindow(const Fonts& fonts, const char* title, const std::vector<llm::CallRecord>& calls,
                    const std::vector<std::string>& notes, void (*copy)(const std::string&, void*), void* copyArg);
    // The same over several logs, one after the other, each newest first; the totals are of all.
    void DrawWindow(const Fonts& fonts, const char* title, const std::vector<CallSource>& sources,
                    const std::vector<std::string>& notes, void (*copy)(const std::string&, void*),
                    void* copyArg);

private:
    void DrawCall(const Fonts& fonts, const llm::CallRecord& call, const std::string& label,
                  const std::string& item, void (*copy)(const std::string&, void*), void* copyArg);
};

} // namespace chaiba::ui
