// The plan graph's names, validation rules and mutations. Every mutation copies the graph, applies
// the change, checks what it can name precisely (missing ids, cycles, transitions) and then runs
// validatePlan on the result, so no mutation can produce a graph that the text format refuses.
#include "src/modes/planner/plan.h"

#include "engine/werewolf/types.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace chaiba::planner {

namespace {

constexpr std::array<std::string_view, 6> kStatusNames = {"planned", "ready",  "running",
                                                          "done",    "failed", "skipped"};
constexpr std::array<std::string_view, 2> kGameNames = {"chess", "werewolf"};
constexpr std::array<std::string_view, 4> kFormatNames = {"arena", "roundrobin", "double-roundrobin",
                                                          "gauntlet"};
constexpr size_t kMaxIdLength = 64;
constexpr int kMaxGames = 10000;
constexpr int kMaxTickerSeconds = 86400;

template <class E, size_t N>
std::optional<E> parseName(const std::array<std::string_view, N>& names, std::string_view text) {
    for (size_t i = 0; i < N; ++i)
        if (names[i] == text) return static_cast<E>(i);
    return std::nullopt;
}

std::string inQuotes(std::string_view s) {
    std::string out(1, '\'');
    out.append(s);
    out += '\'';
    return out;
}
std::string taskPrefix(std::string_view id) {
    return "task " + inQuotes(id) + ": ";
}

bool isIdChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
}

std::optional<std::string> idProblem(std::string_view id) {
    if (id.empty()) return "an id must not be empty";
    if (id.size() > kMaxIdLength) return "id " + inQuotes(id) + " is longer than 64 characters";
    if (id.front() == '.' || id.front() == '-' || id.front() == '_')
        return "id " + inQuotes(id) + " must start with a letter or a digit";
    for (char c : id)
        if (!isIdChar(c)) return "id " + inQuotes(id) + " may only use letters, digits, '_', '-' and '.'";
    return std::nullopt;
}

bool isControl(char c) {
    auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7f;
}

// A problem of a text field: control characters (newlines only where `multiline`), and for
// one-line fields emptiness or surrounding spaces.
std::optional<std::string> textProblem(std::string_view field, std::string_view text, bool multiline) {
    for (char c : text)
        if (isControl(c) && !(multiline && c == '\n'))
            return std::string(field) + (c == '\n' ? " must be one line" : " contains a control character");
    if (multiline) return std::nullopt;
    if (text.empty()) return std::string(field) + " must not be empty";
    if (text.front() == ' ' || text.back() == ' ')
        return std::string(field) + " must not start or end with a space";
    return std::nullopt;
}

bool allDigits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A model seat's id must be in the catalog (when the caller knows one).
std::optional<std::string> modelProblem(const play::SeatSpec& seat, const PlanContext& ctx) {
    if (seat.kind != play::SeatKind::Model || ctx.knows(seat.modelId)) return std::nullopt;
    std::string out = "unknown model " + inQuotes(seat.modelId) + " (not in the model catalog";
    if (ctx.models) { // the closest ids, so the fix is a copy
        std::vector<std::pair<size_t, std::string>> near;
        for (const llm::ModelInfo& m : ctx.models()) near.emplace_back(editDistance(seat.modelId, m.id), m.id);
        std::sort(near.begin(), near.end());
        for (size_t i = 0; i < near.size() && i < 3; ++i)
            out += (i == 0 ? "; did you mean " : i + 1 == std::min<size_t>(near.size(), 3) ? " or " : ", ") +
                   inQuotes(near[i].second);
        if (!near.empty()) out += "? list_models finds others";
    }
    return out + ")";
}

