// Werewolf tournaments: setup parsing, the game plan, the cost estimate and the runner adapter.
#include "src/modes/werewolf/tournament.h"

#include "src/llm/structured.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <deque>
#include <set>
#include <sstream>

namespace chaiba::werewolfmode {

using nlohmann::json;
using werewolf::Role;

namespace {

std::vector<std::string> splitComma(const std::string& text) {
    std::vector<std::string> out;
    std::string item;
    std::istringstream in(text);
    while (std::getline(in, item, ','))
        if (!item.empty()) out.push_back(item);
    return out;
}

std::optional<long long> parseCount(const std::string& text) {
    if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    return std::stoll(text);
}

} // namespace

play::SeatGrammar werewolfSeatGrammar() {
    return {.engine = false, .bot = true, .maxRepeat = werewolf::kMaxSeats};
}

llm::Result<std::vector<std::string>> parsePlayers(const std::string& text) {
    using R = llm::Result<std::vector<std::string>>;
    std::vector<std::string> out;
    for (const std::string& item : splitComma(text)) {
        play::Parsed<play::SeatEntry> entry = play::parseSeatEntry(item, werewolfSeatGrammar());
        if (!entry.ok()) return R::fail(entry.error);
        play::SeatSpec& spec = entry.value->spec;
        if (spec.kind == play::SeatKind::Random) spec.kind = play::SeatKind::Bot; // the table's random player
        for (int i = 0; i < entry.value->count; ++i) out.push_back(spec.text());
    }
    if (out.size() < std::size_t(werewolf::kMinSeats) || out.size() > std::size_t(werewolf::kMaxSeats))
        return R::fail("a table has " + std::to_string(werewolf::kMinSeats) + " to " +
                       std::to_string(werewolf::kMaxSeats) + " seats, the players name " +
                       std::to_string(out.size()));
    return R::ok(std::move(out));
}

llm::Result<std::vector<Role>> parseRoles(const std::string& text) {
    using R = llm::Result<std::vector<Role>>;
    std::vector<Role> out;
    for (const std::string& item : splitComma(text)) {
        const std::size_t colon = item.find(':');
        const std::optional<Role> role = werewolf::parseRole(item.substr(0, colon));
        std::optional<long long> n = colon == std::string::npos ? 1 : parseCount(item.substr(colon + 1));
        if (!role || !n || *n < 1 || *n > werewolf::kMaxSeats)
            return R::fail("'" + item + "' is not ROLE or ROLE:N (werewolf, seer, doctor, villager)");
        for (long long i = 0; i < *n; ++i) out.push_back(*role);
    }
    return R::ok(std::move(out));
}

llm::Result<std::map<std::string, int>> parseModelTimeouts(const std::string& text) {
    std::map<std::string, int> out;
    for (const std::string& item : splitComma(text)) {
        const std::size_t eq = item.rfind('=');
        const std::optional<long long> ms = eq == std::string::npos ? std::nullopt : parseCount(item.substr(eq + 1));
        if (!ms || *ms < 100 || *ms > 3600000)
            return llm::Result<std::map<std::string, int>>::fail("takes MODEL=MS,... (100..3600000), got '" + item +
                                                                 "'");
        out[item.substr(0, eq)] = static_cast<int>(*ms);
    }
    return llm::Result<std::map<std::string, int>>::ok(std::move(out));
}

std::string rolesText(const std::vector<Role>& roles) {
    std::string out;
    for (std::size_t i = 0; i < roles.size();) {
        std::size_t j = i;
        while (j < roles.size() && roles[j] == roles[i]) ++j;
        std::string name(werewolf::roleName(roles[i]));
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        // Piecewise: GCC 12's -Wrestrict misfires on chained `+` of string temporaries.
        if (!out.empty()) out.push_back(',');
        out.append(name);
        if (j - i > 1) out.append(":").append(std::to_string(j - i));
        i = j;
    }
    return out;
}

bool TournamentConfig::anyModel() const {
    return std::any_of(players.begin(), players.end(), [](const std::string& p) { return p != "bot"; });
}

std::optional<std::string> validate(const TournamentConfig& c) {
    const int seats = int(c.players.size());
    if (seats < werewolf::kMinSeats || seats > werewolf::kMaxSeats)
        return "a table has " + std::to_string(werewolf::kMinSeats) + " to " + std::to_string(werewolf::kMaxSeats) +
               " seats, the pool has " + std::to_string(seats);
    for (const std::string& p : c.players)
        if (p != "bot" && (p.rfind("llm:", 0) != 0 || p.size() <= 4))
            return "'" + p + "' is not a player: use bot or llm:MODEL_ID";
    if (const auto bad = werewolf::validateRoles(seats, c.roles.empty() ? werewolf::defaultRoles(seats) : c.roles);
        bad != werewolf::SetupError::None)
        return "roles: " + std::string(werewolf::setupErrorText(bad));
    if (c.games < 1 || c.games > kMaxGames) return "games must be 1 to " + std::to_string(kMaxGames);
    if (c.concurrency < 1 || c.concurrency > 16) return std::string("games at once must be 1 to 16");
    if (c.budgetUsd && !(*c.budgetUsd > 0)) return std::string("the budget cap must be more than $0 (or none)");
    if (c.timeoutMs < 100 || c.pollMs < 1 || c.maxDayMessages < 1 || c.maxDayMs < 1 || c.spacingMs < 0 ||
        c.maxRounds < 1)
        return std::string("a timing setting is out of range");
    return std::nullopt;
}

std::string configJson(const TournamentConfig& c) {
    json j = {{"players", c.players},
              {"roles", rolesText(c.roles)},
              {"rules", std::string(werewolf::rulesPresetName(c.rules))},
              {"games", c.games},
              {"seed", c.seed},
              {"mirror", c.mirror},
              {"concurrency", c.concurrency},
              {"budgetUsd", c.budgetUsd ? json(*c.budgetUsd) : json(nullptr)},
              {"timeoutMs", c.timeoutMs},
              {"pollMs", c.pollMs},
              {"maxDayMessages", c.maxDayMessages},
              {"maxDayMs", c.maxDayMs},
              {"spacingMs", c.spacingMs},
              {"maxRounds", c.maxRounds},
              {"notes", c.notes}};
    return j.dump();
}

llm::Result<TournamentConfig> parseConfigJson(std::string_view text) {
    using R = llm::Result<TournamentConfig>;
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return R::fail("the setup is not a JSON object");
    TournamentConfig c;
    static const std::set<std::string> known = {"players", "roles", "rules", "games", "seed", "mirror",
                                                "concurrency", "budgetUsd", "timeoutMs", "pollMs",
                                                "maxDayMessages", "maxDayMs", "spacingMs", "maxRounds", "notes"};
    for (auto it = j.begin(); it != j.end(); ++it)
        if (!known.count(it.key())) return R::fail("unknown setup key '" + it.key() + "'");
    auto integer = [&](const char* key, long long lo, long long hi, auto& out) -> std::optional<std::string> {
        auto it = j.find(key);
        if (it == j.end()) return std::nullopt;
        if (!it->is_number_integer() && !it->is_number_unsigned()) return std::string(key) + " must be a whole number";
        const long long v = it->get<long long>();
        if (v < lo || v > hi) return std::string(key) + " must be " + std::to_string(lo) + " to " + std::to_string(hi);
        out = static_cast<std::remove_reference_t<decltype(out)>>(v);
        return std::nullopt;
    };
    if (auto it = j.find("players"); it != j.end()) {
        std::string spec;
        if (it->is_string()) spec = it->get<std::string>();
        else if (it->is_array()) {
            for (const json& p : *it) {
                if (!p.is_string()) return R::fail("players must be seat specs (strings)");
                spec += (spec.empty() ? "" : ",") + p.get<std::string>();
            }
        } else return R::fail("players must be a list of seat specs or one comma-separated text");
        llm::Result<std::vector<std::string>> players = parsePlayers(spec);
        if (!players.isOk()) return R::fail(players.error);
        c.players = *players.value;
    } else return R::fail("players is required (e.g. [\"bot*8\"])");
    if (auto it = j.find("roles"); it != j.end() && !(it->is_string() && it->get<std::string>().empty())) {
        if (!it->is_string()) return R::fail("roles must be text like werewolf:2,seer,doctor,villager:4");
        llm::Result<std::vector<Role>> roles = parseRoles(it->get<std::string>());
        if (!roles.isOk()) return R::fail(roles.error);
        c.roles = *roles.value;
    }
    if (auto it = j.find("rules"); it != j.end()) {
        const std::optional<werewolf::RulesPreset> preset =
            it->is_string() ? werewolf::parseRulesPreset(it->get<std::string>()) : std::nullopt;
        if (!preset) return R::fail("rules must be " + std::string(werewolf::kRulesPresetChoices));
        c.rules = *preset;
    }
    for (auto error : {integer("games", 1, kMaxGames, c.games), integer("seed", 0, 0x7fffffffffffffffLL, c.seed),
                       integer("concurrency", 1, 16, c.concurrency), integer("timeoutMs", 100, 3600000, c.timeoutMs),
                       integer("pollMs", 1, 600000, c.pollMs), integer("maxDayMessages", 1, 1000, c.maxDayMessages),
                       integer("maxDayMs", 1, 86400000, c.maxDayMs), integer("spacingMs", 0, 600000, c.spacingMs),
                       integer("maxRounds", 1, 1000, c.maxRounds)})
        if (error) return R::fail(*error);
    for (const char* key : {"mirror", "notes"})
        if (auto it = j.find(key); it != j.end()) {
            if (!it->is_boolean()) return R::fail(std::string(key) + " must be true or false");
            (std::string(key) == "mirror" ? c.mirror : c.notes) = it->get<bool>();
        }
    if (auto it = j.find("budgetUsd"); it != j.end() && !it->is_null()) {
        if (!it->is_number() || !(it->get<double>() > 0)) return R::fail("budgetUsd must be more than 0 (or null)");
        c.budgetUsd = it->get<double>();
    }
    if (auto error = validate(c)) return R::fail(*error);
    return R::ok(std::move(c));
}

TableSeat tableSeatFor(const std::string& player, const TournamentConfig& config,
                     const std::vector<llm::ModelInfo>& catalog) {
    TableSeat spec;
    spec.player = player;
    if (player == "bot") return spec;
    spec.kind = SeatKind::Model;
    spec.ai.model = player.substr(4);
    const llm::ModelInfo* info = nullptr;
    for (const llm::ModelInfo& m : catalog)
        if (m.id == spec.ai.model) info = &m;
    spec.ai.channel = llm::channelFor(info);
    if (info) spec.ai.pricing = info->pricing;
    auto t = config.modelTimeoutMs.find(spec.ai.model);
    spec.ai.timeoutMs = t != config.modelTimeoutMs.end() ? t->second : config.timeoutMs;
    return spec;
}

int rotationOf(const TournamentConfig& config, int game) {
    return game % std::max<int>(1, int(config.players.size()));
}

llm::Result<TournamentConfig> stageConfig(const StageSetup& stage) {
    using R = llm::Result<TournamentConfig>;
    TournamentConfig config;
    config.players = stage.seats;
    if (!stage.roles.empty()) {
        llm::Result<std::vector<Role>> roles = parseRoles(stage.roles);
        if (!roles.isOk()) return R::fail("roles: " + roles.error);
        config.roles = *roles.value;
    }
    config.rules = stage.rules;
    config.games = stage.games;
    config.seed = stage.seed;
    config.concurrency = std::clamp(stage.concurrency, 1, 16);
    if (stage.budgetUsd > 0) config.budgetUsd = stage.budgetUsd;
    if (auto bad = validate(config)) return R::fail(*bad);
    return R::ok(std::move(config));
}

std::optional<std::string> impossibleResult(const GameResult& r, const TournamentConfig& config) {
    const int games = config.games;
    if (r.index < 1 || r.index > games)
        return "game " + std::to_string(r.index) + " is not one of this run's games (1 to " + std::to_string(games) + ")";
    const SessionConfig expected = sessionConfigFor(config, r.index - 1, {});
    if (r.seed != expected.setup.seed)
        return "its seed " + std::to_string(r.seed) + " is not the deal's (" + std::to_string(expected.setup.seed) + ")";
    if (r.seats.size() != expected.seats.size())
        return std::to_string(r.seats.size()) + " seats where the run has " + std::to_string(expected.seats.size());
    const std::vector<werewolf::Role> roles = werewolf::dealRoles(
        config.roles.empty() ? werewolf::defaultRoles(int(expected.seats.size())) : config.roles, r.seed);
    for (std::size_t s = 0; s < r.seats.size(); ++s) {
        const SeatResult& seat = r.seats[s];
        const std::string where = werewolf::seatName(int(s)) + ": ";
        if (seat.player != expected.seats[s].player)
            return where + "played by " + seat.player + ", but the rotation seats " + expected.seats[s].player + " there";
        if (s < roles.size() && seat.role != roles[s])
            return where + "a " + std::string(werewolf::roleName(seat.role)) + ", but the deal made it a " +
                   std::string(werewolf::roleName(roles[s]));
        const bool won = r.winner && werewolf::teamOf(seat.role) == *r.winner;
        if (seat.won != won) return where + (seat.won ? "won" : "lost") + ", against the game's winner";
        if (seat.asks < 0 || seat.fallbacks < 0 || seat.fallbacks > seat.asks || seat.tokens < 0 ||
            !(seat.costUsd >= 0) || seat.costUsd > 1e6)
            return where + "its counts are out of range";
    }
    if (r.rounds < 0 || r.rounds > config.maxRounds + 1) return "it lasted " + std::to_string(r.rounds) + " rounds";
    return std::nullopt;
}

SessionConfig sessionConfigFor(const TournamentConfig& config, int game, const std::vector<llm::ModelInfo>& catalog) {
    SessionConfig c;
    const int seats = int(config.players.size());
    const int rotation = rotationOf(config, game);
    const int deal = config.mirror ? game / seats : game;
    c.setup.seed = config.seed + static_cast<std::uint64_t>(deal);
    c.setup.roles = config.roles;
    c.setup.rules = werewolf::rulesOf(config.rules);
    for (int s = 0; s < seats; ++s)
        c.seats.push_back(tableSeatFor(config.players[std::size_t((s + rotation) % seats)], config, catalog));
    c.chatPollIntervalMs = config.pollMs;
    c.maxDayMessages = config.maxDayMessages;
    c.maxDayMs = config.maxDayMs;
    c.requestSpacingMs = config.spacingMs;
    c.maxConcurrentRequests = 4;
    c.rewriteNotes = config.notes;
    c.maxRounds = config.maxRounds;
    return c;
}

CostEstimate estimateCost(const TournamentConfig& config, const std::vector<llm::ModelInfo>& catalog) {
    CostEstimate out;
    for (const std::string& p : config.players) {
        if (p == "bot") continue;
        out.modelSeatGames += config.games;
        const std::string id = p.substr(4);
        auto m = std::find_if(catalog.begin(), catalog.end(), [&](const llm::ModelInfo& i) { return i.id == id; });
        if (m == catalog.end()) {
            if (std::find(out.unpriced.begin(), out.unpriced.end(), id) == out.unpriced.end()) out.unpriced.push_back(id);
            continue;
        }
        out.usd += config.games * (kEstimatedPromptTokens * m->pricing.promptUsdPerToken +
                                   kEstimatedCompletionTokens * m->pricing.completionUsdPerToken);
    }
    return out;
}

namespace {

// The deals of a tournament as play's Schedule: game N (1-based) on table id N, the players
// rotated; a stopped game goes back to the queue in order. The queue is a counter, the games done
// before and the stopped ones (a set of every game to play took 48 MB at a million games).
class DealSchedule final : public play::Schedule {
public:
    DealSchedule(const TournamentConfig& config, const std::map<int, GameResult>& done) : config_(config) {
        for (const auto& [g, r] : done) done_.insert(g);
        skipDone();
    }
    std::optional<play::Table> next() override {
        int g = 0;
        if (!requeued_.empty()) {
            g = *requeued_.begin();
            requeued_.erase(requeued_.begin());
        } else if (next_ <= config_.games) {
            g = next_++;
            skipDone();
        } else {
            return std::nullopt;
        }
        running_.insert(g);
        play::Table t;
        t.id = g;
        const int seats = int(config_.players.size());
        for (int s = 0; s < seats; ++s) t.seats.push_back((s + rotationOf(config_, g - 1)) % seats);
        return t;
    }
    void onGameFinished(int id, const play::GameOutcome&) override { running_.erase(id); }
    void onGameAbandoned(int id) override {
        running_.erase(id);
        requeued_.insert(id);
    }
    bool finished() const override { return requeued_.empty() && next_ > config_.games && running_.empty(); }

private:
    void skipDone() {
        while (next_ <= config_.games && done_.count(next_)) ++next_;
    }
    const TournamentConfig& config_;
    std::set<int> done_, requeued_, running_;
    int next_ = 1;
};

// One game as play's TournamentGame: a GameSession on its own simulated clock, which jumps to the
// session's next wake-up whenever no request is in flight (as `chaiba werewolf` does). Failures
// never reach the runner: the seats retry and fall back themselves.
class TableGame final : public play::TournamentGame {
public:
    TableGame(SessionConfig config, const WerewolfPrompts& prompts, llm::ChatService* chat)
        : config_(std::move(config)), prompts_(prompts), chat_(chat) {}
    void start() override {
        session_ = std::make_unique<GameSession>(config_, prompts_, chat_);
        started_ = std::chrono::steady_clock::now();
    }
    void poll(double) override {
        if (!session_ || hold_ || aborted_ || session_->finished() || stuck_) return;
        session_->poll(nowMs_);
        reportCosts();
        if (session_->finished() || session_->requestsInFlight() > 0) return;
        const std::optional<std::int64_t> wake = session_->nextWakeMs();
        if (!wake) {
            session_->poll(nowMs_);
            stuck_ = !session_->finished(); // a decision without a target: it ends unfinished
            return;
        }
        nowMs_ = std::max(nowMs_, *wake);
    }
    void setHold(bool hold) override { hold_ = hold; }
    void step() override {}
    std::optional<play::TurnFailure> failure() const override { return std::nullopt; }
    void retry(int) override {}
    void forfeit(const play::TurnFailure&, int) override {}
    void abort(const std::string&) override { aborted_ = true; }
    bool finished() const override { return session_ && !aborted_ && (session_->finished() || stuck_); }
    // Wolves against villagers, by participant: each wolf meets each villager (a team game).
    play::GameOutcome outcome() const override {
        play::GameOutcome out;
        if (!session_ || !session_->finished()) return out;
        const werewolf::Game& game = session_->game();
        const std::optional<werewolf::Team> winner = game.winner();
        if (!winner) return out;
        std::vector<int> wolves, villagers;
        for (int seat = 0; seat < game.seats() && std::size_t(seat) < table.seats.size(); ++seat)
            (game.teamOfSeat(seat) == werewolf::Team::Wolves ? wolves : villagers).push_back(table.seats[std::size_t(seat)]);
        out.encounters = play::encountersOfTeamGame(wolves, villagers, *winner == werewolf::Team::Wolves ? 1.0 : 0.0);
        return out;
    }
    std::string seatName(int seat) const override { return werewolf::seatName(seat); }
    std::string startText() const override { return "game " + std::to_string(table.id) + " started"; }
    std::string finishText() const override { return "game " + std::to_string(table.id) + " finished"; }

