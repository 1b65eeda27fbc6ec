// KeyValueStore over the browser's localStorage. Keys are used as given ("chaiba.*").
#pragma once

#include "src/persist/key_value_store.h"

namespace chaiba::web {

class LocalStorageStore final : public KeyValueStore {
public:
    // False when localStorage is unusable (disabled, private mode quirks): the app then warns
    // that nothing will be kept.
    static bool available();
    // Readable but not writable: full (QuotaExceededError). What is stored is still read; the app
    // says that saving fails instead of starting empty.
    struct Probe {
        bool readable = false;
        bool writable = false;
    };
    static Probe probe();

    std::optional<std::string> get(std::string_view key) const override;
    std::optional<std::string> set(std::string_view key, std::string_view value) override;
    void remove(std::string_view key) override;
};

} // namespace chaiba::web
