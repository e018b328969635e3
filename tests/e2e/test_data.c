/*
 * The data side through the kernel: speculation committed and discarded
 * by the trigger's own call numbers, printa() of two aggregations sharing
 * keys, and the JSON Lines output of the same trace.
 */
#include "e2e/e2e.h"

E2E_TEST(data, speculations_commit_even_calls_and_printa_joins_two_aggregations)
{
	const char *obj = e2e_build_src("tst.spec_commit");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 6", e2e_trigger("getppid_n")), obj, NULL);
	e2e_expect_out(&r, 0, "data.speculations_commit_even_calls_and_printa_joins_two_aggregations");
	run_result_free(&r);
}

E2E_TEST(data, json_lines_carry_records_and_aggregation_rows)
{
	const char *obj = e2e_build_src("tst.spec_commit");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-x", "oformat=json", "-c", e2e_fmt("%s 2", e2e_trigger("getppid_n")),
		obj, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	/* the schema's header line first (docs/json.md) */
	static const char head[] = "{\"format\":\"dcc-json\",\"version\":1}\n{\"cpu\":";
	cr_assert(!strncmp(r.out, head, sizeof(head) - 1), "%s", r.out);
	cr_assert(strstr(r.out, "\"probe\":\"syscall:vmlinux:getppid:entry\""), "%s", r.out);
	cr_assert(strstr(r.out, "\"output\":[{\"printf\":\"call 2\\n\"}]"), "%s", r.out);
	cr_assert(!strstr(r.out, "call 1"), "a discarded speculation was printed: %s", r.out);
	cr_assert(strstr(r.out, "{\"aggregation\":\"@c\",\"keys\":[\"even\"],\"value\":1}\n"), "%s",
		  r.out);
	cr_assert(strstr(r.out, "{\"aggregation\":\"@s\",\"keys\":[\"odd\"],\"value\":1}\n"), "%s",
		  r.out);
	run_result_free(&r);
}

/* How many kernel text symbols are called name: a compiler's clones
 * (".constprop.0") can share one name at two addresses, two rows. */
static int kallsyms_count(const char *name)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], sym[256];
	int n = 0;
	while (f && fgets(line, sizeof(line), f))
		n += sscanf(line, "%*s %*s %255s", sym) == 1 && !strcmp(sym, name);
	if (f)
		fclose(f);
	return n;
}

