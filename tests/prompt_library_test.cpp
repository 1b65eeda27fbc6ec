// Prompts as data: loading by name per mode, edits over the shipped texts, reset, and the edits'
// JSON surviving a reload (unknown names and bad values dropped with a warning).
#include "src/llm/prompt_library.h"

#include <doctest/doctest.h>

using namespace chaiba::llm;

namespace {
MemoryAssetSource assets() {
    MemoryAssetSource a;
    a.set("werewolf/strategies/seer.md", "Reveal late.\n\n");
    a.set("werewolf/strategies/villager.md", "Watch the votes.");
    return a;
}
} // namespace

TEST_CASE("prompt library: shipped texts by name, edits over them, reset") {
    const MemoryAssetSource a = assets();
    auto loaded = PromptLibrary::load(a, "werewolf", {"strategies/seer.md", "strategies/villager.md"});
    REQUIRE(loaded.isOk());
    PromptLibrary& p = *loaded.value;
    CHECK(p.text("strategies/seer.md") == "Reveal late.");
    CHECK(p.names() == std::vector<std::string>{"strategies/seer.md", "strategies/villager.md"});
    CHECK_FALSE(p.edit("strategies/seer.md", "Reveal at once."));
    CHECK(p.text("strategies/seer.md") == "Reveal at once.");
    CHECK(p.shipped("strategies/seer.md") == "Reveal late.");
    CHECK(p.edited("strategies/seer.md"));
    CHECK_FALSE(p.edit("strategies/seer.md", "Reveal late.")); // back to the shipped text: no edit
    CHECK_FALSE(p.edited("strategies/seer.md"));
    CHECK(p.edit("strategies/wolf.md", "x")->find("no prompt named") != std::string::npos);
    CHECK(p.edit("strategies/seer.md", std::string(PromptLibrary::kMaxTextBytes + 1, 'a'))->find("KiB") !=
          std::string::npos);
    CHECK_FALSE(p.edit("strategies/villager.md", "Count the wolves."));
    p.reset("strategies/villager.md");
    CHECK(p.text("strategies/villager.md") == "Watch the votes.");

    auto missing = PromptLibrary::load(a, "werewolf", {"strategies/doctor.md"});
    CHECK_FALSE(missing.isOk());
    CHECK(missing.error.find("werewolf/strategies/doctor.md") != std::string::npos);
}

TEST_CASE("prompt library: edits survive a reload, stale or bad ones are dropped with a warning") {
    const MemoryAssetSource a = assets();
    PromptLibrary p = *PromptLibrary::load(a, "werewolf", {"strategies/seer.md", "strategies/villager.md"}).value;
    REQUIRE_FALSE(p.edit("strategies/seer.md", "Claim on day two."));
    const std::string saved = p.editsJson();
    PromptLibrary q = *PromptLibrary::load(a, "werewolf", {"strategies/seer.md", "strategies/villager.md"}).value;
    CHECK(q.loadEditsJson(saved).empty());
    CHECK(q.text("strategies/seer.md") == "Claim on day two.");

    PromptLibrary r = *PromptLibrary::load(a, "werewolf", {"strategies/seer.md", "strategies/villager.md"}).value;
    const auto warnings =
        r.loadEditsJson(R"({"version":1,"edits":{"strategies/gone.md":"x","strategies/villager.md":7}})");
    CHECK(warnings.size() == 2);
    CHECK_FALSE(r.edited("strategies/villager.md"));
    CHECK(r.loadEditsJson("not json").size() == 1);
}