// A werewolf stage's own rules: its seats (bot or a known model, each maybe "*N"), the format, the
// table size and the deal.
std::optional<std::string> werewolfStageProblem(const Stage& stage, const PlanContext& ctx) {
    if (stage.format != StageFormat::Arena)
        return "a werewolf stage uses format arena (the players rotate seats game by game; no pairings)";
    for (const Entrant& e : stage.entrants) {
        if (e.isTop()) continue;
        const play::Parsed<play::SeatEntry> seat = play::parseSeatEntry(e.seat, werewolfStageSeats());
        if (!seat.ok()) return seat.error;
        if (auto problem = modelProblem(seat.value->spec, ctx)) return *problem;
    }
    const int seats = stage.participantCount();
    if (seats < werewolf::kMinSeats || seats > werewolf::kMaxSeats)
        return "a werewolf stage seats " + std::to_string(werewolf::kMinSeats) + " to " +
               std::to_string(werewolf::kMaxSeats) + " players (has " + std::to_string(seats) + ")";
    if (stage.tickerSeconds) return "tempo ticker is for chess stages only (werewolf games run at their own pace)";
    if (auto bad = werewolfRolesProblem(stage.roles, seats)) return *bad;
    return std::nullopt;
}

std::optional<std::string> stageProblem(const PlanGraph& graph, const Task& task, const PlanContext& ctx) {
    const Stage& stage = *task.stage;
    if (stage.game == GameKind::Werewolf) {
        if (auto bad = werewolfStageProblem(stage, ctx)) return bad;
    } else if (!stage.roles.empty() || stage.rules != werewolf::RulesPreset::Balanced) {
        return "roles and rules are for werewolf stages only";
    }
    for (const Entrant& e : stage.entrants) {
        if (e.isTop()) {
            if (e.topK < 1) return "top " + std::to_string(e.topK) + ": K must be at least 1";
            const Task* source = graph.find(e.fromTask);
            if (!source)
                return "stage takes the top " + std::to_string(e.topK) +
                       " of a missing task: " + missingTaskMessage(graph, e.fromTask);
            if (source == &task) return "a stage cannot take the top K of its own task";
            if (!source->stage)
                return "task " + inQuotes(e.fromTask) + " has no stage to rank the top " +
                       std::to_string(e.topK);
            int available = source->stage->rankedCount();
            if (e.topK > available)
                return "top " + std::to_string(e.topK) + " of " + inQuotes(e.fromTask) +
                       ": its stage ranks only " + std::to_string(available) +
                       (source->stage->game == GameKind::Werewolf ? " distinct players" : " participants");
            if (std::find(task.dependsOn.begin(), task.dependsOn.end(), e.fromTask) == task.dependsOn.end())
                return "the stage takes the top " + std::to_string(e.topK) + " of " + inQuotes(e.fromTask) +
                       " so the task must depend on it (add the dependency first)";
            continue;
        }
        if (stage.game == GameKind::Werewolf) continue; // checked above
        const play::Parsed<play::SeatEntry> seat = play::parseSeatEntry(e.seat, chessStageSeats());
        if (!seat.ok()) return seat.error;
        if (auto problem = modelProblem(seat.value->spec, ctx)) return *problem;
    }
    int count = stage.participantCount();
    if (count < 2) return "a stage needs at least 2 participants (has " + std::to_string(count) + ")";
    if (stage.games < 1 || stage.games > kMaxGames)
        return "games must be in 1.." + std::to_string(kMaxGames) + " (is " + std::to_string(stage.games) +
               ")";
    if (stage.tickerSeconds && (*stage.tickerSeconds < 1 || *stage.tickerSeconds > kMaxTickerSeconds))
        return "ticker seconds must be in 1.." + std::to_string(kMaxTickerSeconds);
    if (!std::isfinite(stage.budgetUsd) || stage.budgetUsd < 0)
        return "budget must be a number of USD, 0 or more";
    if (stage.chess960 && stage.game != GameKind::Chess) return "chess960 is for chess stages only";
    return std::nullopt;
}

// A path from `from` to `to` following dependencies (both included), or empty.
std::vector<std::string> dependencyPath(const PlanGraph& graph, std::string_view from, std::string_view to) {
    std::vector<int> parent(graph.tasks.size(), -2);
    int start = graph.indexOf(from);
    if (start < 0) return {};
    std::vector<int> queue{start};
    parent[static_cast<size_t>(start)] = -1;
    for (size_t head = 0; head < queue.size(); ++head) {
        int at = queue[head];
        if (graph.tasks[static_cast<size_t>(at)].id == to) {
            std::vector<std::string> path;
            for (int i = at; i >= 0; i = parent[static_cast<size_t>(i)])
                path.push_back(graph.tasks[static_cast<size_t>(i)].id);
            std::reverse(path.begin(), path.end());
            return path;
        }
        for (const std::string& dep : graph.tasks[static_cast<size_t>(at)].dependsOn) {
            int next = graph.indexOf(dep);
            if (next >= 0 && parent[static_cast<size_t>(next)] == -2) {
                parent[static_cast<size_t>(next)] = at;
                queue.push_back(next);
            }
        }
    }
    return {};
}

