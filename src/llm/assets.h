// Data files of every mode (prompts, tool schemas, default models: assets/<mode>/...), read through
// an AssetSource: a directory natively, the preloaded virtual filesystem on the web, memory in tests.
#pragma once

#include "src/llm/chat.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::llm {

class AssetSource {
public:
    virtual ~AssetSource() = default;
    // path is relative to the assets root, e.g. "<mode>/prompts/system.md".
    virtual Result<std::string> read(std::string_view path) const = 0;
};

// Files under a root directory (native: the source tree's assets/; web: "/assets" in the
// preloaded filesystem — same code, since emscripten's FS serves fopen()).
class DirectoryAssetSource final : public AssetSource {
public:
    explicit DirectoryAssetSource(std::string root) : root_(std::move(root)) {}
    Result<std::string> read(std::string_view path) const override;

private:
    std::string root_;
};

class MemoryAssetSource final : public AssetSource {
public:
    void set(std::string path, std::string text) { files_[std::move(path)] = std::move(text); }
    Result<std::string> read(std::string_view path) const override;

private:
    std::map<std::string, std::string, std::less<>> files_;
};

// A text asset with trailing whitespace trimmed (prompt templates: "<mode>/prompts/<name>.md").
Result<std::string> loadText(const AssetSource& assets, std::string_view path);
// A tool schema file {name, description, parameters} ("<mode>/tools/<name>.json"), validated.
Result<ToolDefinition> loadTool(const AssetSource& assets, std::string_view path);

// The shipped default model list and its last-resort model ("openai/gpt-4o").
struct DefaultModels {
    std::vector<std::string> models;
    std::string lastResort = "openai/gpt-4o";
};
Result<DefaultModels> loadDefaultModels(const AssetSource& assets);

// Replaces each {key} by its value; unknown {words} stay as written.
std::string fillTemplate(std::string_view text, const std::map<std::string, std::string>& values);

} // namespace chaiba::llm
