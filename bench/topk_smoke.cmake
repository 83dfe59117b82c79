# bench_topk_smoke*: runs one `gpusort-bench topk` command line and checks that it ended with exit
# status 0 (every result right) and that its topk.csv has a measured row for each of gpusort's cases
# (a case gpusort refused or could not run leaves another status, which fails here).
#   cmake "-DCOMMAND=prog|topk|...|--out|DIR" -DOUT=DIR -DCASES=N -P topk_smoke.cmake
file(REMOVE_RECURSE ${OUT})
string(REPLACE "|" ";" command "${COMMAND}")
execute_process(COMMAND ${command} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${command}: exit status ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT EXISTS ${OUT}/topk.csv OR NOT EXISTS ${OUT}/topk.json)
  message(FATAL_ERROR "${command} wrote no ${OUT}/topk.csv/.json\nstderr: ${err}")
endif()
file(STRINGS ${OUT}/topk.csv lines)
list(FILTER lines INCLUDE REGEX ",gpusort,")
list(LENGTH lines gpusort_rows)
list(FILTER lines INCLUDE REGEX ",ok$")
list(LENGTH lines ok_rows)
if(NOT gpusort_rows EQUAL CASES OR NOT ok_rows EQUAL CASES)
  message(FATAL_ERROR "${OUT}/topk.csv: ${ok_rows} of ${gpusort_rows} gpusort rows measured, expected ${CASES}\n${out}")
endif()
message("gpusort-bench topk: ${ok_rows} gpusort cases checked and measured")
