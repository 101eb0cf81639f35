# Writes pipesim.1 with help2man from the binary's own --help and --version, with a section per
# command (each command's --help, found by reading the "Subcommands:" of its parent's) and the
# hand-written sections of docs/pipesim.h2m (exit status, environment, examples).
# cmake -DPIPESIM=... -DHELP2MAN=... -DSTATIC=docs/pipesim.h2m -DOUTPUT=pipesim.1 -P man_page.cmake

# Help text as roff, kept as printed: backslashes escaped, no line read as a request.
function(roff_literal text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(add_commands path out)
  execute_process(COMMAND ${PIPESIM} ${path} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pipesim ${path} --help failed (${rc})")
  endif()
  set(text "${${out}}")
  if(NOT "${path}" STREQUAL "")
    string(REPLACE ";" " " words "${path}")
    roff_literal("${help}" literal)
    string(APPEND text ".SS \"pipesim ${words}\"\n.nf\n${literal}.fi\n")
  endif()
  string(FIND "${help}" "\nSubcommands:\n" at)
  if(at GREATER -1)
    string(SUBSTRING "${help}" ${at} -1 subs)
    string(REGEX MATCHALL "\n  [a-z]+ " names "${subs}")
    foreach(name IN LISTS names)
      string(STRIP "${name}" name)
      add_commands("${path};${name}" text)
    endforeach()
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

set(commands "[COMMANDS]\nEach command's own help (also \\fBpipesim help COMMAND\\fR).\n")
add_commands("" commands)
file(READ ${STATIC} static)
file(WRITE ${OUTPUT}.h2m "${commands}\n${static}")
execute_process(COMMAND ${HELP2MAN} --no-info --no-discard-stderr --section 1
                        --name "bottleneck calculator for ML training input pipelines"
                        --include ${OUTPUT}.h2m --output ${OUTPUT}.tmp ${PIPESIM} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "help2man failed (${rc})")
endif()
file(RENAME ${OUTPUT}.tmp ${OUTPUT})
