/*
 * An object's own BTF, read before any relocation is checked: .BTF.ext's
 * line_info and core_relo records turned into struct vline/vrelo, and .BTF
 * checked for names and type ids in range.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "verify.h"

#define BTF_EXT_MAGIC 0xeB9F

/* .BTF.ext's header as the kernel documents it (Documentation/bpf/btf.rst). */
struct ext_header {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t func_info_off, func_info_len;
	uint32_t line_info_off, line_info_len;
	uint32_t core_relo_off, core_relo_len; /* only when hdr_len covers them */
};

struct ext_line {
	uint32_t insn_off, file_name_off, line_off, line_col;
};

struct ext_relo {
	uint32_t insn_off, type_id, access_str_off, kind;
};

typedef int (*ext_rec_fn)(struct vobj *o, const char *sec, const void *rec);

static int add_line(struct vobj *o, const char *sec, const void *rec)
{
	const struct ext_line *l = rec;
	const char *file = btf__str_by_offset(o->btf, l->file_name_off);

	if (!file)
		return -1;
	o->lines = realloc(o->lines, (size_t)(o->nlines + 1) * sizeof(*o->lines));
	o->lines[o->nlines++] = (struct vline){ sec, l->insn_off, file, l->line_col >> 10 };
	return 0;
}

static int add_relo(struct vobj *o, const char *sec, const void *rec)
{
	const struct ext_relo *r = rec;
	const char *access = btf__str_by_offset(o->btf, r->access_str_off);

	if (!access || !btf__type_by_id(o->btf, r->type_id))
		return -1;
	o->relos = realloc(o->relos, (size_t)(o->nrelos + 1) * sizeof(*o->relos));
	o->relos[o->nrelos++] = (struct vrelo){ sec, r->insn_off, r->type_id, access, r->kind };
	return 0;
}

/* One info section: u32 rec_size, then per ELF section {sec_name_off,
 * num_info, records}. */
static int parse_info(struct vobj *o, const char *data, uint32_t len, size_t min_rec,
		      ext_rec_fn add, const char *what, char *why, size_t whylen)
{
	uint32_t rec_size, pos = 4;

	if (!len)
		return 0;
	if (len < 4) {
		snprintf(why, whylen, "corrupted .BTF.ext: %s shorter than its header", what);
		return -1;
	}
	memcpy(&rec_size, data, 4);
	if (rec_size < min_rec || rec_size % 4) {
		snprintf(why, whylen, "corrupted .BTF.ext: %s record size %u", what, rec_size);
		return -1;
	}
	while (pos < len) {
		uint32_t name_off, n;
		const char *sec;

		if (len - pos < 8) {
			snprintf(why, whylen, "corrupted .BTF.ext: %s truncated", what);
			return -1;
		}
		memcpy(&name_off, data + pos, 4);
		memcpy(&n, data + pos + 4, 4);
		pos += 8;
		sec = btf__str_by_offset(o->btf, name_off);
		if (!sec || !*sec) {
			snprintf(why, whylen, "corrupted .BTF.ext: %s names no section", what);
			return -1;
		}
		if (!n || n > (len - pos) / rec_size) {
			snprintf(why, whylen, "corrupted .BTF.ext: %s of %s holds %u records", what,
				 sec, n);
			return -1;
		}
		for (uint32_t i = 0; i < n; i++, pos += rec_size) {
			uint32_t rec[4];

			memcpy(rec, data + pos, min_rec);
			if (add(o, sec, rec)) {
				snprintf(why, whylen, "corrupted .BTF.ext: %s record %u of %s "
					 "refers to nothing in .BTF", what, i, sec);
				return -1;
			}
		}
	}
	return 0;
}

int verify_obj_parse_ext(struct vobj *o, const void *data, size_t size, char *why, size_t whylen)
{
	struct ext_header h = { 0 };
	const char *d = data;

	if (size < offsetof(struct ext_header, core_relo_off)) {
		snprintf(why, whylen, "corrupted .BTF.ext: %zu bytes", size);
		return -1;
	}
	memcpy(&h, d, offsetof(struct ext_header, core_relo_off));
	if (h.magic != BTF_EXT_MAGIC || h.version != 1 || h.hdr_len > size ||
	    h.hdr_len < offsetof(struct ext_header, core_relo_off)) {
		snprintf(why, whylen, "corrupted .BTF.ext: bad header");
		return -1;
	}
	if (h.hdr_len >= sizeof(h))
		memcpy(&h, d, sizeof(h));
	size -= h.hdr_len;
	d += h.hdr_len;
	if (h.func_info_off > size || h.func_info_len > size - h.func_info_off ||
	    h.line_info_off > size || h.line_info_len > size - h.line_info_off ||
	    h.core_relo_off > size || h.core_relo_len > size - h.core_relo_off) {
		snprintf(why, whylen, "corrupted .BTF.ext: a section runs past its end");
		return -1;
	}
	if (parse_info(o, d + h.line_info_off, h.line_info_len, sizeof(struct ext_line), add_line,
		       "line_info", why, whylen))
		return -1;
	return parse_info(o, d + h.core_relo_off, h.core_relo_len, sizeof(struct ext_relo),
			  add_relo, "core_relo", why, whylen);
}

static bool name_ok(const struct btf *b, uint32_t off)
{
	return btf__str_by_offset(b, off) != NULL;
}

/* Every name and type reference of every type inside b: libbpf 1.1's own
 * checks on a BTF it reads do not cover them. */
int verify_btf_check(const struct btf *b, char *why, size_t whylen)
{
	uint32_t n = btf__type_cnt(b);

	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(b, id);
		bool ok = name_ok(b, t->name_off);
		uint16_t vlen = btf_vlen(t);

		switch (btf_kind(t)) {
		case BTF_KIND_PTR: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_FUNC:
		case BTF_KIND_VAR: case BTF_KIND_DECL_TAG: case BTF_KIND_TYPE_TAG:
		case BTF_KIND_FUNC_PROTO:
			ok = ok && t->type < n;
			break;
		case BTF_KIND_ARRAY:
			ok = ok && btf_array(t)->type < n && btf_array(t)->index_type < n;
			break;
		default:
			break;
		}
		for (uint16_t i = 0; ok && i < vlen; i++) {
			switch (btf_kind(t)) {
			case BTF_KIND_STRUCT:
			case BTF_KIND_UNION:
				ok = name_ok(b, btf_members(t)[i].name_off) &&
				     btf_members(t)[i].type < n;
				break;
			case BTF_KIND_ENUM:
				ok = name_ok(b, btf_enum(t)[i].name_off);
				break;
			case BTF_KIND_ENUM64:
				ok = name_ok(b, btf_enum64(t)[i].name_off);
				break;
			case BTF_KIND_FUNC_PROTO:
				ok = name_ok(b, btf_params(t)[i].name_off) &&
				     btf_params(t)[i].type < n;
				break;
			case BTF_KIND_DATASEC:
				ok = btf_var_secinfos(t)[i].type < n;
				break;
			default:
				break;
			}
		}
		if (!ok) {
			snprintf(why, whylen, "type [%u] refers to a name or a type it does "
				 "not hold", id);
			return -1;
		}
	}
	return 0;
}
