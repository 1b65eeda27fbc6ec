// PlanRunner: stage order, status moves and the stage-by-stage run over a StageHost.
#include "src/modes/planner/plan_run.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

#include <algorithm>
#include <functional>
#include <set>

namespace chaiba::planner {

std::vector<std::string> stageOrder(const PlanGraph& plan) {
    std::vector<std::string> order;
    std::set<std::string> placed;
    std::function<void(const Task&)> visit = [&](const Task& t) {
        if (!placed.insert(t.id).second) return;
        for (const std::string& dep : t.dependsOn)
            if (const Task* d = plan.find(dep)) visit(*d);
        if (t.stage) order.push_back(t.id);
    };
    for (const Task& t : plan.tasks) visit(t);
    return order;
}

bool moveStatus(PlanGraph& plan, const std::string& id, TaskStatus to, std::string& why) {
    const Task* t = plan.find(id);
    if (!t) {
        why = missingTaskMessage(plan, id);
        return false;
    }
    if (t->status == to) return true;
    std::vector<TaskStatus> path;
    if (to == TaskStatus::Running) {
        if (t->status == TaskStatus::Planned || t->status == TaskStatus::Failed) path.push_back(TaskStatus::Ready);
        if (t->status == TaskStatus::Skipped) path = {TaskStatus::Planned, TaskStatus::Ready};
    } else if (to == TaskStatus::Done && t->status != TaskStatus::Running) {
        path = {TaskStatus::Ready, TaskStatus::Running};
        if (t->status == TaskStatus::Ready) path = {TaskStatus::Running};
    }
    path.push_back(to);
    for (TaskStatus s : path) {
        PlanResult next = setStatus(plan, id, s, {});
        if (!next.ok()) {
            why = next.error;
            return false;
        }
        plan = std::move(*next.value);
    }
    return true;
}

Result<std::vector<std::string>> resolveSeats(const Stage& stage,
                                              const std::map<std::string, std::vector<std::string>>& rankings) {
    std::vector<std::string> seats;
    std::set<std::string> present;
    auto add = [&](const std::string& spec) {
        if (present.insert(spec).second) seats.push_back(spec);
    };
    const bool table = stage.game == GameKind::Werewolf;
    for (const Entrant& e : stage.entrants) {
        if (!e.isTop() && table) {
            // A werewolf table: one entry per seat ("bot*3" is three bots, "random" is the bot).
            const std::string player = tablePlayer(e.seat);
            for (int i = 0; i < e.count(); ++i) seats.push_back(player);
            present.insert(player);
            continue;
        }
        if (!e.isTop()) {
            add(e.seat);
            continue;
        }
        auto it = rankings.find(e.fromTask);
        if (it == rankings.end())
            return Result<std::vector<std::string>>::fail("takes the top " + std::to_string(e.topK) + " of '" +
                                                          e.fromTask + "', whose ranking is not known");
        for (int k = 0; k < e.topK && k < int(it->second.size()); ++k) add(it->second[size_t(k)]);
    }
    return Result<std::vector<std::string>>::success(std::move(seats));
}

bool seatsCostMoney(const std::vector<std::string>& seats) {
    for (const std::string& seat : seats)
        if (seat.rfind("llm:", 0) == 0) return true;
    return false;
}

StageAllowance stageAllowance(const PlanGraph& plan, const std::string& id, double spentUsd) {
    StageAllowance out;
    const Task* task = plan.find(id);
    if (!task || !task->stage) return out;
    const double own = task->stage->budgetUsd;
    const std::optional<double> cap = plan.tasks.empty() ? std::nullopt : plan.root().budgetCapUsd;
    if (!cap) {
        if (own > 0) {
            out.usd = own;
            out.text = numberText(own) + " USD (the stage's budget)";
        }
        return out;
    }
    const double left = std::max(0.0, *cap - spentUsd);
    double reserved = 0; // the budgets of the stages after this one
    int sharing = 1;     // this stage and the later ones without a budget
    bool after = false;
    for (const std::string& other : stageOrder(plan)) {
        if (other == id) {
            after = true;
            continue;
        }
        const Task& t = *plan.find(other);
        if (!after || t.status == TaskStatus::Done || t.status == TaskStatus::Skipped) continue;
        if (t.stage->budgetUsd > 0) reserved += t.stage->budgetUsd;
        else ++sharing;
    }
    out.usd = own > 0 ? std::min(own, left) : std::max(0.0, left - reserved) / sharing;
    out.spent = *out.usd <= 1e-9;
    out.text = numberText(*out.usd) + " USD of the plan's " + numberText(*cap) + " USD cap (" +
               numberText(spentUsd) + " spent before it" +
               (own > 0 ? ", its own budget " + numberText(own) : sharing > 1 ? ", shared with " + std::to_string(sharing - 1) + " later stage(s)" : "") +
               ")";
    return out;
}

void PlanRunner::restore(std::map<std::string, StageResult> results) {
    if (running_) return;
    results_ = std::move(results);
    rankings_.clear();
    for (const auto& [id, r] : results_) rankings_[id] = r.ranking;
}

void PlanRunner::clearResults() {
    if (running_) return;
    results_.clear();
    rankings_.clear();
    status_.clear();
}

Advance advanceFrom(const StageResult& result, int k) {
    Advance out;
    const int n = int(result.ranking.size());
    for (int i = 0; i < std::min(k, n); ++i) out.seats.push_back(result.ranking[size_t(i)]);
    if (k <= 0 || k >= n || result.standings.size() != result.ranking.size()) return out;
    const StageStanding& in = result.standings[size_t(k - 1)];
    const StageStanding& outside = result.standings[size_t(k)];
    if (std::fabs(in.rating - outside.rating) > 1e-9) return out;
    // Everyone on that rating, on both sides of the cut.
    std::vector<std::string> tied;
    for (const StageStanding& s : result.standings)
        if (std::fabs(s.rating - in.rating) <= 1e-9) tied.push_back(s.seat);
    std::string names;
    for (size_t i = 0; i < tied.size(); ++i) names += (i == 0 ? "" : i + 1 == tied.size() ? " and " : ", ") + tied[i];
    char rating[32];
    std::snprintf(rating, sizeof rating, "%.0f", in.rating);
    out.tieNote = "a tie at the cut: " + names + " share a rating of " + rating + "; " + in.seat +
                  " went on by the table's rule (" + (result.tieRule.empty() ? "its order" : result.tieRule) + ")";
    return out;
}

std::string stageResultsJson(const std::map<std::string, StageResult>& results) {
    nlohmann::json stages = nlohmann::json::object();
    for (const auto& [id, r] : results) {
        nlohmann::json table = nlohmann::json::array();
        for (const StageStanding& s : r.standings)
            table.push_back({{"seat", s.seat}, {"rating", s.rating}, {"games", s.games}, {"score", s.score}});
        stages[id] = {{"ranking", r.ranking}, {"standings", table}, {"tieRule", r.tieRule}, {"games", r.games},
                      {"spentUsd", r.spentUsd}};
    }
    return nlohmann::json{{"format", "chaiba-plan-results"}, {"version", 1}, {"stages", stages}}.dump(
        -1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<std::map<std::string, StageResult>> readStageResults(std::string_view text, std::string* why) {
    auto fail = [&](std::string reason) -> std::optional<std::map<std::string, StageResult>> {
        if (why) *why = std::move(reason);
        return std::nullopt;
    };
    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return fail("the stored stage results are not JSON");
    if (!doc.contains("version") || !doc["version"].is_number_integer()) return fail("the stored stage results have no version");
    if (doc["version"].get<int>() > 1) return fail("the stored stage results are from a newer version");
    if (!doc.contains("stages") || !doc["stages"].is_object()) return fail("the stored stage results have no stages");
    std::map<std::string, StageResult> out;
    for (const auto& [id, st] : doc["stages"].items()) {
        if (!st.is_object() || !st.contains("ranking") || !st["ranking"].is_array())
            return fail("the stored result of stage '" + id + "' has no ranking");
        StageResult r;
        for (const nlohmann::json& seat : st["ranking"]) {
            if (!seat.is_string()) return fail("the stored result of stage '" + id + "' has a bad seat");
            r.ranking.push_back(seat.get<std::string>());
        }
        if (st.contains("standings") && st["standings"].is_array())
            for (const nlohmann::json& row : st["standings"]) {
                if (!row.is_object() || !row.contains("seat") || !row["seat"].is_string()) continue;
                StageStanding s;
                s.seat = row["seat"].get<std::string>();
                if (row.contains("rating") && row["rating"].is_number()) s.rating = row["rating"].get<double>();
                if (row.contains("games") && row["games"].is_number_integer()) s.games = row["games"].get<int>();
                if (row.contains("score") && row["score"].is_number()) s.score = row["score"].get<double>();
                r.standings.push_back(std::move(s));
            }
        if (st.contains("tieRule") && st["tieRule"].is_string()) r.tieRule = st["tieRule"].get<std::string>();
        if (st.contains("spentUsd") && st["spentUsd"].is_number()) r.spentUsd = st["spentUsd"].get<double>();
        out[id] = std::move(r);
    }
    return out;
}

std::optional<std::string> PlanRunner::start(const PlanGraph& plan) {
    if (running_) return std::string("the plan is already running");
    if (plan.tasks.empty()) return std::string("the plan is empty: ask for a plan first");
    bool any = false;
    for (const std::string& id : stageOrder(plan)) {
        const TaskStatus s = plan.find(id)->status;
        any = any || (s != TaskStatus::Done && s != TaskStatus::Skipped);
    }
    if (!any) return std::string("no stage left to run: every stage is done or skipped");
    running_ = true;
    failed_ = false;
    stopRequested_ = false;
    current_.clear();
    status_ = "starting";
    spentUsd_ = currentSpentUsd_ = 0;
    return std::nullopt;
}

void PlanRunner::stop(StageHost& host) {
    if (!running_) return;
    stopRequested_ = true;
    if (!current_.empty()) host.stopStage();
}

std::optional<PlanGraph> PlanRunner::finish(PlanGraph plan, std::string status, bool failed) {
    running_ = false;
    failed_ = failed;
    current_.clear();
    status_ = std::move(status);
    return plan;
}

std::optional<PlanGraph> PlanRunner::tick(const PlanGraph& plan, StageHost& host) {
    if (!running_) return std::nullopt;
    PlanGraph next = plan;
    std::string why;
    // Step 1. A stage in play: wait for it, then take its ranking or mark it failed.
    if (!current_.empty()) {
        if (!plan.find(current_)) {
            host.stopStage();
            return finish(std::move(next), "stopped: task '" + current_ + "' was removed from the plan", true);
        }
        const StageHost::Poll poll = host.pollStage();
        currentSpentUsd_ = poll.spentUsd;
        if (poll.state == StageHost::State::Running || poll.state == StageHost::State::Idle) {
            const std::string text = "stage " + current_ + ": " + poll.detail;
            if (text != status_) status_ = text;
            return std::nullopt;
        }
        const std::string id = current_;
        const double currentStageSpent = currentSpentUsd_;
        spentUsd_ += currentSpentUsd_;
        currentSpentUsd_ = 0;
        if (poll.state == StageHost::State::Failed || stopRequested_) {
            moveStatus(next, id, TaskStatus::Failed, why);
            const std::string reason = stopRequested_ ? std::string("stopped by you") : poll.detail;
            return finish(std::move(next), "stage " + id + " failed: " + reason, true);
        }
        rankings_[id] = poll.ranking;
        results_[id] = StageResult{poll.ranking, poll.standings, poll.tieRule, poll.games, currentStageSpent};
        ++resultChanges_;
        if (!moveStatus(next, id, TaskStatus::Done, why))
            return finish(std::move(next), "stage " + id + ": " + why, true);
        current_.clear();
        status_ = "stage " + id + " done: " + (poll.ranking.empty() ? "nobody" : poll.ranking[0]) + " first";
        return next;
    }
    if (stopRequested_) return finish(std::move(next), "stopped by you", true);
    // Step 2. The next stage not done: its dependencies must be done or skipped.
    for (const std::string& id : stageOrder(plan)) {
        const Task& task = *plan.find(id);
        if (task.status == TaskStatus::Done || task.status == TaskStatus::Skipped) continue;
        for (const std::string& dep : task.dependsOn) {
            const Task* d = plan.find(dep);
            if (d && !statusUnblocks(d->status))
                return finish(std::move(next),
                              "stage " + id + " waits for '" + dep + "' (" + std::string(statusName(d->status)) +
                                  "): mark it done or skipped, or run it first",
                              true);
        }
        Result<std::vector<std::string>> seats = resolveSeats(*task.stage, rankings_);
        if (!seats.ok()) return finish(std::move(next), "stage " + id + " " + seats.error, true);
        // The plan's cap: a stage that could spend is not started once it is used up.
        const StageAllowance allowance = stageAllowance(plan, id, spentUsd_);
        const bool costs = seatsCostMoney(*seats.value);
        if (allowance.spent && costs)
            return finish(std::move(next),
                          "the plan's cap of " + numberText(*plan.root().budgetCapUsd) + " USD is spent (" +
                              numberText(spentUsd_) + " USD): stage " + id + " was not started",
                          true);
        if (!moveStatus(next, id, TaskStatus::Running, why))
            return finish(std::move(next), "stage " + id + " cannot start: " + why, true);
        StageLaunch launch{id, task.name, *task.stage, costs ? allowance.usd : std::nullopt, std::move(*seats.value)};
        if (auto refused = host.startStage(launch)) {
            moveStatus(next, id, TaskStatus::Failed, why);
            return finish(std::move(next), "stage " + id + " could not start: " + *refused, true);
        }
        current_ = id;
        status_ = "stage " + id + ": starting";
        return next;
    }
    // Step 3. Every stage played: the root is done once everything it needs is done.
    const Task& root = plan.root();
    bool ready = !root.stage && root.status != TaskStatus::Done;
    for (const std::string& dep : root.dependsOn) {
        const Task* d = plan.find(dep);
        ready = ready && d && d->status == TaskStatus::Done;
    }
    if (ready) moveStatus(next, root.id, TaskStatus::Done, why);
    // (The text first: the order in which a call's arguments are evaluated is unspecified.)
    std::string text = "plan " + root.id + ": " + std::string(statusName(next.root().status));
    return finish(std::move(next), std::move(text), false);
}

} // namespace chaiba::planner
