# Runs one benchmark command line and checks how it ends: the exit status, a pattern in what it
# printed, and (ONE_LINE) that an error is a single line on stderr.
#   cmake "-DCOMMAND=prog|arg|..." -DEXPECT_RC=2 "-DPATTERN=regex" [-DONE_LINE=1] -P expect_exit.cmake
string(REPLACE "|" ";" command "${COMMAND}")
execute_process(COMMAND ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "${command}: exit status ${rc}, expected ${EXPECT_RC}\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT "${out}${err}" MATCHES "${PATTERN}")
  message(FATAL_ERROR "${command}: printed no match of '${PATTERN}'\nstdout: ${out}\nstderr: ${err}")
endif()
if(ONE_LINE)
  string(REGEX MATCHALL "\n" newlines "${err}")
  list(LENGTH newlines lines)
  if(NOT lines EQUAL 1)
    message(FATAL_ERROR "${command}: ${lines} lines on stderr, expected one\nstderr: ${err}")
  endif()
endif()
