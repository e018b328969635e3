# dcc_add_object(TARGET SCRIPT [OPTIONS opt...]): compile the D script SCRIPT
# at build time into ${CMAKE_CURRENT_BINARY_DIR}/<name>.bpf.o (name: the
# script's base name); TARGET is a custom target building it, and its
# property DCC_OBJECT names the file.
#
# dcc_add_skeleton(TARGET SCRIPT [OPTIONS opt...]): the same plus the
# skeleton <name>.skel.h; TARGET is an INTERFACE library to link: it adds
# the skeleton's folder to the include path and links dcc::runtime.
#
# OPTIONS are passed to dcc before the script (-x bufsize=1m, --btf FILE...).
# DCC_EXECUTABLE names the compiler (set by find_package(dcc)).
function(_dcc_compile script skel out_obj out_skel)
	cmake_parse_arguments(PARSE_ARGV 4 ARG "" "" "OPTIONS")
	get_filename_component(abs "${script}" ABSOLUTE)
	get_filename_component(name "${script}" NAME_WE)
	set(obj "${CMAKE_CURRENT_BINARY_DIR}/${name}.bpf.o")
	set(outputs "${obj}")
	set(args ${ARG_OPTIONS} "${abs}" -o "${obj}")
	if(skel)
		set(hdr "${CMAKE_CURRENT_BINARY_DIR}/${name}.skel.h")
		list(APPEND outputs "${hdr}")
		list(APPEND args --skel "${hdr}")
		set(${out_skel} "${hdr}" PARENT_SCOPE)
	endif()
	add_custom_command(OUTPUT ${outputs}
		COMMAND "${DCC_EXECUTABLE}" ${args}
		DEPENDS "${abs}" "${DCC_EXECUTABLE}"
		COMMENT "dcc: compiling ${script}"
		VERBATIM)
	set(${out_obj} "${obj}" PARENT_SCOPE)
endfunction()

function(dcc_add_object target script)
	_dcc_compile("${script}" FALSE obj skel ${ARGN})
	add_custom_target(${target} ALL DEPENDS "${obj}")
	set_target_properties(${target} PROPERTIES DCC_OBJECT "${obj}")
endfunction()

function(dcc_add_skeleton target script)
	_dcc_compile("${script}" TRUE obj skel ${ARGN})
	add_custom_target(${target}_gen DEPENDS "${obj}" "${skel}")
	add_library(${target} INTERFACE)
	add_dependencies(${target} ${target}_gen)
	get_filename_component(dir "${skel}" DIRECTORY)
	target_include_directories(${target} INTERFACE "${dir}")
	target_link_libraries(${target} INTERFACE dcc::runtime)
	set_target_properties(${target} PROPERTIES DCC_OBJECT "${obj}" DCC_SKELETON "${skel}")
endfunction()
