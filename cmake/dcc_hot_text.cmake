# dcc_hot_text(TARGET LINK_FLAGS): link TARGET with the hot functions of
# cmake/dcc_hot_text.txt (bench/hot_text.sh) placed together at the start
# of .text (after .text.hot), through GNU ld's own default script for a
# link with LINK_FLAGS (printed by --verbose) with their sections added:
# everything else of the link is unchanged, and the code stays in .text
# (valgrind attributes only .text's code to the executable; a section of
# its own before .text made callgrind's hot functions "???"). A compile
# executes ~4.5 MB of LLVM's 25 MB of code: scattered, each 64 KiB the
# kernel maps around a fault held little of it (~270 text page faults for
# a one-clause script), together ~60.
# Left out, and the link is today's, when the list is missing, the linker
# prints no script (gold, lld) or refuses it, or in the sanitizer and
# fuzzing builds.
function(dcc_hot_text target link_flags)
	set(_list ${PROJECT_SOURCE_DIR}/cmake/dcc_hot_text.txt)
	if(NOT DCC_HOT_TEXT OR DCC_SANITIZE OR DCC_FUZZ OR NOT EXISTS ${_list})
		return()
	endif()
	# a new list reconfigures (and relinks through LINK_DEPENDS)
	set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_list})
	file(STRINGS ${_list} _names REGEX "^[^#]")
	# one pattern a section
	list(TRANSFORM _names PREPEND "    *(.text.")
	list(TRANSFORM _names APPEND ")")
	list(JOIN _names "\n" _body)
	# the linker's own script for this link (GNU ld prints it between
	# two rules of '=' with --verbose)
	set(_probe ${CMAKE_BINARY_DIR}/dcc_hot_text_probe)
	file(WRITE ${_probe}.c "int main(void) { return 0; }\n")
	separate_arguments(_user_flags UNIX_COMMAND "${CMAKE_EXE_LINKER_FLAGS}")
	execute_process(COMMAND ${CMAKE_C_COMPILER} ${_probe}.c -o ${_probe} ${_user_flags}
			-Wl,--verbose ${link_flags}
		OUTPUT_VARIABLE _out ERROR_QUIET RESULT_VARIABLE _rc)
	set(_rule "==================================================\n")
	set(_hot "    *(.text.hot .text.hot.*)\n")
	string(FIND "${_out}" "${_rule}" _from)
	string(FIND "${_out}" "${_rule}" _to REVERSE)
	string(FIND "${_out}" "${_hot}" _at)
	if(NOT _rc EQUAL 0 OR _from EQUAL -1 OR _to LESS_EQUAL _from OR _at EQUAL -1)
		message(STATUS "dcc: the linker prints no default script: LLVM's hot text is not placed")
		return()
	endif()
	string(LENGTH "${_rule}" _len)
	math(EXPR _from "${_from} + ${_len}")
	math(EXPR _n "${_to} - ${_from}")
	string(SUBSTRING "${_out}" ${_from} ${_n} _default)
	string(REPLACE "${_hot}" "${_hot}${_body}\n" _script_text "${_default}")
	set(_script ${CMAKE_BINARY_DIR}/dcc_hot_text.ld)
	file(WRITE ${_script}.tmp "/* the linker's default script, with cmake/dcc_hot_text.txt's sections first in .text */\n${_script_text}")
	file(COPY_FILE ${_script}.tmp ${_script} ONLY_IF_DIFFERENT)
	include(CheckLinkerFlag)
	check_linker_flag(C "-Wl,-T,${_script}" DCC_HAVE_HOT_TEXT)
	if(DCC_HAVE_HOT_TEXT)
		target_link_options(${target} PRIVATE "-Wl,-T,${_script}")
		set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${_script})
	endif()
endfunction()
