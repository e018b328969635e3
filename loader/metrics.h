/*
 * dtrun --metrics [ADDR:]PORT: the object's aggregations in Prometheus's
 * text exposition format (0.0.4), served over HTTP by libmicrohttpd from a
 * thread of its own and read from the maps at each scrape. Only dtrun and
 * `dcc run` link this; libdcc-runtime does not (it reads the maps through
 * the runtime's public, locked aggregation walk like any application).
 */
#ifndef DCC_LOADER_METRICS_H
#define DCC_LOADER_METRICS_H

#include <stddef.h>

struct dcc_runtime;
struct metrics;

/* Label names for key elements: -x metrics_labels=a,b,... (NULL: key0,
 * key1...). Each a Prometheus label name, not "le", not starting with "__",
 * no repeats. 0, or -EINVAL with *why set (static text), -ENOMEM. */
int metrics_parse_labels(const char *spec, char ***names, int *n, const char **why);
void metrics_free_labels(char **names, int n);

/* The exposition text of every aggregation of rt, malloc'd, *len bytes
 * (NUL-terminated); NULL with errno set on failure. */
char *metrics_text(struct dcc_runtime *rt, char *const *labels, int nlabels, size_t *len);

/* Bind and listen on [ADDR:]PORT (ADDR: an IPv4 address, a bracketed IPv6
 * one or a host name; none: every address). NULL after one line on stderr
 * naming prog and why. */
struct metrics *metrics_open(const char *addr, const char *prog);
/* Serve rt's aggregations on /metrics from now on; labels as above (taken
 * over, freed by metrics_close). 0, or -1 after one line on stderr. */
int metrics_serve(struct metrics *m, struct dcc_runtime *rt, char **labels, int nlabels);
/* Stop serving (waiting for a scrape in progress) and close the socket. */
void metrics_close(struct metrics *m);

#endif
