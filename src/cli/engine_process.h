// A UCI engine in a child process (fork/exec, pipes; POSIX, native CLI only), used by
// `chaiba calibrate` to play our levels against stockfish.
#pragma once

#include <optional>
#include <string>
#include <sys/types.h>

namespace chaiba::cli {

class EngineProcess {
public:
    EngineProcess() = default;
    ~EngineProcess();
    EngineProcess(const EngineProcess&) = delete;
    EngineProcess& operator=(const EngineProcess&) = delete;

    // Starts the program; an error message on failure.
    std::optional<std::string> start(const std::string& path);
    bool send(const std::string& line);
    // The next line (without newline); nothing on EOF or when `timeoutMs` passes.
    std::optional<std::string> readLine(int timeoutMs);
    // Reads until a line starting with `prefix`; returns that line, or nothing on EOF / timeout.
    std::optional<std::string> waitFor(const std::string& prefix, int timeoutMs);
    void stop();

private:
    pid_t pid_ = -1;
    int toChild_ = -1;
    int fromChild_ = -1;
    std::string buffer_;
};

} // namespace chaiba::cli
