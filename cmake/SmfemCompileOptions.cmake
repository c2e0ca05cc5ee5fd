# Compiler settings every smfem target shares. Included before the third-party libraries so that
# under Emscripten they are built with the same features (atomics, SIMD, exceptions).
add_library(smfem_warnings INTERFACE)
target_compile_options(smfem_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                                -Wno-sign-conversion)

if(EMSCRIPTEN)
  # SIMD everywhere; pthreads only in the threaded flavour (same sources, no forks).
  # Exceptions: the readers report bad input by throwing, and the bindings turn that into a JS
  # Error with the same message. Emscripten 3.1.6's native wasm exceptions (-fwasm-exceptions)
  # fail to catch anything once -pthread is on, so both flavours use JS-based -fexceptions.
  add_compile_options(-msimd128 -fexceptions)
  add_link_options(-fexceptions)
  if(SMFEM_WASM_THREADS)
    add_compile_options(-pthread)
    add_link_options(-pthread -Wno-pthreads-mem-growth)
  endif()
  # Node runs the wasm test executables (Emscripten's toolchain sets the emulator).
  add_link_options(-sENVIRONMENT=web,worker,node -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2GB
                   -sTOTAL_STACK=1MB)
endif()

# Eigen, nlohmann/json and GoogleTest take about 2.5 s to parse per file (measured in the
# sanitizer build), a third of a cold build's compile time; each target parses them once, into a
# precompiled header. GCC builds only (native and sanitizer): ccache reuses GCC's PCH compiles
# across build folders with the sloppiness set in CMakeLists.txt, and the WebAssembly builds
# (clang) stay plain, which also keeps every file's own includes honest.
function(smfem_precompile_headers target)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()
