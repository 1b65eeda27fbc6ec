// Helpers shared by the built-in engine's tests (search, levels, node clock).
#pragma once

#include "engine/search/board_glue.h"

#include <doctest/doctest.h>
#include <string>

namespace chaiba::test {

// A position from FEN through the search's glue; the test stops with the parser's message if the
// FEN is bad.
inline chess::Position searchPosition(const std::string& fen, bool chess960 = false) {
    std::string error;
    auto p = search::glue::positionFromFen(fen, chess960, error);
    REQUIRE_MESSAGE(p.has_value(), error);
    return *p;
}

} // namespace chaiba::test
