# Reference cases (tests/regression/<case>/: case.yaml, reference.h5, tolerance; README.md says
# what each guards): one CTest test per case on the CPU (label regression: the reference, the
# stopping margin, a second run bit-identical, float rounding headroom, the reference against
# an independent answer) and on CUDA (labels gpu;regression: the same reference, CUDA vs CPU,
# CUDA twice identical; exit 77 without a device). The case is picked by
# FDSOLVE_REGRESSION_CASES; passive OpenMP waiting keeps small runs fast on a loaded machine.
# Nothing here writes a reference: tools/regenerate-reference.sh CASE does, on purpose.
fdsolve_cli_test(fdsolve_reference_tests regression_main.cpp reference_cases.cpp
  test_reference_cases.cpp test_reference_sanity.cpp)
fdsolve_cli_test(fdsolve_gpu_reference_tests ../gpu/main.cpp reference_cases.cpp
  test_reference_cases.cpp)
target_compile_definitions(fdsolve_gpu_reference_tests PRIVATE FDSOLVE_TEST_CUDA=1)
file(GLOB FDSOLVE_REGRESSION_CASE_FILES CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_SOURCE_DIR}/*/case.yaml)
foreach(case_file ${FDSOLVE_REGRESSION_CASE_FILES})
  get_filename_component(case_dir ${case_file} DIRECTORY)
  get_filename_component(case_name ${case_dir} NAME)
  add_test(NAME regression_case.${case_name} COMMAND fdsolve_reference_tests)
  set_tests_properties(regression_case.${case_name} PROPERTIES LABELS regression
    ENVIRONMENT "FDSOLVE_REGRESSION_CASES=${case_name};OMP_WAIT_POLICY=passive")
  add_test(NAME gpu_regression_case.${case_name} COMMAND fdsolve_gpu_reference_tests)
  set_tests_properties(gpu_regression_case.${case_name} PROPERTIES LABELS "gpu;regression"
    SKIP_RETURN_CODE 77
    ENVIRONMENT "FDSOLVE_REGRESSION_CASES=${case_name};OMP_WAIT_POLICY=passive")
endforeach()
