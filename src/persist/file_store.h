// KeyValueStore persisted as one JSON object in a file (native builds: the CLI's settings).
// A missing file is an empty store; a corrupt one is reported, set aside as <file>.corrupt, and
// replaced on the next write, so nothing the user had is silently destroyed.
#pragma once

#include "src/persist/key_value_store.h"

#include <filesystem>
#include <map>
#include <string>

namespace chaiba {

class FileStore final : public KeyValueStore {
public:
    explicit FileStore(std::filesystem::path path);

    // Non-empty when the file existed but could not be read or parsed.
    const std::string& loadError() const { return loadError_; }

    std::optional<std::string> get(std::string_view key) const override;
    std::optional<std::string> set(std::string_view key, std::string_view value) override;
    void remove(std::string_view key) override;

private:
    std::optional<std::string> flush();

    std::filesystem::path path_;
    std::map<std::string, std::string> values_;
    std::string loadError_;
};

} // namespace chaiba
