/*
 * The object checksum (headers/dcc/abi_sum.h): where .dcc.meta's header is
 * in an ELF file, found with <elf.h> alone and every offset checked, and
 * FNV-1a 32 of the file with the checksum's four bytes as zeros.
 */
#include "dcc/abi_sum.h"
#include "dcc/abi.h"

#include <elf.h>
#include <string.h>

/* The offset of the obj_sum field in obj, or 0 when there is none. */
static size_t sum_offset(const void *obj, size_t size)
{
	const unsigned char *b = obj;
	Elf64_Ehdr eh;
	Elf64_Shdr strs, sh;

	if (size < sizeof(eh))
		return 0;
	memcpy(&eh, b, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_shentsize != sizeof(sh) || eh.e_shstrndx >= eh.e_shnum ||
	    eh.e_shoff > size || (size - eh.e_shoff) / sizeof(sh) < eh.e_shnum)
		return 0;
	memcpy(&strs, b + eh.e_shoff + (size_t)eh.e_shstrndx * sizeof(sh), sizeof(sh));
	if (strs.sh_offset > size || strs.sh_size > size - strs.sh_offset)
		return 0;
	for (size_t i = 0; i < eh.e_shnum; i++) {
		static const char name[] = ".dcc.meta";

		memcpy(&sh, b + eh.e_shoff + i * sizeof(sh), sizeof(sh));
		if (sh.sh_type != SHT_PROGBITS || sh.sh_name >= strs.sh_size ||
		    strs.sh_size - sh.sh_name < sizeof(name) ||
		    memcmp(b + strs.sh_offset + sh.sh_name, name, sizeof(name)))
			continue;
		if (sh.sh_offset > size || sh.sh_size > size - sh.sh_offset ||
		    sh.sh_size < sizeof(struct dcc_meta_header))
			return 0;
		return sh.sh_offset + offsetof(struct dcc_meta_header, obj_sum);
	}
	return 0;
}

static uint32_t fnv1a(const unsigned char *b, size_t size, size_t skip)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < size; i++)
		h = (h ^ (i - skip < 4 ? 0 : b[i])) * 16777619u;
	return h ? h : 1; /* 0 is "no checksum" */
}

int abi_obj_sum_set(void *obj, size_t size)
{
	size_t off = sum_offset(obj, size);
	uint32_t h;

	if (!off)
		return -1;
	h = fnv1a(obj, size, off);
	memcpy((char *)obj + off, &h, sizeof(h));
	return 0;
}

int abi_obj_sum_ok(const void *obj, size_t size)
{
	size_t off = sum_offset(obj, size);
	uint32_t h;

	if (!off)
		return 0;
	memcpy(&h, (const char *)obj + off, sizeof(h));
	return h && h == fnv1a(obj, size, off);
}
