// Catalog and key check state. Callbacks hold a weak flag so a destroyed catalog is never touched.
#include "src/llm/model_catalog.h"

#include "src/llm/assets.h"

namespace chaiba::llm {

void ModelCatalog::refresh(OpenRouterClient& client) {
    if (state_ == State::Loading) return;
    state_ = State::Loading;
    std::weak_ptr<bool> alive = alive_;
    client.fetchModels([this, alive](Result<std::vector<ModelInfo>> r) {
        if (alive.expired()) return;
        if (r.isOk()) {
            models_ = std::move(*r.value);
            error_.clear();
            state_ = State::Ready;
        } else {
            error_ = r.error;
            state_ = State::Failed; // the previous list, if any, stays
        }
    });
}

const ModelInfo* ModelCatalog::find(const std::string& id) const {
    for (const ModelInfo& m : models_)
        if (m.id == id) return &m;
    return nullptr;
}

std::vector<const ModelInfo*> ModelCatalog::withTools() const {
    std::vector<const ModelInfo*> out;
    for (const ModelInfo& m : models_)
        if (m.supportsTools) out.push_back(&m);
    return out;
}

std::vector<std::string> ModelCatalog::defaultSelection(const DefaultModels& defaults) const {
    std::vector<std::string> out;
    for (const std::string& id : defaults.models)
        if (models_.empty() || find(id)) out.push_back(id);
    if (out.empty()) out.push_back(defaults.lastResort);
    return out;
}

void KeyCheck::check(OpenRouterClient& client) {
    state_ = State::Checking;
    std::weak_ptr<bool> alive = alive_;
    client.checkKey([this, alive](Result<KeyInfo> r) {
        if (alive.expired()) return;
        if (r.isOk()) {
            info_ = std::move(r.value);
            error_.clear();
            state_ = State::Valid;
        } else {
            info_.reset();
            error_ = r.error;
            state_ = State::Invalid;
        }
    });
}

} // namespace chaiba::llm
