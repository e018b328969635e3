/*
 * The cpc provider's events (headers/dcc/abi_cpc.h): perf's generic
 * software and hardware events under perf's own names. DTrace for Linux
 * spells them with '_' where perf has '-' ("cpu_clock"), since '-' ends the
 * event in a probe name: both spellings name the same event.
 */
#include <stdbool.h>
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

/* name equals perf's, each '-' of perf's also matched by '_' */
static bool same_event(const char *perf, const char *name)
{
	for (; *perf && *name; perf++, name++)
		if (*perf != *name && !(*perf == '-' && *name == '_'))
			return false;
	return *perf == *name;
}

const struct dcc_cpc_event *abi_cpc_event(const char *name)
{
	for (unsigned i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (same_event(events[i].name, name))
			return &events[i];
	return NULL;
}
