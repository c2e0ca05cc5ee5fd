// Linked (--pre-js) into the wasm test executables: GoogleTest reads its sharding variables with
// getenv, which in a wasm program sees Emscripten's own environment, not Node's. Copy them in.
Module['preRun'] = (Module['preRun'] || []).concat(() => {
  for (const name of ['GTEST_TOTAL_SHARDS', 'GTEST_SHARD_INDEX']) {
    if (process.env[name] !== undefined) ENV[name] = process.env[name];
  }
});
