// `chaiba story`'s steering flags (--regenerate, --swipe, --delete-answer, --continue, --edit-reply,
// --redo): the same operations as the page's, on a world folder's turn records.
#pragma once

#include "src/cli/args.h"
#include "src/modes/story/disk_world_files.h"
#include "src/modes/story/story_turn.h"

#include <functional>
#include <optional>
#include <string>

namespace chaiba::cli {

// One run of the game master from `from`, printed as it goes (story_command.cpp): 0 with *result
// the completed run's, else the exit code (the run failed or could not start).
using StoryRun = std::function<int(const story::Conversation& from, const std::string& say, story::TurnSteer steer,
                                   std::optional<story::TurnResult>& result)>;

// The steering flag given, carried out on `conversation` (its files where it left them); nothing
// when none of them was given.
std::optional<int> runStorySteering(Args& args, story::DiskWorldFiles& world, story::Conversation& conversation,
                                    const StoryRun& run);

} // namespace chaiba::cli
