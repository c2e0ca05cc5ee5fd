# Writes the ES-module twin of Emscripten's classic factory script, and marks the output
# folder as CommonJS for Node (the repository's package.json says "type": "module").
file(READ "${INPUT}" factory)
file(WRITE "${OUTPUT}.tmp" "${factory}\nexport default createSmfemModule;\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
file(WRITE "${PACKAGE_JSON}" "{ \"type\": \"commonjs\" }\n")
