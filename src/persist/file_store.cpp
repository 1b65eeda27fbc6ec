// FileStore: a JSON object of strings in one file, written atomically (temp file + rename).
#include "src/persist/file_store.h"

#include "src/persist/bounded_read.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <system_error>

namespace chaiba {

FileStore::FileStore(std::filesystem::path path) : path_(std::move(path)) {
    std::error_code ec;
    if (!std::filesystem::exists(path_, ec)) return;
    const persist::ReadResult read = persist::readFileBounded(path_.string(), persist::kMaxConfigBytes);
    if (!read.ok()) {
        loadError_ = read.error;
        return;
    }
    nlohmann::json doc = nlohmann::json::parse(read.text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        loadError_ = path_.string() + " is not a JSON object; kept as " + path_.string() + ".corrupt";
        std::filesystem::copy_file(path_, path_.string() + ".corrupt",
                                   std::filesystem::copy_options::overwrite_existing, ec);
        return;
    }
    for (auto it = doc.begin(); it != doc.end(); ++it) {
        if (it.value().is_string()) values_[it.key()] = it.value().get<std::string>();
    }
}

std::optional<std::string> FileStore::get(std::string_view key) const {
    auto it = values_.find(std::string(key));
    if (it == values_.end()) return std::nullopt;
    return it->second;
}

std::optional<std::string> FileStore::set(std::string_view key, std::string_view value) {
    values_[std::string(key)] = std::string(value);
    return flush();
}

void FileStore::remove(std::string_view key) {
    if (values_.erase(std::string(key)) > 0) flush();
}

std::optional<std::string> FileStore::flush() {
    nlohmann::json doc = nlohmann::json::object();
    for (const auto& [key, value] : values_) doc[key] = value;
    std::error_code ec;
    if (path_.has_parent_path()) std::filesystem::create_directories(path_.parent_path(), ec);
    const std::filesystem::path temp = path_.string() + ".tmp";
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out) return "cannot write " + temp.string();
        out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        if (!out) return "cannot write " + temp.string();
    }
    std::filesystem::rename(temp, path_, ec);
    if (ec) return "cannot replace " + path_.string() + ": " + ec.message();
    return std::nullopt;
}

} // namespace chaiba
