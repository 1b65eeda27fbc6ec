// The Werewolf screen's lifecycle: a new game, pacing on the simulated clock, a person's decisions,
// the stored game (save, restore by replay, corrupt data kept aside), the automation API.
#include "src/modes/werewolf/ui/werewolf_screen.h"

#include "src/modes/werewolf/game_export.h"
#include "src/modes/werewolf/results.h"
#include "src/modes/werewolf/ui/werewolf_settings.h"

#include <algorithm>
#include <cmath>

namespace chaiba::werewolfmode {

using nlohmann::json;
using werewolf::Decision;
using werewolf::DecisionKind;

namespace {
constexpr const char* kGameKey = "chaiba.werewolf.game";
constexpr const char* kCorruptKey = "chaiba.werewolf.game.corrupt";
constexpr const char* kFormat = "chaiba-werewolf-screen"; // the CLI's export is "chaiba-werewolf-game"
// 2: the person's "I'm done" is recorded, and the day gives a person real turns
// (SessionConfig::personDayTurns); a version 1 game replays under its own day rules.
constexpr int kVersion = 2;
constexpr double kSpeeds[] = {0.25, 1, 4, 16, 0}; // events per ~0.9 s; 0: as fast as it runs
constexpr double kRevealMs = 900;

json decisionToJson(const PersonDecision& p) {
    if (p.pass) return {{"at", p.atEvent}, {"seat", p.decision.seat}, {"pass", true}};
    return {{"at", p.atEvent}, {"seat", p.decision.seat}, {"kind", std::string(werewolf::decisionKindName(p.decision.kind))},
            {"target", p.decision.target}, {"text", p.decision.text}};
}

std::optional<PersonDecision> decisionFromJson(const json& j) {
    if (!j.is_object() || !j.contains("at") || !j["at"].is_number_unsigned() || !j.contains("seat") ||
        !j["seat"].is_number_integer() || ((!j.contains("kind") || !j["kind"].is_string()) && !j.contains("pass")))
        return std::nullopt;
    PersonDecision p;
    p.atEvent = j["at"].get<std::size_t>();
    p.decision.seat = j["seat"].get<int>();
    if (j.contains("pass") && j["pass"] == true) {
        p.pass = true;
        return p;
    }
    bool known = false;
    for (DecisionKind k : {DecisionKind::WolfVote, DecisionKind::Inspect, DecisionKind::Protect, DecisionKind::Speak,
                           DecisionKind::Vote})
        if (werewolf::decisionKindName(k) == j["kind"].get<std::string>()) p.decision.kind = k, known = true;
    if (!known) return std::nullopt;
    if (j.contains("target") && j["target"].is_number_integer()) p.decision.target = j["target"].get<int>();
    if (j.contains("text") && j["text"].is_string()) p.decision.text = j["text"].get<std::string>();
    return p;
}

// "P3", "3" (1-based) or a 0-based integer from JSON.
std::optional<int> seatArgument(const json& j, const char* name) {
    const json& v = j.is_object() && j.contains(name) ? j[name] : j;
    if (v.is_number_integer()) return v.get<int>();
    if (v.is_string() && v.get<std::string>() == "abstain") return werewolf::kAbstain; // the rules decide
    if (v.is_string()) return werewolf::parseSeatName(v.get<std::string>());
    return std::nullopt;
}
} // namespace

WerewolfScreen::WerewolfScreen(const ui::ScreenContext& context, KeyValueStore* store, const llm::AssetSource* assets)
    : context_(context), store_(store), chat_([this] { return context_.chat; }) {
    if (assets) {
        llm::Result<WerewolfPrompts> loaded = loadWerewolfPrompts(*assets);
        if (loaded.isOk()) prompts_ = std::move(*loaded.value);
        else promptsError_ = "the Werewolf prompts could not be loaded (" + loaded.error + "): models cannot play";
    } else {
        promptsError_ = "the Werewolf assets are missing: models cannot play";
    }
    registerStrategyEditor(store_, &prompts_, context_.platform, context_.fonts);
    applyStoredStrategies(store_, prompts_);
    restore();
}

WerewolfScreen::~WerewolfScreen() {
    registerStrategyEditor(nullptr, nullptr);
    session_.reset(); // the seats cancel their calls before the replay chat goes
}

std::optional<std::string> WerewolfScreen::newGame(const TableSetup& setup, bool personDayTurns) {
    SessionConfig config;
    if (auto e = sessionConfig(setup, context_, config)) return e;
    config.personDayTurns = personDayTurns;
    const bool anyAi = std::any_of(config.seats.begin(), config.seats.end(),
                                   [](const TableSeat& s) { return s.kind == SeatKind::Model; });
    if (anyAi && !promptsError_.empty()) return promptsError_;
    applyStoredStrategies(store_, prompts_); // strategies are read at game start
    session_.reset();
    chat_.loadRecording(json::array());
    auto session = std::make_unique<GameSession>(std::move(config), prompts_, &chat_);
    if (session->setupError() != werewolf::SetupError::None)
        return std::string(werewolf::setupErrorText(session->setupError()));
    session_ = std::move(session);
    shownContext_ = {}; // another game: nothing cached of the last one
    setup_ = setup;
    setup_.channels.clear(); // as the seats answer now: the stored game keeps it
    for (const TableSeat& spec : session_->config().seats)
        setup_.channels.push_back(spec.kind == SeatKind::Model ? std::optional(spec.ai.channel) : std::nullopt);
    personDecisions_.clear();
    personReplayed_ = 0;
    // A draft of the game before is not this game's: kept aside, never posted here.
    if (sayBuffer_[0]) {
        unsentDraft_ = sayBuffer_;
        unsentWhere_ = "the game before";
        sayBuffer_[0] = 0;
    }
    composing_ = false;
    draftPhase_.clear();
    draftPhaseKey_ = -1;
    eventSimMs_.clear();
    simNowMs_ = 0;
    shownEvents_ = 0;
    running_ = false;
    stepsWanted_ = 0;
    replayTo_.reset();
    savedEvents_ = static_cast<std::size_t>(-1);
    selected_ = 0;
    pov_ = personSeat();
    spectating_ = false;
    message_.clear();
    messageIsError_ = false;
    ++changes_;
    return std::nullopt;
}

int WerewolfScreen::personSeat() const {
    if (!session_) return -1;
    const auto& seats = session_->config().seats;
    for (std::size_t i = 0; i < seats.size(); ++i)
        if (seats[i].kind == SeatKind::Person) return static_cast<int>(i);
    return -1;
}

int WerewolfScreen::povSeat() const {
    const int person = personSeat();
    return person >= 0 && !personOut() && !session_->finished() ? person : pov_;
}

bool WerewolfScreen::personOut() const {
    const int person = personSeat();
    if (person < 0) return false;
    const auto& events = session_->game().events();
    for (std::size_t i = 0; i < shownEvents_ && i < events.size(); ++i)
        if ((events[i].kind == werewolf::EventKind::DawnDeath || events[i].kind == werewolf::EventKind::Elimination) &&
            events[i].target == person)
            return true;
    return false;
}

bool WerewolfScreen::visible(const werewolf::Event& e) const {
    const int seat = povSeat();
    if (seat < 0 || !session_) return true;
    return werewolf::visibleTo(e, seat, session_->game().roleOf(seat));
}

// ---- pacing -------------------------------------------------------------------------------

void WerewolfScreen::tick(double nowMs) {
    if (replayCloseWanted_) {
        replayCloseWanted_ = false;
        replay_.reset();
        ++changes_;
    }
    chat_.poll();
    advance(nowMs);
    keepDraftInItsPhase();
    // The person is out: the view turns to everything once (View may choose a seat after).
    if (!spectating_ && session_ && !replayTo_ && personOut()) {
        spectating_ = true;
        pov_ = -1;
        ++changes_;
    }
    if (session_ && session_->setupError() == werewolf::SetupError::None && !replayTo_ &&
        session_->game().events().size() != savedEvents_ && (nowMs - lastSaveMs_ > 500 || session_->finished())) {
        lastSaveMs_ = nowMs;
        save();
    }
    lastTickMs_ = nowMs;
}

void WerewolfScreen::advance(double nowMs) {
    if (!session_ || session_->setupError() != werewolf::SetupError::None) return;
    const auto& events = session_->game().events();
    const std::size_t before = events.size();
    while (eventSimMs_.size() < events.size()) eventSimMs_.push_back(simNowMs_);
    if (replayTo_) {
        while (personReplayed_ < personDecisions_.size() && personDecisions_[personReplayed_].atEvent <= events.size()) {
            const PersonDecision& p = personDecisions_[personReplayed_];
            if (p.pass ? !session_->personPass() : !session_->submit(p.decision).ok())
                break; // not awaited yet: the session gets there
            ++personReplayed_;
        }
        if (events.size() >= *replayTo_ || session_->finished()) {
            const bool short_ = events.size() < *replayTo_;
            replayTo_.reset();
            shownEvents_ = events.size();
            running_ = false;
            message_ = short_ ? "the stored game replayed only " + std::to_string(events.size()) +
                                    " events: it ended earlier than stored"
                              : session_->finished() ? "Game restored: it is over (New game deals another)."
                                                     : "Game restored and paused: press Start to go on.";
            messageIsError_ = short_;
            savedEvents_ = events.size();
            ++changes_;
            return;
        }
    }
    if (!running_ && stepsWanted_ == 0 && !replayTo_) return;
    // A replayed answer whose predecessor was never asked for would wait forever: when every
    // request in flight is a replayed one, the earliest goes.
    if (chat_.queued() > 0 && static_cast<int>(chat_.queued()) >= session_->requestsInFlight() && chat_.liveCalls() == 0)
        chat_.flush();

    // Step 1. Reveal what already happened, at the chosen speed.
    if (shownEvents_ < events.size()) {
        const double speed = kSpeeds[speedIndex_];
        if (replayTo_ || speed == 0) {
            shownEvents_ = events.size();
        } else if (stepsWanted_ > 0) {
            ++shownEvents_;
            --stepsWanted_;
        } else if (nowMs - lastRevealMs_ >= kRevealMs / speed) {
            ++shownEvents_;
            lastRevealMs_ = nowMs;
        }
        ++changes_;
        if (shownEvents_ < events.size()) return;
    }
    if (session_->finished()) {
        running_ = false;
        stepsWanted_ = 0;
        return;
    }
    // Step 2. Let the session run at the simulated time.
    session_->poll(simNowMs_);
    if (session_->game().events().size() != before || session_->finished()) {
        ++changes_;
        return;
    }
    if (session_->requestsInFlight() > 0) return;
    const std::optional<std::int64_t> wake = session_->nextWakeMs();
    if (!wake || *wake <= simNowMs_) return; // a person decides, or it is due now (next tick)
    // Step 3. Jump the clock to the next wake; a person in the discussion gets real time to talk.
    const int person = personSeat();
    const bool personTalks = person >= 0 && session_->game().isAlive(person) &&
                             session_->game().phase() == werewolf::Phase::Discussion && !replayTo_;
    if (personTalks && composing_) {
        // The person is typing: the table waits (the rounds and the day's countdown with it).
    } else if (personTalks) {
        const auto elapsed = static_cast<std::int64_t>(std::max(0.0, nowMs - lastTickMs_));
        simNowMs_ = std::min(*wake, simNowMs_ + std::max<std::int64_t>(elapsed, 1));
    } else {
        simNowMs_ = *wake;
    }
}

bool WerewolfScreen::wantsContinuousFrames() const {
    return session_ && (running_ || stepsWanted_ > 0 || replayTo_ || chat_.liveCalls() > 0);
}

double WerewolfScreen::spentUsd() const { return session_ ? session_->costUsd() : 0; }

std::optional<std::string> WerewolfScreen::submitPerson(const Decision& d) {
    if (!session_) return "there is no game";
    if (replayTo_) return "the game is being restored; wait a moment";
    const std::size_t at = session_->game().events().size();
    const werewolf::ApplyResult r = session_->submit(d);
    if (!r.ok()) return r.message.empty() ? std::string(werewolf::decisionErrorName(r.error)) : r.message;
    personDecisions_.push_back({at, d, false});
    personReplayed_ = personDecisions_.size();
    ++changes_;
    return std::nullopt;
}

std::optional<std::string> WerewolfScreen::passPerson() {
    if (!session_) return "there is no game";
    if (replayTo_) return "the game is being restored; wait a moment";
    const int person = personSeat();
    if (person < 0) return "nobody plays a seat as a person at this table";
    const std::size_t at = session_->game().events().size();
    if (!session_->personPass()) return "there is no discussion to pass on now";
    werewolf::Decision d;
    d.seat = person;
    personDecisions_.push_back({at, d, true});
    personReplayed_ = personDecisions_.size();
    ++changes_;
    return std::nullopt;
}

// ---- storage ------------------------------------------------------------------------------

std::string WerewolfScreen::document() const {
    json person = json::array();
    for (const PersonDecision& p : personDecisions_) person.push_back(decisionToJson(p));
    json doc = {{"format", kFormat}, {"version", kVersion}, {"setup", setupToJson(setup_)},
                {"answers", chat_.recordingJson()}, {"person", person},
                {"events", session_ ? session_->game().events().size() : 0}, {"sim_ms", simNowMs_}};
    return doc.dump(-1, ' ', false, json::error_handler_t::replace);
}

void WerewolfScreen::save() {
    if (!store_ || !session_) return;
    savedEvents_ = session_->game().events().size();
    if (auto e = store_->set(kGameKey, document())) {
        message_ = "the game could not be kept in this browser: " + *e;
        messageIsError_ = true;
    }
}

std::optional<std::string> WerewolfScreen::loadDocument(const std::string& text, bool fromStorage) {
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return "it is not JSON";
    if (!doc.contains("format") || doc["format"] != kFormat) return "it is not a CHAIBA Werewolf game";
    if (!doc.contains("version") || !doc["version"].is_number_integer()) return "it has no format version";
    if (doc["version"].get<int>() > kVersion)
        return "it was made by a newer CHAIBA (format " + std::to_string(doc["version"].get<int>()) + ")";
    TableSetup setup;
    if (!doc.contains("setup")) return "it has no table setup";
    if (auto e = setupFromJson(doc["setup"], setup)) return "setup: " + *e;
    if (!doc.contains("events") || !doc["events"].is_number_unsigned()) return "it has no event count";
    std::vector<PersonDecision> person;
    if (doc.contains("person")) {
        if (!doc["person"].is_array()) return "the person's decisions are not a list";
        for (const json& p : doc["person"]) {
            std::optional<PersonDecision> d = decisionFromJson(p);
            if (!d) return "a person's decision is unreadable";
            person.push_back(*d);
        }
    }
    ReplayChat probe([] { return nullptr; });
    if (auto e = probe.loadRecording(doc.contains("answers") ? doc["answers"] : json::array())) return *e;
    if (auto e = newGame(setup, doc["version"].get<int>() >= 2)) return "it cannot start: " + *e;
    chat_.loadRecording(doc.contains("answers") ? doc["answers"] : json::array());
    personDecisions_ = std::move(person);
    personReplayed_ = 0;
    replayTo_ = doc["events"].get<std::size_t>();
    message_ = fromStorage ? "Restoring the game kept in this browser..." : "Replaying the imported game...";
    messageIsError_ = false;
    return std::nullopt;
}

void WerewolfScreen::restore() {
    std::optional<std::string> text = store_ ? store_->get(kGameKey) : std::nullopt;
    if (text) {
        std::optional<std::string> error = loadDocument(*text, true);
        if (!error) return;
        // Nothing is lost: the damaged data is kept aside and can be downloaded.
        if (store_) {
            store_->set(kCorruptKey, *text);
            store_->remove(kGameKey);
        }
        newGame(TableSetup{});
        message_ = "The game kept in this browser could not be read (" + *error +
                   "). It is kept aside; a new bot game is ready.";
        messageIsError_ = true;
        corruptKept_ = true;
        return;
    }
    newGame(TableSetup{}); // without a key: eight rule-based bots, so Start shows a whole game
}

// A file from disk: this page's export plays on at the table; any other game file (the CLI's, a
// run log's record line) opens in the replay viewer.
std::optional<std::string> WerewolfScreen::importFile(const std::string& text) {
    const json doc = json::parse(text, nullptr, false);
    const bool page = doc.is_object() && doc.contains("format") && doc["format"] == kFormat;
    if (!page) {
        if (auto e = openReplay(text, "an imported game")) return "the file is not a Werewolf game: " + *e;
        return std::nullopt;
    }
    if (auto e = loadDocument(text, false)) return "the file is not a Werewolf game: " + *e;
    return std::nullopt;
}

// ---- automation ---------------------------------------------------------------------------

std::optional<std::string> WerewolfScreen::command(std::string_view name, std::string_view argumentJson,
                                                   std::string* resultJson) {
    const json arg = argumentJson.empty() ? json() : json::parse(argumentJson, nullptr, false);
    if (arg.is_discarded()) return "the argument is not JSON";
    if (name == "newGame") {
        TableSetup setup;
        if (!arg.is_null())
            if (auto e = setupFromJson(arg, setup)) return e;
        return newGame(setup);
    }
    if (name.rfind("replay", 0) == 0) return replayCommand(name, arg);
    if (name == "importJson") {
        if (!arg.is_string() && !(arg.is_object() && arg.contains("text")))
            return "importJson takes the exported text (a string, or {\"text\": ...})";
        const std::string text = arg.is_string() ? arg.get<std::string>() : arg["text"].get<std::string>();
        return importFile(text);
    }
    if (!session_) return "there is no game";
    if (name == "start") {
        if (session_->finished()) return "the game is over: start a new one";
        running_ = true;
        message_.clear();
        ++changes_;
        return std::nullopt;
    }
    if (name == "pause") {
        running_ = false;
        save();
        ++changes_;
        return std::nullopt;
    }
    if (name == "step") {
        if (session_->finished() && shownEvents_ >= session_->game().events().size()) return "the game is over";
        running_ = false;
        ++stepsWanted_;
        return std::nullopt;
    }
    if (name == "setSpeed") {
        const json& v = arg.is_object() && arg.contains("speed") ? arg["speed"] : arg;
        if (!v.is_number()) return "set_speed takes {\"speed\": 0.25, 1, 4, 16 or 0 (as fast as it runs)}";
        for (int i = 0; i < 5; ++i)
            if (std::fabs(kSpeeds[i] - v.get<double>()) < 1e-9) {
                speedIndex_ = i;
                return std::nullopt;
            }
        return "speed must be 0.25, 1, 4, 16 or 0 (as fast as it runs)";
    }
    if (name == "selectPlayer") {
        const std::optional<int> seat = seatArgument(arg, "seat");
        if (!seat || *seat < 0 || *seat >= session_->game().seats()) return "no such seat";
        selected_ = *seat;
        ++changes_;
        return std::nullopt;
    }
    if (name == "setPov") {
        if (personSeat() >= 0 && !personOut() && !session_->finished())
            return "a person plays at this table: the view is that seat's until they are out";
        const json& v = arg.is_object() && arg.contains("seat") ? arg["seat"] : arg;
        if (v.is_string() && v == "spectator") pov_ = -1;
        else if (std::optional<int> seat = seatArgument(arg, "seat"); seat && *seat >= -1 && *seat < session_->game().seats())
            pov_ = *seat;
        else return "set_pov takes \"spectator\" or a seat (\"P3\")";
        ++changes_;
        return std::nullopt;
    }
    if (name == "exportJson") {
        if (resultJson) *resultJson = json(exportText()).dump();
        return std::nullopt;
    }
    const int person = personSeat();
    if (name == "humanPass") return passPerson();
    if (name == "humanSay" || name == "humanVote" || name == "humanTarget") {
        if (person < 0) return "nobody plays a seat as a person at this table";
        if (name == "humanSay") {
            const json& t = arg.is_object() && arg.contains("text") ? arg["text"] : arg;
            if (!t.is_string()) return "human_say takes {\"text\": ...}";
            return submitPerson(Decision::speak(person, t.get<std::string>()));
        }
        const std::optional<int> target = seatArgument(arg, "target");
        if (!target) return "name a target seat (\"P3\")";
        if (name == "humanVote") return submitPerson(Decision::vote(person, *target));
        for (const werewolf::PendingDecision& p : session_->awaitedFrom(person))
            if (p.kind != DecisionKind::Speak && p.kind != DecisionKind::Vote)
                return submitPerson({person, p.kind, *target, {}});
        return "your seat has no night action to take now";
    }
    return "unknown command '" + std::string(name) + "'";
}

std::string WerewolfScreen::exportText() const {
    json doc = json::parse(document(), nullptr, false);
    if (session_ && session_->setupError() == werewolf::SetupError::None) {
        const json game = json::parse(exportGameJson(*session_, summarize(*session_, 1)), nullptr, false);
        if (!game.is_discarded()) doc["game"] = game;
    }
    return doc.dump(2, ' ', false, json::error_handler_t::replace);
}

std::string WerewolfScreen::stateJson() const {
    json s = json::object();
    s["prompts_error"] = promptsError_;
    s["message"] = message_;
    s["message_is_error"] = messageIsError_;
    s["corrupt_kept"] = corruptKept_;
    s["replay"] = replayStateJson();
    // The New Game dialog while it is open: the seats as it would deal them.
    if (dialog_.open)
        s["new_game"] = json{{"players", dialog_.draft.players}, {"model", dialog_.model()}, {"rules", dialog_.draft.preset}};
    if (!session_ || session_->setupError() != werewolf::SetupError::None) {
        s["phase"] = "none";
        return s.dump();
    }
    const werewolf::Game& g = session_->game();
    const int pov = povSeat();
    s["phase"] = std::string(werewolf::phaseName(g.phase()));
    s["round"] = g.round();
    s["events"] = g.events().size();
    s["shown_events"] = shownEvents_;
    s["running"] = running_;
    s["paused"] = !running_;
    s["restoring"] = replayTo_.has_value();
    s["finished"] = session_->finished();
    s["winner"] = g.winner() ? json(std::string(werewolf::teamName(*g.winner()))) : json();
    s["speed"] = kSpeeds[speedIndex_];
    s["pov"] = pov < 0 ? json("spectator") : json(werewolf::seatName(pov));
    s["layout"] = phone_ ? "phone" : "desk";
    s["phoneView"] = phoneView_ == PhoneView::Table ? "table" : phoneView_ == PhoneView::Chat ? "chat" : "seat";
    s["selected"] = werewolf::seatName(selected_);
    s["cost_usd"] = session_->costUsd();
    s["tokens"] = session_->tokens();
    s["fallbacks"] = session_->fallbacks();
    s["requests_in_flight"] = session_->requestsInFlight();
    s["answers_recorded"] = chat_.recordingJson().size();
    s["answers_unreplayed"] = chat_.pendingReplays();
    json seats = json::array(), alive = json::array();
    for (int i = 0; i < g.seats(); ++i) {
        const TableSeat& spec = session_->config().seats[static_cast<std::size_t>(i)];
        json seat = {{"seat", werewolf::seatName(i)}, {"player", spec.player}, {"alive", g.isAlive(i)}};
        bool known = pov < 0 || pov == i || g.isOver();
        for (const werewolf::Event& e : g.events())
            if (visible(e) && ((e.target == i && e.revealedRole) ||
                               (e.kind == werewolf::EventKind::PackRevealed &&
                                std::find(e.seats.begin(), e.seats.end(), i) != e.seats.end())))
                known = true;
        if (known) seat["role"] = std::string(werewolf::roleName(g.roleOf(i)));
        seats.push_back(seat);
        if (g.isAlive(i)) alive.push_back(werewolf::seatName(i));
    }
    s["seats"] = seats;
    s["alive"] = alive;
    json chat = json::array(), votes = json::array();
    for (const werewolf::Event& e : g.events()) {
        if (!visible(e)) continue;
        if (e.kind == werewolf::EventKind::DayChat || e.kind == werewolf::EventKind::WolfChat)
            chat.push_back({{"seat", werewolf::seatName(e.seat)}, {"text", e.text}, {"round", e.round},
                            {"wolves", e.kind == werewolf::EventKind::WolfChat}});
        if (e.kind == werewolf::EventKind::VoteCast)
            votes.push_back({{"round", e.round}, {"voter", werewolf::seatName(e.seat)}, {"target", werewolf::seatName(e.target)}});
    }
    s["chat"] = chat;
    s["votes"] = votes;
    const int person = personSeat();
    if (person >= 0) {
        json awaiting = json::array();
        for (const werewolf::PendingDecision& p : session_->awaitedFrom(person)) {
            json targets = json::array();
            for (int t : p.targets) targets.push_back(werewolf::seatName(t));
            awaiting.push_back({{"kind", std::string(werewolf::decisionKindName(p.kind))}, {"targets", targets}});
        }
        s["person"] = {{"seat", werewolf::seatName(person)}, {"awaiting", awaiting},
                       {"context", session_->contextFor(person)}, {"passed", session_->personPassed()},
                       {"composing", composing_}, {"draft", std::string(sayBuffer_)}, {"unsentDraft", unsentDraft_},
                       {"out", personOut()}};
        if (const std::optional<std::int64_t> left = session_->dayTimeLeftMs()) s["person"]["dayTimeLeftMs"] = *left;
    }
    return s.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::vector<ui::CommandInfo> WerewolfScreen::commands() const {
    return {{"newGame"}, {"importJson"}, {"start"}, {"pause"}, {"step"}, {"setSpeed"}, {"selectPlayer"},
            {"setPov"}, {"exportJson"}, {"humanSay"}, {"humanPass"}, {"humanVote"}, {"humanTarget"},
            {"replayOpen"}, {"replayStep"}, {"replayJump"}, {"replaySeek"}, {"replayPov"}, {"replayClose"}};
}

} // namespace chaiba::werewolfmode
