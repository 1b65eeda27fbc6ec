// The UCI protocol over any pair of streams, so tests can hold a conversation in-process.
// Commands are read on the caller's thread; `go` searches on a second thread so that `stop`,
// `isready` and `quit` are answered while it thinks (threads live here, never in engine/).
#pragma once

#include "engine/chess/position.h"
#include "engine/search/search.h"

#include <atomic>
#include <iosfwd>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace chaiba::cli {

class UciSession {
public:
    explicit UciSession(std::ostream& out);
    ~UciSession(); // stops and joins a running search

    // Handles one command line; false after `quit`.
    bool handleLine(const std::string& line);
    // Blocks until the running search (if any) has printed its bestmove; `go infinite` is
    // stopped first.
    void finishSearch();

private:
    void send(const std::string& text);
    void setOption(const std::string& line);
    void setPosition(const std::string& line);
    void go(const std::string& line);
    void stopSearch();

    std::ostream& out_;
    std::mutex outMutex_;
    chess::Position position_;
    std::vector<uint64_t> history_; // hashes of the positions before position_ (repetitions)
    bool chess960_ = false;
    int level_ = 0; // set to the strongest level in the constructor
    std::size_t hashMb_ = 16;
    bool levelResizedHash_ = false; // a weakened level reset the table to its own size
    uint64_t seed_ = 1;
    search::Searcher searcher_;
    std::thread worker_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> infinite_{false};
};

// Reads commands from `in` until `quit` or end of input, then finishes the running search.
int runUci(std::istream& in, std::ostream& out);

} // namespace chaiba::cli
