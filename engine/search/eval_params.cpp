// The full evaluation's hand-set numbers: PeSTO's tables and terms after common practice (Chess
// Programming Wiki, PeSTO-based engines). texel_tune starts from them.
#include "engine/search/eval_params.h"

#include "engine/search/pesto_tables.h"

namespace chaiba::search {

namespace {
EvalParams build() {
    EvalParams p;
    p.pstMg = pestoTables().middleGame;
    p.pstEg = pestoTables().endGame;
    p.bishopPairMg = 25;
    p.bishopPairEg = 45;
    p.mobilityMg = {4, 5, 2, 1};
    p.mobilityEg = {4, 5, 4, 2};
    p.passedMg = {0, 2, 4, 8, 15, 30, 50, 0};
    p.passedEg = {0, 5, 8, 15, 30, 55, 90, 0};
    p.doubledMg = -10;
    p.doubledEg = -20;
    p.isolatedMg = -10;
    p.isolatedEg = -12;
    p.rookOpenMg = 25;
    p.rookOpenEg = 10;
    p.rookSemiOpenMg = 12;
    p.rookSemiOpenEg = 6;
    p.shieldMg = 12;
    p.shieldEg = 0;
    p.kingDangerScale = 64;
    return p;
}
} // namespace

const EvalParams& handSetEvalParams() {
    static const EvalParams params = build();
    return params;
}

} // namespace chaiba::search
