// The evaluation network: weights decoded once from nnue_weights.cpp; see nnue.h.
#include "engine/search/nnue.h"

#include "engine/search/board_glue.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace chaiba::search {

// nnue_weights.cpp: base64 of "CHNN" 1 H, then little-endian int16 w1 [768][H], b1 [H], w2 [2][H]
// and int32 b2 (the quantisation below).
extern const char* const kNnueWeightsBase64[];
extern const int kNnueWeightsChunks;

namespace {

constexpr int kQa = 255; // first layer: 1.0 = 255
constexpr int kQb = 8;   // output weights: 1/8 centipawn per 1.0 of a unit

struct Net {
    int hidden = 0;
    std::vector<int16_t> w1, b1, w2;
    int32_t b2 = 0;
};

[[noreturn]] void corrupt(const char* what) {
    // The weights are compiled in: a bad blob is a build error, never user input.
    std::fprintf(stderr, "nnue: compiled-in weights are corrupt (%s)\n", what);
    std::abort();
}

std::vector<uint8_t> decodeBase64() {
    static constexpr std::string_view kAlphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::vector<uint8_t> out;
    uint32_t bits = 0;
    int count = 0;
    for (int c = 0; c < kNnueWeightsChunks; ++c)
        for (const char* p = kNnueWeightsBase64[c]; *p; ++p) {
            if (*p == '=') continue;
            const auto at = kAlphabet.find(*p);
            if (at == std::string_view::npos) corrupt("not base64");
            bits = (bits << 6) | static_cast<uint32_t>(at);
            count += 6;
            if (count >= 8) {
                count -= 8;
                out.push_back(static_cast<uint8_t>(bits >> count));
            }
        }
    return out;
}

Net load() {
    if (kNnueWeightsChunks == 0) return Net{}; // a build without the network (nnue_weights_none.cpp)
    const std::vector<uint8_t> bytes = decodeBase64();
    std::size_t at = 0;
    auto i16 = [&]() {
        if (at + 2 > bytes.size()) corrupt("short");
        const auto v = static_cast<int16_t>(bytes[at] | (bytes[at + 1] << 8));
        at += 2;
        return v;
    };
    if (bytes.size() < 8 || std::memcmp(bytes.data(), "CHNN", 4) != 0) corrupt("no header");
    at = 4;
    if (i16() != 1) corrupt("unknown version");
    Net n;
    n.hidden = i16();
    if (n.hidden < 16 || n.hidden > kNnueMaxHidden || n.hidden % 16 != 0) corrupt("hidden size");
    const auto h = static_cast<std::size_t>(n.hidden);
    n.w1.resize(768 * h);
    n.b1.resize(h);
    n.w2.resize(2 * h);
    for (auto& w : n.w1) w = i16();
    for (auto& b : n.b1) b = i16();
    for (auto& w : n.w2) w = i16();
    const uint32_t lo = static_cast<uint16_t>(i16()), hi = static_cast<uint16_t>(i16());
    n.b2 = static_cast<int32_t>(lo | (hi << 16));
    if (at != bytes.size()) corrupt("trailing bytes");
    return n;
}

const Net& net() {
    static const Net n = load();
    return n;
}

inline int featureOf(int view, int color, int piece, int square) {
    return (color == view ? 0 : 384) + piece * 64 + (view == 0 ? square : square ^ 56);
}

// Eight units at a time with the compiler's vector types (GCC's and Clang's: SSE2 natively, simd128
// in the engine worker, built with -msimd128): plain loops vectorised natively but not in WASM,
// where the network made level 9's search 2.3 times slower than without it (RESULTS.md, sitting 17).
using V16 = int16_t __attribute__((vector_size(16)));
using V32 = int32_t __attribute__((vector_size(32)));

inline V16 load(const int16_t* p) {
    V16 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

inline void store(int16_t* p, V16 v) {
    std::memcpy(p, &v, sizeof v);
}

inline void addRow(int16_t* a, const int16_t* w, int h) {
    for (int j = 0; j < h; j += 8) store(a + j, load(a + j) + load(w + j));
}

} // namespace

int nnueHidden() {
    return net().hidden;
}

NnueDelta nnueDelta(const chess::Position& before, chess::Move m) {
    NnueDelta d;
    auto put = [](uint8_t(&slot)[3], int color, int piece, int square) {
        slot[0] = static_cast<uint8_t>(color);
        slot[1] = static_cast<uint8_t>(piece);
        slot[2] = static_cast<uint8_t>(square);
    };
    const chess::Square from = m.from(), to = m.to();
    const chess::Piece piece = before.pieceOn(from);
    const int us = static_cast<int>(chess::colorOf(piece));
    const int type = chess::index(chess::typeOf(piece)) - 1;
    if (m.isCastling()) { // the king takes its own rook (Chess960's encoding)
        const int rank = us == 0 ? 0 : 56;
        const bool kingSide = to > from;
        put(d.sub[d.subs++], us, 5, from);
        put(d.sub[d.subs++], us, 3, to);
        put(d.add[d.adds++], us, 5, rank + (kingSide ? 6 : 2));
        put(d.add[d.adds++], us, 3, rank + (kingSide ? 5 : 3));
        return d;
    }
    put(d.sub[d.subs++], us, type, from);
    const int capSq = m.isEnPassant() ? (us == 0 ? to - 8 : to + 8) : to;
    const chess::Piece captured = before.pieceOn(static_cast<chess::Square>(capSq));
    if (captured != chess::Piece::None)
        put(d.sub[d.subs++], static_cast<int>(chess::colorOf(captured)),
            chess::index(chess::typeOf(captured)) - 1, capSq);
    put(d.add[d.adds++], us, m.isPromotion() ? chess::index(m.promotion()) - 1 : type, to);
    return d;
}

void nnueRefresh(const chess::Position& position, NnueAccumulator& acc) {
    const Net& n = net();
    const int h = n.hidden;
    for (int v = 0; v < 2; ++v) std::copy(n.b1.begin(), n.b1.end(), acc.v[v]);
    glue::forEachPiece(position, [&](int color, int piece, int square) {
        for (int v = 0; v < 2; ++v)
            addRow(acc.v[v], n.w1.data() + static_cast<std::size_t>(featureOf(v, color, piece, square)) * h,
                   h);
    });
}

void nnueApply(const NnueAccumulator& from, const NnueDelta& delta, NnueAccumulator& to) {
    const Net& n = net();
    const int h = n.hidden;
    for (int v = 0; v < 2; ++v) {
        // One pass over the units: the rows a move adds and removes (2 to 4) summed in registers.
        const int16_t* rows[4];
        for (int k = 0; k < delta.adds; ++k) {
            const uint8_t* f = delta.add[k];
            rows[k] = n.w1.data() + static_cast<std::size_t>(featureOf(v, f[0], f[1], f[2])) * h;
        }
        for (int k = 0; k < delta.subs; ++k) {
            const uint8_t* f = delta.sub[k];
            rows[delta.adds + k] = n.w1.data() + static_cast<std::size_t>(featureOf(v, f[0], f[1], f[2])) * h;
        }
        const int16_t* src = from.v[v];
        int16_t* dst = to.v[v];
        for (int j = 0; j < h; j += 8) {
            V16 x = load(src + j);
            for (int k = 0; k < delta.adds; ++k) x += load(rows[k] + j);
            for (int k = delta.adds; k < delta.adds + delta.subs; ++k) x -= load(rows[k] + j);
            store(dst + j, x);
        }
    }
}

int nnueOutput(const NnueAccumulator& acc, int sideToMove) {
    const Net& n = net();
    const int h = n.hidden;
    int32_t sum = 0;
    for (int p = 0; p < 2; ++p) {
        const int16_t* a = acc.v[p == 0 ? sideToMove : sideToMove ^ 1];
        const int16_t* w = n.w2.data() + static_cast<std::size_t>(p) * h;
        // Clipped to [0, 255], times the output weights, summed: in pairs of lanes by one
        // instruction where there is one (the same integer sum in any order).
#if defined(__wasm_simd128__)
        const v128_t zero = wasm_i16x8_splat(0), top = wasm_i16x8_splat(kQa);
        v128_t sums = wasm_i32x4_splat(0);
        for (int j = 0; j < h; j += 8) {
            const v128_t x = wasm_i16x8_min(wasm_i16x8_max(wasm_v128_load(a + j), zero), top);
            sums = wasm_i32x4_add(sums, wasm_i32x4_dot_i16x8(x, wasm_v128_load(w + j)));
        }
        sum += wasm_i32x4_extract_lane(sums, 0) + wasm_i32x4_extract_lane(sums, 1) +
               wasm_i32x4_extract_lane(sums, 2) + wasm_i32x4_extract_lane(sums, 3);
#elif defined(__SSE2__)
        const __m128i zero = _mm_setzero_si128(), top = _mm_set1_epi16(kQa);
        __m128i sums = _mm_setzero_si128();
        for (int j = 0; j < h; j += 8) {
            const __m128i x = _mm_min_epi16(
                _mm_max_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + j)), zero), top);
            sums = _mm_add_epi32(sums,
                                 _mm_madd_epi16(x, _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + j))));
        }
        alignas(16) int32_t lanes[4];
        _mm_store_si128(reinterpret_cast<__m128i*>(lanes), sums);
        sum += lanes[0] + lanes[1] + lanes[2] + lanes[3];
#else
        const V16 zero = {}, top = zero + static_cast<int16_t>(kQa);
        V32 sums = {};
        for (int j = 0; j < h; j += 8) {
            V16 x = load(a + j);
            x &= x > zero; // max(x, 0): comparisons give all ones or zero a lane
            const V16 over = x - top;
            x -= over & (over > zero); // min(x, 255)
            sums += __builtin_convertvector(x, V32) * __builtin_convertvector(load(w + j), V32);
        }
        for (int k = 0; k < 8; ++k) sum += sums[k];
#endif
    }
    return n.b2 + sum / (kQa * kQb);
}

int nnueEvaluate(const chess::Position& position) {
    NnueAccumulator acc;
    nnueRefresh(position, acc);
    return nnueOutput(acc, glue::sideIndex(position));
}

} // namespace chaiba::search
