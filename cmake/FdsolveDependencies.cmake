# Finds every third-party dependency (all from Debian's packages; tools/install-deps.sh).
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(yaml-cpp REQUIRED)
find_package(spdlog REQUIRED)
find_package(CLI11 REQUIRED)
find_package(muparser REQUIRED)
find_package(HDF5 REQUIRED COMPONENTS C)
find_package(Threads REQUIRED)

# yaml-cpp 0.7 exports the target `yaml-cpp`, 0.8 `yaml-cpp::yaml-cpp`: give both one name.
if(NOT TARGET fdsolve::yaml)
  add_library(fdsolve_yaml INTERFACE)
  if(TARGET yaml-cpp::yaml-cpp)
    target_link_libraries(fdsolve_yaml INTERFACE yaml-cpp::yaml-cpp)
  else()
    target_link_libraries(fdsolve_yaml INTERFACE yaml-cpp)
  endif()
  add_library(fdsolve::yaml ALIAS fdsolve_yaml)
endif()

# HDF5's FindHDF5 gives variables on older CMake; wrap them in one target.
if(NOT TARGET fdsolve::hdf5)
  add_library(fdsolve_hdf5 INTERFACE)
  target_include_directories(fdsolve_hdf5 SYSTEM INTERFACE ${HDF5_C_INCLUDE_DIRS} ${HDF5_INCLUDE_DIRS})
  target_link_libraries(fdsolve_hdf5 INTERFACE ${HDF5_C_LIBRARIES})
  target_compile_definitions(fdsolve_hdf5 INTERFACE ${HDF5_DEFINITIONS} H5_USE_110_API)
  add_library(fdsolve::hdf5 ALIAS fdsolve_hdf5)
endif()
