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
