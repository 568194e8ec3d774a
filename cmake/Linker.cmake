# LLVM's lld links our executables ~3x faster than GNU ld (server_net_tests: 7.2 s of CPU against 2.9
# under ASan; see BENCHMARKS.md, "CI time"). g++ only (the clang fuzz build keeps its own), and only
# when ld.lld is there (Debian's lld, which ./xq installs): otherwise the default linker.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  include(CheckLinkerFlag)
  check_linker_flag(CXX -fuse-ld=lld XQ_HAVE_LLD)
  if(XQ_HAVE_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
endif()