PlanResult validated(PlanGraph graph, const PlanContext& ctx) {
    if (auto problem = validatePlan(graph, ctx)) return PlanResult::fail(problem->message);
    return PlanResult::success(std::move(graph));
}

std::string statusList(TaskStatus from) {
    std::string out;
    for (size_t i = 0; i < kStatusNames.size(); ++i)
        if (statusTransitionAllowed(from, static_cast<TaskStatus>(i)))
            out += (out.empty() ? "" : ", ") + std::string(kStatusNames[i]);
    return out.empty() ? "nothing (" + std::string(statusName(from)) + " is final)" : out;
}

} // namespace

std::string_view statusName(TaskStatus status) {
    return kStatusNames[static_cast<size_t>(status)];
}
std::optional<TaskStatus> parseStatus(std::string_view text) {
    return parseName<TaskStatus>(kStatusNames, text);
}
std::string_view gameName(GameKind game) {
    return kGameNames[static_cast<size_t>(game)];
}
std::optional<GameKind> parseGame(std::string_view text) {
    return parseName<GameKind>(kGameNames, text);
}
std::string_view stageFormatName(StageFormat format) {
    return kFormatNames[static_cast<size_t>(format)];
}
std::optional<StageFormat> parseStageFormat(std::string_view text) {
    return parseName<StageFormat>(kFormatNames, text);
}

bool statusTransitionAllowed(TaskStatus from, TaskStatus to) {
    using S = TaskStatus;
    switch (from) {
    case S::Planned: return to == S::Ready || to == S::Skipped;
    case S::Ready: return to == S::Running || to == S::Planned || to == S::Skipped;
    case S::Running: return to == S::Done || to == S::Failed;
    case S::Failed: return to == S::Ready || to == S::Planned || to == S::Skipped;
    case S::Skipped: return to == S::Planned;
    case S::Done: return false;
    }
    return false;
}

bool statusUnblocks(TaskStatus status) {
    return status == TaskStatus::Done || status == TaskStatus::Skipped;
}

play::SeatGrammar chessStageSeats() {
    return {.maxEngineLevel = kMaxEngineLevel};
}

play::SeatGrammar werewolfStageSeats() {
    return {.engine = false, .bot = true, .maxRepeat = werewolf::kMaxSeats};
}

play::SeatGrammar anyStageSeats() {
    // Any level number: the stage's game checks its range.
    return {.bot = true, .maxEngineLevel = 999, .maxRepeat = werewolf::kMaxSeats};
}

std::optional<play::SeatEntry> seatEntry(std::string_view seat) {
    return play::parseSeatEntry(seat, anyStageSeats()).value;
}

std::string tablePlayer(std::string_view seat) {
    std::optional<play::SeatEntry> entry = seatEntry(seat);
    if (!entry) return std::string(seat);
    if (entry->spec.kind == play::SeatKind::Random) entry->spec.kind = play::SeatKind::Bot;
    return entry->spec.text();
}

