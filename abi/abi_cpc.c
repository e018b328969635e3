/*
 * The cpc provider's events (headers/dcc/abi_cpc.h): perf's generic
 * software and hardware events under perf's own names.
 */
#include <string.h>
#include <linux/perf_event.h>

#include <dcc/abi_cpc.h>

#define SW(n, c) { n, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c, false }
#define HW(n, c) { n, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c, true }

static const struct dcc_cpc_event events[] = {
	SW("cpu-clock", CPU_CLOCK),
	SW("task-clock", TASK_CLOCK),
	SW("page-faults", PAGE_FAULTS),
	SW("context-switches", CONTEXT_SWITCHES),
	SW("cpu-migrations", CPU_MIGRATIONS),
	SW("minor-faults", PAGE_FAULTS_MIN),
	SW("major-faults", PAGE_FAULTS_MAJ),
	HW("cycles", CPU_CYCLES),
	HW("instructions", INSTRUCTIONS),
	HW("cache-references", CACHE_REFERENCES),
	HW("cache-misses", CACHE_MISSES),
	HW("branch-instructions", BRANCH_INSTRUCTIONS),
	HW("branch-misses", BRANCH_MISSES),
	HW("bus-cycles", BUS_CYCLES),
	HW("ref-cycles", REF_CPU_CYCLES),
};

const struct dcc_cpc_event *abi_cpc_nth(int i)
{
	return i >= 0 && i < (int)(sizeof(events) / sizeof(events[0])) ? &events[i] : NULL;
}

const struct dcc_cpc_event *abi_cpc_event(const char *name)
{
	for (unsigned i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (!strcmp(events[i].name, name))
			return &events[i];
	return NULL;
}
