# Writes the ES-module twin of Emscripten's classic factory script: INPUT's factory, named
# EXPORT_NAME (its -sEXPORT_NAME), as OUTPUT's default export.
file(READ "${INPUT}" factory)
file(WRITE "${OUTPUT}.tmp" "${factory}\nexport default ${EXPORT_NAME};\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
