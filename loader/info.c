/*
 * `dtrun --info OBJ`: what a dcc object holds and what it needs from a
 * kernel, as text or JSON, read without loading anything (info_scan.c; the
 * check of those needs on the running kernel is info_check.c). Also dtrun's
 * other long options.
 */
#include "info.h"
#include "loader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>
#include <dcc/abi.h>

#ifndef DCC_VERSION
#define DCC_VERSION "0"
#endif

/* A string of the metadata, "" when out of range. */
static const char *mstr(const struct dcc_meta_header *h, uint32_t off)
{
	const char *s = (const char *)h + h->str_off;
	if (off >= h->str_size || !memchr(s + off, 0, h->str_size - off))
		return "";
	return s + off;
}

/* The metadata's header when its tables lie inside it, else NULL. */
static const struct dcc_meta_header *meta_of(const struct info *in)
{
	const struct dcc_meta_header *h = in->meta;
	if (!h || in->meta_size < sizeof(*h) || memcmp(h->magic, DCC_META_MAGIC, 8) ||
	    h->version != DCC_META_VERSION || h->size > in->meta_size ||
	    h->str_off > h->size || h->str_size > h->size - h->str_off ||
	    h->probe_off > h->size || h->nprobes > (h->size - h->probe_off) /
	    sizeof(struct dcc_meta_probe) || h->opt_off > h->size ||
	    h->nopts > (h->size - h->opt_off) / sizeof(struct dcc_meta_option))
		return NULL;
	return h;
}

static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* The union of every program's helpers. */
static void all_helpers(const struct info *in, uint8_t *h)
{
	memset(h, 0, INFO_MAX_HELPERS);
	for (int i = 0; i < in->nprogs; i++)
		for (int k = 0; k < INFO_MAX_HELPERS; k++)
			h[k] |= in->progs[i].helpers[k];
}

static const char *prog_type_name(int type)
{
	const char *s = libbpf_bpf_prog_type_str(type);
	return s ? s : "unknown";
}

static const char *map_type_name(int type)
{
	const char *s = libbpf_bpf_map_type_str(type);
	return s ? s : "unknown";
}

/* Each program type used, once, in order of first use: the count, types in t. */
static int prog_types(const struct info *in, int *t)
{
	int n = 0;
	for (int i = 0; i < in->nprogs; i++) {
		int k = 0;
		while (k < n && t[k] != in->progs[i].type)
			k++;
		if (k == n)
			t[n++] = in->progs[i].type;
	}
	return n;
}

static void print_text(FILE *out, const struct info *in, const char *path,
		       const struct dcc_meta_header *h)
{
	uint8_t helpers[INFO_MAX_HELPERS];
	int *types = calloc((size_t)in->nprogs + 1, sizeof(int)), nt = prog_types(in, types);
	const char *sep = "";

	fprintf(out, "object: %s\n", path);
	if (h) {
		fprintf(out, "script: %s\n", mstr(h, h->script));
		fprintf(out, "compiler: %s\n", *mstr(h, h->build) ? mstr(h, h->build) : "unknown");
		if (h->btf_size)
			fprintf(out, "compiled against: kernel BTF of %u bytes, FNV-1a 64 %016llx\n",
				h->btf_size, (unsigned long long)h->btf_hash);
		else
			fprintf(out, "compiled against: no kernel BTF (no kernel type used)\n");
		fprintf(out, "destructive: %s\n", h->flags & DCC_META_F_DESTRUCTIVE ? "yes" : "no");
		fprintf(out, "probes: %u (matched %u as counted at compile time)\n", h->nprobes,
			h->nenablings);
		const struct dcc_meta_probe *p = (const void *)((const char *)h + h->probe_off);
		for (uint32_t i = 0; i < h->nprobes; i++)
			fprintf(out, "  %s:%s:%s:%s\n", mstr(h, p[i].prov), mstr(h, p[i].mod),
				mstr(h, p[i].func), mstr(h, p[i].name));
		fprintf(out, "options: %u\n", h->nopts);
		const struct dcc_meta_option *o = (const void *)((const char *)h + h->opt_off);
		for (uint32_t i = 0; i < h->nopts; i++)
			fprintf(out, "  %s%s%s\n", mstr(h, o[i].name), o[i].value ? "=" : "",
				mstr(h, o[i].value));
	} else {
		fprintf(out, "metadata: none (not a dcc object)\n");
	}
	fprintf(out, "programs: %d\n", in->nprogs);
	for (int i = 0; i < in->nprogs; i++)
		fprintf(out, "  %-16s %-16s %-40s %zu instructions\n", in->progs[i].name,
			prog_type_name(in->progs[i].type), in->progs[i].section, in->progs[i].insns);
	fprintf(out, "maps: %d\n", in->nmaps);
	for (int i = 0; i < in->nmaps; i++)
		fprintf(out, "  %-16s %-16s key %u, value %u, %u entries\n", in->maps[i].name,
			map_type_name(in->maps[i].type), in->maps[i].key_size,
			in->maps[i].value_size, in->maps[i].max_entries);
	fprintf(out, "requires:\n  program types:");
	for (int i = 0; i < nt; i++, sep = ",")
		fprintf(out, "%s %s", sep, prog_type_name(types[i]));
	fprintf(out, "\n  helpers:");
	all_helpers(in, helpers);
	sep = "";
	for (int k = 0; k < INFO_MAX_HELPERS; k++)
		if (helpers[k]) {
			const char *n = info_helper_name((unsigned)k);
			fprintf(out, "%s %s%s", sep, n ? "bpf_" : "helper ", n ? n : "");
			if (!n)
				fprintf(out, "%d", k);
			sep = ",";
		}
	fprintf(out, "\n  kernel BTF: %s\n  kfuncs:", in->core ? "yes" : "no");
	sep = "";
	for (int i = 0; i < in->nkfuncs; i++, sep = ",")
		fprintf(out, "%s %s", sep, in->kfuncs[i]);
	fprintf(out, "%s\n", in->nkfuncs ? "" : " none");
	free(types);
}

