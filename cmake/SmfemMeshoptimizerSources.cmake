# meshoptimizer for the bake's WebAssembly module (precompute/bindings): the native bake links
# Debian's libmeshoptimizer-dev (0.18), which holds no sources a wasm build could use, so the
# same release's sources come from Debian's archive (the .orig tarball of that package, checked
# against its SHA-256) and only what the bake calls is compiled: the simplifier and the allocator
# it uses. The same version on both sides makes the wasm bake's collision surface the native one.
set(meshopt_version 0.18)
set(meshopt_tarball "meshoptimizer_${meshopt_version}+dfsg.orig.tar.xz")
set(meshopt_url "http://deb.debian.org/debian/pool/main/m/meshoptimizer/${meshopt_tarball}")
set(meshopt_sha256 881ea2cc687f1fef5ce70484e0ca6504e13856dd856677749f3763bc685956d3)
set(meshopt_root "${PROJECT_BINARY_DIR}/third_party")
set(meshopt_dir "${meshopt_root}/meshoptimizer-${meshopt_version}")

if(NOT EXISTS "${meshopt_dir}/src/simplifier.cpp")
  file(DOWNLOAD "${meshopt_url}" "${meshopt_root}/${meshopt_tarball}"
       EXPECTED_HASH SHA256=${meshopt_sha256} STATUS meshopt_status)
  list(GET meshopt_status 0 meshopt_code)
  if(NOT meshopt_code EQUAL 0)
    list(GET meshopt_status 1 meshopt_message)
    message(FATAL_ERROR "meshoptimizer ${meshopt_version} sources: could not download ${meshopt_url} "
                        "(${meshopt_message}); put that file in ${meshopt_root} and configure again")
  endif()
  file(ARCHIVE_EXTRACT INPUT "${meshopt_root}/${meshopt_tarball}" DESTINATION "${meshopt_root}"
       PATTERNS "meshoptimizer-${meshopt_version}/src/*" "meshoptimizer-${meshopt_version}/LICENSE.md")
endif()

add_library(smfem_meshoptimizer STATIC "${meshopt_dir}/src/simplifier.cpp"
                                       "${meshopt_dir}/src/allocator.cpp")
target_include_directories(smfem_meshoptimizer SYSTEM PUBLIC "${meshopt_dir}/src")
set_target_properties(smfem_meshoptimizer PROPERTIES UNITY_BUILD OFF)
add_library(meshoptimizer::meshoptimizer ALIAS smfem_meshoptimizer)
