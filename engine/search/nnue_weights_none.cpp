// No evaluation network: the page's copy of the engine (web/web.cmake) does not search, and the
// network's weights (nnue_weights.cpp, 260 KB) would be a sixth of its download. nnueHidden() is 0
// here and the search ignores kFeatureNnue; the engine worker and the native builds have the weights.

namespace chaiba::search {

extern const char* const kNnueWeightsBase64[];
const char* const kNnueWeightsBase64[] = {""};
extern const int kNnueWeightsChunks;
const int kNnueWeightsChunks = 0;

} // namespace chaiba::search
