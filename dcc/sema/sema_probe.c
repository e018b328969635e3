/*
 * Probe descriptions -> probes. Matches each description of a clause (with
 * D's globs) against the providers dcc knows: dtrace (BEGIN/END), profile
 * (tick-N / profile-N) and syscall (entry/return of every x86_64 syscall),
 * and groups a clause's probes by the BPF program that will serve them.
 */
#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "diag.h"
#include "sema.h"
#include "btf.h"
#include "sema_internal.h"
#include <dcc/abi.h>
#include <dcc/abi_cpc.h>
#include "syscall.h"
#include "proc_prov.h"

#define SYSCALL_ID_BASE 1000
#define PROFILE_ID_BASE 100
#define CPC_ID_BASE 900 /* up to the syscalls' */

static uint32_t syscall_probe_id(int nr, bool is_return)
{
	return SYSCALL_ID_BASE + 2 * (uint32_t)nr + (is_return ? 1 : 0);
}

static bool is_glob(const char *s)
{
	return strpbrk(s, "*?[\\") != NULL;
}

/* An empty field matches everything. A field without a glob character
 * is compared as it is: fnmatch would say the same, and a clause naming
 * one syscall asks this for each of the ~360 (fnmatch was 0.6% of a
 * 20-clause compile). */
static bool field_match(const char *pat, const char *s)
{
	if (!*pat)
		return true;
	return is_glob(pat) ? fnmatch(pat, s, 0) == 0 : strcmp(pat, s) == 0;
}

static struct probe *probe_find(struct sema *s, uint32_t id)
{
	if (s->listing)
		return NULL; /* each description lists its own matches */
	for (int i = 0; i < s->nprobes; i++)
		if (s->probes[i]->id == id)
			return s->probes[i];
	return NULL;
}

static struct probe *probe_get(struct sema *s, uint32_t id, enum probe_kind kind,
			       const char *prov, const char *mod, const char *func,
			       const char *name)
{
	struct probe *p = probe_find(s, id);
	if (p)
		return p;
	p = arena_new(s->ar, struct probe);
	p->id = id;
	p->kind = kind;
	p->prov = prov;
	p->mod = mod;
	p->func = func;
	p->name = name;
	if (s->nprobes == s->cap_probes) {
		s->cap_probes = s->cap_probes ? 2 * s->cap_probes : 16;
		s->probes = realloc(s->probes, s->cap_probes * sizeof(*s->probes));
	}
	s->probes[s->nprobes++] = p;
	return p;
}

/* "tick-10ms", "profile-997" -> period in ns; 0 if malformed. */
static uint64_t parse_rate(const char *spec)
{
	char *end;
	unsigned long long n = strtoull(spec, &end, 10);
	if (end == spec || n == 0)
		return 0;
	static const struct {
		const char *unit;
		uint64_t ns;
	} units[] = {
		{ "ns", 1 }, { "nsec", 1 }, { "us", 1000 }, { "usec", 1000 },
		{ "ms", 1000000 }, { "msec", 1000000 }, { "s", 1000000000ull },
		{ "sec", 1000000000ull }, { "m", 60000000000ull }, { "min", 60000000000ull },
		{ "h", 3600000000000ull }, { "hour", 3600000000000ull },
		{ "d", 86400000000000ull }, { "day", 86400000000000ull },
	};
	if (!*end || !strcmp(end, "hz"))
		return n > 1000000000ull ? 0 : 1000000000ull / n;
	for (unsigned i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit))
			return n * units[i].ns;
	return 0;
}

struct match {
	struct probe **v;
	int *ndescs; /* per probe: how many of the clause's descriptions match it */
	int *last;   /* per probe: the last description that matched it */
	int n, cap;
	int desc;    /* the description being matched, from 1 */
	int hits; /* every match, repeats too: DTrace's count of enablings */
	bool all; /* listing: probes are new, no need to look for them */
};

