# Compile-time measures for the host C++ of the solver (docs/building.md, "Build time"):
#
# - Precompiled headers (cmake/precompiled.hpp: the standard library, fmt and spdlog, and
#   fmt's formatting code declared compiled in libfmt). -DFDSOLVE_PRECOMPILE_HEADERS=OFF (or
#   CMake's CMAKE_DISABLE_PRECOMPILE_HEADERS) builds without: every source includes what it
#   uses, and the sanitizer stage of tools/run-tests.sh builds that way to keep it so.
# - Unity groups: a few sources that instantiate the same templates (the solve loops' field
#   writers, start states, backends) compiled as one translation unit, so that each template
#   is compiled once. -DFDSOLVE_UNITY_GROUPS=OFF compiles them one by one.
option(FDSOLVE_PRECOMPILE_HEADERS "Precompile the common headers of the host C++ targets" ON)
option(FDSOLVE_UNITY_GROUPS "Compile the solve loops as one translation unit" ON)

# fdsolve_precompile_headers(TARGET [HEADERS HEADER...] [REUSE OTHER...]): TARGET gets a
# precompiled header of HEADERs (default cmake/precompiled.hpp); each OTHER target, whose
# sources are compiled with TARGET's options, uses TARGET's. Host C++ targets only.
function(fdsolve_precompile_headers target)
  if(NOT FDSOLVE_PRECOMPILE_HEADERS)
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "HEADERS;REUSE")
  if(NOT arg_HEADERS)
    set(arg_HEADERS ${PROJECT_SOURCE_DIR}/cmake/precompiled.hpp)
  endif()
  target_precompile_headers(${target} PRIVATE ${arg_HEADERS})
  foreach(other IN LISTS arg_REUSE)
    target_precompile_headers(${other} REUSE_FROM ${target})
  endforeach()
endfunction()

# fdsolve_unity_group(TARGET NAME SOURCE...): SOURCEs (relative to the calling directory, in
# TARGET) compiled as one translation unit, in the order of TARGET's source list. They must not
# define the same internal names, nor change what the others' names mean: a using-directive or
# using-declaration at namespace scope in one source applies in the sources after it.
function(fdsolve_unity_group target name)
  if(NOT FDSOLVE_UNITY_GROUPS)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
  set_source_files_properties(${ARGN} TARGET_DIRECTORY ${target} PROPERTIES UNITY_GROUP ${name})
endfunction()
