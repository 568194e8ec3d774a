# Runs TOOL rules ARGS and checks for exit status 2 and a JSON error whose code is EXPECT.
execute_process(COMMAND ${TOOL} rules ${ARGS} RESULT_VARIABLE status OUTPUT_VARIABLE out)
if(NOT status EQUAL 2)
  message(FATAL_ERROR "expected exit status 2, got ${status}: ${out}")
endif()
if(NOT out MATCHES "\"error\":\"${EXPECT}\"" OR NOT out MATCHES "\"message\":")
  message(FATAL_ERROR "expected error ${EXPECT}, got: ${out}")
endif()
message(STATUS "ok: ${out}")