E2E_TEST(data, func_keys_merge_by_kernel_symbol)
{
	/* kernel PCs sampled on every CPU (idle CPUs sample the idle loop):
	 * every function must be one row, whatever offsets were sampled */
	const char *obj = e2e_build("funckeys",
		"#pragma D option quiet\n"
		"profile:::profile-997 /arg0/ { @[func(arg0)] = count(); }\n"
		"tick-300ms { exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	char *names[4096];
	int n = 0;
	for (char *line = strtok(r.out, "\n"); line && n < 4096; line = strtok(NULL, "\n")) {
		char name[256];
		if (sscanf(line, " %255s", name) != 1)
			continue;
		cr_assert(strchr(name, '`') && !strstr(name, "+0x"), "not a function: %s", line);
		for (int i = 0; i < n; i++)
			cr_assert(strcmp(names[i], name) || kallsyms_count(strchr(name, '`') + 1) > 1,
				  "%s appears twice", name);
		names[n++] = e2e_keep(strdup(name));
	}
	cr_assert_gt(n, 0, "no samples at all");
	run_result_free(&r);
}

E2E_TEST(data, struct_variables_global_thread_local_and_clause_local)
{
	/* a global struct updated per call, a self-> struct member, whole
	 * task_structs copied into this-> and self-> and read back, and trace()
	 * of the global's bytes at the end ({3, 30, ""}) */
	const char *obj = e2e_build_src("tst.struct_vars");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 3", e2e_trigger("getppid_n")), obj, NULL);
	e2e_expect_script_out(&r, 0, "tst.struct_vars");
	run_result_free(&r);
}

E2E_TEST(data, declared_assoc_arrays_keep_their_value_and_key_types)
{
	/* the declared value type narrows what is stored (300 as a char is
	 * 44); an element never stored reads 0, a string one NULL; the
	 * members of a struct element are stored in place */
	const char *obj = e2e_build("assocdecl",
		"#pragma D option quiet\n"
		"uint64_t last[int];\n"
		"char small[uint64_t];\n"
		"self string names[int, string];\n"
		"struct calls { uint64_t ts; int n; } calls[string];\n"
		"BEGIN { last[1] = 5; last[2] = last[1] + 1; small[7] = 300;\n"
		"  self->names[3, \"x\"] = \"hello\";\n"
		"  calls[\"a\"].n = 3; calls[\"a\"].n++; calls[\"a\"].n += 10; calls[\"b\"].ts = 7;\n"
		"  printf(\"%d %d %d %d [%s] %d\\n\", last[1], last[2], small[7], last[9],\n"
		"    self->names[3, \"x\"], self->names[4, \"x\"] == NULL);\n"
		"  printf(\"%d %d %d\\n\", calls[\"a\"].n, calls[\"b\"].ts, calls[\"c\"].n);\n"
		"  exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_eq(r.out, "5 6 44 0 [hello] 1\n14 7 0\n\n");
	run_result_free(&r);
}

E2E_TEST(data, a_clause_holding_only_speculate_records_its_probe_when_committed)
{
	/* no data action but speculate(): the committed record is the probe
	 * line alone, the discarded one and an invalid id's print nothing */
	const char *obj = e2e_build("speconly",
		"BEGIN { a = speculation(); b = speculation(); }\n"
		"BEGIN { speculate(a); }\n"
		"BEGIN { speculate(b); }\n"
		"BEGIN { speculate(-1); }\n"
		"BEGIN { commit(a); discard(b); }\n"
		"BEGIN { exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	int begins = 0;
	for (const char *p = r.out; (p = strstr(p, ":BEGIN \n")); p++)
		begins++;
	cr_assert_eq(begins, 2, "want the committed record and exit()'s:\n%s", r.out);
	run_result_free(&r);
}

/* speculate() ends its clause when the id is not in use (0, never handed
 * out, already committed) or when the clause's data would pass specsize (a
 * speculative drop): the statements after it do not run. With room for one
 * clause of data only, the second speculating clause stops at speculate(). */
E2E_TEST(data, speculate_ends_its_clause_on_a_bad_id_or_a_full_speculation)
{
	const char *obj = e2e_build("specend",
		"#pragma D option quiet\n"
		"#pragma D option specsize=40\n"
		"BEGIN { s = speculation(); }\n"
		"BEGIN { speculate(0); zero = 1; }\n"
		"BEGIN { speculate(5); never = 1; }\n"
		"BEGIN { speculate(s); printf(\"%d\\n\", 111); first = 1; }\n"
		"BEGIN { speculate(s); printf(\"%d\\n\", 222); second = 1; }\n"
		"BEGIN { commit(s); }\n"
		"BEGIN { speculate(s); printf(\"late\\n\"); late = 1; }\n"
		"BEGIN { printf(\"%d %d %d %d %d\\n\", zero, never, first, second, late); exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_eq(r.out, "111\n0 0 1 0 0\n\n", "%s", r.out);
	cr_assert_str_eq(r.err, "dtrun: 1 speculative drop\n", "%s", r.err);
	run_result_free(&r);
}

/* commit() or discard() of an id beyond nspec, or a negative one, is an
 * illegal operation (the clause ends there); id 0 is a no-op. */
E2E_TEST(data, commit_or_discard_beyond_nspec_is_an_illegal_operation)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "run", "-q", "-n", "BEGIN { commit(9); } BEGIN { discard(-1); } "
		"BEGIN { commit(0); } BEGIN { discard(0); } BEGIN { printf(\"ok\\n\"); exit(0); }",
		NULL);
	e2e_expect(&r, 0, "ok\n\n");
	cr_assert_str_eq(r.err,
		"dcc: error in <description>:1:1 for probe ID 1 (dtrace:::BEGIN): illegal "
		"operation at BPF pc 0\n"
		"dcc: error in <description>:1:22 for probe ID 1 (dtrace:::BEGIN): illegal "
		"operation at BPF pc 0\n", "%s", r.err);
	run_result_free(&r);
}
