// The chess mode sits on the LLM core and the play layer: their names are visible unqualified in
// chessmode (the chess agent speaks ChatRequest and Usage; the arena schedules play::Pairing).
#pragma once

namespace chaiba::llm {}
namespace chaiba::play {}

namespace chaiba::chessmode {
using namespace chaiba::llm;
using namespace chaiba::play;
} // namespace chaiba::chessmode
