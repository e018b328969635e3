/*
 * The kernel half of `dcc verify`: every program of the object loaded into
 * the running kernel's verifier through libbpf, never attached, then
 * unloaded. A refused program is reported with the verifier's last lines and
 * the D source line of the instruction it stopped at (from .BTF.ext's
 * line_info), and the others are loaded again without it.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <dcc/abi.h>

#include "verify.h"

#define PROG_LOG_SIZE (1u << 20)
#define SHOWN_LINES 3

/* libbpf's own warnings, shown only when the object as a whole fails. */
static char lib_msgs[8192];
static size_t lib_len;

static int lib_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	int n;

	if (level != LIBBPF_WARN || lib_len >= sizeof(lib_msgs) - 1)
		return 0;
	n = vsnprintf(lib_msgs + lib_len, sizeof(lib_msgs) - lib_len, fmt, ap);
	if (n > 0)
		lib_len += (size_t)n < sizeof(lib_msgs) - lib_len ? (size_t)n :
			sizeof(lib_msgs) - lib_len - 1;
	return 0;
}

/* Trim a log line to what says something: no indentation, no "libbpf: "
 * or "prog 'x': " prefix; false for statistics and log frame lines. */
static bool meaningful(const char **line, size_t *len)
{
	static const char *const skip[] = {
		"processed ", "verification time", "stack depth", "max_states_per_insn",
		"-- BEGIN", "-- END", "Live regs", "failed to load object", "failed to load: ",
	};
	const char *l = *line;
	size_t n = *len;

	while (n && isspace((unsigned char)*l))
		l++, n--;
	if (n >= 8 && !strncmp(l, "libbpf: ", 8))
		l += 8, n -= 8;
	if (n >= 6 && !strncmp(l, "prog '", 6) && memchr(l, ':', n)) {
		size_t k = (size_t)((const char *)memchr(l, ':', n) - l) + 1;

		l += k, n -= k;
		while (n && isspace((unsigned char)*l))
			l++, n--;
	}
	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (n >= strlen(skip[i]) && !strncmp(l, skip[i], strlen(skip[i])))
			return false;
	*line = l;
	*len = n;
	return n > 0;
}

/* Print the last meaningful lines of log, a tab before each. */
static void show_tail(const char *log, int max)
{
	const char *starts[SHOWN_LINES];
	size_t lens[SHOWN_LINES];
	int n = 0;

	for (const char *p = log; *p;) {
		size_t len = strcspn(p, "\n"), tlen = len;
		const char *t = p;

		if (meaningful(&t, &tlen)) {
			if (n == max) {
				memmove(starts, starts + 1, (size_t)(max - 1) * sizeof(*starts));
				memmove(lens, lens + 1, (size_t)(max - 1) * sizeof(*lens));
				n--;
			}
			starts[n] = t;
			lens[n++] = tlen;
		}
		p += len;
		if (*p)
			p++;
	}
	for (int i = 0; i < n; i++)
		printf("\t%.*s\n", (int)lens[i], starts[i]);
}

/* The index of the last instruction the verifier printed ("12: (79) ..." or
 * libbpf's "12: <invalid CO-RE relocation>"), or -1. */
static long failed_insn(const char *log)
{
	long last = -1;

	for (const char *p = log; *p;) {
		size_t len = strcspn(p, "\n");
		char *end;
		long v;

		if (isdigit((unsigned char)*p)) {
			v = strtol(p, &end, 10);
			if (end[0] == ':' && end[1] == ' ' && (end[2] == '(' || end[2] == '<'))
				last = v;
		}
		p += len;
		if (*p)
			p++;
	}
	return last;
}

static const char *attach_target(const struct vobj *o, const char *prog, uint32_t *kind)
{
	const char *target = NULL;
	int count = 0;

	for (int i = 0; i < o->nattach; i++) {
		if (strcmp(o->attach[i].prog, prog))
			continue;
		if (!count++) {
			target = o->attach[i].target;
			*kind = o->attach[i].kind;
		}
	}
	return count == 1 ? target : NULL;
}

/* The pass: $target set to a pid, then 0 (" with $target 0" in messages). */
static const char *pass_note = "";

/*
 * Read-only variables are constants to the verifier: code under
 * `$target != 0` is only checked when $target is set, and code under
 * `$target == 0` only when it is not. Give them what dtrun gives them: a pid
 * (ours) or 0, and the wall clock offset.
 */
