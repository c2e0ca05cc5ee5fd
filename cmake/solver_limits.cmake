# The stepper's ranges, owned by wasm/src/smfem/sim/solver_limits.json (the page imports the same
# file), as C++ constants in generated/smfem/solver_limits.hpp. Reconfigures when the JSON changes.
set(_limits_json "${PROJECT_SOURCE_DIR}/wasm/src/smfem/sim/solver_limits.json")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_limits_json}")
file(READ "${_limits_json}" _limits)
foreach(_name timestep iterations youngs poisson gravity modes cubature)
  foreach(_bound min max)
    # A range may have one bound only (gravity's length has no least).
    string(JSON _value ERROR_VARIABLE _absent GET "${_limits}" ${_name} ${_bound})
    if(_absent)
      continue()
    endif()
    # A double constant needs a decimal point or an exponent; an integer one must have neither.
    if(_name MATCHES "^(iterations|modes|cubature)$")
      if(NOT _value MATCHES "^[0-9]+$")
        message(FATAL_ERROR "${_limits_json}: ${_name}.${_bound} must be a whole number, not ${_value}")
      endif()
    elseif(NOT _value MATCHES "[.eE]")
      string(APPEND _value ".0")
    endif()
    set(SMFEM_LIMIT_${_name}_${_bound} "${_value}")
  endforeach()
endforeach()
configure_file(cmake/solver_limits.hpp.in "${PROJECT_BINARY_DIR}/generated/smfem/solver_limits.hpp" @ONLY)
