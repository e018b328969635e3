/*
 * -x oformat=json: records and aggregation rows as JSON Lines, one object per
 * line, for programs to read instead of the DTrace text. docs/json.md is the
 * schema; the first line of each output file says which version it is:
 *
 *   {"format":"dcc-json","version":1}
 *   {"cpu":0,"id":1,"probe":"dtrace:::BEGIN","clause":"x.d:1:1",
 *    "output":[{"printf":"hello\n"},{"trace":7},{"exit":0}]}
 *   {"aggregation":"@calls","keys":["bash",42],"value":12}
 *   {"aggregation":"@lat","keys":[],"buckets":[{"value":"4","count":3}, ...]}
 *
 * printf text is what the text mode would print; rows printed by printa()
 * follow their record's line. A traced float is a JSON number with the
 * fewest digits that read back as the same value ({"trace":3.14159}); JSON
 * has no NaN or infinity, so those are the strings "NaN", "Infinity" and
 * "-Infinity", as JavaScript's Number() reads them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"

void rt_json_string(FILE *out, const char *s, size_t n)
{
	fputc('"', out);
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		case '\b': fputs("\\b", out); break;
		case '\f': fputs("\\f", out); break;
		default:
			/* bytes that are not ASCII text go out as code points 0..255 */
			if (c < 0x20 || c >= 0x7f)
				fprintf(out, "\\u%04x", c);
			else
				fputc(c, out);
		}
	}
	fputc('"', out);
}

void rt_json_header(struct dcc_runtime *rt, FILE *out)
{
	if (!rt->json_header_due)
		return;
	rt->json_header_due = false;
	fprintf(out, "{\"format\":\"dcc-json\",\"version\":%d}\n", RT_JSON_SCHEMA);
}

/* The shortest %.Ng that reads back as the value at its own precision. */
static void json_float(FILE *out, const struct rt_val *v)
{
	long double x = rt_float_value(v);
	char buf[64];

	if (isnan(x) || isinf(x)) {
		fputs(isnan(x) ? "\"NaN\"" : x > 0 ? "\"Infinity\"" : "\"-Infinity\"", out);
		return;
	}
	for (int digits = 1; digits <= 21; digits++) {
		if (v->size == 4) {
			snprintf(buf, sizeof(buf), "%.*g", digits, (double)x);
			if (strtof(buf, NULL) == (float)x)
				break;
		} else if (v->size == 8) {
			snprintf(buf, sizeof(buf), "%.*g", digits, (double)x);
			if (strtod(buf, NULL) == (double)x)
				break;
		} else {
			snprintf(buf, sizeof(buf), "%.*Lg", digits, x);
			if (strtold(buf, NULL) == x)
				break;
		}
	}
	fputs(buf, out);
}

static void json_val(struct dcc_runtime *rt, FILE *out, const struct rt_val *v)
{
	switch (v->kind) {
	case DCC_K_INT:
		if (v->is_signed)
			fprintf(out, "%lld", (long long)v->i);
		else
			fprintf(out, "%llu", (unsigned long long)(v->size >= 8 ? (uint64_t)v->i
					: (uint64_t)v->i & ((1ULL << (8 * v->size)) - 1)));
		break;
	case DCC_K_FLOAT:
		json_float(out, v);
		break;
	case DCC_K_INET: {
		char tb[RT_INET_LEN];
		struct rt_val sv;

		rt_inet_string(v, tb, rt->strsize, &sv);
		json_val(rt, out, &sv);
		break;
	}
	case DCC_K_STRING:
		rt_json_string(out, v->p, v->size);
		break;
	case DCC_K_STACK:
	case DCC_K_USTACK: {
		char **f;
		int n = rt_stack_frames(rt, v, &f);

		fputc('[', out);
		for (int i = 0; i < n; i++) {
			if (i)
				fputc(',', out);
			rt_json_string(out, f[i], strlen(f[i]));
			free(f[i]);
		}
		fputc(']', out);
		free(f);
		break;
	}
	case DCC_K_SYM: case DCC_K_MOD: case DCC_K_USYM: case DCC_K_UADDR: case DCC_K_UMOD: {
		char buf[512];

		rt_addr_text(rt, v, buf, sizeof(buf));
		rt_json_string(out, buf, sizeof(buf));
		break;
	}
	default:
		/* raw bytes as a hex string */
		fputc('"', out);
		for (uint32_t i = 0; i < v->size; i++)
			fprintf(out, "%02x", (unsigned char)v->p[i]);
		fputc('"', out);
		break;
	}
}

