// fork/exec with two pipes; see engine_process.h.
#include "src/cli/engine_process.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace chaiba::cli {

EngineProcess::~EngineProcess() {
    stop();
}

std::optional<std::string> EngineProcess::start(const std::string& path) {
    int in[2];
    int out[2];
    if (pipe(in) != 0 || pipe(out) != 0) return std::string("pipe failed: ") + std::strerror(errno);
    pid_ = fork();
    if (pid_ < 0) return std::string("fork failed: ") + std::strerror(errno);
    if (pid_ == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        execl(path.c_str(), path.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    toChild_ = in[1];
    fromChild_ = out[0];
    signal(SIGPIPE, SIG_IGN);
    // Stockfish loads its network before it answers: seconds on a busy machine (niced beside a
    // build, it took more than 5), so the wait is generous; a program that never answers still fails.
    if (!send("uci") || !waitFor("uciok", 30000))
        return "'" + path + "' did not answer 'uci' with 'uciok' within 30 s";
    return std::nullopt;
}

bool EngineProcess::send(const std::string& line) {
    if (toChild_ < 0) return false;
    const std::string text = line + "\n";
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = write(toChild_, text.data() + done, text.size() - done);
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

std::optional<std::string> EngineProcess::readLine(int timeoutMs) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (true) {
        const auto nl = buffer_.find('\n');
        if (nl != std::string::npos) {
            std::string line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return line;
        }
        if (fromChild_ < 0) return std::nullopt;
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
                .count();
        if (left <= 0) return std::nullopt;
        pollfd p{fromChild_, POLLIN, 0};
        if (poll(&p, 1, static_cast<int>(left)) <= 0) continue;
        char chunk[4096];
        const ssize_t n = read(fromChild_, chunk, sizeof chunk);
        if (n <= 0) return std::nullopt;
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }
}

std::optional<std::string> EngineProcess::waitFor(const std::string& prefix, int timeoutMs) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (true) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
                .count();
        if (left <= 0) return std::nullopt;
        auto line = readLine(static_cast<int>(left));
        if (!line) return std::nullopt;
        if (line->rfind(prefix, 0) == 0) return line;
    }
}

void EngineProcess::stop() {
    if (pid_ <= 0) return;
    send("quit");
    if (toChild_ >= 0) close(toChild_);
    toChild_ = -1;
    int status = 0;
    for (int i = 0; i < 50; ++i) {
        if (waitpid(pid_, &status, WNOHANG) == pid_) break;
        usleep(10000);
        if (i == 49) {
            kill(pid_, SIGKILL);
            waitpid(pid_, &status, 0);
        }
    }
    if (fromChild_ >= 0) close(fromChild_);
    fromChild_ = -1;
    pid_ = -1;
}

} // namespace chaiba::cli
