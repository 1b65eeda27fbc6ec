// The arena's opening suite (assets/chess/openings/*.json) as UCI move lists, for the calibration
// tools (selfplay.cpp, texel_gen.cpp): standard library only, header-only, no JSON library.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace chaiba::calibrate {

// Each opening's "moves" array from the suite (a fixed, simple layout); empty when unreadable.
inline std::vector<std::vector<std::string>> readOpenings(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    std::vector<std::vector<std::string>> out;
    for (std::size_t at = text.find("\"moves\""); at != std::string::npos;
         at = text.find("\"moves\"", at + 1)) {
        const std::size_t open = text.find('[', at), close = text.find(']', at);
        if (open == std::string::npos || close == std::string::npos) break;
        std::vector<std::string> line;
        for (std::size_t q = text.find('"', open); q < close; q = text.find('"', q + 1)) {
            const std::size_t end = text.find('"', q + 1);
            line.push_back(text.substr(q + 1, end - q - 1));
            q = end;
        }
        out.push_back(line);
    }
    return out;
}

} // namespace chaiba::calibrate