static void set_rodata(struct bpf_object *obj, uint64_t target)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, ".rodata");
	const struct btf *btf = bpf_object__btf(obj);
	const struct btf_var_secinfo *vi;
	const struct btf_type *sec;
	const void *init;
	size_t size = 0;
	char *copy;
	int id;

	if (!map || !btf || !(init = bpf_map__initial_value(map, &size)) || !size)
		return;
	id = btf__find_by_name_kind(btf, ".rodata", BTF_KIND_DATASEC);
	if (id < 0 || !(copy = malloc(size)))
		return;
	memcpy(copy, init, size);
	sec = btf__type_by_id(btf, (uint32_t)id);
	vi = btf_var_secinfos(sec);
	for (int i = 0; i < btf_vlen(sec); i++, vi++) {
		const struct btf_type *v = btf__type_by_id(btf, vi->type);
		const char *name = v && btf_is_var(v) ? btf__name_by_offset(btf, v->name_off) : "";
		struct timespec rt, mono;
		uint64_t val;

		if (vi->size != sizeof(val) || size < sizeof(val) ||
		    vi->offset > size - sizeof(val))
			continue;
		if (!strcmp(name, DCC_RODATA_TARGET)) {
			val = target;
		} else if (!strcmp(name, DCC_RODATA_WALLOFF)) {
			clock_gettime(CLOCK_REALTIME, &rt);
			clock_gettime(CLOCK_MONOTONIC, &mono);
			val = (uint64_t)(rt.tv_sec - mono.tv_sec) * 1000000000u +
			      (uint64_t)(rt.tv_nsec - mono.tv_nsec);
		} else {
			continue;
		}
		memcpy(copy + vi->offset, &val, sizeof(val));
	}
	bpf_map__set_initial_value(map, copy, size);
	free(copy);
}

static void report_refused(const struct vobj *o, const char *name, const char *sec,
			   const char *log, int err, const char *by)
{
	const struct vfunc *f = NULL;
	const struct vline *l = NULL;
	long insn = failed_insn(log);

	for (int i = 0; i < o->nfuncs && !f; i++)
		if (!strcmp(o->funcs[i].name, name) && !strcmp(o->funcs[i].sec, sec))
			f = &o->funcs[i];
	if (f && insn >= 0 && (uint64_t)insn * 8 < f->size)
		l = verify_obj_line_at(o, sec, f->off + (uint64_t)insn * 8);
	if (l)
		printf("%s:%u: ", l->file, l->line);
	else
		printf("%s: ", o->path);
	printf("error: program %s (%s) refused by the %s%s (%s):\n", name, sec, by, pass_note,
	       strerror(err));
	show_tail(log, SHOWN_LINES);
}

/* The program libbpf names in its warnings ("prog 'dcc_c1': ..."). */
static bool named_in_msgs(char *name, size_t size)
{
	const char *p = strstr(lib_msgs, "prog '"), *q;

	if (!p)
		return false;
	p += 6;
	q = strchr(p, '\'');
	if (!q || (size_t)(q - p) >= size)
		return false;
	memcpy(name, p, (size_t)(q - p));
	name[q - p] = 0;
	return true;
}

/* Load with $target == target: 0 when every program passes (*count of
 * them), else 1 after the verdict. */
