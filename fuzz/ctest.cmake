# The libFuzzer targets as CTest entries (label fuzz), included from tests/CMakeLists.txt so that the
# g++ build's "./xq test" runs them: fuzz.build builds them with clang in a folder of its own (clang-19
# and libclang-rt-19-dev, which ./xq installs; without them it fails saying so), then each target
# runs for 10 s from its seeds with a fresh corpus. A finding fails the test and prints the input.
set(XQ_FUZZ_BUILD_DIR ${CMAKE_BINARY_DIR}/fuzz-clang)
set(XQ_FUZZ_SCRIPT ${PROJECT_SOURCE_DIR}/fuzz/fuzz.sh)
add_test(NAME fuzz.build COMMAND ${XQ_FUZZ_SCRIPT} build ${XQ_FUZZ_BUILD_DIR})
set_tests_properties(fuzz.build PROPERTIES LABELS fuzz TIMEOUT 900 FIXTURES_SETUP xq_fuzz_targets)
foreach(target fuzz_frame fuzz_dispatch fuzz_fen fuzz_notation fuzz_pgn fuzz_names fuzz_resp fuzz_web)
  add_test(NAME fuzz.${target} COMMAND ${XQ_FUZZ_SCRIPT} smoke ${XQ_FUZZ_BUILD_DIR} ${target} 10)
  set_tests_properties(fuzz.${target} PROPERTIES LABELS fuzz TIMEOUT 120 FIXTURES_REQUIRED xq_fuzz_targets)
endforeach()
