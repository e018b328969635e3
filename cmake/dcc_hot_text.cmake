# dcc_hot_text(TARGET): link TARGET with the hot functions of
# cmake/dcc_hot_text.txt (bench/hot_text.sh) placed together in an output
# section before .text, through a linker script that INSERTs it into the
# linker's default one (GNU ld and lld know INSERT; everything else of the
# link is unchanged). A compile executes ~4.5 MB of LLVM's 25 MB of code:
# scattered, each 64 KiB the kernel maps around a fault held little of it
# (~290 text page faults for a one-clause script), together ~70.
# Left out, and the link is today's, when the list is missing, the linker
# refuses the script, or in the sanitizer and fuzzing builds.
function(dcc_hot_text target)
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
	set(_script ${CMAKE_BINARY_DIR}/dcc_hot_text.ld)
	file(WRITE ${_script}.tmp "/* generated from cmake/dcc_hot_text.txt */\n"
		"SECTIONS\n{\n  .text.dcc_hot :\n  {\n"
		"    *(.text.startup .text.startup.*)\n${_body}\n  }\n}\nINSERT BEFORE .text;\n")
	file(COPY_FILE ${_script}.tmp ${_script} ONLY_IF_DIFFERENT)
	include(CheckLinkerFlag)
	check_linker_flag(C "-Wl,-T,${_script}" DCC_HAVE_HOT_TEXT)
	if(DCC_HAVE_HOT_TEXT)
		target_link_options(${target} PRIVATE "-Wl,-T,${_script}")
		set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${_script})
	endif()
endfunction()
