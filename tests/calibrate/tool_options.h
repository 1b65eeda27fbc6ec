// The calibration tools' command lines: "--name value" pairs, --help. Each option is handed to
// `take(name, value, number)` (number: the value read as an integer, 0 if it is not one), which
// says whether it knows the option. Returns the exit code when the tool should stop (help: 0, a
// missing value or an unknown option: 2, with the usage on stderr), else nothing.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace chaiba::calibrate {

template <class Take>
std::optional<int> readOptions(int argc, char** argv, const char* usage, Take take) {
    for (int i = 1; i < argc; ++i) {
        const std::string k = argv[i];
        if (k == "--help" || k == "-h") {
            std::fputs(usage, stdout);
            return 0;
        }
        if (i + 1 >= argc) {
            std::fprintf(stderr, "error: %s needs a value\n%s", k.c_str(), usage);
            return 2;
        }
        const std::string v = argv[++i];
        if (!take(k, v, std::strtoll(v.c_str(), nullptr, 0))) {
            std::fprintf(stderr, "error: unknown option %s\n%s", k.c_str(), usage);
            return 2;
        }
    }
    return std::nullopt;
}

} // namespace chaiba::calibrate