static void add_match(struct match *m, struct probe *p)
{
	m->hits++;
	for (int i = 0; i < m->n && !m->all; i++)
		if (m->v[i] == p) {
			if (m->last[i] != m->desc)
				m->ndescs[i]++;
			m->last[i] = m->desc;
			return;
		}
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 16;
		m->v = realloc(m->v, m->cap * sizeof(*m->v));
		m->ndescs = realloc(m->ndescs, m->cap * sizeof(*m->ndescs));
		m->last = realloc(m->last, m->cap * sizeof(*m->last));
	}
	m->ndescs[m->n] = 1;
	m->last[m->n] = m->desc;
	m->v[m->n++] = p;
}

static const char *const unsupported_providers[] = {
	"vminfo",
	"sysinfo", "fasttrap", NULL,
};

bool sema_provider_known(const char *name)
{
	static const char *const known[] = {
		"dtrace", "profile", "syscall", "proc", "io", "sdt", "rawtp", "fbt", "sched",
		"ip", "tcp", "udp", "lockstat", "cpc",
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(known[i], name))
			return true;
	return false;
}

#define DYN_ID_BASE 10000
#define FBT_MAX 256

/* sdt, rawtp and fbt probes are numbered in order of first use */
static struct probe *probe_named(struct sema *s, enum probe_kind kind, const char *prov,
				 const char *mod, const char *func, const char *name)
{
	uint32_t id = DYN_ID_BASE;
	if (s->listing) {
		id = s->next_dyn_id ? s->next_dyn_id : DYN_ID_BASE;
		s->next_dyn_id = id + 1;
		return probe_get(s, id, kind, prov, arena_strdup(s->ar, mod),
				 arena_strdup(s->ar, func), arena_strdup(s->ar, name));
	}
	for (int i = 0; i < s->nprobes; i++) {
		struct probe *p = s->probes[i];
		if (p->kind == kind && !strcmp(p->prov, prov) && !strcmp(p->mod, mod) && !strcmp(p->func, func) &&
		    !strcmp(p->name, name))
			return p;
	}
	for (int i = 0; i < s->nprobes; i++)
		if (s->probes[i]->id >= id)
			id = s->probes[i]->id + 1;
	return probe_get(s, id, kind, arena_strdup(s->ar, prov), arena_strdup(s->ar, mod),
			 arena_strdup(s->ar, func), arena_strdup(s->ar, name));
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void set_fields(struct sema *s, struct probe *p, struct type **t, unsigned *offs, int n)
{
	if (p->ftypes)
		return;
	p->nfields = n;
	p->ftypes = arena_alloc(s->ar, sizeof(*t) * (size_t)(n + 1));
	memcpy(p->ftypes, t, sizeof(*t) * (size_t)n);
	if (offs) {
		p->foffs = arena_alloc(s->ar, sizeof(*offs) * (size_t)(n + 1));
		memcpy(p->foffs, offs, sizeof(*offs) * (size_t)n);
	}
}

/* sdt:GROUP::EVENT and rawtp:GROUP::EVENT from the tracefs event list */
static int match_events(struct sema *s, struct node *d, struct match *m, bool raw)
{
	const char *root = "/sys/kernel/tracing/events";
	DIR *top = opendir(root);
	if (!top) {
		root = "/sys/kernel/debug/tracing/events";
		top = opendir(root);
	}
	if (!top)
		return diag_error(s->dg, d->loc, "the %s provider lists tracepoints from tracefs, "
				  "which is not mounted (mount -t tracefs nodev /sys/kernel/tracing)",
				  raw ? "rawtp" : "sdt");
	char **groups = NULL;
	int ng = 0;
	struct dirent *e;
	while ((e = readdir(top))) {
		if (e->d_name[0] == '.' || e->d_type != DT_DIR || !field_match(d->mod, e->d_name))
			continue;
		groups = realloc(groups, sizeof(char *) * (size_t)(ng + 1));
		groups[ng++] = strdup(e->d_name);
	}
	closedir(top);
	if (ng)
		qsort(groups, (size_t)ng, sizeof(char *), by_str);
	int err = 0;
	for (int g = 0; g < ng; g++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/%s", root, groups[g]);
		DIR *gd = opendir(path);
		char **evs = NULL;
		int ne = 0;
		while (gd && (e = readdir(gd))) {
			if (e->d_name[0] == '.' || e->d_type != DT_DIR ||
			    !field_match(d->pname, e->d_name))
				continue;
			evs = realloc(evs, sizeof(char *) * (size_t)(ne + 1));
			evs[ne++] = strdup(e->d_name);
		}
		if (gd)
			closedir(gd);
		if (ne)
			qsort(evs, (size_t)ne, sizeof(char *), by_str);
		for (int i = 0; i < ne; i++) {
			struct type *t[32];
			unsigned offs[32];
			struct sema_btf *b = raw && !err ? sema_btf(s, d->loc) : NULL;
			int n = raw ? (b ? sema_btf_rawtp_args(b, evs[i], t, 16) : -1)
				    : sema_event_fields(s, groups[g], evs[i], t, offs, 32, false);
			if (raw && !b)
				err = -1;
			/* (a raw tracepoint needs BTF's btf_trace_EVENT; a
			 * tracepoint an id, which ftrace's own record formats,
			 * ftrace/bprint..., lack; and the kernel attaches BPF
			 * to none of the ftrace group, id or not) */
			char idp[1024];
			snprintf(idp, sizeof(idp), "%s/%s/id", path, evs[i]);
			if (n >= 0 && !raw && (!strcmp(groups[g], "ftrace") || access(idp, F_OK)))
				n = -1;
			if (n >= 0) {
				struct probe *p = probe_named(s, raw ? PK_RAWTP : PK_SDT,
							      raw ? "rawtp" : "sdt", groups[g], "",
							      evs[i]);
				set_fields(s, p, t, raw ? NULL : offs, n);
				add_match(m, p);
			}
			free(evs[i]);
		}
		free(evs);
		free(groups[g]);
	}
	free(groups);
	return err;
}

struct fbt_match {
	struct sema *s;
	struct node *d;
	struct match *m;
	int n;
};

static void fbt_one(void *ctx, const char *name)
{
	struct fbt_match *f = ctx;
	if (!field_match(f->d->func, name))
		return;
	for (int ret = 0; ret < 2; ret++) {
		const char *pn = ret ? "return" : "entry";
		if (!field_match(f->d->pname, pn))
			continue;
		if (++f->n > FBT_MAX && !f->s->listing)
			continue;
		struct probe *p = probe_named(f->s, ret ? PK_FBT_RETURN : PK_FBT_ENTRY, "fbt",
					      "vmlinux", name, pn);
		if (f->s->listing) {
			add_match(f->m, p);
			continue;
		}
		struct type *t[13], *rt = &type_void;
		int n = sema_btf_func_args(f->s->btf, name, t, 12, &rt);
		if (n < 0)
			n = 0;
		/* the return probe's ctx holds the arguments then the value */
		t[n] = rt;
		set_fields(f->s, p, t, NULL, n + ret);
		if (ret)
			p->nfields = n; /* arguments; ftypes[n] is the return type */
		add_match(f->m, p);
	}
}

/* fbt:vmlinux:FUNC:entry|return, the kernel functions BTF describes */
static int match_fbt(struct sema *s, struct node *d, struct match *m)
{
	struct sema_btf *b = sema_btf(s, d->loc);
	if (!b)
		return -1;
	struct fbt_match f = { s, d, m, 0 };
	sema_btf_each_func(b, fbt_one, &f);
	if (f.n > FBT_MAX && !s->listing)
		return diag_error(s->dg, d->loc, "probe description %s matches %d fbt probes; dcc "
				  "attaches a program to each, at most %d", d->str, f.n, FBT_MAX);
	return 0;
}

/* io:vmlinux::start|done, on the block layer's tracepoints through tp_btf */
static int match_io(struct sema *s, struct node *d, struct match *m)
{
	const char *name, *event;

	if (!field_match(d->mod ? d->mod : "", "vmlinux") || !field_match(d->func ? d->func : "", ""))
		return 0;
	if (d->pname && !is_glob(d->pname) && sema_io_refused(s, d, d->pname))
		return -1;
	for (int i = 0; (event = sema_io_event(i, &name)); i++) {
		if (!field_match(d->pname ? d->pname : "", name))
			continue;
		struct sema_btf *b = sema_btf(s, d->loc);
		struct type *t[16];
		int n = b ? sema_btf_rawtp_args(b, event, t, 16) : -1;
		if (!b)
			return -1;
		if (n < 0)
			return diag_error(s->dg, d->loc, "io:::%s needs the kernel's tracepoint %s, "
					  "which its BTF does not describe", name, event);
		struct probe *p = probe_named(s, PK_RAWTP, "io", "vmlinux", "", name);
		p->event = event;
		set_fields(s, p, t, NULL, n);
		add_match(m, p);
	}
	return 0;
}

/* proc, sched, ip, tcp, udp and lockstat (PROV:vmlinux::NAME), tracepoints
 * with filters and mapped arguments; a probe no tracepoint serves is refused
 * by name */
static int match_proc(struct sema *s, struct node *d, struct match *m)
{
	const char *prov = d->prov ? d->prov : "", *name = d->pname ? d->pname : "";

	if (!is_glob(name) && ((!strcmp(prov, "sched") && sema_sched_refused(s, d, name)) ||
			       (!strcmp(prov, "proc") && sema_proc_refused(s, d, name)) ||
			       sema_net_refused(s, d, prov, name) ||
			       (!strcmp(prov, "lockstat") && sema_lockstat_refused(s, d, name))))
		return -1;
	if (!field_match(d->mod ? d->mod : "", "vmlinux") || !field_match(d->func ? d->func : "", ""))
		return 0;
	for (int i = 0; proc_probe(i); i++) {
		const struct proc_probe *pp = proc_probe(i);
		if (!field_match(prov, pp->prov) || !field_match(name, pp->name))
			continue;
		struct probe *p = probe_get(s, PROC_ID_BASE + (uint32_t)i, PK_PROC, pp->prov,
					    "vmlinux", "", pp->name);
		p->proc = i;
		add_match(m, p);
	}
	return 0;
}

static void add_pid(struct sema *s, struct node *d, struct match *m, enum probe_kind kind,
		    const char *name, uint32_t pid, bool offset)
{
	struct probe *p = probe_named(s, kind, d->prov, d->mod ? d->mod : "",
				      d->func ? d->func : "", name);
	p->pid = pid;
	p->pid_offset = offset;
	s->uses_pid = true;
	add_match(m, p);
}

/* pid$target:OBJECT:FUNC:entry|return|OFFSET: one probe a description,
 * resolved by the loader (sema_pid.c) */
static int match_pid(struct sema *s, struct node *d, struct match *m)
{
	const char *name = d->pname ? d->pname : "", *off = NULL;
	uint32_t pid;
	int n = 0, at;

	if (sema_pid_check(s, d, &pid) || (at = sema_pid_offset(s, d, &off)) < 0)
		return -1;
	if (at) {
		add_pid(s, d, m, PK_PID_ENTRY, off, pid, true);
		return 0;
	}
	for (int ret = 0; ret < 2; ret++) {
		const char *pn = ret ? "return" : "entry";
		if (!field_match(name, pn))
			continue;
		add_pid(s, d, m, ret ? PK_PID_RETURN : PK_PID_ENTRY, pn, pid, false);
		n++;
	}
	if (!n && !s->opts.zdefs)
		return diag_error(s->dg, d->loc, "probe description %s does not match any probes: "
				  "pid probes are entry, return and hexadecimal offsets (1c)",
				  d->str);
	return 0;
}

/* PROV$target:MODULE:FUNC:NAME: one probe a description, resolved by the
 * loader against the process's notes (sema_usdt.c) */
static int match_usdt(struct sema *s, struct node *d, struct match *m, uint32_t pid)
{
	int listed = sema_usdt_check(s, d, pid);
	if (listed)
		return listed < 0 ? -1 : 0;
	struct probe *p = probe_named(s, PK_USDT, d->prov, d->mod ? d->mod : "",
				      d->func ? d->func : "", d->pname ? d->pname : "");
	p->pid = pid;
	s->uses_pid = s->uses_usdt = true;
	add_match(m, p);
	return 0;
}

/* cpc:::EVENT-MODE-COUNT, perf events run as profile probes are; dcc -l
 * lists each event's every-10000 form for all modes */
static int match_cpc(struct sema *s, struct node *d, struct match *m)
{
	const char *prov = d->prov ? d->prov : "", *name = d->pname ? d->pname : "";
	if (!field_match(prov, "cpc") || !field_match(d->mod ? d->mod : "", "") ||
	    !field_match(d->func ? d->func : "", ""))
		return 0;
	if (s->listing) {
		const struct dcc_cpc_event *e;
		for (int i = 0; (e = abi_cpc_nth(i)); i++) {
			const char *pn = arena_printf(s->ar, "%s-all-10000", e->name);
			if (field_match(name, pn))
				add_match(m, probe_get(s, CPC_ID_BASE + (uint32_t)i, PK_PROFILE, "cpc",
						       "", "", pn));
		}
		return 0;
	}
	if (strcmp(prov, "cpc"))
		return 0; /* made from the name: only when the provider is named */
	if (is_glob(name) || !*name)
		return diag_error(s->dg, d->loc, "cpc probes are made from their names "
				  "(EVENT-MODE-COUNT) and cannot be matched by a pattern");
	const char *event;
	uint32_t flags;
	uint64_t count;
	if (sema_cpc_parse(s, d, name, &event, &flags, &count))
		return -1;
	uint32_t id = 0;
	int ncpc = 0;
	for (int i = 0; i < s->nprobes && !id; i++) {
		if (strcmp(s->probes[i]->prov, "cpc"))
			continue;
		ncpc++;
		if (!strcmp(s->probes[i]->name, name))
			id = s->probes[i]->id;
	}
	struct probe *p = probe_get(s, id ? id : CPC_ID_BASE + (uint32_t)ncpc, PK_PROFILE, "cpc",
				    "", "", arena_strdup(s->ar, name));
	p->period_ns = count;
	p->cpc_event = event;
	p->cpc_flags = flags;
	add_match(m, p);
	return 0;
}

/* d as a USDT description, before (late: after) the other providers
 * matched nothing; 1 when it is not one */
static int try_usdt(struct sema *s, struct node *d, struct match *m, bool late)
{
	uint32_t pid;

	if (late && d->prov && !strcmp(d->prov, "usdt"))
		return diag_error(s->dg, d->loc, "USDT probes are named by their provider and "
				  "process: PROVIDER$target:MODULE:FUNC:NAME or PROVIDERNNN:...");
	if (!sema_usdt_form(d->prov, late, &pid))
		return 1;
	return match_usdt(s, d, m, pid);
}

/* syscall::FUNC:entry|return, from the kernel's system call table */
static void match_syscall(struct sema *s, struct node *d, struct match *m)
{
	const char *prov = d->prov ? d->prov : "", *mod = d->mod ? d->mod : "";
	const char *func = d->func ? d->func : "", *name = d->pname ? d->pname : "";

	if (field_match(prov, "syscall") && field_match(mod, "vmlinux")) {
		/* the glob test once, not for each of the ~360 syscalls */
		bool func_glob = is_glob(func);
		int n = syscall_count();
		for (int i = 0; i < n; i++) {
			int nr;
			const char *fn = syscall_nth(i, &nr);
			if (*func && (func_glob ? fnmatch(func, fn, 0) != 0 : strcmp(func, fn) != 0))
				continue;
			for (int ret = 0; ret < 2; ret++) {
				const char *pn = ret ? "return" : "entry";
				if (!field_match(name, pn))
					continue;
				struct probe *p = probe_get(s, syscall_probe_id(nr, ret),
					ret ? PK_SYSCALL_RETURN : PK_SYSCALL_ENTRY, "syscall",
					"vmlinux", fn, pn);
				p->nr = nr;
				add_match(m, p);
			}
		}
	}
}

/* The profile probes dcc -l lists (as dtrace does), standing for all the others. */
static const char *const listed_profile[] = {
	"profile-97", "profile-199", "profile-499", "profile-997", "profile-1999",
	"profile-4001", "profile-4999", "tick-1", "tick-10", "tick-100",
	"tick-500", "tick-1000", "tick-5000", "tick-1s", "tick-10s",
};
#define NLISTED_PROFILE (sizeof(listed_profile) / sizeof(listed_profile[0]))

/*
 * A probe named by its id (dtrace -i ID, or a description of digits): the
 * probe dcc -l lists with that id, whose description replaces the number.
 * Only ids that do not depend on what a script uses can be named: the
 * dtrace provider's, the profile probes dcc -l lists, syscalls and the
 * tracepoint-table providers (proc, sched, ip, tcp, udp, lockstat); sdt,
 * rawtp, fbt and cpc probes are numbered in order of use, so their ids
 * name different probes from one script to the next.
 */
static int desc_from_id(struct sema *s, struct node *d)
{
	static const char *const dtrace_names[] = { "BEGIN", "END", "ERROR" };
	uint64_t id = d->ival;
	const char *prov = NULL, *mod = "", *func = "", *name = NULL;

	if (id >= DCC_PROBE_BEGIN && id < DCC_PROBE_BEGIN + 3) {
		prov = "dtrace";
		name = dtrace_names[id - DCC_PROBE_BEGIN];
	} else if (id >= PROC_ID_BASE && id < PROC_ID_BASE + 40 &&
		   proc_probe((int)(id - PROC_ID_BASE))) {
		const struct proc_probe *pp = proc_probe((int)(id - PROC_ID_BASE));
		prov = pp->prov;
		mod = "vmlinux";
		name = pp->name;
	} else if (id >= PROFILE_ID_BASE && id < PROFILE_ID_BASE + NLISTED_PROFILE) {
		prov = "profile";
		name = listed_profile[id - PROFILE_ID_BASE];
	} else if (id >= SYSCALL_ID_BASE && id < DYN_ID_BASE &&
		   syscall_name((int)((id - SYSCALL_ID_BASE) / 2))) {
		prov = "syscall";
		mod = "vmlinux";
		func = syscall_name((int)((id - SYSCALL_ID_BASE) / 2));
		name = (id - SYSCALL_ID_BASE) % 2 ? "return" : "entry";
	}
	if (!prov)
		return diag_error(s->dg, d->loc, "probe id %llu names no probe with a fixed id "
				  "(those of the dtrace, profile, syscall, proc, sched, ip, tcp, "
				  "udp and lockstat providers, as dcc -l lists them): use a probe "
				  "description", (unsigned long long)id);
	d->prov = prov;
	d->mod = mod;
	d->func = func;
	d->pname = name;
	d->ival = 0;
	return 0;
}

static int match_desc(struct sema *s, struct node *d, struct match *m)
{
	if (sema_macro_desc(s, d))
		return -1;
	if (d->ival && desc_from_id(s, d))
		return -1;
	const char *prov = d->prov ? d->prov : "", *mod = d->mod ? d->mod : "";
	const char *func = d->func ? d->func : "", *name = d->pname ? d->pname : "";
	int before = m->hits; /* a probe an earlier description named counts */

	if (sema_pid_provider(d->prov))
		return match_pid(s, d, m);
	int u = try_usdt(s, d, m, false);
	if (u <= 0)
		return u;
	/* dtrace provider */
	if (field_match(prov, "dtrace") && field_match(mod, "") && field_match(func, "")) {
		static const char *const names[] = { "BEGIN", "END", "ERROR" };
		for (int i = 0; i < 3; i++) {
			if (!field_match(name, names[i]))
				continue;
			if (i == 2 && s->listing)
				continue;
			static const enum probe_kind kinds[] = { PK_BEGIN, PK_END, PK_ERROR };
			add_match(m, probe_get(s, (uint32_t)(DCC_PROBE_BEGIN + i), kinds[i],
					       "dtrace", "", "", names[i]));
		}
	}
	/* dcc -l: the profile probes dtrace lists, standing for all the others */
	if (s->listing && field_match(prov, "profile") && field_match(mod, "") &&
	    field_match(func, "")) {
		for (unsigned i = 0; i < NLISTED_PROFILE; i++)
			if (field_match(name, listed_profile[i]))
				add_match(m, probe_get(s, PROFILE_ID_BASE + i,
						       listed_profile[i][0] == 't' ? PK_TICK : PK_PROFILE,
						       "profile", "", "", listed_profile[i]));
		if (m->hits > before)
			return 0;
	}
	/* profile provider: names are made, not listed, so they can't be globs */
	if (field_match(prov, "profile") && field_match(mod, "") && field_match(func, "") &&
	    !is_glob(name) && (!strncmp(name, "tick-", 5) || !strncmp(name, "profile-", 8))) {
		bool tick = name[0] == 't';
		uint64_t ns = parse_rate(name + (tick ? 5 : 8));
		if (!ns)
			return diag_error(s->dg, d->loc, "invalid profile rate in '%s'", name);
		/* as in DTrace, no profile probe fires more often than every 200us */
		if (ns < 200000)
			return diag_error(s->dg, d->loc, "no probe '%s': the profile provider's "
					  "shortest interval is 200us", name);
		uint32_t id = 0;
		for (int i = 0; i < s->nprobes && !id; i++)
			if (!strcmp(s->probes[i]->prov, "profile") &&
			    !strcmp(s->probes[i]->name, name))
				id = s->probes[i]->id;
		if (!id) {
			int nprof = 0;
			for (int i = 0; i < s->nprobes; i++)
				nprof += !strcmp(s->probes[i]->prov, "profile");
			id = PROFILE_ID_BASE + nprof;
		}
		struct probe *p = probe_get(s, id, tick ? PK_TICK : PK_PROFILE, "profile", "",
					    "", arena_strdup(s->ar, name));
		p->period_ns = ns;
		add_match(m, p);
	}
	/* cpc provider (sema_cpc.c): names are made, like profile's */
	if (match_cpc(s, d, m))
		return -1;
	match_syscall(s, d, m);
	/* proc, sched, ip/tcp/udp and lockstat (sema_proc.c, sema_sched.c,
	 * sema_net.c, sema_lockstat.c) */
	if (match_proc(s, d, m))
		return -1;
	/* io provider (sema_io.c) */
	if (field_match(prov, "io") && match_io(s, d, m))
		return -1;
	/* providers whose probes are listed by the kernel: only when named */
	if (!strcmp(prov, "sdt") || !strcmp(prov, "rawtp")) {
		if (match_events(s, d, m, prov[0] == 'r'))
			return -1;
	} else if (!strcmp(prov, "fbt")) {
		if (strcmp(mod, "") && strcmp(mod, "vmlinux") && strcmp(mod, "*"))
			return diag_error(s->dg, d->loc, "fbt probes of kernel modules are not "
					  "supported yet");
		if (match_fbt(s, d, m))
			return -1;
	}
	if (m->hits > before)
		return 0;
	if ((u = try_usdt(s, d, m, true)) <= 0)
		return u;
	for (int i = 0; unsupported_providers[i]; i++)
		if (!strcmp(prov, unsupported_providers[i]))
			return diag_error(s->dg, d->loc, "the %s provider is not supported yet",
					  prov);
	if (s->opts.zdefs)
		return 0;
	return diag_error(s->dg, d->loc, "probe description %s does not match any probes",
			  d->str);
}

static int kind_order(enum probe_kind k)
{
	return (int)k;
}

int sema_probes(struct sema *s, struct clause_info *ci)
{
	struct match m = { 0 };
	int err = 0;
	bool explicit = true;
	for (struct node *d = ci->n->list; d; d = d->next) {
		m.desc++;
		if (match_desc(s, d, &m))
			err = -1;
		if (d->func && is_glob(d->func))
			explicit = false;
		if (!d->func || !*d->func)
			explicit = false;
	}
	s->nenablings += m.hits;
	if (err || !m.n) {
		free(m.v);
		free(m.ndescs);
		free(m.last);
		return err;
	}
	/* One program per kind; tick/profile probes each get their own, since
	 * the program can't tell which timer fired. */
	ci->groups = arena_alloc(s->ar, sizeof(*ci->groups) * m.n);
	for (int k = PK_BEGIN; k <= PK_ERROR; k++) {
		for (int i = 0; i < m.n; i++) {
			struct probe *p = m.v[i];
			if (kind_order(p->kind) != k)
				continue;
			struct pgroup *g = NULL;
			/* a program per timer, tracepoint or function: it can't tell
			 * which of several fired, and fentry/tp_btf programs are
			 * each bound to one target; a probe that several of the
			 * descriptions match runs the clause once for each, so it
			 * shares a program only with probes matched as often */
			if (k == PK_BEGIN || k == PK_END || k == PK_ERROR ||
			    k == PK_SYSCALL_ENTRY || k == PK_SYSCALL_RETURN)
				for (int j = 0; j < ci->ngroups; j++)
					if (ci->groups[j].kind == p->kind &&
					    ci->groups[j].repeat == m.ndescs[i])
						g = &ci->groups[j];
			if (!g) {
				g = &ci->groups[ci->ngroups++];
				g->kind = p->kind;
				g->repeat = m.ndescs[i];
				g->probes = arena_alloc(s->ar, sizeof(*g->probes) * m.n);
				g->explicit_names = explicit;
				if (k == PK_SYSCALL_ENTRY || k == PK_SYSCALL_RETURN)
					g->syscall_id0 = syscall_probe_id(0,
								k == PK_SYSCALL_RETURN);
			}
			g->probes[g->nprobes++] = p;
		}
	}
	for (int j = 0; j < ci->ngroups; j++)
		ci->groups[j].prog_name = j ? arena_printf(s->ar, "dcc_c%d_%d", ci->index, j)
					    : arena_printf(s->ar, "dcc_c%d", ci->index);
	free(m.v);
	free(m.ndescs);
	free(m.last);
	return 0;
}

static int by_id(const void *a, const void *b)
{
	const struct probe *l = *(struct probe *const *)a, *r = *(struct probe *const *)b;

	return l->id < r->id ? -1 : l->id > r->id;
}

/* dcc -lv: after a probe's row, its args[] types as dtrace -lv shows them:
 * the D library's inlines of a provider's row, a tracepoint's or
 * function's fields, or None */
static void list_types(struct sema *s, const struct probe *p, FILE *out)
{
	fprintf(out, "\n\tArgument Types\n");
	int n = 0;
	if (p->kind == PK_PROC) {
		const struct proc_probe *pp = proc_probe(p->proc);
		for (int i = 0; i < PROC_MAXARGS; i++) {
			const char *t = pp->args[i] ? sema_inline_typename(s, pp->args[i]) : NULL;
			if (t && ++n)
				fprintf(out, "\t\targs[%d]: %s\n", i, t);
		}
	}
	for (int i = 0; p->ftypes && i < p->nfields; i++, n++)
		fprintf(out, "\t\targs[%d]: %s\n", i, type_str(p->ftypes[i]));
	if (!n)
		fprintf(out, "\t\tNone\n");
	fprintf(out, "\n");
}

int sema_list(struct sema *s, struct arena *ar, struct diag *dg, struct node *prog,
	      const struct sema_opts *opts, FILE *out)
{
	int err = 0;

	memset(s, 0, sizeof(*s));
	s->ar = ar;
	s->dg = dg;
	s->prog = prog;
	s->opts = *opts;
	s->btf = opts->btf;
	sema_set_strsize(s, 256);
	s->listing = true;
	s->opts.list_out = out;
	if (opts->list_types) {
		/* the D library's declarations name the argument types */
		diag_mute(dg, true);
		for (struct node *n = prog->list; n; n = n->next)
			if (n->kind != N_CLAUSE && n->kind != N_PRAGMA)
				sema_define(s, n);
		diag_mute(dg, false);
	}
	fprintf(out, "%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE", "FUNCTION", "NAME");
	for (struct node *n = prog->list; n; n = n->next) {
		if (n->kind != N_CLAUSE)
			continue;
		for (struct node *d = n->list; d; d = d->next) {
			struct match m = { .all = true };

			if (match_desc(s, d, &m))
				err = -1;
			if (m.n)
				qsort(m.v, (size_t)m.n, sizeof(*m.v), by_id);
			for (int i = 0; i < m.n; i++) {
				fprintf(out, "%5u %10s %17s %33s %s\n", m.v[i]->id, m.v[i]->prov,
					m.v[i]->mod, m.v[i]->func, m.v[i]->name);
				if (opts->list_types)
					list_types(s, m.v[i], out);
			}
			free(m.v);
			free(m.ndescs);
			free(m.last);
		}
	}
	fflush(out);
	return err;
}
