# proton_embed_text(OUTPUT NAMESPACE ns FILES a.js kA b.css kB): generates OUTPUT (a .cc in
# the build tree) holding each file as `const char kA[]`, regenerated when a file changes.
# Used for the viewer's HTML page, so that the page's JS/CSS stay ordinary files that editors
# and linters understand while the binary needs nothing at run time.
function(proton_embed_text output)
  cmake_parse_arguments(EMBED "" "NAMESPACE" "FILES" ${ARGN})
  set(inputs)
  set(names)
  list(LENGTH EMBED_FILES n)
  math(EXPR last "${n} - 1")
  foreach(i RANGE 0 ${last} 2)
    math(EXPR j "${i} + 1")
    list(GET EMBED_FILES ${i} file)
    list(GET EMBED_FILES ${j} name)
    list(APPEND inputs "${CMAKE_CURRENT_SOURCE_DIR}/${file}")
    list(APPEND names "${name}")
  endforeach()
  add_custom_command(
    OUTPUT "${output}"
    COMMAND ${CMAKE_COMMAND} "-DOUTPUT=${output}" "-DNAMES=${names}" "-DINPUTS=${inputs}"
            "-DNAMESPACE=${EMBED_NAMESPACE}" -P "${PROJECT_SOURCE_DIR}/cmake/embed_text.cmake"
    DEPENDS ${inputs} "${PROJECT_SOURCE_DIR}/cmake/embed_text.cmake"
    COMMENT "Embedding ${names}"
    VERBATIM)
endfunction()
