/*
 * The object's maps as libbpf reads them: a global in ".maps" each, and its
 * BTF definition (libbpf's __uint(name, N) members; a task storage map's key
 * and value by their types, which the kernel wants for local storage).
 */
#include <stdlib.h>
#include <string.h>

#include "cg.h"

/* type and max_entries; key_size and value_size but for the ring buffer;
 * map_flags when there are any */
static int map_nfields(const struct cg_map *m)
{
	if (m->type == BPF_MAP_TYPE_TASK_STORAGE)
		return 4; /* type, map_flags, key, value */
	return (m->type == BPF_MAP_TYPE_RINGBUF ? 2 : 4) + (m->flags != 0);
}

static LLVMMetadataRef di_member(struct cg *cg, struct cg_map *m, const char *name, int i,
				 LLVMMetadataRef pointee)
{
	LLVMMetadataRef p = LLVMDIBuilderCreatePointerType(cg->dib, pointee, 64, 0, 0, "", 0);
	return LLVMDIBuilderCreateMemberType(cg->dib, cg->di_file, name, strlen(name),
		cg->di_file, m->line, 64, 64, 64 * (uint64_t)i, 0, p);
}

int cg_map_new(struct cg *cg, const char *name, uint32_t type, uint32_t max,
		   uint32_t key_size, uint32_t value_size, uint32_t flags)
{
	if (cg->nmaps == cg->cap_maps) {
		cg->cap_maps = cg->cap_maps ? 2 * cg->cap_maps : 16;
		cg->maps = realloc(cg->maps, cg->cap_maps * sizeof(*cg->maps));
	}
	struct cg_map *m = &cg->maps[cg->nmaps];
	memset(m, 0, sizeof(*m));
	m->name = name;
	m->type = type;
	m->max_entries = max;
	m->key_size = key_size;
	m->value_size = value_size;
	m->flags = flags;
	m->line = (unsigned)cg->nmaps + 1;
	int nfields = map_nfields(m);
	LLVMTypeRef fields[5] = { cg->ptr, cg->ptr, cg->ptr, cg->ptr, cg->ptr };
	LLVMTypeRef st = LLVMStructTypeInContext(cg->C, fields, (unsigned)nfields, 0);
	m->g = LLVMAddGlobal(cg->M, st, name);
	LLVMSetInitializer(m->g, LLVMConstNull(st));
	LLVMSetSection(m->g, ".maps");
	LLVMSetAlignment(m->g, 8);
	LLVMSetLinkage(m->g, LLVMExternalLinkage);
	cg_add_used(cg, m->g);
	return cg->nmaps++;
}

/* The BTF map definition: an anonymous struct of pointers to int[N]
 * (libbpf's __uint(name, N)). Done last, when every size is known. */
void cg_map_di(struct cg *cg, struct cg_map *m)
{
	const char *names[5] = { "type", "max_entries", "key_size", "value_size", "map_flags" };
	uint32_t vals[5] = { m->type, m->max_entries, m->key_size, m->value_size, m->flags };
	int n = map_nfields(m);
	if (m->flags && n == 3) {
		names[2] = names[4];
		vals[2] = vals[4];
	}
	LLVMMetadataRef members[5];
	if (m->type == BPF_MAP_TYPE_TASK_STORAGE) {
		/* the kernel wants a local storage map's key and value by their
		 * types (libbpf's __type(key, int), __type(value, T)): an int,
		 * and the value as u64 or bytes */
		members[0] = di_member(cg, m, "type", 0, cg_di_array(cg, cg->di_int, 32, m->type));
		members[1] = di_member(cg, m, "map_flags", 1, cg_di_array(cg, cg->di_int, 32, m->flags));
		members[2] = di_member(cg, m, "key", 2, cg->di_int);
		members[3] = di_member(cg, m, "value", 3, m->value_size == 8 ? cg->di_u64
				       : cg_di_array(cg, cg->di_char, 8, m->value_size));
	}
	for (int i = 0; i < n && m->type != BPF_MAP_TYPE_TASK_STORAGE; i++)
		members[i] = di_member(cg, m, names[i], i, cg_di_array(cg, cg->di_int, 32, vals[i]));
	LLVMMetadataRef st = LLVMDIBuilderCreateStructType(cg->dib, cg->di_file, "", 0,
		cg->di_file, m->line, 64 * (uint64_t)n, 64, 0, NULL, members, (unsigned)n, 0,
		NULL, "", 0);
	cg_attach_di(cg, m->g, m->name, st, m->line);
}
