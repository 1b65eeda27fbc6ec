// How the chess commands (play, arena) ask the models: the flags, worded once for their --help,
// and their reading into the settings the player factory takes.
#pragma once

#include "src/cli/args.h"
#include "src/modes/chess/chess_settings.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace chaiba::cli {

inline std::vector<Option> chessCallOptions() {
    return {{"retries", "N", "retries after an invalid or missing move, 0-10 (default 3)"},
            {"legal-moves", "", "send the legal moves with each turn"},
            {"no-context", "", "do not send the FEN and move history each turn"},
            {"no-fen-on-error", "", "do not send the FEN after an invalid move"},
            {"temperature", "T", "sampling temperature, 0-2 (default: the model's)"},
            {"max-tokens", "N", "answer token limit, 0-200000 (default 0: the model's)"},
            {"reasoning", "EFFORT", "reasoning effort: minimal, low, medium or high (default: the model's)"}};
}

// A command's usage with these options after its own.
inline Usage withChessCallOptions(Usage usage) {
    const std::vector<Option> more = chessCallOptions();
    usage.options.insert(usage.options.end(), more.begin(), more.end());
    return usage;
}

// The flags of chessCallOptions into `settings`; prints the error and returns false on a bad value
// (a bad integer is the Args' error, which the caller reports).
inline bool readChessCallFlags(Args& args, chessmode::ChessPlaySettings& settings) {
    settings.retryAttempts = static_cast<int>(args.integer("retries", 3, 0, 10));
    settings.sendLegalMoves = args.has("legal-moves");
    settings.sendContextMessage = !args.has("no-context");
    settings.sendFenOnError = !args.has("no-fen-on-error");
    settings.maxTokens = static_cast<int>(args.integer("max-tokens", 0, 0, 200000));
    if (auto t = args.value("temperature")) {
        char* end = nullptr;
        const double value = std::strtod(t->c_str(), &end);
        if (end == t->c_str() || *end != '\0' || !(value >= 0 && value <= 2)) {
            std::fprintf(stderr, "error: --temperature must be a number from 0 to 2, got '%s'\n", t->c_str());
            return false;
        }
        settings.temperature = value;
    }
    if (auto effort = args.value("reasoning")) {
        bool known = false;
        for (llm::ReasoningEffort e : {llm::ReasoningEffort::Minimal, llm::ReasoningEffort::Low,
                                       llm::ReasoningEffort::Medium, llm::ReasoningEffort::High})
            if (*effort == llm::effortName(e)) {
                settings.reasoningEffort = e;
                known = true;
            }
        if (!known) {
            std::fprintf(stderr, "error: --reasoning must be minimal, low, medium or high\n");
            return false;
        }
    }
    return true;
}

// Whether any of them was given (a resumed tournament keeps its own).
inline bool anyChessCallFlag(const Args& args) {
    for (const Option& o : chessCallOptions())
        if (args.has(o.name)) return true;
    return false;
}

} // namespace chaiba::cli
