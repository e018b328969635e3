/*
 * The cpc provider's events: the names a probe cpc:::EVENT-MODE-COUNT may
 * use and the perf event each opens (the compiler checks the name, the
 * loader opens the event; abi/abi_cpc.c has the table).
 */
#ifndef DCC_ABI_CPC_H
#define DCC_ABI_CPC_H

#include <stdbool.h>
#include <stdint.h>

struct dcc_cpc_event {
	const char *name;  /* "page-faults", "cycles" */
	uint32_t type;     /* PERF_TYPE_SOFTWARE or PERF_TYPE_HARDWARE */
	uint64_t config;   /* PERF_COUNT_SW_* or PERF_COUNT_HW_* */
	bool hardware;     /* counted by the CPU's PMU */
};

/* the event named `name`, or NULL */
const struct dcc_cpc_event *abi_cpc_event(const char *name);
/* the i-th event, NULL past the last */
const struct dcc_cpc_event *abi_cpc_nth(int i);

#endif
