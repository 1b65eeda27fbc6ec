// The model picker every mode seats language models with: a searchable combo over the catalog's
// models with their prices and tool support, that also takes a model id typed by hand (any
// OpenAI-compatible server has its own names).
#pragma once

#include <string>
#include <vector>

namespace chaiba::ui {

struct ScreenContext;

struct ModelChoice {
    std::string id;
    std::string priceLabel; // "$2.50 / $10 per M" or "" when unknown
    bool tools = true;
};

struct ModelCatalogView {
    std::vector<ModelChoice> models; // the catalog (or the person's default list while it loads)
    std::string catalogStatus;       // "412 models", "loading the catalog…", an error
};

// The shell's catalog as the picker shows it (prices per million tokens), else the default models.
ModelCatalogView modelCatalogView(const ScreenContext& context);

// The combo; true when `model` changed. Sets refreshRequested when the person asks to reload.
bool drawModelCombo(const ModelCatalogView& catalog, const char* id, const char* preview, std::string& model,
                    char* filter, size_t filterSize, bool& refreshRequested);

} // namespace chaiba::ui
