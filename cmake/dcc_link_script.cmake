# dcc_link_script(TARGET LINK_FLAGS): link TARGET through GNU ld's own
# default script for a link with LINK_FLAGS (printed by --verbose), with two
# changes; everything else of the link is unchanged.
#
# The hot functions of cmake/dcc_hot_text.txt (bench/hot_text.sh) placed
# together at the start of .text (after .text.hot); the code stays in .text
# (valgrind attributes only .text's code to the executable; a section of
# its own before .text made callgrind's hot functions "???"). A compile
# executes ~4.5 MB of LLVM's 25 MB of code: scattered, each 64 KiB the
# kernel maps around a fault held little of it (~270 text page faults for
# a one-clause script), together ~60. Off with DCC_HOT_TEXT or without the
# list.
#
# .bss's variables from one 2 MiB boundary to the next (dcc_bss_huge_start
# and _end), which start_memory.c makes one huge page before LLVM's
# constructors write ~440 KiB of command-line options there: on a virtual
# machine each 4 KiB page first written cost ~10 us (bench/RESULTS.md,
# 2026-11-29). The range costs virtual memory only, and the huge page's
# 2 MiB of RSS instead of ~0.44.
#
# Segments 2 MiB-aligned in memory and in the file (-z max-page-size): a
# page-cache folio of 2 MiB (cmake/page_cache_prime.c) is then mapped by one
# page-table entry instead of 512. The file grows by the padding (~5 MiB).
#
# Left out, and the link is the linker's own, when the linker prints no
# script (gold, lld) or refuses it, or in the sanitizer and fuzzing builds.
function(dcc_link_script target link_flags)
	if(DCC_SANITIZE OR DCC_FUZZ)
		return()
	endif()
	set(_list ${PROJECT_SOURCE_DIR}/cmake/dcc_hot_text.txt)
	set(_body "")
	if(DCC_HOT_TEXT AND EXISTS ${_list})
		# a new list reconfigures (and relinks through LINK_DEPENDS)
		set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_list})
		file(STRINGS ${_list} _names REGEX "^[^#]")
		# one pattern a section
		list(TRANSFORM _names PREPEND "    *(.text.")
		list(TRANSFORM _names APPEND ")\n")
		list(JOIN _names "" _body)
	endif()
	# the linker's own script for this link (GNU ld prints it between
	# two rules of '=' with --verbose)
	set(_probe ${CMAKE_BINARY_DIR}/dcc_link_probe)
	file(WRITE ${_probe}.c "int main(void) { return 0; }\n")
	separate_arguments(_user_flags UNIX_COMMAND "${CMAKE_EXE_LINKER_FLAGS}")
	execute_process(COMMAND ${CMAKE_C_COMPILER} ${_probe}.c -o ${_probe} ${_user_flags}
			-Wl,--verbose ${link_flags}
		OUTPUT_VARIABLE _out ERROR_QUIET RESULT_VARIABLE _rc)
	set(_rule "==================================================\n")
	set(_hot "    *(.text.hot .text.hot.*)\n")
	set(_bss "   *(.dynbss)\n   *(.bss .bss.* .gnu.linkonce.b.*)\n   *(COMMON)\n")
	string(FIND "${_out}" "${_rule}" _from)
	string(FIND "${_out}" "${_rule}" _to REVERSE)
	string(FIND "${_out}" "${_hot}" _at)
	string(FIND "${_out}" "${_bss}" _bss_at)
	if(NOT _rc EQUAL 0 OR _from EQUAL -1 OR _to LESS_EQUAL _from OR _at EQUAL -1
	   OR _bss_at EQUAL -1)
		message(STATUS "dcc: the linker prints no default script: dcc's own link script is not used")
		return()
	endif()
	string(LENGTH "${_rule}" _len)
	math(EXPR _from "${_from} + ${_len}")
	math(EXPR _n "${_to} - ${_from}")
	string(SUBSTRING "${_out}" ${_from} ${_n} _default)
	# the hot functions on 2 MiB of their own where the segments are
	# 2 MiB-aligned (below): nothing dcc's start-up runs before
	# start_memory.c advises the text shares them (.init, .plt, main and the
	# constructors before the list; crt1.o's _start after it), so that after
	# the page cache was dropped they are read again as 2 MiB folios
	include(CheckLinkerFlag)
	check_linker_flag(C "-Wl,-z,max-page-size=0x200000" DCC_HAVE_MAX_PAGE_SIZE)
	if(DCC_HAVE_MAX_PAGE_SIZE AND _body)
		set(_body "    . = ALIGN(0x200000);\n${_body}    . = ALIGN(0x200000);\n")
	endif()
	string(REPLACE "${_hot}" "${_hot}${_body}" _script_text "${_default}")
	# .dynbss (copy relocations, written by ld.so) stays below the range
	string(REPLACE "${_bss}" "   *(.dynbss)\n   . = ALIGN(0x200000);\n   PROVIDE_HIDDEN (dcc_bss_huge_start = .);\n   *(.bss .bss.* .gnu.linkonce.b.*)\n   *(COMMON)\n   . = ALIGN(0x200000);\n   PROVIDE_HIDDEN (dcc_bss_huge_end = .);\n"
		_script_text "${_script_text}")
	set(_script ${CMAKE_BINARY_DIR}/dcc_link.ld)
	file(WRITE ${_script}.tmp "/* the linker's default script, with cmake/dcc_hot_text.txt's sections first in .text and .bss between huge-page boundaries (cmake/dcc_link_script.cmake) */\n${_script_text}")
	file(COPY_FILE ${_script}.tmp ${_script} ONLY_IF_DIFFERENT)
	check_linker_flag(C "-Wl,-T,${_script}" DCC_HAVE_LINK_SCRIPT)
	if(DCC_HAVE_LINK_SCRIPT)
		target_link_options(${target} PRIVATE "-Wl,-T,${_script}")
		set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${_script})
		if(DCC_HAVE_MAX_PAGE_SIZE)
			target_link_options(${target} PRIVATE "-Wl,-z,max-page-size=0x200000")
			set_property(TARGET ${target} PROPERTY DCC_HUGE_SEGMENTS ON)
		endif()
	endif()
endfunction()

# dcc_page_cache_prime(TARGET): after each link of TARGET and after its
# install, its segments read into the page cache as 2 MiB folios
# (cmake/page_cache_prime.c), where dcc_link_script() aligned them for it.
# Call it after TARGET's install().
function(dcc_page_cache_prime target)
	get_property(_huge TARGET ${target} PROPERTY DCC_HUGE_SEGMENTS)
	if(NOT _huge)
		return()
	endif()
	if(NOT TARGET dcc_page_cache_prime)
		add_executable(dcc_page_cache_prime ${PROJECT_SOURCE_DIR}/cmake/page_cache_prime.c)
		# a build tool, not one of the programs in bin/
		set_target_properties(dcc_page_cache_prime PROPERTIES
			RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/cmake)
	endif()
	add_dependencies(${target} dcc_page_cache_prime)
	add_custom_command(TARGET ${target} POST_BUILD
		COMMAND dcc_page_cache_prime $<TARGET_FILE:${target}> VERBATIM)
	# the prefix as `cmake --install --prefix` gives it, under DESTDIR
	install(CODE "execute_process(COMMAND \"$<TARGET_FILE:dcc_page_cache_prime>\"
		\"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/$<TARGET_FILE_NAME:${target}>\")")
endfunction()
