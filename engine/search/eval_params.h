// The full evaluation's numbers (levels 8 and up, kFeatureFullEval): piece-square tables with the
// material in them, and the weights of its extra terms, each a middle-game and an end-game value.
// Two sets: the hand-set ones (PeSTO's tables and common-practice terms, eval_params.cpp) and the
// ones fitted to positions labelled by stockfish (kFeatureTunedEval; tests/calibrate/texel_tune.cpp
// writes eval_params_tuned.cpp). The PeSTO evaluation of levels 1-7 reads neither.
#pragma once

#include <array>
#include <cstdint>

namespace chaiba::search {

struct EvalParams {
    // material + square bonus for a White piece on a square (a1 = 0), pawn..king
    std::array<std::array<int16_t, 64>, 6> pstMg{};
    std::array<std::array<int16_t, 64>, 6> pstEg{};
    int bishopPairMg = 0, bishopPairEg = 0;
    // per safe square a knight, bishop, rook, queen attacks beyond kMobilityCentre (evaluation.cpp)
    std::array<int, 4> mobilityMg{}, mobilityEg{};
    std::array<int, 8> passedMg{}, passedEg{}; // by relative rank (0 = own back rank)
    int doubledMg = 0, doubledEg = 0;
    int isolatedMg = 0, isolatedEg = 0;
    int rookOpenMg = 0, rookOpenEg = 0;
    int rookSemiOpenMg = 0, rookSemiOpenEg = 0;
    int shieldMg = 0, shieldEg = 0; // per own pawn in front of the king
    int kingDangerScale = 64;       // the king-zone attack penalty times scale / 64 (middle game)
};

const EvalParams& handSetEvalParams();
const EvalParams& tunedEvalParams();

} // namespace chaiba::search