static int load_all(const struct vobj *o, uint64_t target, int *count)
{
	char **failed = NULL, **logs = NULL, objname[64];
	const char *base = strrchr(o->path, '/');
	int nfailed = 0, nprogs = -1, ret = 0;
	size_t len;

	base = base ? base + 1 : o->path;
	len = strcspn(base, ".");
	if (len >= sizeof(objname))
		len = sizeof(objname) - 1;
	/* libbpf prefixes internal map names with it: keep it a C name */
	for (size_t i = 0; i < len; i++)
		objname[i] = isalnum((unsigned char)base[i]) ? base[i] : '_';
	objname[len] = 0;
	libbpf_set_print(lib_print);
	for (;;) {
		LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = len ? objname : "dcc");
		struct bpf_object *obj;
		struct bpf_program *prog;
		char pname[128];
		int i = 0, err, bad = -1;

		lib_len = 0;
		lib_msgs[0] = 0;
		obj = bpf_object__open_mem(o->buf, o->size, &oo);
		if (!obj) {
			err = errno;
			printf("%s: error: libbpf cannot open the object (%s):\n", o->path,
			       strerror(err));
			show_tail(lib_msgs, SHOWN_LINES);
			ret = 1;
			break;
		}
		bpf_object__for_each_program(prog, obj) {
			const char *name = bpf_program__name(prog), *target;
			uint32_t kind = 0;

			if (nprogs < 0) {
				logs = realloc(logs, (size_t)(i + 1) * sizeof(*logs));
				logs[i] = malloc(PROG_LOG_SIZE);
			}
			logs[i][0] = 0;
			/* level 0: libbpf asks for a log only when a load fails */
			bpf_program__set_log_buf(prog, logs[i], PROG_LOG_SIZE);
			for (int k = 0; k < nfailed; k++)
				if (!strcmp(failed[k], name))
					bpf_program__set_autoload(prog, false);
			target = attach_target(o, name, &kind);
			if (target && *target && (kind == DCC_ATTACH_TP_BTF ||
			    kind == DCC_ATTACH_FENTRY || kind == DCC_ATTACH_FEXIT))
				bpf_program__set_attach_target(prog, 0, target);
			i++;
		}
		if (nprogs < 0)
			nprogs = i;
		set_rodata(obj, target);
		if (!bpf_object__load(obj)) {
			bpf_object__close(obj);
			break;
		}
		err = errno ? errno : EINVAL;
		i = 0;
		bpf_object__for_each_program(prog, obj) {
			if (bad < 0 && logs[i][0] && bpf_program__autoload(prog)) {
				bad = i;
				report_refused(o, bpf_program__name(prog),
					       bpf_program__section_name(prog), logs[i], err,
					       "verifier");
				snprintf(pname, sizeof(pname), "%s", bpf_program__name(prog));
			}
			i++;
		}
		if (bad < 0 && named_in_msgs(pname, sizeof(pname)) &&
		    bpf_object__find_program_by_name(obj, pname) &&
		    bpf_program__autoload(bpf_object__find_program_by_name(obj, pname))) {
			prog = bpf_object__find_program_by_name(obj, pname);
			bad = 0;
			/* refused before the verifier ran, or by libbpf */
			report_refused(o, pname, bpf_program__section_name(prog), lib_msgs, err,
				       "kernel");
		}
		bpf_object__close(obj);
		ret = 1;
		if (bad < 0) {
			printf("%s: error: libbpf cannot load the object (%s):\n", o->path,
			       strerror(err));
			show_tail(lib_msgs, SHOWN_LINES);
			break;
		}
		failed = realloc(failed, (size_t)(nfailed + 1) * sizeof(*failed));
		failed[nfailed++] = strdup(pname);
	}
	if (nprogs >= 0 && nfailed)
		printf("%s: %d of %d programs pass the verifier%s\n", o->path, nprogs - nfailed,
		       nprogs, pass_note);
	*count = nprogs;
	for (int i = 0; i < nfailed; i++)
		free(failed[i]);
	free(failed);
	for (int i = 0; i < nprogs; i++)
		free(logs[i]);
	free(logs);
	libbpf_set_print(NULL);
	return ret;
}

/* Both passes, so that code under `$target != 0` and under `$target == 0`
 * is verified. */
static int two_passes(const struct vobj *o)
{
	int n = 0;

	if (load_all(o, (uint64_t)getpid(), &n))
		return 1;
	pass_note = " with $target 0";
	if (load_all(o, 0, &n))
		return 1;
	printf("%s: %d program%s the verifier\n", o->path, n, n == 1 ? " passes" : "s pass");
	return 0;
}

/*
 * libbpf 1.1 trusts the object's BTF and can crash on a corrupted one: load
 * in a child, so a crash is a one-line verdict rather than ours.
 */
int verify_load(const struct vobj *o)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return two_passes(o);
	if (pid == 0) {
		int ret = two_passes(o);

		fflush(NULL);
		_exit(ret);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	if (WIFSIGNALED(st)) {
		printf("%s: error: libbpf crashed loading the object (%s)\n", o->path,
		       strsignal(WTERMSIG(st)));
		return 1;
	}
	return WEXITSTATUS(st) ? 1 : 0;
}
