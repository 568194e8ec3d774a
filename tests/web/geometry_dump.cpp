// Prints the desktop client's board geometry (client/model/board_geometry.h) as JSON for a few
// areas, flipped and not: web/test/geometry.test.ts checks the page's SVG board against it, so the
// two boards keep one geometry.
#include <cstdio>

#include "client/model/board_geometry.h"

int main() {
    using xq::client::BoardGeometry;
    using xq::client::Rect;
    const Rect areas[] = {{0, 0, 640, 704}, {13, 7, 500, 900}, {0, 0, 1920, 1080}, {5, 9, 333.5f, 271.25f}};
    std::printf("{\"piece_radius\": %.6f, \"cases\": [", static_cast<double>(BoardGeometry::kPieceRadius));
    bool first = true;
    for (const Rect& a : areas)
        for (bool flipped : {false, true}) {
            const BoardGeometry g(a, flipped);
            std::printf("%s\n{\"area\": [%g, %g, %g, %g], \"flipped\": %s, \"cell\": %.6f, \"centers\": [",
                        first ? "" : ",", static_cast<double>(a.x), static_cast<double>(a.y),
                        static_cast<double>(a.w), static_cast<double>(a.h), flipped ? "true" : "false",
                        static_cast<double>(g.cell()));
            first = false;
            for (xq::Square s = 0; s < xq::kSquares; ++s) {
                const auto p = g.center(s);
                std::printf("%s[%.4f, %.4f]", s ? ", " : "", static_cast<double>(p.x), static_cast<double>(p.y));
            }
            std::printf("], \"river_words\": [");
            const auto words = g.river_words();
            for (std::size_t i = 0; i < words.size(); ++i)
                std::printf("%s[%.4f, %.4f, %.4f, %.4f]", i ? ", " : "", static_cast<double>(words[i].x),
                            static_cast<double>(words[i].y), static_cast<double>(words[i].w),
                            static_cast<double>(words[i].h));
            std::printf("]}");
        }
    std::printf("]}\n");
    return 0;
}
