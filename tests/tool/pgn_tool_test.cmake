# Runs TOOL pgn ... as a user would, in the scratch folder WORK. MODE picks the scenario:
#   encoding   ENCODING (big5|gbk) file made with iconv: detected, or read as --encoding says
#   roundtrip  export (both styles) then import gives back the moves and tags
#   partial    an illegal move: exit 2, the error names line/ply/text, earlier moves are kept
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

function(run_tool out_var status_var)
  execute_process(COMMAND ${TOOL} pgn ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${out_var} "${out}${err}" PARENT_SCOPE)
  set(${status_var} "${status}" PARENT_SCOPE)
endfunction()

function(expect_status status want out)
  if(NOT status STREQUAL "${want}")
    message(FATAL_ERROR "expected exit status ${want}, got ${status}:\n${out}")
  endif()
endfunction()

function(expect_contains text literal)
  string(FIND "${text}" "${literal}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "expected to find\n  ${literal}\nin\n${text}")
  endif()
endfunction()

function(expect_lacks text literal)
  string(FIND "${text}" "${literal}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "did not expect\n  ${literal}\nin\n${text}")
  endif()
endfunction()

set(moves_json "\"moves\":[\"h2e2\",\"h9g7\",\"h0g2\",\"i9h9\"]")

if(MODE STREQUAL "encoding")
  if(ENCODING STREQUAL "big5")
    set(event "全國象棋個人賽")
    set(movetext "1. 炮二平五 馬８進７\n2. 馬二進三 車９平８\n1-0\n")
  else()
    set(event "全国象棋个人赛")
    set(movetext "1. 炮二平五 马８进７\n2. 马二进三 车９平８\n1-0\n")
  endif()
  file(WRITE "${WORK}/utf8.pgn" "[Game \"Chinese Chess\"]\n[Event \"${event}\"]\n[Result \"1-0\"]\n\n${movetext}")
  find_program(ICONV iconv REQUIRED)
  execute_process(COMMAND ${ICONV} -f UTF-8 -t ${ENCODING} "${WORK}/utf8.pgn"
                  OUTPUT_FILE "${WORK}/encoded.pgn" RESULT_VARIABLE status)
  expect_status("${status}" 0 "iconv to ${ENCODING} failed")

  # Detected without --encoding, and the same with it.
  foreach(option "" "--encoding;${ENCODING}")
    run_tool(out status import "${WORK}/encoded.pgn" ${option})
    expect_status("${status}" 0 "${out}")
    expect_contains("${out}" "${moves_json}")
    expect_contains("${out}" "\"Event\":\"${event}\"")
    expect_contains("${out}" "\"result\":\"1-0\"")
  endforeach()

  # Bytes that are neither UTF-8, Big5 nor GBK: refused, naming --encoding.
  execute_process(COMMAND printf "[Event \"x\"]\\n\\201 \\377\\n" OUTPUT_FILE "${WORK}/garbage.pgn")
  run_tool(out status import "${WORK}/garbage.pgn")
  expect_status("${status}" 2 "${out}")
  expect_contains("${out}" "\"error\":\"encoding\"")
  expect_contains("${out}" "--encoding")
  expect_lacks("${out}" "\"moves\"")

  # A wrong guess never yields moves: iconv rejects the bytes or the first move does not parse.
  foreach(wrong utf-8 big5 gbk)
    if(NOT wrong STREQUAL ENCODING)
      run_tool(out status import "${WORK}/encoded.pgn" --encoding ${wrong})
      expect_status("${status}" 2 "${out}")
      expect_lacks("${out}" "${moves_json}")
    endif()
  endforeach()

  run_tool(out status import "${WORK}/utf8.pgn")  # plain UTF-8 needs no option
  expect_status("${status}" 0 "${out}")
  expect_contains("${out}" "${moves_json}")
elseif(MODE STREQUAL "roundtrip")
  foreach(style xqbase engine)
    run_tool(pgn status export --fen startpos --moves "h2e2 马8进7 H2+3 i9h9" --style ${style}
             --notation traditional --tag "Event=Test \"cup\"" --tag Red=Lü --result 1/2-1/2)
    expect_status("${status}" 0 "${pgn}")
    file(WRITE "${WORK}/${style}.pgn" "${pgn}")
    run_tool(out status import "${WORK}/${style}.pgn")
    expect_status("${status}" 0 "${out}")
    expect_contains("${out}" "${moves_json}")
    expect_contains("${out}" "\"Event\":\"Test \\\"cup\\\"\"")
    expect_contains("${out}" "\"result\":\"1/2-1/2\"")
  endforeach()
  expect_contains("${pgn}" "[Variant \"xiangqi\"]")
  expect_contains("${pgn}" "[White \"Lü\"]")
  file(WRITE "${WORK}/empty.pgn" "")
  run_tool(out status import "${WORK}/empty.pgn")  # no game at all is an error too
  expect_status("${status}" 2 "${out}")
  expect_contains("${out}" "\"error\":\"pgn_empty\"")
elseif(MODE STREQUAL "partial")
  file(WRITE "${WORK}/bad.pgn" "[Game \"Chinese Chess\"]\n\n1. 炮二平五 馬８進７\n2. 馬二進三 車９平８\n3. 車一進九 車８進１\n")
  run_tool(out status import "${WORK}/bad.pgn")
  expect_status("${status}" 2 "${out}")
  expect_contains("${out}" "${moves_json}")
  expect_contains("${out}" "\"code\":\"pgn_illegal_move\"")
  expect_contains("${out}" "\"line\":5")
  expect_contains("${out}" "\"ply\":5")
  expect_contains("${out}" "\"text\":\"車一進九\"")
else()
  message(FATAL_ERROR "unknown MODE '${MODE}'")
endif()
message(STATUS "ok: ${MODE} ${ENCODING}")
