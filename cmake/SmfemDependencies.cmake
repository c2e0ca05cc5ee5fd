# Third-party libraries, all from Debian packages (scripts/setup.sh installs them):
#   Eigen 3.4 (libeigen3-dev), Spectra (libspectra-dev), nlohmann/json (nlohmann-json3-dev),
#   fast_float (libfast-float-dev: the mesh readers' reals, as GCC's from_chars reads them),
#   GoogleTest (googletest / libgtest-dev), and for the bake only meshoptimizer
#   (libmeshoptimizer-dev: the coarse collision surface's edge collapse; the bake's WebAssembly
#   module compiles the same release's sources, SmfemMeshoptimizerSources.cmake).
# Under Emscripten the host's /usr/include must not be put on the include path (it would
# shadow Emscripten's libc), so each header-only library gets a private include folder that
# holds just a link to it.

function(smfem_header_only_target target header_dir link_name)
  if(NOT EXISTS "${header_dir}")
    message(FATAL_ERROR "${target}: ${header_dir} is missing; run scripts/setup.sh (or install it by hand)")
  endif()
  set(include_root "${PROJECT_BINARY_DIR}/third_party/${target}")
  file(MAKE_DIRECTORY "${include_root}")
  file(CREATE_LINK "${header_dir}" "${include_root}/${link_name}" SYMBOLIC)
  add_library(${target} INTERFACE IMPORTED GLOBAL)
  target_include_directories(${target} SYSTEM INTERFACE "${include_root}")
endfunction()

smfem_header_only_target(smfem_spectra /usr/include/Spectra Spectra)
add_library(Spectra::Spectra ALIAS smfem_spectra)
smfem_header_only_target(smfem_fast_float /usr/include/fast_float fast_float)
if(EMSCRIPTEN)
  smfem_header_only_target(smfem_eigen /usr/include/eigen3/Eigen Eigen)
  smfem_header_only_target(smfem_json /usr/include/nlohmann nlohmann)
  add_library(Eigen3::Eigen ALIAS smfem_eigen)
  add_library(nlohmann_json::nlohmann_json ALIAS smfem_json)
  # The bake's module (precompute/bindings): -pthread is already on every target of the threaded
  # build; the single-threaded one runs the bake's loops on its one thread
  # (parallel::usable_thread_count is 1 there).
  add_library(Threads::Threads INTERFACE IMPORTED)
  include(SmfemMeshoptimizerSources)
else()
  find_package(Eigen3 3.4 REQUIRED NO_MODULE)
  find_package(nlohmann_json 3.10 REQUIRED)
  find_package(Threads REQUIRED)
  find_package(meshoptimizer REQUIRED)
endif()

if(SMFEM_BUILD_TESTS OR SMFEM_BUILD_VALIDATION)
  if(EMSCRIPTEN)
    # Debian ships GoogleTest's sources; build them with em++ like any other code.
    if(NOT SMFEM_WASM_THREADS)
      set(gtest_disable_pthreads ON CACHE BOOL "" FORCE)
    else()
      set(gtest_disable_pthreads OFF CACHE BOOL "" FORCE)
    endif()
    set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
    set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
    add_subdirectory(/usr/src/googletest "${PROJECT_BINARY_DIR}/third_party/googletest" EXCLUDE_FROM_ALL SYSTEM)
  else()
    find_package(GTest REQUIRED)
  endif()
  include(GoogleTest)
endif()