    const GameSession* session() const { return session_.get(); }
    GameResult result() const {
        GameResult r = summarize(*session_, table.id);
        r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
        return r;
    }

private:
    // Each seat's new spend to the runner's budget, charged to the seat that made it.
    void reportCosts() {
        if (!onCost) return;
        reportedUsd_.resize(config_.seats.size(), 0.0);
        for (std::size_t seat = 0; seat < config_.seats.size(); ++seat) {
            const AiSeat* ai = session_->aiSeat(int(seat));
            const double cost = ai ? ai->log().totalCostUsd() : 0.0;
            if (cost <= reportedUsd_[seat]) continue;
            onCost(int(seat), cost - reportedUsd_[seat]);
            reportedUsd_[seat] = cost;
        }
    }

    SessionConfig config_;
    const WerewolfPrompts& prompts_;
    llm::ChatService* chat_;
    std::unique_ptr<GameSession> session_;
    std::int64_t nowMs_ = 0;
    std::vector<double> reportedUsd_; // by seat
    bool hold_ = false, aborted_ = false, stuck_ = false;
    std::chrono::steady_clock::time_point started_;
};

} // namespace

WerewolfTournament::WerewolfTournament(TournamentConfig config, const WerewolfPrompts& prompts,
                                       llm::ChatService* chat, std::vector<llm::ModelInfo> catalog,
                                       std::map<int, GameResult> finished, double spentBeforeUsd)
    : config_(std::move(config)), prompts_(prompts), chat_(chat), catalog_(std::move(catalog)),
      results_(std::move(finished)), spentFloorUsd_(spentBeforeUsd) {
    play::RunnerConfig rc;
    rc.participants = int(config_.players.size());
    rc.concurrency = config_.concurrency;
    rc.budgetUsd = config_.budgetUsd;
    driver_ = std::make_unique<play::TournamentDriver>(
        rc, std::make_unique<DealSchedule>(config_, results_), [this](const play::Table& t, bool) {
            play::GameStart s;
            s.game = std::make_unique<TableGame>(sessionConfigFor(config_, t.id - 1, catalog_), prompts_, chat_);
            return s;
        });
    // The spend before: each finished game's seats to their players; the rest (games stopped
    // unfinished) to nobody in particular, seat 0's player.
    double charged = 0;
    const int seats = int(config_.players.size());
    for (const auto& [index, r] : results_)
        for (std::size_t s = 0; s < r.seats.size() && seats > 0; ++s) {
            driver_->addCost((int(s) + rotationOf(config_, index - 1)) % seats, r.seats[s].costUsd);
            charged += r.seats[s].costUsd;
        }
    if (spentBeforeUsd > charged) driver_->addCost(0, spentBeforeUsd - charged);
    driver_->onGameFinished = [this](play::TournamentGame& game) {
        TableGame& table = static_cast<TableGame&>(game);
        const GameResult r = table.result();
        if (keepResults_) results_[r.index] = r;
        if (onFinished) onFinished(r, *table.session());
    };
}

WerewolfTournament::~WerewolfTournament() = default;

void WerewolfTournament::start(double nowMs) { driver_->start(nowMs); }

void WerewolfTournament::poll(double nowMs) {
    driver_->poll(nowMs);
    driver_->takeEvents();
    spentFloorUsd_ = std::max(spentFloorUsd_, driver_->budget().spentUsd());
}

double WerewolfTournament::spentUsdBy(int participant) const { return driver_->budget().spentUsd(participant); }

int WerewolfTournament::requestsInFlight() const {
    int n = 0;
    for (const LiveGame& g : liveGames()) n += g.session->requestsInFlight();
    return n;
}

void WerewolfTournament::stop() { driver_->stop(play::StopMode::AbandonRunning); }

play::RunnerState WerewolfTournament::state() const { return driver_->state(); }
bool WerewolfTournament::done() const { return driver_->done(); }
bool WerewolfTournament::budgetReached() const { return driver_->budget().capReached(); }
const std::string& WerewolfTournament::pauseMessage() const { return driver_->pauseMessage(); }
double WerewolfTournament::spentUsd() const { return std::max(spentFloorUsd_, driver_->budget().spentUsd()); }

std::vector<LiveGame> WerewolfTournament::liveGames() const {
    std::vector<LiveGame> out;
    for (play::TournamentGame* g : driver_->liveGames())
        if (const GameSession* s = static_cast<TableGame*>(g)->session()) out.push_back({g->table.id, s});
    return out;
}

} // namespace chaiba::werewolfmode