std::optional<std::string> werewolfRolesProblem(std::string_view roles, int seats) {
    std::vector<werewolf::Role> deal;
    if (roles.empty()) {
        deal = werewolf::defaultRoles(seats);
    } else {
        for (std::string_view item : splitCommas(roles)) {
            const size_t colon = item.find(':');
            const std::optional<werewolf::Role> role = werewolf::parseRole(item.substr(0, colon));
            if (!role)
                return "roles: unknown role " + inQuotes(item.substr(0, colon)) +
                       " (werewolf, seer, doctor, villager; e.g. werewolf:2,seer,doctor,villager:4)";
            int n = 1;
            if (colon != std::string_view::npos) {
                std::string_view count = item.substr(colon + 1);
                if (!allDigits(count) || count.size() > 2 || std::stoi(std::string(count)) < 1)
                    return "roles: " + inQuotes(item) + ": write ROLE:N with N at least 1";
                n = std::stoi(std::string(count));
            }
            deal.insert(deal.end(), size_t(n), *role);
        }
    }
    const werewolf::SetupError bad = werewolf::validateRoles(seats, deal);
    if (bad == werewolf::SetupError::None) return std::nullopt;
    return "roles " + inQuotes(roles.empty() ? "(the default deal)" : roles) + " for " + std::to_string(seats) +
           " seats: " + std::string(werewolf::setupErrorText(bad));
}

int Entrant::count() const {
    if (isTop()) return topK;
    const std::optional<play::SeatEntry> entry = seatEntry(seat);
    return entry ? entry->count : 0;
}

std::string Entrant::text() const {
    return isTop() ? "top " + std::to_string(topK) + " of " + fromTask : seat;
}

Result<Entrant> parseEntrant(std::string_view text) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    if (text.starts_with("top ")) {
        std::string_view rest = text.substr(4);
        size_t space = rest.find(' ');
        std::string_view k = rest.substr(0, space);
        if (space == std::string_view::npos || !rest.substr(space).starts_with(" of ") || !allDigits(k))
            return Result<Entrant>::fail("cannot read " + inQuotes(text) + ": write 'top K of TASK_ID'");
        if (k.size() > 4) return Result<Entrant>::fail("top " + std::string(k) + ": K is too large");
        std::string_view task = rest.substr(space + 4);
        if (auto problem = idProblem(task)) return Result<Entrant>::fail(*problem);
        return Result<Entrant>::success(Entrant::topOf(std::stoi(std::string(k)), std::string(task)));
    }
    if (text.empty()) return Result<Entrant>::fail("an empty participant");
    for (char c : text)
        if (c == ' ' || isControl(c))
            return Result<Entrant>::fail("seat " + inQuotes(text) + " must not contain spaces");
    const play::Parsed<play::SeatEntry> seat = play::parseSeatEntry(text, anyStageSeats());
    if (!seat.ok()) return Result<Entrant>::fail(seat.error + "; a participant may also be 'top K of TASK_ID'");
    return Result<Entrant>::success(Entrant::seatSpec(std::string(text)));
}

int Stage::participantCount() const {
    long long n = 0;
    for (const Entrant& e : entrants) n += e.count();
    return static_cast<int>(std::min<long long>(n, 1 << 30));
}

int Stage::rankedCount() const {
    if (game != GameKind::Werewolf) return participantCount();
    std::set<std::string> players;
    long long n = 0;
    for (const Entrant& e : entrants) {
        if (e.isTop()) {
            n += e.topK;
            continue;
        }
        if (players.insert(tablePlayer(e.seat)).second) ++n;
    }
    return static_cast<int>(std::min<long long>(n, 1 << 30));
}

const Task* PlanGraph::find(std::string_view id) const {
    int i = indexOf(id);
    return i < 0 ? nullptr : &tasks[static_cast<size_t>(i)];
}

int PlanGraph::indexOf(std::string_view id) const {
    for (size_t i = 0; i < tasks.size(); ++i)
        if (tasks[i].id == id) return static_cast<int>(i);
    return -1;
}

double PlanGraph::stageBudgetUsd() const {
    double sum = 0;
    for (const Task& t : tasks)
        if (t.stage) sum += t.stage->budgetUsd;
    return sum;
}

PlanContext PlanContext::withCatalog(std::vector<llm::ModelInfo> catalog) {
    std::set<std::string, std::less<>> ids;
    for (const llm::ModelInfo& m : catalog) ids.insert(m.id);
    PlanContext c = withModels(std::move(ids));
    c.models = [catalog = std::move(catalog)] { return catalog; };
    return c;
}

PlanContext PlanContext::withModels(std::set<std::string, std::less<>> modelIds) {
    PlanContext c;
    c.isKnownModel = [ids = std::move(modelIds)](std::string_view id) { return ids.find(id) != ids.end(); };
    return c;
}

