// Asset loading: whole files, trailing whitespace trimmed, the tool schema validated once here.
#include "src/llm/assets.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <optional>
#include <utility>

namespace chaiba::llm {

using nlohmann::json;

namespace {
std::string trimEnd(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\t'))
        s.pop_back();
    return s;
}
} // namespace

Result<std::string> loadText(const AssetSource& assets, std::string_view path) {
    Result<std::string> r = assets.read(path);
    if (!r.isOk()) return r;
    return Result<std::string>::ok(trimEnd(std::move(*r.value)));
}

Result<ToolDefinition> loadTool(const AssetSource& assets, std::string_view pathView) {
    const std::string path(pathView);
    Result<std::string> tool = assets.read(path);
    if (!tool.isOk()) return Result<ToolDefinition>::fail(tool.error);
    const json doc = json::parse(*tool.value, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return Result<ToolDefinition>::fail(path + " is not JSON");
    auto name = doc.find("name");
    auto description = doc.find("description");
    auto parameters = doc.find("parameters");
    if (name == doc.end() || !name->is_string() || description == doc.end() || !description->is_string() ||
        parameters == doc.end() || !parameters->is_object())
        return Result<ToolDefinition>::fail(path + " needs name, description and parameters");
    ToolDefinition out;
    out.name = name->get<std::string>();
    out.description = description->get<std::string>();
    out.parametersJson = parameters->dump();
    return Result<ToolDefinition>::ok(std::move(out));
}

Result<std::string> DirectoryAssetSource::read(std::string_view path) const {
    if (path.find("..") != std::string_view::npos)
        return Result<std::string>::fail("asset path escapes the root");
    const std::string full = root_ + "/" + std::string(path);
    std::FILE* f = std::fopen(full.c_str(), "rb");
    if (!f) return Result<std::string>::fail("cannot read asset " + full);
    std::string text;
    char buffer[4096];
    for (;;) {
        const std::size_t n = std::fread(buffer, 1, sizeof buffer, f);
        text.append(buffer, n);
        if (n < sizeof buffer) break;
    }
    const bool failed = std::ferror(f) != 0;
    std::fclose(f);
    if (failed) return Result<std::string>::fail("error reading asset " + full);
    return Result<std::string>::ok(std::move(text));
}

Result<std::string> MemoryAssetSource::read(std::string_view path) const {
    auto it = files_.find(path);
    if (it == files_.end()) return Result<std::string>::fail("no asset " + std::string(path));
    return Result<std::string>::ok(it->second);
}

Result<DefaultModels> loadDefaultModels(const AssetSource& assets) {
    Result<std::string> text = assets.read("models/default_models.json");
    if (!text.isOk()) return Result<DefaultModels>::fail(text.error);
    const json doc = json::parse(*text.value, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return Result<DefaultModels>::fail("default_models.json is not JSON");
    DefaultModels d;
    if (auto models = doc.find("models"); models != doc.end() && models->is_array())
        for (const json& m : *models)
            if (m.is_string() && !m.get<std::string>().empty()) d.models.push_back(m.get<std::string>());
    if (auto last = doc.find("lastResort");
        last != doc.end() && last->is_string() && !last->get<std::string>().empty())
        d.lastResort = last->get<std::string>();
    if (d.models.empty()) return Result<DefaultModels>::fail("default_models.json lists no models");
    return Result<DefaultModels>::ok(std::move(d));
}

std::string fillTemplate(std::string_view text, const std::map<std::string, std::string>& values) {
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        if (text[i] == '{') {
            const std::size_t close = text.find('}', i + 1);
            if (close != std::string_view::npos) {
                auto it = values.find(std::string(text.substr(i + 1, close - i - 1)));
                if (it != values.end()) {
                    out += it->second;
                    i = close + 1;
                    continue;
                }
            }
        }
        out += text[i++];
    }
    return out;
}

} // namespace chaiba::llm
