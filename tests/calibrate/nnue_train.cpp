// A small evaluation network fitted to labelled positions (texel_gen's files: FEN;CP_WHITE;RESULT).
// The network: 768 inputs (colour relative to the perspective, piece, square mirrored for Black),
// H hidden units a perspective sharing their weights, clipped to [0, 1], then one output from the
// side to move's units and the other side's, in centipawns. Loss: squared error between
// sigmoid(out / S) and sigmoid(cp / S) blended with the game's result (--result-weight).
// Writes the weights as text: H, then the input weights (768 x H), the hidden biases (H), the
// output weights (2H) and the output bias, floats.
#include "engine/chess/position.h"
#include "engine/search/evaluation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int kInputs = 768;
constexpr float kScale = 200.0f;

struct Sample {
    uint16_t features[2][32]; // [perspective: side to move, other][feature]
    uint8_t count = 0;
    float target = 0.5f;
    float base = 0.0f; // the hand-written evaluation (side to move), when the net learns a correction
};
bool gBase = false; // --base: the net's output is added to the full evaluation

// index of a piece for a perspective: own/enemy, type, square (mirrored for Black)
int featureOf(int perspective, int color, int type, int square) {
    const int sq = perspective == 0 ? square : square ^ 56;
    return (color == perspective ? 0 : 384) + type * 64 + sq;
}

bool parseLine(const std::string& line, float resultWeight, Sample& s) {
    const auto a = line.find(';');
    if (a == std::string::npos) return false;
    const auto b = line.find(';', a + 1);
    if (b == std::string::npos) return false;
    const std::string fen = line.substr(0, a);
    const int cpWhite = std::atoi(line.c_str() + a + 1);
    const float resultWhite = static_cast<float>(std::atof(line.c_str() + b + 1));
    int rank = 7, file = 0;
    std::size_t i = 0;
    int n = 0;
    for (; i < fen.size() && fen[i] != ' '; ++i) {
        const char c = fen[i];
        if (c == '/') {
            --rank;
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
        } else {
            const char* kinds = "pnbrqk";
            const char* p = std::strchr(kinds, c | 0x20);
            if (!p || n >= 32) return false;
            const int type = static_cast<int>(p - kinds);
            const int color = (c >= 'a') ? 1 : 0;
            const int sq = rank * 8 + file;
            s.features[0][n] = static_cast<uint16_t>(featureOf(0, color, type, sq));
            s.features[1][n] = static_cast<uint16_t>(featureOf(1, color, type, sq));
            ++n;
            ++file;
        }
    }
    if (i + 1 >= fen.size()) return false;
    const bool white = fen[i + 1] == 'w';
    s.count = static_cast<uint8_t>(n);
    if (!white) // perspectives: [0] is the side to move
        for (int k = 0; k < n; ++k) std::swap(s.features[0][k], s.features[1][k]);
    const float cp = static_cast<float>(white ? cpWhite : -cpWhite);
    const float result = white ? resultWhite : 1.0f - resultWhite;
    if (gBase) {
        const auto parsed = chaiba::chess::Position::fromFen(fen, false);
        if (!parsed.ok()) return false;
        s.base = static_cast<float>(
            chaiba::search::evaluate(*parsed.position, chaiba::search::EvalTerms::FullKing));
    }
    s.target = (1.0f - resultWeight) / (1.0f + std::exp(-cp / kScale)) + resultWeight * result;
    return true;
}

struct Net {
    int h = 128;
    std::vector<float> w1, b1, w2;
    float b2 = 0;
    explicit Net(int hidden) : h(hidden), w1(kInputs * hidden), b1(hidden), w2(2 * hidden) {}
    std::size_t size() const { return w1.size() + b1.size() + w2.size() + 1; }
};

struct Grad {
    std::vector<float> w1, b1, w2;
    float b2 = 0;
    double loss = 0;
    explicit Grad(const Net& n) : w1(n.w1.size()), b1(n.b1.size()), w2(n.w2.size()) {}
    void clear() {
        std::fill(w1.begin(), w1.end(), 0.0f);
        std::fill(b1.begin(), b1.end(), 0.0f);
        std::fill(w2.begin(), w2.end(), 0.0f);
        b2 = 0;
        loss = 0;
    }
};

float forward(const Net& net, const Sample& s, std::vector<float>& acc) {
    const int h = net.h;
    for (int p = 0; p < 2; ++p) {
        float* a = acc.data() + p * h;
        std::copy(net.b1.begin(), net.b1.end(), a);
        for (int k = 0; k < s.count; ++k) {
            const float* w = net.w1.data() + static_cast<std::size_t>(s.features[p][k]) * h;
            for (int j = 0; j < h; ++j) a[j] += w[j];
        }
    }
    float out = net.b2 + s.base;
    for (int j = 0; j < 2 * h; ++j) out += net.w2[j] * std::clamp(acc[j], 0.0f, 1.0f);
    return out;
}

