# Writes OUT, defining PLUMBLINE_BUILD_ID: the commit of SRC (git describe --always --dirty: "-dirty"
# when the tree has uncommitted changes) and the build type TYPE. It runs at every build, not once at
# configure time (results named a revision days older than the code that produced them), and
# rewrites OUT only when it changes, so that an unchanged tree recompiles nothing.
execute_process(COMMAND git describe --always --dirty WORKING_DIRECTORY ${SRC}
                OUTPUT_VARIABLE rev OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT rev)
  set(rev "unknown")
endif()
set(text "#define PLUMBLINE_BUILD_ID \"${rev} ${TYPE}\"\n")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
