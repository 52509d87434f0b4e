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

# Parallel HDF5 (MPI-IO) writes snapshots and checkpoints collectively, each rank its own
# hyperslab; a serial HDF5 in an MPI build leaves them to rank 0 (gathered: the slow path).
set(FDSOLVE_PARALLEL_HDF5 OFF)
if(FDSOLVE_ENABLE_MPI)
  if(HDF5_IS_PARALLEL)
    set(FDSOLVE_PARALLEL_HDF5 ON)
    message(STATUS "fdsolve: parallel HDF5 ${HDF5_VERSION} (${HDF5_C_INCLUDE_DIRS}): ranks write "
                   "snapshots and checkpoints collectively")
  else()
    message(STATUS "fdsolve: serial HDF5 ${HDF5_VERSION}: over several ranks, snapshots and "
                   "checkpoints are gathered to rank 0 and written by it (the slow path; "
                   "install libhdf5-openmpi-dev and reconfigure in a fresh build directory for "
                   "parallel output)")
  endif()
endif()

# HDF5's FindHDF5 gives variables on older CMake; wrap them in one target.
if(NOT TARGET fdsolve::hdf5)
  add_library(fdsolve_hdf5 INTERFACE)
  target_include_directories(fdsolve_hdf5 SYSTEM INTERFACE ${HDF5_C_INCLUDE_DIRS} ${HDF5_INCLUDE_DIRS})
  target_link_libraries(fdsolve_hdf5 INTERFACE ${HDF5_C_LIBRARIES})
  target_compile_definitions(fdsolve_hdf5 INTERFACE ${HDF5_DEFINITIONS} H5_USE_110_API)
  # The parallel build's hdf5.h includes mpi.h.
  if(FDSOLVE_PARALLEL_HDF5)
    target_link_libraries(fdsolve_hdf5 INTERFACE MPI::MPI_C)
  endif()
  add_library(fdsolve::hdf5 ALIAS fdsolve_hdf5)
endif()
