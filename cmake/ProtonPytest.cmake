# proton_find_pytest_python(<var>): the interpreter that runs our pytest suites. It must have
# pytest and be the Python version proton._C was built for: Python3_EXECUTABLE when it has
# pytest, else Debian's /usr/bin/python3 (python3-pytest) when it is the same version.
# Sets <var> to "" when there is none.
function(proton_find_pytest_python out_var)
  set(found "")
  foreach(candidate ${Python3_EXECUTABLE} /usr/bin/python3)
    if(found STREQUAL "" AND EXISTS ${candidate})
      execute_process(
        COMMAND ${candidate} -c "import sys, pytest; print('%d.%d' % sys.version_info[:2])"
        OUTPUT_VARIABLE version OUTPUT_STRIP_TRAILING_WHITESPACE
        RESULT_VARIABLE rc ERROR_QUIET)
      if(rc EQUAL 0 AND version STREQUAL "${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}")
        set(found ${candidate})
      endif()
    endif()
  endforeach()
  set(${out_var} "${found}" PARENT_SCOPE)
endfunction()

# proton_launcher_test_env(<var> <pytest python>): the environment of the suites that run the
# `proton` command (tests/launcher, tests/adversarial): the launcher, the interpreter, the built
# Python tree and, where built, the CUPTI part's fake driver and fake CUPTI
# (src/cupti/testing): native targets reach the core through CUDA injection without a GPU.
function(proton_launcher_test_env out_var pytest_python)
  set(env "PROTON_TEST_LAUNCHER=$<TARGET_FILE:proton>;PROTON_TEST_PYTHON=${pytest_python}")
  list(APPEND env "PROTON_TEST_PYTHON_DIR=${CMAKE_BINARY_DIR}/python;PYTHONDONTWRITEBYTECODE=1")
  if(TARGET proton_fake_cuda_app)
    list(APPEND env "PROTON_TEST_FAKE_CUDA_DIR=${CMAKE_BINARY_DIR}/fakecuda"
                    "PROTON_TEST_FAKE_CUDA_APP=$<TARGET_FILE:proton_fake_cuda_app>")
  endif()
  set(${out_var} "${env}" PARENT_SCOPE)
endfunction()
