// The screens' shared helper for the automation API's arguments.
#include "src/ui/screen.h"

#include <nlohmann/json.hpp>

namespace chaiba::ui {

std::string documentArgument(std::string_view argumentJson) {
    const nlohmann::json value = nlohmann::json::parse(argumentJson, nullptr, false);
    if (!value.is_discarded() && value.is_string()) return value.get<std::string>();
    return std::string(argumentJson);
}

} // namespace chaiba::ui
