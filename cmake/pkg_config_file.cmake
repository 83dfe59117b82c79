# gpusort.pc for pkg-config, installed beside the library.
# - Relocatable: prefix is found from the file's own place (${pcfiledir}), so an installation moved
#   or made with `cmake --install --prefix P` still points at itself.
# - A static libgpusort (the default) links its dependencies (OpenCL, threads, dl) into no file of
#   its own, so every consumer must name them: they go in Libs, and the plain
#   `pkg-config --cflags --libs gpusort` links. A shared one carries them; they stay in Libs.private
#   for --static. OpenCL is named by the library CMake found, not by OpenCL.pc, which some OpenCL
#   installations (the CUDA toolkit's) lack.
function(gpusort_pc_link_flag library out)
  if(library MATCHES "^-")
    set(flag "${library}")
  elseif(IS_ABSOLUTE "${library}" AND library MATCHES "/lib([^/]+)\\.(so|a|dylib)(\\.[0-9.]+)?$")
    get_filename_component(dir "${library}" DIRECTORY)
    set(flag "-l${CMAKE_MATCH_1}")
    if(NOT dir IN_LIST CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES)
      set(flag "-L${dir} ${flag}")
    endif()
  elseif(IS_ABSOLUTE "${library}")
    set(flag "${library}")
  else()
    set(flag "-l${library}")
  endif()
  set(${out} "${flag}" PARENT_SCOPE)
endfunction()

set(gpusort_pc_deps "")
gpusort_pc_link_flag("${OpenCL_LIBRARY}" flag)
list(APPEND gpusort_pc_deps "${flag}")
if(CMAKE_THREAD_LIBS_INIT)
  list(APPEND gpusort_pc_deps "${CMAKE_THREAD_LIBS_INIT}")
endif()
foreach(library IN LISTS CMAKE_DL_LIBS)
  gpusort_pc_link_flag("${library}" flag)
  list(APPEND gpusort_pc_deps "${flag}")
endforeach()
list(JOIN gpusort_pc_deps " " gpusort_pc_deps)

get_target_property(gpusort_type gpusort TYPE)
if(gpusort_type STREQUAL "STATIC_LIBRARY")
  set(GPUSORT_PC_LIBS "${gpusort_pc_deps}")
  set(GPUSORT_PC_LIBS_PRIVATE "")
else()
  set(GPUSORT_PC_LIBS "")
  set(GPUSORT_PC_LIBS_PRIVATE "${gpusort_pc_deps}")
endif()

set(gpusort_pc_dir "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(GPUSORT_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH up "/${gpusort_pc_dir}" "/")
  string(REGEX REPLACE "/$" "" up "${up}")
  set(GPUSORT_PC_PREFIX "\${pcfiledir}/${up}")
endif()
foreach(kind LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${kind}}")
    set(GPUSORT_PC_${kind} "${CMAKE_INSTALL_${kind}}")
  else()
    set(GPUSORT_PC_${kind} "\${prefix}/${CMAKE_INSTALL_${kind}}")
  endif()
endforeach()

configure_file(${CMAKE_CURRENT_LIST_DIR}/gpusort.pc.in ${CMAKE_CURRENT_BINARY_DIR}/gpusort.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/gpusort.pc DESTINATION ${gpusort_pc_dir})