void rt_json_agg_row(struct dcc_runtime *rt, FILE *out, const struct dcc_meta_agg *a,
		     const char *key, const int64_t *val)
{
	int64_t normal = rt->agg_state[a->id].normal > 1 ? rt->agg_state[a->id].normal : 1;

	/* rows a record's printa() makes go to a buffer its line precedes */
	if (out == rt->out)
		rt_json_header(rt, out);
	fputs("{\"aggregation\":", out);
	{
		const char *name = rt_str(rt, a->name);
		char *full = malloc(strlen(name) + 2);

		if (full) {
			full[0] = '@';
			strcpy(full + 1, name);
			rt_json_string(out, full, strlen(full));
			free(full);
		}
	}
	fputs(",\"keys\":[", out);
	for (uint32_t k = 0; k < a->nkeys; k++) {
		struct rt_val v;

		rt_field_val(&rt->keys[a->first_key + k], key, &v);
		if (k)
			fputc(',', out);
		json_val(rt, out, &v);
	}
	fputc(']', out);
	if (rt_agg_is_hist(a)) {
		struct hist_row *rows;
		int n = rt_hist_rows(a, val, &rows);

		fputs(",\"buckets\":[", out);
		for (int i = 0; i < n; i++) {
			fprintf(out, "%s{\"value\":", i ? "," : "");
			rt_json_string(out, rows[i].label, sizeof(rows[i].label));
			fprintf(out, ",\"count\":%lld}", (long long)(rows[i].count / normal));
		}
		fputc(']', out);
		free(rows);
	} else if (a->func == DCC_AGG_STDDEV) {
		fprintf(out, ",\"value\":%llu", (unsigned long long)rt_agg_value(a, val, normal));
	} else {
		fprintf(out, ",\"value\":%lld", (long long)rt_agg_value(a, val, normal));
	}
	fputs("}\n", out);
}

/* One record as one line; printa() rows go to `rows` to follow it. */
void rt_json_record(struct dcc_runtime *rt, FILE *out, const struct dcc_rec_hdr *h,
		    const struct dcc_meta_clause *c, const char *rec, FILE *rows)
{
	const struct dcc_meta_probe *p = rt_probe(rt, h->probe_id);

	fprintf(out, "{\"cpu\":%u,\"id\":%u,\"probe\":", h->cpu, h->probe_id);
	if (p) {
		char desc[1024];

		snprintf(desc, sizeof(desc), "%s:%s:%s:%s", rt_str(rt, p->prov),
			 rt_str(rt, p->mod), rt_str(rt, p->func), rt_str(rt, p->name));
		rt_json_string(out, desc, sizeof(desc));
	} else {
		fputs("null", out);
	}
	fputs(",\"clause\":", out);
	rt_json_string(out, rt_str(rt, c->loc), strlen(rt_str(rt, c->loc)));
	fputs(",\"output\":[", out);
	for (uint32_t i = 0, n = 0; i < c->nactions; i++) {
		uint32_t ai = c->first_action + i;
		const struct dcc_meta_action *a = &rt->actions[ai];
		struct rt_val v;

		switch (a->kind) {
		case DCC_ACT_PRINTF:
		case DCC_ACT_PRINT: {
			char *text = NULL;
			size_t len = 0;
			FILE *m = open_memstream(&text, &len);

			if (!m)
				break;
			rt_action(rt, m, c, ai, rec);
			fclose(m);
			fprintf(out, "%s{\"%s\":", n++ ? "," : "",
				a->kind == DCC_ACT_PRINT ? "print" : "printf");
			rt_json_string(out, text, len);
			fputc('}', out);
			free(text);
			break;
		}
		case DCC_ACT_TRACE:
			rt_field_val(&rt->args[a->first_arg], rec, &v);
			fprintf(out, "%s{\"trace\":", n++ ? "," : "");
			json_val(rt, out, &v);
			fputc('}', out);
			break;
		case DCC_ACT_EXIT:
			rt_action(rt, rows, c, ai, rec);
			rt_field_val(&rt->args[a->first_arg], rec, &v);
			fprintf(out, "%s{\"exit\":%d}", n++ ? "," : "", (int)v.i);
			break;
		default:
			rt_action(rt, rows, c, ai, rec);
			break;
		}
	}
	fputs("]}\n", out);
}
