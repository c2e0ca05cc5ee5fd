# Compiler settings every smfem target shares. Included before the third-party libraries so that
# under Emscripten they are built with the same features (atomics, SIMD, exceptions).
add_library(smfem_warnings INTERFACE)
target_compile_options(smfem_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                                -Wno-sign-conversion)
# GCC 12 with -march=native on AVX-512 reports its own intrinsics (`__m256d __Y = __Y;` in
# avxintrin.h), inlined through Eigen's packet math, as maybe-uninitialized: 2,000 false reports
# and 60,000 lines in a fresh build's log that would hide a real warning. Clang (the fuzz preset)
# and em++ keep their uninitialized-use checks.
target_compile_options(smfem_warnings INTERFACE $<$<CXX_COMPILER_ID:GNU>:-Wno-maybe-uninitialized>)

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
