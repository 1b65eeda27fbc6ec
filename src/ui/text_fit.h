// Text that must fit a width: cut with "…" at the end, or first shortened by dropping a provider
// prefix ("openai/gpt-4o" -> "gpt-4o"). Draws straight into a draw list and builds no strings, so
// grids and tables can call it for every cell of every frame.
#pragma once

#include <imgui.h>

#include <string>

namespace chaiba::ui {

// Width of [begin, end) (end = nullptr: up to the terminating zero) in `font` at `size` pixels.
float textWidth(ImFont* font, float size, const char* begin, const char* end = nullptr);

// Draws [begin, end) at `at`, cut with "…" to fit `maxWidth`. Returns the drawn width and sets
// `truncated` when the text was cut (the caller may then offer a tooltip with all of it).
float fitText(ImDrawList* dl, ImFont* font, float size, ImVec2 at, ImU32 colour, const char* begin,
              const char* end, float maxWidth, bool& truncated);
float fitText(ImDrawList* dl, ImFont* font, float size, ImVec2 at, ImU32 colour, const std::string& text,
              float maxWidth, bool& truncated);

// The part of a model name worth keeping when it does not fit `maxWidth`: after the last '/'
// ("anthropic/claude-3.5-sonnet" -> "claude-3.5-sonnet"); the whole name when it fits or has no
// '/'. Sets `truncated` when it shortened the name.
const char* shortName(ImFont* font, float size, const std::string& name, float maxWidth, bool& truncated);

// A name as an item at the cursor, `width` wide and `height` high (its text `textDy` below the
// top, in the current font and text colour): the provider dropped, then cut with "…", when it
// does not fit; all of it in a tooltip then. Returns true when it was shortened.
bool fittedName(const std::string& name, float width, float height, float textDy = 0.0f);

} // namespace chaiba::ui
