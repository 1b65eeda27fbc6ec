// The plan of "Plan with AI": a graph of tasks (the first one is the root, the plan itself) with
// dependencies and optional tournament stages, and the pure, validated mutations the planner's
// tools map onto. A mutation returns the new graph or a refusal with a reason; its input is const.
#pragma once

#include "engine/werewolf/types.h"
#include "src/llm/openrouter_json.h"

#include "src/play/seat.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace chaiba::planner {

// A value or a clear message for whoever asked (a model, a user, a file).
template <class T> struct Result {
    std::optional<T> value;
    std::string error; // empty on success
    bool ok() const { return value.has_value(); }
    static Result success(T v) { return Result{std::move(v), {}}; }
    static Result fail(std::string message) { return Result{std::nullopt, std::move(message)}; }
};

// Task life cycle. Allowed moves (anything else is refused by setStatus):
//   planned -> ready (every dependency done or skipped), skipped
//   ready   -> running (every dependency done or skipped), planned, skipped
//   running -> done, failed
//   failed  -> ready (every dependency done or skipped), planned, skipped
//   skipped -> planned
//   done    -> nothing: done is final (add a new task to redo work)
enum class TaskStatus : uint8_t { Planned, Ready, Running, Done, Failed, Skipped };
std::string_view statusName(TaskStatus status); // "planned", "ready", ...
std::optional<TaskStatus> parseStatus(std::string_view text);
bool statusTransitionAllowed(TaskStatus from, TaskStatus to);
// True for statuses that let dependents start (done, skipped).
bool statusUnblocks(TaskStatus status);

enum class GameKind : uint8_t { Chess, Werewolf };
std::string_view gameName(GameKind game); // "chess", "werewolf"
std::optional<GameKind> parseGame(std::string_view text);

// The tournament formats of the arena (same names as its --format values).
enum class StageFormat : uint8_t { Arena, RoundRobin, DoubleRoundRobin, Gauntlet };
std::string_view
stageFormatName(StageFormat format); // "arena", "roundrobin", "double-roundrobin", "gauntlet"
std::optional<StageFormat> parseStageFormat(std::string_view text);

// One line of a stage's participant list: a seat spec or the top K finishers of another task's
// stage ("top K of TASK"). Chess seats: "llm:MODEL_ID", "engine:LEVEL", "engine", "random".
// Werewolf seats: "bot" (the rule-based bot; "random" is the same), "llm:MODEL_ID", each
// optionally "*N" for N seats of that player ("bot*6").
struct Entrant {
    std::string seat;     // the seat spec; empty for a top-K entrant
    int topK = 0;         // top-K entrant: how many qualify
    std::string fromTask; // top-K entrant: the task whose stage ranks them
    bool isTop() const { return seat.empty(); }
    int count() const; // top K: K; a seat: its "*N" (1 without one)
    std::string text() const; // "llm:openai/gpt-4o", "top 4 of groups"
    static Entrant seatSpec(std::string spec) { return Entrant{std::move(spec), 0, {}}; }
    static Entrant topOf(int k, std::string task) { return Entrant{{}, k, std::move(task)}; }
    bool operator==(const Entrant&) const = default;
};
// Reads an entrant's text; syntax only (models, levels and task references are checked by
// validatePlan).
Result<Entrant> parseEntrant(std::string_view text);

// A tournament a task runs.
struct Stage {
    GameKind game = GameKind::Chess;
    StageFormat format = StageFormat::Arena;
    std::vector<Entrant> entrants;
    int games = 1;                    // arena: total games; round robins and gauntlet: meetings per pair
    std::optional<int> tickerSeconds; // tempo: none = max speed; N = every N s each game moves once
    double budgetUsd = 0;             // spending cap of this stage
    bool chess960 = false;            // chess only
    std::string roles;                // werewolf only: the deal ("werewolf:2,seer,doctor,villager:4"); empty = default
    werewolf::RulesPreset rules = werewolf::RulesPreset::Balanced; // werewolf only: balanced, plain or kaggle
    int participantCount() const;     // seats (with their "*N") + the K of every top-K entrant
    // How many places its ranking has, the most a "top K" can take: chess, every participant;
    // werewolf, each distinct player once (the leaderboard ranks players, not seats).
    int rankedCount() const;
    bool operator==(const Stage&) const = default;
};

struct Task {
    std::string id;          // [A-Za-z0-9][A-Za-z0-9_.-]*, at most 64 characters
    std::string name;        // one line
    std::string description; // may span lines
    TaskStatus status = TaskStatus::Planned;
    std::vector<std::string> decisions; // one line each: what was decided and why
    std::vector<std::string> dependsOn; // ids of tasks that must be done first
    std::optional<Stage> stage;
    std::optional<double> budgetCapUsd; // root only: the most all stages together may spend
    bool operator==(const Task&) const = default;
};

// The plan: tasks in order, tasks[0] the root. An edge "a → b" means a depends on b.
struct PlanGraph {
    std::vector<Task> tasks;
    const Task* find(std::string_view id) const;
    int indexOf(std::string_view id) const; // -1 when absent
    const Task& root() const { return tasks.front(); }
    double stageBudgetUsd() const; // the sum of every stage's budget
    bool operator==(const PlanGraph&) const = default;
};