void accumulate(const Net& net, const Sample& s, std::vector<float>& acc, Grad& g) {
    const int h = net.h;
    const float out = forward(net, s, acc);
    const float pred = 1.0f / (1.0f + std::exp(-out / kScale));
    const float err = pred - s.target;
    g.loss += static_cast<double>(err) * err;
    const float dOut = 2.0f * err * pred * (1.0f - pred) / kScale;
    g.b2 += dOut;
    for (int p = 0; p < 2; ++p) {
        const float* a = acc.data() + p * h;
        const float* w2 = net.w2.data() + p * h;
        float* gw2 = g.w2.data() + p * h;
        // dAcc for units inside the clip
        float dAcc[1024];
        for (int j = 0; j < h; ++j) {
            const float act = std::clamp(a[j], 0.0f, 1.0f);
            gw2[j] += dOut * act;
            dAcc[j] = (a[j] > 0.0f && a[j] < 1.0f) ? dOut * w2[j] : 0.0f;
        }
        for (int j = 0; j < h; ++j) g.b1[j] += dAcc[j];
        for (int k = 0; k < s.count; ++k) {
            float* gw = g.w1.data() + static_cast<std::size_t>(s.features[p][k]) * h;
            for (int j = 0; j < h; ++j) gw[j] += dAcc[j];
        }
    }
}

struct Adam {
    std::vector<float> m, v;
    int t = 0;
    void step(std::vector<float>& w, const std::vector<float>& g, float lr, std::size_t offset) {
        const float b1 = 0.9f, b2 = 0.999f, eps = 1e-8f;
        const float c1 = 1.0f - std::pow(b1, static_cast<float>(t)),
                    c2 = 1.0f - std::pow(b2, static_cast<float>(t));
        for (std::size_t i = 0; i < w.size(); ++i) {
            float& mi = m[offset + i];
            float& vi = v[offset + i];
            mi = b1 * mi + (1 - b1) * g[i];
            vi = b2 * vi + (1 - b2) * g[i] * g[i];
            w[i] -= lr * (mi / c1) / (std::sqrt(vi / c2) + eps);
        }
    }
};

std::string summary(const Net& net, std::size_t train, std::size_t held, int epochs, double loss) {
    char text[256];
    std::snprintf(text, sizeof text, "hidden %d, %d more epochs over %zu positions (%zu held out): held-out loss %.6f",
                  net.h, epochs, train + held, held, loss);
    return text;
}

