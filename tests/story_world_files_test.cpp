// Story world files: the path rules, the in-memory world, and the folder on disk (in a temp dir).
#include "src/modes/story/disk_world_files.h"
#include "src/modes/story/world_files.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

using namespace chaiba::story;
namespace fs = std::filesystem;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A fresh folder under the system temp dir, removed at the end of the test.
struct TempDir {
    fs::path path;
    TempDir() {
        std::random_device device;
        path = fs::temp_directory_path() / ("chaiba-story-test-" + std::to_string(device()));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

std::vector<std::string> allEntries(const fs::path& root) {
    std::vector<std::string> entries;
    for (const auto& entry : fs::recursive_directory_iterator(root))
        entries.push_back(entry.path().lexically_relative(root).generic_string());
    std::sort(entries.begin(), entries.end());
    return entries;
}

} // namespace

TEST_CASE("story path rules accept the usual world paths") {
    for (const char* path :
         {"factions.md", "NPCs/mira.md", "locations/The Stilt Quay.md", "images/mira-portrait.png",
          "images/a_b.JPG", "notes/v1.2/log.md", "config.yaml"}) {
        CAPTURE(path);
        CHECK(checkWorldPath(path).ok());
    }
    CHECK(checkWorldPath("NPCs/mira.md").kind == WorldPathKind::Markdown);
    CHECK(checkWorldPath("images/x.webp").kind == WorldPathKind::Image);
    CHECK(checkWorldPath("config.yaml").kind == WorldPathKind::Config);
}

TEST_CASE("story path rules refuse escapes and odd names, each with its reason") {
    struct Case {
        std::string path;
        std::string reason;
    };
    const std::vector<Case> cases = {
        {"", "empty"},
        {"../outside.md", "'..'"},
        {"NPCs/../../x.md", "'..'"},
        {"/etc/passwd.md", "absolute"},
        {"NPCs\\mira.md", "backslash"},
        {"NPCs//mira.md", "empty folder or file name"},
        {"NPCs/", "empty folder or file name"},
        {"NPCs/mi\nra.md", "control characters"},
        {std::string("NPCs/mi\x01ra.md"), "control characters"},
        {"./mira.md", "'.' segments"},
        {".hidden.md", "must not start with '.'"},
        {" mira.md", "space"},
        {"NPCs/mira?.md", "found '?'"},
        {"NPCs/Café.md", "non-ASCII"},
        {"notes.txt", "markdown (.md)"},
        {"NPCs/config.yaml", "markdown (.md)"},
        {".md", "must not start with '.'"},
        {std::string(kMaxWorldPathLength - 2, 'a') + ".md", "bytes long"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.path);
        const WorldPathCheck check = checkWorldPath(c.path);
        REQUIRE_FALSE(check.ok());
        CHECK(check.error.kind == WorldErrorKind::InvalidPath);
        CHECK(contains(check.error.message, c.reason));
    }
    CHECK(checkWorldPath(std::string(kMaxWorldPathLength - 3, 'a') + ".md").ok());
}

TEST_CASE("story memory world writes, reads, lists sorted and removes") {
    MemoryWorldFiles world;
    REQUIRE(world.write("b.md", "B").ok());
    REQUIRE(world.write("NPCs/a.md", "A").ok());
    REQUIRE(world.write("a.md", "first").ok());
    REQUIRE(world.write("a.md", "second").ok());
    CHECK(world.list() == std::vector<std::string>{"NPCs/a.md", "a.md", "b.md"});
    CHECK(world.read("a.md").content == "second");
    CHECK(world.read("missing.md").missing());
    CHECK(world.read("../a.md").error.kind == WorldErrorKind::InvalidPath);
    CHECK(world.remove("b.md").ok());
    CHECK(world.remove("b.md").kind == WorldErrorKind::Missing);
    CHECK(world.list() == std::vector<std::string>{"NPCs/a.md", "a.md"});

    const WorldError tooLarge = world.write("big.md", std::string(kMaxWorldFileBytes + 1, 'x'));
    CHECK(tooLarge.kind == WorldErrorKind::TooLarge);
    CHECK(contains(tooLarge.message, "big.md"));
    CHECK(world.write("fits.md", std::string(kMaxWorldFileBytes, 'x')).ok());

    const MemoryWorldFiles seeded({{"ok.md", "x"}, {"../bad.md", "y"}});
    CHECK(seeded.list() == std::vector<std::string>{"ok.md"});
    CHECK(seeded.rejectedCount() == 1);
}

TEST_CASE("story disk world writes, reads and lists inside its folder") {
    TempDir dir;
    DiskWorldFiles world(dir.path);
    REQUIRE(world.write("factions.md", "# Factions\n").ok());
    REQUIRE(world.write("NPCs/mira.md", "Mira").ok());
    REQUIRE(world.write("images/map.png", std::string("\x89PNG\0\x01", 6)).ok());
    CHECK(world.read("NPCs/mira.md").content == "Mira");
    CHECK(world.read("images/map.png").content == std::string("\x89PNG\0\x01", 6));
    CHECK(world.read("NPCs/nobody.md").missing());
    CHECK(fs::exists(dir.path / "NPCs" / "mira.md"));
    CHECK(world.list() == std::vector<std::string>{"NPCs/mira.md", "factions.md", "images/map.png"});

    // Files that break the rules are invisible, never listed.
    std::ofstream(dir.path / "notes.txt") << "not a world file";
    std::ofstream(dir.path / ".DS_Store") << "x";
    CHECK(world.list().size() == 3);

    // Escapes are refused before touching the disk.
    CHECK(world.write("../escape.md", "x").kind == WorldErrorKind::InvalidPath);
    CHECK_FALSE(fs::exists(dir.path.parent_path() / "escape.md"));
    CHECK(world.write("big.md", std::string(kMaxWorldFileBytes + 1, 'x')).kind == WorldErrorKind::TooLarge);
    CHECK_FALSE(fs::exists(dir.path / "big.md"));
}

TEST_CASE("story disk world replaces atomically and leaves no temp files") {
    TempDir dir;
    DiskWorldFiles world(dir.path);
    for (int i = 0; i < 20; ++i) REQUIRE(world.write("NPCs/mira.md", "version " + std::to_string(i)).ok());
    CHECK(world.read("NPCs/mira.md").content == "version 19");
    CHECK(allEntries(dir.path) == std::vector<std::string>{"NPCs", "NPCs/mira.md"});

    // A failed write (a folder sits where the file would go) leaves nothing behind either.
    fs::create_directories(dir.path / "blocked.md");
    CHECK(world.write("blocked.md", "x").kind == WorldErrorKind::Io);
    CHECK(allEntries(dir.path) == std::vector<std::string>{"NPCs", "NPCs/mira.md", "blocked.md"});
}

TEST_CASE("story disk world removes files and the folders they leave empty") {
    TempDir dir;
    DiskWorldFiles world(dir.path);
    REQUIRE(world.write("NPCs/new/one.md", "1").ok());
    REQUIRE(world.write("NPCs/two.md", "2").ok());
    CHECK(world.remove("NPCs/new/one.md").ok());
    CHECK_FALSE(fs::exists(dir.path / "NPCs" / "new"));
    CHECK(fs::exists(dir.path / "NPCs" / "two.md"));
    CHECK(world.remove("NPCs/two.md").ok());
    CHECK_FALSE(fs::exists(dir.path / "NPCs"));
    CHECK(fs::exists(dir.path));
    CHECK(world.remove("NPCs/two.md").kind == WorldErrorKind::Missing);
}

TEST_CASE("story disk world refuses paths through a symbolic link") {
    TempDir dir;
    TempDir outside;
    fs::create_directories(dir.path / "world");
    std::error_code ec;
    fs::create_directory_symlink(outside.path, dir.path / "world" / "NPCs", ec);
    REQUIRE_FALSE(ec);
    DiskWorldFiles world(dir.path / "world");
    const WorldError error = world.write("NPCs/mira.md", "x");
    CHECK(error.kind == WorldErrorKind::InvalidPath);
    CHECK(contains(error.message, "symbolic link"));
    CHECK_FALSE(fs::exists(outside.path / "mira.md"));
    CHECK(world.list().empty());
}
