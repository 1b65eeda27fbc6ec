// Prompts as data, per mode: the shipped texts of assets/<mode>/... loaded by name, and the
// person's edits laid over them (editable and resettable one by one). The edits travel as a small
// JSON object the app stores under the mode's own key; a shipped text is never changed.
#pragma once

#include "src/llm/assets.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::llm {

class PromptLibrary {
public:
    // Longest edit kept (a strategy document is a few pages; a longer paste is refused).
    static constexpr std::size_t kMaxTextBytes = 64 * 1024;

    // Reads each name as "<mode>/<name>" (e.g. mode "werewolf", name "strategies/seer.md"); every
    // file must exist. The error names the first that does not.
    static Result<PromptLibrary> load(const AssetSource& assets, std::string mode, const std::vector<std::string>& names);

    const std::string& mode() const { return mode_; }
    std::vector<std::string> names() const;
    bool has(std::string_view name) const { return shipped_.find(name) != shipped_.end(); }
    // The edit if there is one, else the shipped text ("" for an unknown name).
    const std::string& text(std::string_view name) const;
    const std::string& shipped(std::string_view name) const;
    bool edited(std::string_view name) const { return edits_.find(name) != edits_.end(); }

    // An edit equal to the shipped text is no edit. Errors: an unknown name, a text too long.
    std::optional<std::string> edit(std::string_view name, std::string text);
    void reset(std::string_view name);
    void resetAll() { edits_.clear(); }

    // The edits as {"version": 1, "edits": {name: text}}; reading skips unknown names and bad
    // values with one warning each (a stored edit of a prompt that no longer ships is dropped).
    std::string editsJson() const;
    std::vector<std::string> loadEditsJson(std::string_view json);

private:
    std::string mode_;
    std::map<std::string, std::string, std::less<>> shipped_;
    std::map<std::string, std::string, std::less<>> edits_;
};

} // namespace chaiba::llm
