/*
 * Running a dcc object inside a C application: the embedding half of
 * libdcc-runtime (what dtrun does, without its process handling). A
 * skeleton written by `dcc --skel` calls these for you.
 *
 *   struct dcc_session *s;
 *   int err = dcc_session__open(elf, size, &opts, &s);   // checks, opens
 *   err = dcc_session__start(s);        // load, attach, run BEGIN
 *   while (!dcc_runtime__exited(dcc_session__runtime(s), NULL))
 *           dcc_session__poll(s, 100);  // records: printed or to a callback
 *   err = dcc_session__stop(s);         // detach, run END, drain
 *   dcc_runtime__print_aggs(dcc_session__runtime(s));
 *   dcc_session__free(s);
 *
 * Every int function returns 0 (or a count) or a negative errno; a failure
 * is also described in one line on the runtime's error stream (opts->err,
 * stderr when NULL). Nothing here exits, installs signal handlers or changes
 * libbpf's print callback. A session is used from one thread at a time;
 * different sessions are independent.
 */
#ifndef DCC_SESSION_H
#define DCC_SESSION_H

#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bpf_object;
struct dcc_session;

/* Check the metadata of the object (an ELF image; the caller keeps it alive
 * until dcc_session__free), make its runtime and open it with libbpf,
 * nothing loaded yet. An object with destructive actions needs the
 * "destructive" option among opts->xopts (-EPERM otherwise). */
int dcc_session__open(const void *elf, size_t size, const struct dcc_runtime_opts *opts,
		      struct dcc_session **out);
/* Load the programs, attach every probe, run BEGIN, then let the probes'
 * clauses run. */
int dcc_session__start(struct dcc_session *s);
/* dcc_runtime__poll() on the session's runtime. */
int dcc_session__poll(struct dcc_session *s, int timeout_ms);
/* Detach the probes, run END and handle every record left. Idempotent. */
int dcc_session__stop(struct dcc_session *s);
/* Stop if needed, then release the kernel objects and the runtime. */
void dcc_session__free(struct dcc_session *s);

struct dcc_runtime *dcc_session__runtime(struct dcc_session *s);
/* libbpf's object, e.g. to read a map of one's own. */
struct bpf_object *dcc_session__object(struct dcc_session *s);

#ifdef __cplusplus
}
#endif

#endif
