/*
 * dcc -l with -p or -c: the probes that exist only in a process (USDT
 * notes) listed from it. With -c the command is started and stopped at its
 * entry point, its libraries mapped, as for tracing (target.c), and killed
 * once listed.
 */
#include "internal.h"

#include <stdlib.h>

#include "dcc/abi.h"
#include "loader.h"

struct loader_lister {
	struct target t;
	uint32_t next_id;
	const char *progname;
};

struct loader_lister *loader_lister_open(pid_t pid, const char *cmd, const char *progname)
{
	struct loader_lister *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->t = (struct target){ .go_fd = -1, .err_fd = -1, .pidfd = -1 };
	l->next_id = DCC_PID_ID_BASE;
	l->progname = progname;
	l->t.trace_exec = true;
	if ((cmd && (target_create(&l->t, cmd, progname) ||
		     target_stop_at_entry(&l->t, progname))) ||
	    (!cmd && pid && target_grab(&l->t, pid, progname))) {
		loader_lister_close(l);
		return NULL;
	}
	return l;
}

int loader_list_usdt(struct loader_lister *l, const char *desc, uint32_t pid, FILE *out)
{
	return usdt_list(desc, l ? l->t.pid : 0, pid, out, l ? &l->next_id : &(uint32_t){ 0 },
			 l ? l->progname : "dcc");
}

void loader_lister_close(struct loader_lister *l)
{
	if (!l)
		return;
	target_release(&l->t);
	free(l);
}
