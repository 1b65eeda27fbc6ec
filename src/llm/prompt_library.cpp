// The prompt library: shipped texts by name, edits over them, and the edits' JSON.
#include "src/llm/prompt_library.h"

#include <nlohmann/json.hpp>

namespace chaiba::llm {

using nlohmann::json;

namespace {
const std::string kEmpty;
}

Result<PromptLibrary> PromptLibrary::load(const AssetSource& assets, std::string mode,
                                          const std::vector<std::string>& names) {
    PromptLibrary library;
    library.mode_ = std::move(mode);
    for (const std::string& name : names) {
        Result<std::string> text = loadText(assets, library.mode_ + "/" + name);
        if (!text.isOk()) return Result<PromptLibrary>::fail(text.error);
        library.shipped_[name] = std::move(*text.value);
    }
    return Result<PromptLibrary>::ok(std::move(library));
}

std::vector<std::string> PromptLibrary::names() const {
    std::vector<std::string> out;
    for (const auto& [name, text] : shipped_) out.push_back(name);
    return out;
}

const std::string& PromptLibrary::text(std::string_view name) const {
    if (auto it = edits_.find(name); it != edits_.end()) return it->second;
    return shipped(name);
}

const std::string& PromptLibrary::shipped(std::string_view name) const {
    auto it = shipped_.find(name);
    return it == shipped_.end() ? kEmpty : it->second;
}

std::optional<std::string> PromptLibrary::edit(std::string_view name, std::string text) {
    auto it = shipped_.find(name);
    if (it == shipped_.end()) return "no prompt named '" + std::string(name) + "' in " + mode_;
    if (text.size() > kMaxTextBytes)
        return "the text of " + std::string(name) + " is " + std::to_string(text.size() / 1024) +
               " KiB; at most " + std::to_string(kMaxTextBytes / 1024) + " KiB are kept";
    if (text == it->second) {
        reset(name);
        return std::nullopt;
    }
    edits_[std::string(name)] = std::move(text);
    return std::nullopt;
}

void PromptLibrary::reset(std::string_view name) {
    if (auto it = edits_.find(name); it != edits_.end()) edits_.erase(it);
}

std::string PromptLibrary::editsJson() const {
    json edits = json::object();
    for (const auto& [name, text] : edits_) edits[name] = text;
    return json{{"version", 1}, {"edits", edits}}.dump();
}

std::vector<std::string> PromptLibrary::loadEditsJson(std::string_view text) {
    std::vector<std::string> warnings;
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("edits") || !doc["edits"].is_object()) {
        warnings.push_back("the stored prompt edits of " + mode_ + " are unreadable; the shipped prompts are used");
        return warnings;
    }
    for (const auto& [name, value] : doc["edits"].items()) {
        if (!value.is_string()) {
            warnings.push_back("the stored edit of " + name + " is not text; the shipped prompt is used");
            continue;
        }
        if (auto error = edit(name, value.get<std::string>()))
            warnings.push_back("a stored prompt edit was dropped: " + *error);
    }
    return warnings;
}

} // namespace chaiba::llm
