// A chat service in front of the page's client that records every answer a seat received, so a
// stored or imported game can be rebuilt exactly: the session is deterministic given its answers
// (and a person's decisions), so replaying them through a fresh session gives the same game.
// Recorded answers are served first (keyed by the request's model and messages); a request with
// no recording goes to the live client, or fails with a clear error when there is none (no key).
#pragma once

#include "src/llm/chat.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace chaiba::werewolfmode {

class ReplayChat final : public llm::ChatService {
public:
    // live() is read at each send: the shell's client changes when a key is added or forgotten.
    explicit ReplayChat(std::function<llm::ChatService*()> live) : live_(std::move(live)) {}
    ~ReplayChat() override;

    llm::ChatCallId send(llm::ChatRequest request, llm::ChatHandlers handlers) override;
    void cancel(llm::ChatCallId id) override;
    // Delivers the next replayed answer, in the order the answers first arrived (one per call, so
    // the session sees them one at a time, as it did live); the live client is pumped by the shell.
    void poll() override;
    // Delivers the earliest replayed answer asked for even when an earlier one was never asked
    // (call when nothing else can arrive first).
    void flush();
    std::size_t queued() const { return queue_.size(); }

    // The recording, as stored: [{"key": hex, "outcome": {...}}, ...] in arrival order.
    const nlohmann::json& recordingJson() const { return recording_; }
    // Loads a recording to serve; the error names what is wrong with it.
    std::optional<std::string> loadRecording(const nlohmann::json& list);
    // Recorded answers not yet served (a replay is complete at 0).
    std::size_t pendingReplays() const;
    int liveCalls() const { return static_cast<int>(liveIds_.size()); }

private:
    struct Queued {
        llm::ChatCallId id;
        bool recorded;     // a recorded answer (else a refusal: no key)
        std::size_t index; // in the recording
        llm::ChatOutcome outcome;
        llm::ChatHandlers handlers;
    };
    std::function<llm::ChatService*()> live_;
    nlohmann::json recording_ = nlohmann::json::array();
    std::map<std::string, std::deque<std::pair<std::size_t, llm::ChatOutcome>>> served_; // by request key
    std::size_t nextDelivery_ = 0; // the recording index due next
    std::vector<Queued> queue_;
    std::map<llm::ChatCallId, std::pair<llm::ChatService*, llm::ChatCallId>> liveIds_;
    llm::ChatCallId nextId_ = 1;
};

// The key of a request: its model and messages (the answer depends on nothing else we send).
std::string requestKey(const llm::ChatRequest& request);
nlohmann::json outcomeToJson(const llm::ChatOutcome& outcome);
std::optional<llm::ChatOutcome> outcomeFromJson(const nlohmann::json& j);

} // namespace chaiba::werewolfmode
