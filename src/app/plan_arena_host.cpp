// PlanArenaHost: a plan stage played as an arena tournament, followed through typed progress.
#include "src/app/plan_arena_host.h"

#include "src/modes/chess/arena_screen.h"
#include "src/modes/werewolf/ui/tournament_screen.h"

#include <nlohmann/json.hpp>

namespace chaiba {

namespace {
constexpr int kStageConcurrency = 4;
// The kept stages: an index of {task: game} and each stage's bundle under its own key.
constexpr const char* kKeptIndexKey = "chaiba.planner.stages";
std::string keptKey(const std::string& taskId) { return "chaiba.planner.stage." + taskId; }

// The stage as the arena's config (the same as `chaiba plan --run` plays).
chessmode::TournamentConfig chessConfigOf(const planner::StageLaunch& launch) {
    const planner::Stage& stage = launch.stage;
    return chessmode::stageConfig({launch.name.empty() ? launch.taskId : launch.name, launch.seats,
                                   planner::stageFormatName(stage.format), stage.games, kStageConcurrency, stage.chess960,
                                   stage.tickerSeconds, launch.budgetUsd.value_or(0)});
}

} // namespace

PlanArenaHost::PlanArenaHost(ArenaScreen& arena, WerewolfArenaScreen& werewolfArena,
                             std::function<void(std::string_view)> show, KeyValueStore* keep)
    : arena_(arena), werewolfArena_(werewolfArena), show_(std::move(show)), keep_(keep) {
    if (!keep_) return;
    if (const std::optional<std::string> index = keep_->get(kKeptIndexKey)) {
        const nlohmann::json doc = nlohmann::json::parse(*index, nullptr, false);
        if (doc.is_object() && doc.contains("stages") && doc["stages"].is_object())
            for (const auto& [id, game] : doc["stages"].items())
                if (game.is_string()) kept_[id] = game.get<std::string>();
    }
}

void PlanArenaHost::saveIndex() {
    nlohmann::json stages = nlohmann::json::object();
    for (const auto& [id, game] : kept_) stages[id] = game;
    (void)keep_->set(kKeptIndexKey, nlohmann::json{{"version", 1}, {"stages", stages}}.dump());
}

std::string PlanArenaHost::keepStage(const std::string& game, const std::string& text) {
    if (!keep_) return "this page keeps no stage tournaments";
    if (auto error = keep_->set(keptKey(activeTask_), text)) return *error;
    kept_[activeTask_] = game;
    saveIndex();
    return {};
}

bool PlanArenaHost::keptStage(const std::string& taskId) const { return kept_.count(taskId) > 0; }

std::string PlanArenaHost::replacedOn(bool werewolf) const {
    const play::TournamentProgress p = werewolf ? werewolfArena_.tournamentProgress() : arena_.tournamentProgress();
    if (p.phase == play::HostedPhase::Setup || p.finished == 0) return {};
    return std::string(werewolf ? "the Werewolf Arena's" : "the arena's") + " tournament (" + std::to_string(p.finished) +
           " of " + std::to_string(p.total) + " games played, " + std::string(play::hostedPhaseName(p.phase)) + ")";
}

std::string PlanArenaHost::replacedByOpen(const std::string& taskId) const {
    const auto found = kept_.find(taskId);
    return found == kept_.end() ? std::string() : replacedOn(found->second == "werewolf");
}

std::optional<std::string> PlanArenaHost::openStage(const std::string& taskId, bool replace) {
    const auto found = kept_.find(taskId);
    if (found == kept_.end() || !keep_) return "stage '" + taskId + "' has no kept tournament";
    if (active_ != Active::None) return std::string("a stage is being played: open it when the run ends");
    const bool werewolf = found->second == "werewolf";
    const std::optional<std::string> bundle = keep_->get(keptKey(taskId));
    if (!bundle) return "the kept tournament of stage '" + taskId + "' is no longer in this browser's storage";
    if (const std::string replaced = replacedOn(werewolf); !replaced.empty() && !replace)
        return "it would replace " + replaced; // (the planner asks first: replacedByOpen)
    const std::optional<std::string> refused =
        werewolf ? werewolfArena_.openTournament(*bundle) : arena_.openTournament(*bundle);
    if (refused) return "stage '" + taskId + "' could not be opened: " + *refused;
    if (show_) show_(werewolf ? werewolfArena_.id() : arena_.id());
    return std::nullopt;
}

void PlanArenaHost::forgetStages() {
    if (!keep_) return;
    for (const auto& [id, game] : kept_) keep_->remove(keptKey(id));
    kept_.clear();
    keep_->remove(kKeptIndexKey);
}

std::optional<std::string> PlanArenaHost::startStage(const planner::StageLaunch& launch) {
    std::optional<std::string> refused;
    const bool werewolf = launch.stage.game == planner::GameKind::Werewolf;
    if (werewolf) {
        const planner::Stage& stage = launch.stage;
        llm::Result<werewolfmode::TournamentConfig> config = werewolfmode::stageConfig(
            {launch.seats, stage.roles, stage.rules, stage.games, 1, kStageConcurrency, launch.budgetUsd.value_or(0)});
        refused = config.isOk() ? werewolfArena_.startTournament(*config.value)
                                : std::optional<std::string>("the Werewolf Arena refused the setup: " + config.error);
    } else {
        refused = arena_.startTournament(chessConfigOf(launch));
    }
    if (refused) return refused;
    active_ = werewolf ? Active::Werewolf : Active::Chess;
    activeTask_ = launch.taskId;
    export_.reset();
    if (show_) show_(werewolf ? werewolfArena_.id() : arena_.id());
    return std::nullopt;
}

planner::StageHost::Poll PlanArenaHost::pollStage() {
    Poll poll;
    if (active_ == Active::None) return poll;
    const bool werewolf = active_ == Active::Werewolf;
    play::TournamentProgress progress = werewolf ? werewolfArena_.tournamentProgress() : arena_.tournamentProgress();
    poll.spentUsd = progress.spentUsd;
    const std::string games = std::to_string(progress.finished) + "/" + std::to_string(progress.total) + " games";
    if (progress.phase == play::HostedPhase::Running || progress.phase == play::HostedPhase::Stopping) {
        poll.state = State::Running;
        poll.detail = games;
        return poll;
    }
    if (progress.phase != play::HostedPhase::Finished) {
        active_ = Active::None;
        poll.state = State::Failed;
        poll.detail = std::string(werewolf ? "the Werewolf Arena's" : "the arena's") + " tournament ended " +
                      std::string(play::hostedPhaseName(progress.phase)) +
                      (progress.error.empty() ? "" : ": " + progress.error) +
                      (progress.notice.empty() ? "" : " (" + progress.notice + ")");
        return poll;
    }
    // Finished: the tournament is kept before the next stage replaces it (a chess bundle is read
    // back from storage first, over a few frames).
    std::string notKept;
    if (keep_ && werewolf) {
        notKept = keepStage("werewolf", werewolfArena_.exportTournament());
    } else if (keep_) {
        if (!export_) {
            export_ = std::make_shared<Export>();
            arena_.exportTournament([out = export_](chessmode::Parsed<std::string> text) {
                out->done = true;
                if (text.ok()) out->text = std::move(*text.value);
                else out->error = text.error;
            });
        }
        if (!export_->done) {
            poll.state = State::Running;
            poll.detail = games + ", keeping the stage's games";
            return poll;
        }
        notKept = export_->error.empty() ? keepStage("chess", export_->text) : export_->error;
        export_.reset();
    }
    active_ = Active::None;
    poll.state = State::Finished;
    poll.detail = notKept.empty() ? games : games + " (not kept: " + notKept + ")";
    poll.ranking = std::move(progress.ranking);
    for (const play::TournamentProgress::Standing& row : progress.standings)
        poll.standings.push_back({row.seat, row.rating, row.games, row.score});
    poll.tieRule = std::move(progress.tieRule);
    poll.games = progress.finished;
    return poll;
}

std::string PlanArenaHost::replacedByRun(const planner::PlanGraph& plan) const {
    bool chess = false, werewolf = false;
    for (const planner::Task& task : plan.tasks) {
        if (!task.stage || task.status == planner::TaskStatus::Done || task.status == planner::TaskStatus::Skipped) continue;
        (task.stage->game == planner::GameKind::Werewolf ? werewolf : chess) = true;
    }
    std::string out;
    auto add = [&out](const char* where, const play::TournamentProgress& p) {
        if (p.phase == play::HostedPhase::Setup || p.finished == 0) return;
        out += std::string(out.empty() ? "" : " and ") + where + " tournament (" + std::to_string(p.finished) + " of " +
               std::to_string(p.total) + " games played, " + std::string(play::hostedPhaseName(p.phase)) + ")";
    };
    if (chess) add("the arena's", arena_.tournamentProgress());
    if (werewolf) add("the Werewolf Arena's", werewolfArena_.tournamentProgress());
    return out;
}

void PlanArenaHost::stopStage() {
    if (active_ == Active::Werewolf) werewolfArena_.stopTournament();
    if (active_ == Active::Chess) arena_.stopTournament();
}

} // namespace chaiba
