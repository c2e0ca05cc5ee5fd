# Writes the ES-module twin of Emscripten's classic factory script.
file(READ "${INPUT}" factory)
file(WRITE "${OUTPUT}.tmp" "${factory}\nexport default createSmfemModule;\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
