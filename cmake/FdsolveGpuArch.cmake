# fdsolve_gpu_architectures(VAR): the CUDA architectures of this machine's GPUs ("90" for an
# H100 or H200; several GPUs of different kinds give a list), read from nvidia-smi; empty where
# there is no GPU (or no driver). "native" where nvidia-smi lists a GPU but is too old to tell
# its compute capability (nvcc then asks the device itself).
function(fdsolve_gpu_architectures var)
  set(archs "")
  find_program(FDSOLVE_NVIDIA_SMI nvidia-smi)
  mark_as_advanced(FDSOLVE_NVIDIA_SMI)
  if(FDSOLVE_NVIDIA_SMI)
    execute_process(COMMAND ${FDSOLVE_NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE TIMEOUT 30)
    if(rc EQUAL 0)
      string(REGEX MATCHALL "[0-9]+\\.[0-9]+" caps "${out}")
      foreach(cap IN LISTS caps)
        string(REPLACE "." "" arch "${cap}")
        list(APPEND archs ${arch})
      endforeach()
    else()
      execute_process(COMMAND ${FDSOLVE_NVIDIA_SMI} -L RESULT_VARIABLE rc OUTPUT_VARIABLE out
                      ERROR_QUIET TIMEOUT 30)
      if(rc EQUAL 0 AND out MATCHES "GPU [0-9]+:")
        set(archs native)
      endif()
    endif()
  endif()
  list(REMOVE_DUPLICATES archs)
  set(${var} "${archs}" PARENT_SCOPE)
endfunction()
