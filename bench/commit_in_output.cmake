# gpusort-bench records what measured: a small sweep, then its CSV rows and JSON meta must carry
# gpusort's version and the source tree's commit (the commit checked out now, or "unknown" outside
# a git checkout of SOURCE_DIR).
#   cmake -DBENCH=<gpusort-bench> -DOUT=<dir> -DSOURCE_DIR=<gpusort source> -DVERSION=<x.y.z> -P commit_in_output.cmake
cmake_policy(SET CMP0007 NEW)  # keep empty CSV cells as list elements
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${BENCH} sweep --no-cub --algorithms radix --types u32 --dists uniform --min-log2 10
                        --max-log2 10 --std-max-log2 0 --host-max-log2 0 --repeats 1 --out ${OUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gpusort-bench sweep failed (${rc}):\n${out}\n${err}")
endif()

set(expected unknown)
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --show-toplevel
    RESULT_VARIABLE git_rc OUTPUT_VARIABLE top OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(git_rc EQUAL 0)
    file(REAL_PATH "${top}" top)
    file(REAL_PATH "${SOURCE_DIR}" source)
    if(top STREQUAL source)
      execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --short=12 HEAD
        OUTPUT_VARIABLE expected OUTPUT_STRIP_TRAILING_WHITESPACE)
    endif()
  endif()
endif()

# The CSV: columns by name from the header; every row names the version and the commit.
file(STRINGS ${OUT}/sweep.csv lines)
list(GET lines 0 header)
string(REPLACE "," ";" columns "${header}")
list(FIND columns version version_at)
list(FIND columns commit commit_at)
list(FIND columns status status_at)
list(LENGTH columns width)
math(EXPR last "${width} - 1")
if(version_at LESS 0 OR commit_at LESS 0 OR NOT status_at EQUAL last)
  message(FATAL_ERROR "sweep.csv header lacks version and commit (or status is not last): ${header}")
endif()
list(REMOVE_AT lines 0)
list(LENGTH lines rows)
if(rows LESS 2)
  message(FATAL_ERROR "sweep.csv has ${rows} rows")
endif()
foreach(line IN LISTS lines)
  string(REPLACE "," ";" cells "${line}")
  list(GET cells ${version_at} version)
  list(GET cells ${commit_at} commit)
  if(NOT version STREQUAL "${VERSION}" OR NOT commit MATCHES "${expected}")
    message(FATAL_ERROR "sweep.csv row says version '${version}' commit '${commit}', expected ${VERSION} and ${expected}: ${line}")
  endif()
endforeach()

# The JSON (parsed: it must be valid JSON): the same in its meta block.
file(READ ${OUT}/sweep.json json)
string(JSON meta_version GET "${json}" meta version)
string(JSON meta_commit GET "${json}" meta commit)
if(NOT meta_version STREQUAL "${VERSION}" OR NOT meta_commit MATCHES "${expected}")
  message(FATAL_ERROR "sweep.json meta says version '${meta_version}' commit '${meta_commit}', expected ${VERSION} and ${expected}")
endif()
message("gpusort-bench records gpusort ${meta_version}, commit ${meta_commit}")