std::optional<PlanProblem> validatePlan(const PlanGraph& graph, const PlanContext& ctx) {
    if (graph.tasks.empty()) return PlanProblem{{}, "the plan has no tasks: its first task is the root"};
    std::set<std::string_view> seen;
    for (const Task& t : graph.tasks) {
        if (auto problem = idProblem(t.id)) return PlanProblem{t.id, *problem};
        if (!seen.insert(t.id).second) return PlanProblem{t.id, "two tasks have the id " + inQuotes(t.id)};
    }
    for (const Task& t : graph.tasks) {
        auto fail = [&](const std::string& message) { return PlanProblem{t.id, taskPrefix(t.id) + message}; };
        if (auto p = textProblem("the name", t.name, false)) return fail(*p);
        if (auto p = textProblem("the description", t.description, true)) return fail(*p);
        for (const std::string& d : t.decisions)
            if (auto p = textProblem("a decision", d, false)) return fail(*p);
        if (t.budgetCapUsd) {
            if (&t != &graph.root()) return fail("only the root task carries a budget cap");
            if (!std::isfinite(*t.budgetCapUsd) || *t.budgetCapUsd < 0)
                return fail("the budget cap must be a number of USD, 0 or more");
        }
        std::set<std::string_view> deps;
        for (const std::string& dep : t.dependsOn) {
            if (dep == t.id) return fail("a task cannot depend on itself");
            if (!graph.find(dep)) return fail("depends on a missing task: " + missingTaskMessage(graph, dep, t.id));
            if (!deps.insert(dep).second) return fail("depends on " + inQuotes(dep) + " twice");
        }
        if (t.stage)
            if (auto p = stageProblem(graph, t, ctx)) return fail(*p);
    }
    if (auto cycle = findCycle(graph))
        return PlanProblem{cycle->front(), "dependency cycle: " + pathText(*cycle)};
    const Task& root = graph.root();
    if (root.budgetCapUsd && graph.stageBudgetUsd() > *root.budgetCapUsd + 1e-9)
        return PlanProblem{root.id, "the stage budgets total " + numberText(graph.stageBudgetUsd()) +
                                        " USD, over the plan's cap of " + numberText(*root.budgetCapUsd) +
                                        " USD (set on the root task " + inQuotes(root.id) + ")"};
    return std::nullopt;
}

PlanResult addTask(const PlanGraph& graph, Task task, const PlanContext& ctx) {
    if (graph.find(task.id)) return PlanResult::fail("a task " + inQuotes(task.id) + " already exists");
    for (const std::string& dep : task.dependsOn)
        if (dep != task.id && !graph.find(dep))
            return PlanResult::fail(taskPrefix(task.id) +
                                    "depends on a missing task: " + missingTaskMessage(graph, dep, task.id));
    PlanGraph next = graph;
    next.tasks.push_back(std::move(task));
    return validated(std::move(next), ctx);
}

PlanResult removeTask(const PlanGraph& graph, std::string_view id, const PlanContext& ctx) {
    if (!graph.find(id)) return PlanResult::fail(missingTaskMessage(graph, id));
    if (graph.root().id == id)
        return PlanResult::fail("the root task " + inQuotes(id) +
                                " is the plan itself and cannot be removed");
    for (const Task& t : graph.tasks)
        if (t.stage)
            for (const Entrant& e : t.stage->entrants)
                if (e.isTop() && e.fromTask == id)
                    return PlanResult::fail("task " + inQuotes(t.id) + " takes the top " +
                                            std::to_string(e.topK) + " of " + inQuotes(id) +
                                            ": change that stage first");
    PlanGraph next = graph;
    std::erase_if(next.tasks, [&](const Task& t) { return t.id == id; });
    for (Task& t : next.tasks) std::erase(t.dependsOn, std::string(id));
    return validated(std::move(next), ctx);
}

