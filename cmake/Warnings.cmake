# Project warnings as an interface target, linked PRIVATE by every target we write (never by
# generated code). XQ_WERROR turns them into errors.
add_library(xq_warnings INTERFACE)
target_compile_options(xq_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wconversion -Wshadow
  $<$<BOOL:${XQ_WERROR}>:-Werror>)
