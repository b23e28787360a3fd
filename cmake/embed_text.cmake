# Script mode (cmake -P): writes OUTPUT, a C++ source defining one `extern const char NAME[]`
# per INPUT (a NUL-terminated array of '\xNN' characters, so that the text needs no escaping
# and may hold any byte). Arguments: -DOUTPUT=file.cc -DNAMES=a;b -DINPUTS=x.js;y.css -DNAMESPACE=ns
list(LENGTH INPUTS count)
math(EXPR last "${count} - 1")
set(text "// Generated from ${INPUTS} by cmake/embed_text.cmake: do not edit.\n")
string(APPEND text "namespace ${NAMESPACE} {\n")
foreach(i RANGE ${last})
  list(GET INPUTS ${i} input)
  list(GET NAMES ${i} name)
  file(READ "${input}" hex HEX)
  # '\xNN' character literals: bytes above 0x7f (UTF-8 text) are char values without a
  # narrowing conversion.
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
  string(REGEX REPLACE "(('....',){16})" "\\1\n" bytes "${bytes}")
  string(APPEND text "extern const char ${name}[];\nconst char ${name}[] = {\n${bytes}0};\n")
endforeach()
string(APPEND text "}  // namespace ${NAMESPACE}\n")
file(WRITE "${OUTPUT}" "${text}")