PlanResult setStatus(const PlanGraph& graph, std::string_view id, TaskStatus status, const PlanContext& ctx) {
    const Task* task = graph.find(id);
    if (!task) return PlanResult::fail(missingTaskMessage(graph, id));
    if (task->status == status)
        return PlanResult::fail(taskPrefix(id) + "is already " + std::string(statusName(status)));
    if (!statusTransitionAllowed(task->status, status))
        return PlanResult::fail(taskPrefix(id) + "cannot go from " + std::string(statusName(task->status)) +
                                " to " + std::string(statusName(status)) + "; from " +
                                std::string(statusName(task->status)) + " it may go to " +
                                statusList(task->status));
    if (status == TaskStatus::Ready || status == TaskStatus::Running) {
        std::string waiting;
        for (const std::string& dep : task->dependsOn) {
            const Task* d = graph.find(dep);
            if (d && !statusUnblocks(d->status))
                waiting += (waiting.empty() ? "" : ", ") + inQuotes(dep) + " (" +
                           std::string(statusName(d->status)) + ")";
        }
        if (!waiting.empty())
            return PlanResult::fail(taskPrefix(id) + "cannot be " + std::string(statusName(status)) +
                                    " before its dependencies are done: " + waiting);
    }
    PlanGraph next = graph;
    next.tasks[static_cast<size_t>(next.indexOf(id))].status = status;
    return validated(std::move(next), ctx);
}

PlanResult updateTask(const PlanGraph& graph, std::string_view id, const TaskUpdate& update,
                      const PlanContext& ctx) {
    if (!graph.find(id)) return PlanResult::fail(missingTaskMessage(graph, id));
    PlanGraph next = graph;
    Task& t = next.tasks[static_cast<size_t>(next.indexOf(id))];
    if (update.name) t.name = *update.name;
    if (update.description) t.description = *update.description;
    if (update.decisions) t.decisions = *update.decisions;
    if (update.addDecision) t.decisions.push_back(*update.addDecision);
    if (update.stage) t.stage = *update.stage;
    if (update.budgetCapUsd) {
        if (*update.budgetCapUsd && &t != &next.root())
            return PlanResult::fail(taskPrefix(id) + "only the root task " + inQuotes(next.root().id) +
                                    " carries a budget cap");
        t.budgetCapUsd = *update.budgetCapUsd;
    }
    return validated(std::move(next), ctx);
}

PlanResult addDependency(const PlanGraph& graph, std::string_view taskId, std::string_view dependencyId,
                         const PlanContext& ctx) {
    const Task* task = graph.find(taskId);
    if (!task) return PlanResult::fail(missingTaskMessage(graph, taskId));
    if (!graph.find(dependencyId)) return PlanResult::fail(missingTaskMessage(graph, dependencyId, taskId));
    if (taskId == dependencyId)
        return PlanResult::fail(taskPrefix(taskId) + "a task cannot depend on itself");
    if (std::find(task->dependsOn.begin(), task->dependsOn.end(), dependencyId) != task->dependsOn.end())
        return PlanResult::fail(taskPrefix(taskId) + "already depends on " + inQuotes(dependencyId));
    std::vector<std::string> back = dependencyPath(graph, dependencyId, taskId);
    if (!back.empty()) {
        back.insert(back.begin(), std::string(taskId));
        return PlanResult::fail("making " + inQuotes(taskId) + " depend on " + inQuotes(dependencyId) +
                                " would close a cycle: " + pathText(back));
    }
    PlanGraph next = graph;
    next.tasks[static_cast<size_t>(next.indexOf(taskId))].dependsOn.emplace_back(dependencyId);
    return validated(std::move(next), ctx);
}

PlanResult removeDependency(const PlanGraph& graph, std::string_view taskId, std::string_view dependencyId,
                            const PlanContext& ctx) {
    const Task* task = graph.find(taskId);
    if (!task) return PlanResult::fail(missingTaskMessage(graph, taskId));
    if (!graph.find(dependencyId)) return PlanResult::fail(missingTaskMessage(graph, dependencyId, taskId));
    if (std::find(task->dependsOn.begin(), task->dependsOn.end(), dependencyId) == task->dependsOn.end()) {
        std::string deps;
        for (const std::string& d : task->dependsOn) deps += (deps.empty() ? "" : ", ") + inQuotes(d);
        return PlanResult::fail(
            taskPrefix(taskId) + "does not depend on " + inQuotes(dependencyId) +
            (deps.empty() ? " (it has no dependencies)" : " (it depends on " + deps + ")"));
    }
    if (task->stage)
        for (const Entrant& e : task->stage->entrants)
            if (e.isTop() && e.fromTask == dependencyId)
                return PlanResult::fail(taskPrefix(taskId) + "its stage takes the top " +
                                        std::to_string(e.topK) + " of " + inQuotes(dependencyId) +
                                        ", so it must depend on it; change the stage first");
    PlanGraph next = graph;
    std::erase(next.tasks[static_cast<size_t>(next.indexOf(taskId))].dependsOn, std::string(dependencyId));
    return validated(std::move(next), ctx);
}