static void json_helpers(FILE *out, const uint8_t *helpers)
{
	const char *sep = "";
	fputc('[', out);
	for (int k = 0; k < INFO_MAX_HELPERS; k++)
		if (helpers[k]) {
			const char *n = info_helper_name((unsigned)k);
			fprintf(out, "%s{\"id\":%d,\"name\":", sep, k);
			if (n)
				fprintf(out, "\"bpf_%s\"}", n);
			else
				fputs("null}", out);
			sep = ",";
		}
	fputc(']', out);
}

static void json_meta(FILE *out, const struct dcc_meta_header *h)
{
	fputs("\"script\":", out);
	json_str(out, mstr(h, h->script));
	fputs(",\"compiler\":", out);
	json_str(out, mstr(h, h->build));
	if (h->btf_size)
		fprintf(out, ",\"btf\":{\"size\":%u,\"fnv1a64\":\"%016llx\"}", h->btf_size,
			(unsigned long long)h->btf_hash);
	else
		fputs(",\"btf\":null", out);
	fprintf(out, ",\"destructive\":%s,\"matched\":%u,\"probes\":[",
		h->flags & DCC_META_F_DESTRUCTIVE ? "true" : "false", h->nenablings);
	const struct dcc_meta_probe *p = (const void *)((const char *)h + h->probe_off);
	for (uint32_t i = 0; i < h->nprobes; i++) {
		fprintf(out, "%s{\"provider\":", i ? "," : "");
		json_str(out, mstr(h, p[i].prov));
		fputs(",\"module\":", out);
		json_str(out, mstr(h, p[i].mod));
		fputs(",\"function\":", out);
		json_str(out, mstr(h, p[i].func));
		fputs(",\"name\":", out);
		json_str(out, mstr(h, p[i].name));
		fputc('}', out);
	}
	fputs("],\"options\":[", out);
	const struct dcc_meta_option *o = (const void *)((const char *)h + h->opt_off);
	for (uint32_t i = 0; i < h->nopts; i++) {
		fprintf(out, "%s{\"name\":", i ? "," : "");
		json_str(out, mstr(h, o[i].name));
		fputs(",\"value\":", out);
		if (o[i].value)
			json_str(out, mstr(h, o[i].value));
		else
			fputs("null", out);
		fputc('}', out);
	}
	fputs("],", out);
}

