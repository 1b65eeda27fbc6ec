// Static evaluation: tapered PeSTO material + piece-square tables (see pesto_tables.h) plus a
// bishop-pair bonus and a small side-to-move bonus. Centipawns from the side to move's view.
#pragma once

#include "engine/chess/position.h"

namespace chaiba::search {

int evaluate(const chess::Position& position);

} // namespace chaiba::search
