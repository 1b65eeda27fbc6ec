// The model catalog (GET /models), cached until refreshed, and the key check (GET /key): what
// the settings panel and the model pickers read. Loading never blocks; see OpenRouterClient.
#pragma once

#include "src/llm/assets.h"
#include "src/llm/openrouter_client.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace chaiba::llm {

class ModelCatalog {
public:
    enum class State { Empty, Loading, Ready, Failed };

    // Starts a fetch unless one is running; the cached list stays readable meanwhile.
    void refresh(OpenRouterClient& client);
    State state() const { return state_; }
    const std::string& error() const { return error_; }
    const std::vector<ModelInfo>& models() const { return models_; }
    const ModelInfo* find(const std::string& id) const;
    // Models that take tools (the agent's preferred mode), in catalog order.
    std::vector<const ModelInfo*> withTools() const;

    // The models to offer when the user selected none: the shipped defaults that the catalog
    // knows (all of them while it is not loaded), else the last resort.
    std::vector<std::string> defaultSelection(const DefaultModels& defaults) const;

private:
    State state_ = State::Empty;
    std::string error_;
    std::vector<ModelInfo> models_;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

// The key check's state for the settings panel.
class KeyCheck {
public:
    enum class State { Unknown, Checking, Valid, Invalid };
    void check(OpenRouterClient& client);
    State state() const { return state_; }
    const std::optional<KeyInfo>& info() const { return info_; }
    const std::string& error() const { return error_; }

private:
    State state_ = State::Unknown;
    std::optional<KeyInfo> info_;
    std::string error_;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

} // namespace chaiba::llm