size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string closestId(const PlanGraph& graph, std::string_view id, std::string_view asker) {
    std::string best;
    size_t bestDistance = SIZE_MAX;
    for (const Task& t : graph.tasks) {
        if (!asker.empty() && t.id == asker) continue;
        size_t d = editDistance(id, t.id);
        if (d < bestDistance) bestDistance = d, best = t.id;
    }
    return best;
}

std::string missingTaskMessage(const PlanGraph& graph, std::string_view id, std::string_view asker) {
    std::string closest = closestId(graph, id, asker);
    return "no task " + inQuotes(id) + (closest.empty() ? "" : "; did you mean " + inQuotes(closest) + "?");
}

std::optional<std::vector<std::string>> findCycle(const PlanGraph& graph) {
    // Iterative depth-first search: 0 = unseen, 1 = on the current path, 2 = finished.
    std::vector<int> state(graph.tasks.size(), 0);
    for (size_t start = 0; start < graph.tasks.size(); ++start) {
        if (state[start]) continue;
        std::vector<std::pair<size_t, size_t>> stack{{start, 0}}; // task, next dependency to visit
        state[start] = 1;
        while (!stack.empty()) {
            auto& [at, next] = stack.back();
            const auto& deps = graph.tasks[at].dependsOn;
            if (next == deps.size()) {
                state[at] = 2;
                stack.pop_back();
                continue;
            }
            int to = graph.indexOf(deps[next++]);
            if (to < 0) continue;
            auto toIndex = static_cast<size_t>(to);
            if (state[toIndex] == 1) {
                std::vector<std::string> path;
                size_t from = 0;
                while (stack[from].first != toIndex) ++from;
                for (size_t i = from; i < stack.size(); ++i) path.push_back(graph.tasks[stack[i].first].id);
                path.push_back(graph.tasks[toIndex].id);
                return path;
            }
            if (state[toIndex] == 0) {
                state[toIndex] = 1;
                stack.emplace_back(toIndex, 0);
            }
        }
    }
    return std::nullopt;
}

std::string pathText(const std::vector<std::string>& path) {
    std::string out;
    for (const std::string& id : path) out += (out.empty() ? "" : " → ") + id;
    return out;
}

std::vector<std::string_view> splitCommas(std::string_view text) {
    std::vector<std::string_view> out;
    size_t from = 0;
    while (from <= text.size()) {
        size_t comma = text.find(',', from);
        if (comma == std::string_view::npos) comma = text.size();
        out.push_back(text.substr(from, comma - from));
        from = comma + 1;
    }
    return out;
}

std::string numberText(double value) {
    // %g switches to an exponent when the precision is below the digits before the point ("1e+01"
    // for 10 at precision 1): within the plain range, keep going until the text is plain.
    bool plainRange = std::fabs(value) >= 1e-4 && std::fabs(value) < 1e15;
    char buffer[40];
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
        bool plain = std::string_view(buffer).find('e') == std::string_view::npos;
        if (std::strtod(buffer, nullptr) == value && (plain || !plainRange)) break;
    }
    return buffer;
}

std::optional<double> parseNumber(std::string_view text) {
    if (text.empty() || text.size() > 32) return std::nullopt;
    for (char c : text)
        if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'))
            return std::nullopt;
    std::string copy(text);
    char* end = nullptr;
    double value = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size() || !std::isfinite(value)) return std::nullopt;
    return value;
}

} // namespace chaiba::planner
