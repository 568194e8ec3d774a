#pragma once
// The fuzz targets' assertion: an invariant that fails aborts with a message, which libFuzzer
// reports as a crash and saves the input. Unlike assert() it stays on in release builds.

#include <cstdio>
#include <cstdlib>

#define XQ_FUZZ_CHECK(cond, what)                                                              \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            std::fprintf(stderr, "fuzz invariant failed: %s (%s) at %s:%d\n", what, #cond,      \
                         __FILE__, __LINE__);                                                  \
            std::abort();                                                                      \
        }                                                                                      \
    } while (0)
