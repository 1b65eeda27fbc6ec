// Data files the agent needs (prompts, the make_move tool schema, default models), read through
// an AssetSource: a directory natively, the preloaded virtual filesystem on the web, memory in tests.
#pragma once

#include "src/agent/chat.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace chaiba::agent {

class AssetSource {
public:
    virtual ~AssetSource() = default;
    // path is relative to the assets root, e.g. "prompts/system_base.md".
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

// The prompt texts and the tool, loaded once. Templates use {placeholders} (see fillTemplate).
struct AgentPrompts {
    std::string systemBase;
    std::string systemWhite;
    std::string systemBlack;
    std::string textMode;
    std::string gameStart;
    std::string gameStartReply;
    std::string context;
    std::string invalidMove;
    std::string noMove;
    std::string drawOffer;         // added to a turn with an open draw offer (tool mode)
    std::string drawOfferText;     // the same for text mode (ACCEPT DRAW / DECLINE DRAW lines)
    std::string drawAnswerInvalid; // feedback on a malformed answer to a draw offer: {reason}
    ToolDefinition makeMove;
    ToolDefinition respondToDraw; // offered only on a turn with an open draw offer
};

// Every file must be present and the tool schema valid; the error names the first that is not.
Result<AgentPrompts> loadAgentPrompts(const AssetSource& assets);

// The shipped default model list and its last-resort model ("openai/gpt-4o").
struct DefaultModels {
    std::vector<std::string> models;
    std::string lastResort = "openai/gpt-4o";
};
Result<DefaultModels> loadDefaultModels(const AssetSource& assets);

// Replaces each {key} by its value; unknown {words} stay as written.
std::string fillTemplate(std::string_view text, const std::map<std::string, std::string>& values);

} // namespace chaiba::agent
