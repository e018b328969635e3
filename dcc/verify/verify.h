/*
 * `dcc verify`: an object read once (verify.c, its BTF in verify_ext.c) and checked
 * twice: its CO-RE relocations against a target BTF (verify_core.c), and its programs
 * against the running kernel's verifier (verify_load.c).
 */
#ifndef DCC_VERIFY_H
#define DCC_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct btf;

/* `dcc verify OBJ [--btf FILE...]` (verify.c): argv[0] is "verify".
 * Exit status 0 when every check passes, 1 when one fails, 2 on bad usage. */
int verify_main(int argc, char **argv);

/* One record of .BTF.ext's core_relo section. */
struct vrelo {
	const char *sec;      /* ELF section of the program */
	uint32_t insn_off;    /* bytes into sec */
	uint32_t type_id;     /* local (.BTF) type */
	const char *access;   /* "0:1:2" */
	uint32_t kind;        /* enum vrelo_kind */
};

/* One record of .BTF.ext's line_info section. */
struct vline {
	const char *sec;
	uint32_t insn_off;
	const char *file;
	uint32_t line;
};

/* A function symbol: a program (or a subprogram in .text). */
struct vfunc {
	const char *name;
	const char *sec;
	uint64_t off, size;   /* bytes into sec */
};

/* A section of instructions. */
struct vsec {
	const char *name;
	const unsigned char *insns; /* into vobj.buf */
	uint64_t size;
};

/* The attach table of .dcc.meta, for BTF-typed programs' targets. */
struct vattach {
	const char *prog;
	const char *target;
	uint32_t kind;
	uint32_t flags;       /* DCC_ATTACH_F_* */
};

struct vobj {
	const char *path;
	char *buf;            /* the whole file */
	size_t size;
	struct btf *btf;      /* the object's .BTF */
	struct vrelo *relos;
	int nrelos;
	struct vline *lines;
	int nlines;
	struct vfunc *funcs;
	int nfuncs;
	struct vattach *attach;
	int nattach;
	struct vsec *secs;
	int nsecs;
	char *strs;           /* copies of section and symbol names */
};

/* libbpf's relocation kinds (enum bpf_core_relo_kind). */
enum vrelo_kind {
	VR_FIELD_BYTE_OFFSET = 0,
	VR_FIELD_BYTE_SIZE = 1,
	VR_FIELD_EXISTS = 2,
	VR_FIELD_SIGNED = 3,
	VR_FIELD_LSHIFT_U64 = 4,
	VR_FIELD_RSHIFT_U64 = 5,
	VR_TYPE_ID_LOCAL = 6,
	VR_TYPE_ID_TARGET = 7,
	VR_TYPE_EXISTS = 8,
	VR_TYPE_SIZE = 9,
	VR_ENUMVAL_EXISTS = 10,
	VR_ENUMVAL_VALUE = 11,
	VR_TYPE_MATCHES = 12,
};

/* Read and check OBJ: 0, or -1 with a one-line reason in why. */
int verify_obj_open(struct vobj *o, const char *path, char *why, size_t whylen);
void verify_obj_close(struct vobj *o);

/* Parse .BTF.ext (func_info is skipped, line_info and core_relo kept);
 * names are resolved in o->btf. 0 or -1 with a reason. */
int verify_obj_parse_ext(struct vobj *o, const void *data, size_t size, char *why, size_t whylen);

/* The function holding byte insn_off of sec, or NULL. */
const struct vfunc *verify_obj_func_at(const struct vobj *o, const char *sec, uint64_t insn_off);
/* The 8 bytes of the instruction at byte insn_off of sec, or NULL. */
const unsigned char *verify_obj_insn_at(const struct vobj *o, const char *sec, uint64_t insn_off);
/* The D source line of byte insn_off of sec, or NULL. */
const struct vline *verify_obj_line_at(const struct vobj *o, const char *sec, uint64_t insn_off);

const char *verify_relo_kind_name(uint32_t kind);

/* 0 when every name and type id inside b is in range, else -1 and why. */
int verify_btf_check(const struct btf *b, char *why, size_t whylen);

/* Check every relocation of o against targ (named name in messages): print
 * one line on stdout, return 0 when all resolve, 1 otherwise. verbose: a line
 * before it for each relocation that resolves, with its value in the object
 * and in targ. */
int verify_core(const struct vobj *o, const struct btf *targ, const char *name, bool verbose);

/* Whether every relocation of program prog (and of the .text functions,
 * which any program may call) resolves in targ: 0, or 1 with why. */
int verify_core_prog(const struct vobj *o, const struct btf *targ, const char *tname,
		     const char *prog, char *why, size_t whylen);

/* `dcc verify` with a folder of BTF files or -f json (verify_table.c): a
 * kernel-by-probe table of what resolves, on stdout; 0 when all do, else 1.
 * paths are files or folders (searched for *.btf files, recursively). */
int verify_table(const struct vobj *o, const char *const *paths, int npaths, bool json);

/* Load every program into the running kernel's verifier, print the verdict;
 * nothing stays loaded. 0 when all pass, 1 otherwise. */
int verify_load(const struct vobj *o);

#endif