// What the caller knows that the plan does not: which model ids exist.
struct PlanContext {
    std::function<bool(std::string_view modelId)> isKnownModel; // empty: every id is accepted
    // The model catalog (ids, prices, context, tool support) for list_models and for the ids an
    // unknown one is closest to; empty: none known here.
    std::function<std::vector<llm::ModelInfo>()> models;
    static PlanContext withModels(std::set<std::string, std::less<>> modelIds);
    static PlanContext withCatalog(std::vector<llm::ModelInfo> catalog);
    bool knows(std::string_view modelId) const { return !isKnownModel || isKnownModel(modelId); }
};

inline constexpr int kMaxEngineLevel = 7;

// The seats a stage takes, in play's one seat grammar: a chess stage models, engine levels 0..7 and
// the random mover, each once; a werewolf table models and the bot ("random" is the bot), each
// maybe "*N"; a participant line before its game is known, any of these with any level number.
play::SeatGrammar chessStageSeats();
play::SeatGrammar werewolfStageSeats();
play::SeatGrammar anyStageSeats();
// A seat and its repeat ("bot*6": six bots) in anyStageSeats(); nothing when it cannot be read.
std::optional<play::SeatEntry> seatEntry(std::string_view seat);
// The player a werewolf seat names: "bot*3" and "random" -> "bot", "llm:x*2" -> "llm:x" (the text
// as written when it cannot be read).
std::string tablePlayer(std::string_view seat);
// The deal of a werewolf stage for `seats` seats ("werewolf:2,seer,villager:2"; empty = the
// default deal): nothing when it can be dealt, else why not.
std::optional<std::string> werewolfRolesProblem(std::string_view roles, int seats);

// The first problem of a graph, and the task it belongs to (empty for the whole plan).
struct PlanProblem {
    std::string taskId;
    std::string message;
};
// Every rule of a plan: a root, valid unique ids, clean text, existing references, no cycles,
// valid stages (known models, engine levels 0..7, K within its source stage, which the task must
// depend on), the total stage budget within the root's cap.
std::optional<PlanProblem> validatePlan(const PlanGraph& graph, const PlanContext& ctx);

using PlanResult = Result<PlanGraph>;

// Mutations. Each validates the whole result and refuses with a reason the model can act on.
// addTask: a new task with the given fields (status as given; dependencies must exist).
PlanResult addTask(const PlanGraph& graph, Task task, const PlanContext& ctx);
// removeTask: never the root; also removes every edge to it. Refused while a stage takes its top K.
PlanResult removeTask(const PlanGraph& graph, std::string_view id, const PlanContext& ctx);
PlanResult setStatus(const PlanGraph& graph, std::string_view id, TaskStatus status, const PlanContext& ctx);

// The fields updateTask changes; an absent field is left as it is.
struct TaskUpdate {
    std::optional<std::string> name;
    std::optional<std::string> description;
    std::optional<std::vector<std::string>> decisions; // replaces the list
    std::optional<std::string> addDecision;            // appended after `decisions`
    std::optional<std::optional<Stage>> stage;         // a stage, or nullopt inside to remove it
    std::optional<std::optional<double>> budgetCapUsd; // root only; nullopt inside removes the cap
};
PlanResult updateTask(const PlanGraph& graph, std::string_view id, const TaskUpdate& update,
                      const PlanContext& ctx);
PlanResult addDependency(const PlanGraph& graph, std::string_view taskId, std::string_view dependencyId,
                         const PlanContext& ctx);
PlanResult removeDependency(const PlanGraph& graph, std::string_view taskId, std::string_view dependencyId,
                            const PlanContext& ctx);
// (Replacing the whole graph from text is replacePlan in plan_text.h.)

// Levenshtein distance (bytes).
size_t editDistance(std::string_view a, std::string_view b);
// The existing id nearest to `id` by edit distance (the first in task order on ties); empty when
// the plan has no tasks.
// `asker`: the task that names the id (never suggested to itself).
std::string closestId(const PlanGraph& graph, std::string_view id, std::string_view asker = {});
// "no task 'final'; did you mean 'finals'?"
std::string missingTaskMessage(const PlanGraph& graph, std::string_view id, std::string_view asker = {});
// A dependency cycle as a closed path [a, b, c, a] (a depends on b, ...), or nothing.
std::optional<std::vector<std::string>> findCycle(const PlanGraph& graph);
std::string pathText(const std::vector<std::string>& path); // "a → b → c → a"

// The items of a comma-separated list, untrimmed ("a,,b" -> "a", "", "b"; "" -> one empty item).
std::vector<std::string_view> splitCommas(std::string_view text);

// The shortest decimal text that reads back as exactly `value` ("2.5", "0.1", "1e-05").
std::string numberText(double value);
// A finite decimal number (digits, '.', exponent; no "inf", "nan" or hex), or nothing.
std::optional<double> parseNumber(std::string_view text);

} // namespace chaiba::planner