// The engine's weights (engine/search/nnue.cpp reads them): base64 of "CHNN", version 1, H, then
// little-endian int16 w1 [768][H] and b1 [H] (1.0 = 255), w2 [2][H] (1/8 centipawn), int32 b2.
bool writeCpp(const Net& net, const std::string& path, const std::string& about) {
    std::vector<uint8_t> bytes{'C', 'H', 'N', 'N'};
    auto i16 = [&](long v) {
        const auto u = static_cast<uint16_t>(static_cast<int16_t>(v));
        bytes.push_back(static_cast<uint8_t>(u & 0xFF));
        bytes.push_back(static_cast<uint8_t>(u >> 8));
    };
    auto q = [](float x, float scale, float limit) {
        return std::lround(std::clamp(x * scale, -limit, limit));
    };
    i16(1);
    i16(net.h);
    for (float x : net.w1) i16(q(x, 255, 1000));
    for (float x : net.b1) i16(q(x, 255, 1000));
    // |w2| * 255 * 2H stays within int32 (the engine sums in 32 bits)
    const float w2Limit = std::min(32000.0f, 2.0e9f / (255.0f * 2.0f * static_cast<float>(net.h)));
    for (float x : net.w2) i16(q(x, 8, w2Limit));
    const auto b2 = static_cast<uint32_t>(static_cast<int32_t>(std::lround(net.b2)));
    i16(static_cast<int16_t>(b2 & 0xFFFF));
    i16(static_cast<int16_t>(b2 >> 16));
    static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string b64;
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const uint32_t v = (static_cast<uint32_t>(bytes[i]) << 16) |
                           (i + 1 < bytes.size() ? static_cast<uint32_t>(bytes[i + 1]) << 8 : 0u) |
                           (i + 2 < bytes.size() ? bytes[i + 2] : 0u);
        b64 += kAlphabet[(v >> 18) & 63];
        b64 += kAlphabet[(v >> 12) & 63];
        b64 += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
        b64 += i + 2 < bytes.size() ? kAlphabet[v & 63] : '=';
    }
    std::ofstream o(path);
    if (!o) {
        std::fprintf(stderr, "error: cannot write %s\n", path.c_str());
        return false;
    }
    // Chunks of 4 000 characters: compilers cap a string literal's length (MSVC: 16 380).
    o << "// The evaluation network's weights (kFeatureNnue), written by tests/calibrate/nnue_train.cpp\n"
         "// (tests/calibrate/nnue_train.sh); do not edit by hand. RESULTS.md (sitting 17) says how they\n"
         "// were trained and measured.\n// "
      << about
      << "\n\nnamespace chaiba::search {\n\n// clang-format off\nextern const char* const "
         "kNnueWeightsBase64[];\n"
         "const char* const kNnueWeightsBase64[] = {\n";
    int chunks = 0;
    for (std::size_t i = 0; i < b64.size(); i += 4000, ++chunks) {
        o << '"';
        const std::string chunk = b64.substr(i, 4000);
        o << chunk; // one line a chunk: the file is data, not text to read
        o << "\",\n";
    }
    o << "};\n// clang-format on\nextern const int kNnueWeightsChunks;\nconst int kNnueWeightsChunks = "
      << chunks << ";\n\n} // namespace chaiba::search\n";
    std::fprintf(stderr, "wrote %s (%zu bytes of weights)\n", path.c_str(), bytes.size());
    return static_cast<bool>(o);
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> inputs;
    std::string out;
    std::string exportCpp, load;
    int hidden = 128, epochs = 12, batch = 16384;
    float lr = 1e-3f, resultWeight = 0.1f, w2Init = 100.0f;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() { return std::string(i + 1 < argc ? argv[++i] : ""); };
        if (a == "--help" || a == "-h") {
            std::printf("usage: nnue_train FILE... [--base] [--hidden H] [--epochs E] [--batch B] [--lr LR]\n"
                        "                  [--result-weight W] [--w2-init S] [--load NET] [--out NET] "
                        "[--export-cpp FILE]\n"
                        "Fits the evaluation network to FILEs of FEN;CP_WHITE;RESULT lines (texel_gen's, or "
                        "relabelled by\n"
                        "nnue_label.py): --base adds its output to the full evaluation (what the engine "
                        "plays), --load starts\n"
                        "from a saved network, --out saves it as text, --export-cpp writes "
                        "engine/search/nnue_weights.cpp.\n");
            return 0;
        } else if (a == "--out")
            out = next();
        else if (a == "--hidden")
            hidden = std::atoi(next().c_str());
        else if (a == "--epochs")
            epochs = std::atoi(next().c_str());
        else if (a == "--batch")
            batch = std::atoi(next().c_str());
        else if (a == "--lr")
            lr = static_cast<float>(std::atof(next().c_str()));
        else if (a == "--base")
            gBase = true;
        else if (a == "--export-cpp")
            exportCpp = next();
        else if (a == "--load")
            load = next();
        else if (a == "--w2-init")
            w2Init = static_cast<float>(std::atof(next().c_str()));
        else if (a == "--result-weight")
            resultWeight = static_cast<float>(std::atof(next().c_str()));
        else
            inputs.push_back(a);
    }
    if (!exportCpp.empty() && !gBase) {
        std::fprintf(
            stderr, "error: the engine adds the network to the full evaluation: --export-cpp needs --base\n");
        return 2;
    }
    std::ifstream loaded;
    if (!load.empty()) {
        loaded.open(load);
        if (!(loaded >> hidden)) {
            std::fprintf(stderr, "error: cannot read %s\n", load.c_str());
            return 1;
        }
    }
    if (hidden < 8 || hidden > 1024) {
        std::fprintf(stderr, "error: --hidden must be 8-1024\n");
        return 2;
    }
    if (batch < 1 || epochs < 0 || !(lr > 0)) {
        std::fprintf(stderr, "error: --batch must be at least 1, --epochs at least 0, --lr above 0\n");
        return 2;
    }
    std::vector<Sample> data;
    for (const auto& f : inputs) {
        std::ifstream in(f);
        if (!in) {
            std::fprintf(stderr, "error: cannot read %s\n", f.c_str());
            return 1;
        }
        std::string line;
        long bad = 0;
        while (std::getline(in, line)) {
            Sample s;
            if (parseLine(line, resultWeight, s))
                data.push_back(s);
            else
                ++bad;
        }
        std::fprintf(stderr, "%s: %zu positions so far, %ld unreadable lines\n", f.c_str(), data.size(), bad);
    }
    if (data.size() < 1000) {
        std::fprintf(stderr, "error: too few positions\n");
        return 1;
    }
    std::mt19937_64 rng(12345);
    std::shuffle(data.begin(), data.end(), rng);
    const std::size_t holdout = data.size() / 20;
    std::vector<Sample> valid(data.end() - static_cast<long>(holdout), data.end());
    data.resize(data.size() - holdout);

    Net net(hidden);
    std::normal_distribution<float> init(0.0f, 0.05f);
    for (auto& w : net.w1) w = init(rng) * 0.5f;
    for (auto& b : net.b1) b = 0.25f;
    std::normal_distribution<float> init2(0.0f, w2Init / std::sqrt(static_cast<float>(hidden)));
    for (auto& w : net.w2) w = init2(rng);
    if (loaded.is_open()) {
        for (auto* v : {&net.w1, &net.b1, &net.w2})
            for (auto& x : *v) loaded >> x;
        if (!(loaded >> net.b2)) {
            std::fprintf(stderr, "error: %s is short\n", load.c_str());
            return 1;
        }
    }
    Adam adam;
    adam.m.assign(net.size(), 0.0f);
    adam.v.assign(net.size(), 0.0f);
    const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::vector<Grad> grads(static_cast<std::size_t>(threads), Grad(net));
    std::vector<std::vector<float>> accs(static_cast<std::size_t>(threads), std::vector<float>(2 * hidden));

    auto validLoss = [&]() {
        double loss = 0;
        std::vector<float> acc(2 * hidden);
        for (const auto& s : valid) {
            const float o = forward(net, s, acc);
            const float p = 1.0f / (1.0f + std::exp(-o / kScale));
            loss += (p - s.target) * (p - s.target);
        }
        return loss / static_cast<double>(valid.size());
    };
    std::fprintf(stderr, "%zu training, %zu held out; hidden %d; start held-out loss %.6f\n", data.size(),
                 valid.size(), hidden, validLoss());
    for (int e = 0; e < epochs; ++e) {
        std::shuffle(data.begin(), data.end(), rng);
        const float epochLr = lr * (e >= epochs * 3 / 4 ? 0.1f : e >= epochs / 2 ? 0.3f : 1.0f);
        double trainLoss = 0;
        for (std::size_t start = 0; start < data.size(); start += static_cast<std::size_t>(batch)) {
            const std::size_t end = std::min(data.size(), start + static_cast<std::size_t>(batch));
            std::vector<std::thread> pool;
            for (int t = 0; t < threads; ++t)
                pool.emplace_back([&, t]() {
                    Grad& g = grads[static_cast<std::size_t>(t)];
                    g.clear();
                    for (std::size_t i = start + static_cast<std::size_t>(t); i < end;
                         i += static_cast<std::size_t>(threads))
                        accumulate(net, data[i], accs[static_cast<std::size_t>(t)], g);
                });
            for (auto& th : pool) th.join();
            Grad& g = grads[0];
            for (int t = 1; t < threads; ++t) {
                const Grad& o = grads[static_cast<std::size_t>(t)];
                for (std::size_t i = 0; i < g.w1.size(); ++i) g.w1[i] += o.w1[i];
                for (std::size_t i = 0; i < g.b1.size(); ++i) g.b1[i] += o.b1[i];
                for (std::size_t i = 0; i < g.w2.size(); ++i) g.w2[i] += o.w2[i];
                g.b2 += o.b2;
                g.loss += o.loss;
            }
            trainLoss += g.loss;
            const float inv = 1.0f / static_cast<float>(end - start);
            for (auto& x : g.w1) x *= inv;
            for (auto& x : g.b1) x *= inv;
            for (auto& x : g.w2) x *= inv;
            ++adam.t;
            adam.step(net.w1, g.w1, epochLr, 0);
            adam.step(net.b1, g.b1, epochLr, net.w1.size());
            adam.step(net.w2, g.w2, epochLr, net.w1.size() + net.b1.size());
            std::vector<float> b2{net.b2}, gb2{g.b2 * inv};
            adam.step(b2, gb2, epochLr, net.w1.size() + net.b1.size() + net.w2.size());
            net.b2 = b2[0];
        }
        std::fprintf(stderr, "epoch %d: lr %.5f, train loss %.6f, held-out loss %.6f\n", e + 1, epochLr,
                     trainLoss / static_cast<double>(data.size()), validLoss());
    }
    if (!exportCpp.empty() && !writeCpp(net, exportCpp,
                                        (load.empty() ? std::string() : "loaded from " + load + ", then ") +
                                            summary(net, data.size(), valid.size(), epochs, validLoss())))
        return 1;
    if (out.empty()) return 0;
    std::ofstream o(out);
    o << hidden << '\n';
    o.precision(7);
    for (float x : net.w1) o << x << ' ';
    o << '\n';
    for (float x : net.b1) o << x << ' ';
    o << '\n';
    for (float x : net.w2) o << x << ' ';
    o << '\n' << net.b2 << '\n';
    std::fprintf(stderr, "wrote %s\n", out.c_str());
    return 0;
}
