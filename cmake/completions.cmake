# Writes pipesim's completion scripts for bash, zsh and fish by running the binary itself
# (`pipesim completions SHELL`), so they complete what that binary accepts.
# cmake -DPIPESIM=path/to/pipesim -DDIR=output/folder -P completions.cmake
foreach(shell_file IN ITEMS "bash;pipesim" "zsh;_pipesim" "fish;pipesim.fish")
  list(GET shell_file 0 shell)
  list(GET shell_file 1 file)
  execute_process(COMMAND ${PIPESIM} completions ${shell} OUTPUT_FILE ${DIR}/${file}.tmp RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pipesim completions ${shell} failed (${rc})")
  endif()
  file(RENAME ${DIR}/${file}.tmp ${DIR}/${file})
endforeach()
