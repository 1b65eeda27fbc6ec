// The plan's layered layout (src/modes/planner/plan_layout.h): layers follow the longest
// dependency path, slots are dense, and barycenter ordering removes avoidable crossings.
#include "src/modes/planner/plan_layout.h"

#include "tests/planner_fixtures.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

using namespace chaiba::planner;

namespace {

PlanGraph graphOf(std::vector<std::pair<std::string, std::vector<std::string>>> tasks) {
    PlanGraph g;
    for (auto& [id, deps] : tasks) {
        Task t;
        t.id = id;
        t.name = id;
        t.dependsOn = deps;
        g.tasks.push_back(t);
    }
    return g;
}

std::string taskId(int i) {
    std::string id = "t";
    id += std::to_string(i);
    return id;
}

// Layers respect dependencies, and the indices of each layer are 0..size-1.
void checkLayout(const PlanGraph& g, const std::vector<LayoutSlot>& slots) {
    REQUIRE(slots.size() == g.tasks.size());
    for (size_t i = 0; i < g.tasks.size(); ++i) {
        bool hasDeps = false;
        for (const std::string& d : g.tasks[i].dependsOn) {
            CHECK(slots[i].layer > slots[static_cast<size_t>(g.indexOf(d))].layer);
            hasDeps = true;
        }
        if (!hasDeps) CHECK(slots[i].layer == 0);
    }
    std::map<int, std::set<int>> perLayer;
    for (const LayoutSlot& s : slots) CHECK(perLayer[s.layer].insert(s.index).second);
    for (const auto& [layer, indices] : perLayer)
        CHECK(*indices.rbegin() == static_cast<int>(indices.size()) - 1);
}

} // namespace

TEST_CASE("planner layout of the sample plan") {
    PlanGraph g = chaiba::planner::testing::samplePlan();
    std::vector<LayoutSlot> slots = layoutPlan(g);
    checkLayout(g, slots);
    // groups and notes need nothing, finals needs groups, the root needs finals.
    CHECK(slots[0] == LayoutSlot{2, 0});
    CHECK(slots[1] == LayoutSlot{0, 0});
    CHECK(slots[2] == LayoutSlot{1, 0});
    CHECK(slots[3] == LayoutSlot{0, 1});
}

TEST_CASE("planner layout uses the longest path") {
    // d needs a directly and through b → c: it sits above c, not next to b.
    PlanGraph g = graphOf({{"root", {"d"}}, {"a", {}}, {"b", {"a"}}, {"c", {"b"}}, {"d", {"a", "c"}}});
    std::vector<LayoutSlot> slots = layoutPlan(g);
    checkLayout(g, slots);
    CHECK(slots[4].layer == 3);
    CHECK(slots[0].layer == 4);
}

TEST_CASE("planner layout ordering removes crossings") {
    // In task order the upper layer is (x, y) over (b, a) with x → a and y → b: one crossing.
    PlanGraph g = graphOf({{"root", {"x", "y"}}, {"b", {}}, {"a", {}}, {"x", {"a"}}, {"y", {"b"}}});
    std::vector<LayoutSlot> naive(5);
    naive[1] = {0, 0};
    naive[2] = {0, 1};
    naive[3] = {1, 0};
    naive[4] = {1, 1};
    naive[0] = {2, 0};
    CHECK(layoutCrossings(g, naive) == 1);
    std::vector<LayoutSlot> slots = layoutPlan(g);
    checkLayout(g, slots);
    CHECK(layoutCrossings(g, slots) == 0);
}

TEST_CASE("planner layout of random plans respects dependencies") {
    std::mt19937 rng(99);
    for (int round = 0; round < 200; ++round) {
        int n = 1 + static_cast<int>(rng() % 15);
        std::vector<std::pair<std::string, std::vector<std::string>>> tasks;
        for (int i = 0; i < n; ++i) {
            std::vector<std::string> deps;
            for (int j = i + 1; j < n; ++j)
                if (rng() % 4 == 0) deps.push_back(taskId(j));
            tasks.emplace_back(taskId(i), deps);
        }
        PlanGraph g = graphOf(tasks);
        checkLayout(g, layoutPlan(g));
    }
    CHECK(layoutPlan(PlanGraph{}).empty());
}

TEST_CASE("planner layout survives a cycle") {
    PlanGraph g = graphOf({{"root", {"a"}}, {"a", {"b"}}, {"b", {"a"}}});
    std::vector<LayoutSlot> slots = layoutPlan(g);
    REQUIRE(slots.size() == 3);
    CHECK(slots[1].layer == slots[2].layer); // both on the cycle, after everything else
}

TEST_CASE("planner graph fit: a long chain in a narrow view runs top to bottom, a wide view keeps it flat") {
    using G = GraphGeometry;
    // A phone's graph view (about 350 x 230 px): three tasks in a chain are drawn at about half
    // size left to right, near full size top to bottom.
    const GraphFit phone = fitGraph(350, 230, 3, 1);
    CHECK(phone.vertical);
    CHECK(phone.worldW == doctest::Approx(G::kNodeW));
    CHECK(phone.worldH == doctest::Approx(3 * G::kNodeH + 2 * G::kLayerGapV));
    CHECK(phone.zoom > 0.9f);
    const GraphFit flatOnPhone = fitGraph(350, 230, 1, 3); // three independent tasks: one layer
    CHECK_FALSE(flatOnPhone.vertical);                       // stacked already: as tall either way
    // A wide view: the same chain fits left to right at full size.
    const GraphFit wide = fitGraph(900, 260, 3, 1);
    CHECK_FALSE(wide.vertical);
    CHECK(wide.zoom == doctest::Approx(G::kMaxZoom));
    CHECK(wide.worldW == doctest::Approx(3 * G::kNodeW + 2 * G::kLayerGap));
    // Over many shapes and widths: the pick fits the view (unless at the smallest zoom), and it is
    // the larger of the two orientations' zooms, computed here apart, save a near tie kept flat.
    auto zoomOf = [](float vw, float vh, float w, float h) {
        return std::clamp(std::min((vw - 2 * G::kPad) / w, (vh - 2 * G::kPad) / h), G::kMinZoom, G::kMaxZoom);
    };
    int verticals = 0;
    for (int layers = 1; layers <= 6; ++layers)
        for (int rows = 1; rows <= 6; ++rows)
            for (float w : {300.0f, 400.0f, 600.0f, 1000.0f}) {
                const GraphFit f = fitGraph(w, 240, layers, rows);
                CAPTURE(layers);
                CAPTURE(rows);
                CAPTURE(w);
                if (f.zoom > G::kMinZoom) {
                    CHECK(f.worldW * f.zoom <= w - 2 * G::kPad + 0.01f);
                    CHECK(f.worldH * f.zoom <= 240 - 2 * G::kPad + 0.01f);
                }
                const float flat = zoomOf(w, 240, layers * G::kNodeW + (layers - 1) * G::kLayerGap,
                                          rows * G::kNodeH + (rows - 1) * G::kSiblingGap);
                const float tall = zoomOf(w, 240, rows * G::kNodeW + (rows - 1) * G::kSiblingGapV,
                                          layers * G::kNodeH + (layers - 1) * G::kLayerGapV);
                CHECK(f.zoom == doctest::Approx(f.vertical ? tall : flat));
                CHECK(f.zoom >= flat - 1e-4f);
                CHECK(f.zoom * 1.125f >= tall - 1e-4f);
                verticals += f.vertical;
            }
    CHECK(verticals > 0);
    CHECK(verticals < 6 * 6 * 4);
}
