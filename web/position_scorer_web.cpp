// WorkerPositionScorer: one request at a time to a pool worker; the reply "whiteCp mateIn
// terminal depth nodes" after the id and "ok" (engine_worker.cpp).
#include "web/position_scorer_web.h"

#include <emscripten.h>

#include <algorithm>
#include <iterator>

namespace chaiba::web {

namespace {

unsigned long long gRequestsSent = 0;

EM_JS(int, js_hardware_concurrency, (), { return (navigator && navigator.hardwareConcurrency) || 2; });

} // namespace

bool WorkerPositionScorer::ready() const {
    if (call_.busy()) return false;
    static const int cores = std::max(1, js_hardware_concurrency());
    return WorkerPool::instance().busy() < std::max(1, cores - 1);
}

unsigned long long WorkerPositionScorer::requestsSent() { return gRequestsSent; }

double WorkerPositionScorer::shareWhileGamesRun() { return js_hardware_concurrency() < 4 ? 0.25 : 1.0; }

void WorkerPositionScorer::request(const chessmode::ScoreRequest& request, Callback callback) {
    ++gRequestsSent;
    std::string body = request.startFen + "\n" + (request.chess960 ? "960" : "std") + "\n" +
                       std::to_string(request.budget.maxDepth) + " " + std::to_string(request.budget.maxNodes) + " " +
                       std::to_string(request.budget.hashMb) + "\n";
    for (size_t i = 0; i < request.uciMoves.size(); ++i) body += (i ? " " : "") + request.uciMoves[i];
    call_.send("engine_analyse_position", body,
               [callback = std::move(callback)](std::istringstream* in, const std::string& error) {
                   chessmode::ScoreReply reply;
                   if (!in) {
                       reply.error = error;
                   } else {
                       int terminal = 0;
                       *in >> reply.eval.whiteCp >> reply.eval.mateIn >> terminal >> reply.eval.depth >> reply.eval.nodes;
                       reply.eval.terminal = terminal != 0;
                       reply.ok = static_cast<bool>(*in);
                       if (!reply.ok) reply.error = "the engine worker sent a malformed analysis reply";
                   }
                   if (callback) callback(reply);
               });
}

void WorkerBootstrapRunner::run(const std::string& job, Callback callback) {
    call_.send("engine_bootstrap_ratings", job,
               [callback = std::move(callback)](std::istringstream* in, const std::string& error) {
                   if (!callback) return;
                   if (!in) return callback("", error);
                   callback(std::string(std::istreambuf_iterator<char>(*in), std::istreambuf_iterator<char>()), "");
               });
}

} // namespace chaiba::web
