// zlib inflate after RFC 1951's description (canonical Huffman codes decoded a bit length at a
// time, as zlib's "puff" reference decoder does): small and fast enough for a card's few KiB.
#include "src/modes/story/zlib_inflate.h"

#include <array>
#include <cstdint>

namespace chaiba::story {

namespace {

// Reads the stream's bits least significant first; `failed` once past its end.
struct BitReader {
    std::string_view in;
    std::size_t at = 0;
    std::uint32_t buffer = 0;
    int count = 0;
    bool failed = false;

    int bits(int need) {
        std::uint32_t value = buffer;
        while (count < need) {
            if (at >= in.size()) {
                failed = true;
                return 0;
            }
            value |= static_cast<std::uint32_t>(static_cast<unsigned char>(in[at++])) << count;
            count += 8;
        }
        buffer = value >> need;
        count -= need;
        return static_cast<int>(value & ((1u << need) - 1));
    }
};

constexpr int kMaxBits = 15;

// A canonical Huffman code: how many codes of each length, and the symbols in code order.
struct Huffman {
    std::array<short, kMaxBits + 1> counts{};
    std::array<short, 288> symbols{};
};

// Builds the code from each symbol's length; false when the lengths over-subscribe the code (an
// incomplete code is allowed: a single distance code is).
bool build(Huffman& h, const short* lengths, int n) {
    h.counts.fill(0);
    for (int s = 0; s < n; ++s) ++h.counts[static_cast<std::size_t>(lengths[s])];
    if (h.counts[0] == n) return true; // no codes: a block that uses none is fine
    int left = 1;
    for (int len = 1; len <= kMaxBits; ++len) {
        left = left * 2 - h.counts[static_cast<std::size_t>(len)];
        if (left < 0) return false;
    }
    std::array<short, kMaxBits + 1> offsets{};
    for (int len = 1; len < kMaxBits; ++len)
        offsets[static_cast<std::size_t>(len + 1)] =
            static_cast<short>(offsets[static_cast<std::size_t>(len)] + h.counts[static_cast<std::size_t>(len)]);
    for (int s = 0; s < n; ++s)
        if (lengths[s] != 0) h.symbols[static_cast<std::size_t>(offsets[static_cast<std::size_t>(lengths[s])]++)] = static_cast<short>(s);
    return true;
}

// The next symbol, or -1 on a code the table does not hold (or the end of the input).
int decode(BitReader& in, const Huffman& h) {
    int code = 0, first = 0, index = 0;
    for (int len = 1; len <= kMaxBits; ++len) {
        code |= in.bits(1);
        if (in.failed) return -1;
        const int count = h.counts[static_cast<std::size_t>(len)];
        if (code - count < first) return h.symbols[static_cast<std::size_t>(index + (code - first))];
        index += count;
        first = (first + count) << 1;
        code <<= 1;
    }
    return -1;
}

constexpr std::array<short, 29> kLengthBase{3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                            31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::array<short, 29> kLengthExtra{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                             2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::array<short, 30> kDistBase{1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
                                          193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr std::array<short, 30> kDistExtra{0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                           6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

struct Inflater {
    BitReader in;
    std::string out;
    std::size_t maxBytes = 0;
    std::string error;

    bool fail(std::string why) {
        if (error.empty()) error = std::move(why);
        return false;
    }

    bool codes(const Huffman& lengths, const Huffman& distances) {
        for (;;) {
            const int symbol = decode(in, lengths);
            if (symbol < 0) return fail(in.failed ? "it ends inside a block" : "a length code it does not define");
            if (symbol < 256) {
                if (out.size() >= maxBytes) return fail("it inflates past the limit");
                out.push_back(static_cast<char>(symbol));
                continue;
            }
            if (symbol == 256) return true;
            const int l = symbol - 257;
            if (l >= 29) return fail("a length code past 285");
            const std::size_t length = static_cast<std::size_t>(kLengthBase[static_cast<std::size_t>(l)] +
                                                                in.bits(kLengthExtra[static_cast<std::size_t>(l)]));
            const int d = decode(in, distances);
            if (d < 0 || d >= 30) return fail(in.failed ? "it ends inside a block" : "a distance code it does not define");
            const std::size_t distance = static_cast<std::size_t>(kDistBase[static_cast<std::size_t>(d)] +
                                                                  in.bits(kDistExtra[static_cast<std::size_t>(d)]));
            if (in.failed) return fail("it ends inside a block");
            if (distance > out.size()) return fail("a distance before the start of the data");
            if (out.size() + length > maxBytes) return fail("it inflates past the limit");
            for (std::size_t i = 0; i < length; ++i) out.push_back(out[out.size() - distance]);
        }
    }

    bool stored() {
        in.buffer = 0; // to the byte boundary
        in.count = 0;
        if (in.at + 4 > in.in.size()) return fail("it ends inside a stored block's header");
        const auto byte = [&](std::size_t i) { return static_cast<unsigned>(static_cast<unsigned char>(in.in[i])); };
        const unsigned len = byte(in.at) | byte(in.at + 1) << 8, nlen = byte(in.at + 2) | byte(in.at + 3) << 8;
        if (len != (~nlen & 0xFFFFu)) return fail("a stored block's length fails its check");
        in.at += 4;
        if (in.at + len > in.in.size()) return fail("it ends inside a stored block");
        if (out.size() + len > maxBytes) return fail("it inflates past the limit");
        out.append(in.in.substr(in.at, len));
        in.at += len;
        return true;
    }

    bool fixed() {
        static const std::pair<Huffman, Huffman> tables = [] {
            std::pair<Huffman, Huffman> t;
            std::array<short, 288> lengths{};
            for (int s = 0; s < 288; ++s) lengths[static_cast<std::size_t>(s)] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
            build(t.first, lengths.data(), 288);
            std::array<short, 30> distances{};
            distances.fill(5);
            build(t.second, distances.data(), 30);
            return t;
        }();
        return codes(tables.first, tables.second);
    }

    bool dynamic() {
        const int nlen = in.bits(5) + 257, ndist = in.bits(5) + 1, ncode = in.bits(4) + 4;
        if (in.failed) return fail("it ends inside a block header");
        if (nlen > 286 || ndist > 30) return fail("a block header with too many codes");
        static constexpr std::array<int, 19> kOrder{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
        std::array<short, 320> lengths{};
        for (int i = 0; i < ncode; ++i) lengths[static_cast<std::size_t>(kOrder[static_cast<std::size_t>(i)])] = static_cast<short>(in.bits(3));
        Huffman code;
        if (in.failed || !build(code, lengths.data(), 19)) return fail("a block's code-length code is invalid");
        for (int i = 0; i < nlen + ndist;) {
            int symbol = decode(in, code);
            if (symbol < 0) return fail("a block's code lengths are invalid");
            if (symbol < 16) {
                lengths[static_cast<std::size_t>(i++)] = static_cast<short>(symbol);
                continue;
            }
            short repeat = 0;
            int times = 0;
            if (symbol == 16) {
                if (i == 0) return fail("a repeat with no length before it");
                repeat = lengths[static_cast<std::size_t>(i - 1)];
                times = 3 + in.bits(2);
            } else {
                times = symbol == 17 ? 3 + in.bits(3) : 11 + in.bits(7);
            }
            if (in.failed || i + times > nlen + ndist) return fail("a block's code lengths run past their count");
            while (times-- > 0) lengths[static_cast<std::size_t>(i++)] = repeat;
        }
        if (lengths[256] == 0) return fail("a block without an end code");
        Huffman literal, distance;
        if (!build(literal, lengths.data(), nlen) || !build(distance, lengths.data() + nlen, ndist))
            return fail("a block's Huffman code is over-subscribed");
        return codes(literal, distance);
    }
};

std::uint32_t adler32(std::string_view data) {
    std::uint32_t a = 1, b = 0;
    for (const char c : data) {
        a = (a + static_cast<unsigned char>(c)) % 65521u;
        b = (b + a) % 65521u;
    }
    return b << 16 | a;
}

} // namespace

llm::Result<std::string> zlibInflate(std::string_view stream, std::size_t maxBytes) {
    using R = llm::Result<std::string>;
    if (stream.size() < 6) return R::fail("the compressed text is too short to be a zlib stream");
    const unsigned cmf = static_cast<unsigned char>(stream[0]), flg = static_cast<unsigned char>(stream[1]);
    if ((cmf & 0x0F) != 8 || (cmf >> 4) > 7 || (cmf << 8 | flg) % 31 != 0)
        return R::fail("the compressed text is not a zlib deflate stream (bad header)");
    if (flg & 0x20) return R::fail("the compressed text needs a preset dictionary, which PNG does not allow");
    Inflater inflater;
    inflater.in.in = stream.substr(2);
    inflater.maxBytes = maxBytes;
    for (bool last = false; !last;) {
        last = inflater.in.bits(1) == 1;
        const int type = inflater.in.bits(2);
        if (inflater.in.failed) return R::fail("the compressed text is truncated");
        const bool ok = type == 0 ? inflater.stored() : type == 1 ? inflater.fixed() : type == 2 ? inflater.dynamic()
                                                                                                 : inflater.fail("a block of the reserved type 3");
        if (!ok) return R::fail("the compressed text does not inflate: " + inflater.error);
    }
    const std::size_t tail = inflater.in.at;
    if (tail + 4 > inflater.in.in.size()) return R::fail("the compressed text is truncated before its checksum");
    std::uint32_t stored = 0;
    for (int i = 0; i < 4; ++i)
        stored = stored << 8 | static_cast<unsigned char>(inflater.in.in[tail + static_cast<std::size_t>(i)]);
    if (stored != adler32(inflater.out)) return R::fail("the compressed text fails its Adler-32 check");
    return R::ok(std::move(inflater.out));
}

} // namespace chaiba::story