static void print_json(FILE *out, const struct info *in, const char *path,
		       const struct dcc_meta_header *h)
{
	uint8_t helpers[INFO_MAX_HELPERS];
	int *types = calloc((size_t)in->nprogs + 1, sizeof(int)), nt = prog_types(in, types);

	fputs("{\"object\":", out);
	json_str(out, path);
	fputc(',', out);
	if (h)
		json_meta(out, h);
	fputs("\"programs\":[", out);
	for (int i = 0; i < in->nprogs; i++) {
		fprintf(out, "%s{\"name\":", i ? "," : "");
		json_str(out, in->progs[i].name);
		fprintf(out, ",\"type\":\"%s\",\"section\":", prog_type_name(in->progs[i].type));
		json_str(out, in->progs[i].section);
		fprintf(out, ",\"instructions\":%zu,\"helpers\":", in->progs[i].insns);
		json_helpers(out, in->progs[i].helpers);
		fputc('}', out);
	}
	fputs("],\"maps\":[", out);
	for (int i = 0; i < in->nmaps; i++) {
		fprintf(out, "%s{\"name\":", i ? "," : "");
		json_str(out, in->maps[i].name);
		fprintf(out, ",\"type\":\"%s\",\"key_size\":%u,\"value_size\":%u,"
			"\"max_entries\":%u}", map_type_name(in->maps[i].type),
			in->maps[i].key_size, in->maps[i].value_size, in->maps[i].max_entries);
	}
	fputs("],\"requires\":{\"program_types\":[", out);
	for (int i = 0; i < nt; i++)
		fprintf(out, "%s\"%s\"", i ? "," : "", prog_type_name(types[i]));
	fputs("],\"helpers\":", out);
	all_helpers(in, helpers);
	json_helpers(out, helpers);
	fprintf(out, ",\"kernel_btf\":%s,\"kfuncs\":[", in->core ? "true" : "false");
	for (int i = 0; i < in->nkfuncs; i++) {
		fputs(i ? "," : "", out);
		json_str(out, in->kfuncs[i]);
	}
	fputs("]}}\n", out);
	free(types);
}

void info_print(FILE *out, const struct info *in, const char *path, bool json)
{
	const struct dcc_meta_header *h = meta_of(in);
	if (json)
		print_json(out, in, path, h);
	else
		print_text(out, in, path, h);
}

static void *read_all(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, k;

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			char *grown = realloc(buf, cap = cap ? 2 * cap : 1 << 16);
			if (!grown)
				break;
			buf = grown;
		}
		k = fread(buf + n, 1, cap - n, f);
		n += k;
	} while (k);
	fclose(f);
	*size = n;
	return buf;
}

static int info_command(int argc, char **argv)
{
	const char *path = NULL;
	bool json = false;
	char why[256];
	struct info in;
	size_t size = 0;
	void *obj;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--info") || !strcmp(a, "--info=text")) {
			continue;
		} else if (!strcmp(a, "--info=json")) {
			json = true;
		} else if (!strcmp(a, "-f") || !strncmp(a, "--format", 8)) {
			const char *v = a[1] == 'f' ? (i + 1 < argc ? argv[++i] : NULL)
				      : a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
			if (!v || (strcmp(v, "json") && strcmp(v, "text"))) {
				fprintf(stderr, "dtrun: --info's format is text or json\n");
				return 2;
			}
			json = !strcmp(v, "json");
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "dtrun: --info takes no option '%s'\n", a);
			return 2;
		} else if (path) {
			fprintf(stderr, "dtrun: --info takes one object file\n");
			return 2;
		} else {
			path = a;
		}
	}
	if (!path) {
		fprintf(stderr, "dtrun: --info needs an object file\n");
		return 2;
	}
	obj = read_all(path, &size);
	if (!obj) {
		fprintf(stderr, "dtrun: failed to read %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (info_scan(obj, size, false, &in, why, sizeof(why))) {
		fprintf(stderr, "dtrun: %s: %s\n", path, why);
		free(obj);
		return 1;
	}
	info_print(stdout, &in, path, json);
	info_free(&in);
	free(obj);
	return fflush(stdout) ? 1 : 0;
}

int info_long_options(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--help")) {
			struct loader_opts lo = { .progname = "dtrun" };
			loader_usage(stdout, &lo);
			return 0;
		}
		if (!strcmp(argv[i], "--version")) {
			printf("dtrun %s (libbpf %s)\n", DCC_VERSION, libbpf_version_string());
			return 0;
		}
		if (!strncmp(argv[i], "--info", 6))
			return info_command(argc, argv);
	}
	return -1;
}
