/*
 * The metrics endpoint's HTTP side: dtrun binds the listening socket itself
 * (so that a port in use is one clear message before anything is loaded),
 * then libmicrohttpd serves it from a thread of its own. GET or HEAD of
 * /metrics returns metrics_text(); any other path is 404, any other method
 * 405. The runtime's lock (headers/dcc/runtime.h) keeps a scrape's reads
 * apart from the records the main thread handles meanwhile.
 *
 * libmicrohttpd (and the TLS libraries it pulls in: gnutls, nettle, gmp,
 * p11-kit...) is opened with dlopen when --metrics asks for it, not linked:
 * loading and relocating those ten libraries was ~15% of the instructions
 * of compiling a one-clause script, and part of every dtrun start-up.
 */
#include "metrics.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <microhttpd.h>

struct metrics {
	int fd;
	struct MHD_Daemon *daemon;
	struct dcc_runtime *rt;
	char **labels;
	int nlabels;
	const char *prog;
};

/* The six entry points used, bound by mhd_open() */
static struct {
	__typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
	__typeof__(MHD_add_response_header) *add_response_header;
	__typeof__(MHD_queue_response) *queue_response;
	__typeof__(MHD_destroy_response) *destroy_response;
	__typeof__(MHD_start_daemon) *start_daemon;
	__typeof__(MHD_stop_daemon) *stop_daemon;
} mhd;

/* Open libmicrohttpd once (DCC_MHD_SONAME, the soname the build found);
 * nonzero with a message if it or one of its functions is missing. */
static int mhd_open(const char *prog)
{
	static void *lib;
	if (lib)
		return 0;
	void *h = dlopen(DCC_MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "%s: --metrics needs libmicrohttpd: %s\n", prog, dlerror());
		return -1;
	}
#define BIND(f)                                                                         \
	if (!(*(void **)&mhd.f = dlsym(h, "MHD_" #f))) {                                \
		fprintf(stderr, "%s: --metrics: %s has no MHD_%s\n", prog, DCC_MHD_SONAME, #f); \
		dlclose(h);                                                             \
		return -1;                                                              \
	}
	BIND(create_response_from_buffer)
	BIND(add_response_header)
	BIND(queue_response)
	BIND(destroy_response)
	BIND(start_daemon)
	BIND(stop_daemon)
#undef BIND
	lib = h;
	return 0;
}

static const char content_type[] = "text/plain; version=0.0.4; charset=utf-8";

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, char *body, size_t len,
			     enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r = mhd.create_response_from_buffer(len, body, mode);
	enum MHD_Result ret;

	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return MHD_NO;
	}
	mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				status == MHD_HTTP_OK ? content_type : "text/plain; charset=utf-8");
	ret = mhd.queue_response(c, status, r);
	mhd.destroy_response(r);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *data,
				  size_t *data_size, void **req)
{
	struct metrics *m = cls;
	char *text, msg[128];
	size_t len = 0;

	(void)version, (void)data, (void)data_size, (void)req;
	if (strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND, "not found: the metrics are at /metrics\n",
			     39, MHD_RESPMEM_PERSISTENT);
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD\n", 18,
			     MHD_RESPMEM_PERSISTENT);
	text = metrics_text(m->rt, m->labels, m->nlabels, &len);
	if (!text) {
		len = (size_t)snprintf(msg, sizeof(msg), "cannot read the aggregations: %s\n",
				       strerror(errno));
		return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR, msg, len, MHD_RESPMEM_MUST_COPY);
	}
	return reply(c, MHD_HTTP_OK, text, len, MHD_RESPMEM_MUST_FREE);
}

/* "[ADDR:]PORT" to host and port; ADDR may be [v6]. false if malformed. */
static bool split_addr(const char *spec, char *host, size_t hlen, char *port, size_t plen)
{
	const char *colon = strrchr(spec, ':'), *p = colon ? colon + 1 : spec;
	size_t n = colon ? (size_t)(colon - spec) : 0;

	if (!*p || strspn(p, "0123456789") != strlen(p) || strlen(p) >= plen)
		return false;
	strcpy(port, p);
	if (n >= 2 && spec[0] == '[' && spec[n - 1] == ']')
		spec++, n -= 2;
	else if (memchr(spec, ':', n))
		return false; /* a bare IPv6 address needs brackets */
	if (n >= hlen)
		return false;
	memcpy(host, spec, n);
	host[n] = 0;
	return atol(port) > 0 && atol(port) < 65536;
}

static int bind_listen(const char *spec, const char *prog)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE },
			*res, *ai;
	char host[256], port[8];
	int fd = -1, err = 0, one = 1;

	if (!split_addr(spec, host, sizeof(host), port, sizeof(port))) {
		fprintf(stderr, "%s: --metrics %s: not [ADDR:]PORT (a port from 1 to 65535, an "
			"IPv6 address in brackets)\n", prog, spec);
		return -1;
	}
	err = getaddrinfo(*host ? host : NULL, port, &hints, &res);
	if (err) {
		fprintf(stderr, "%s: --metrics %s: %s\n", prog, spec, gai_strerror(err));
		return -1;
	}
	/* the first address that binds; with no ADDR, IPv6's any-address
	 * comes first where there is IPv6, and takes IPv4 too */
	for (ai = res; ai && fd < 0; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd < 0) {
			err = errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 64)) {
			err = errno;
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	if (fd < 0)
		fprintf(stderr, "%s: cannot serve metrics on %s: %s\n", prog, spec, strerror(err));
	return fd;
}

struct metrics *metrics_open(const char *addr, const char *prog)
{
	struct metrics *m = calloc(1, sizeof(*m));

	if (!m) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return NULL;
	}
	m->prog = prog;
	if (mhd_open(prog)) {
		free(m);
		return NULL;
	}
	m->fd = bind_listen(addr, prog);
	if (m->fd < 0) {
		free(m);
		return NULL;
	}
	return m;
}

int metrics_serve(struct metrics *m, struct dcc_runtime *rt, char **labels, int nlabels)
{
	sigset_t all, old;

	m->rt = rt;
	m->labels = labels;
	m->nlabels = nlabels;
	/* The server's threads inherit this mask: ^C, SIGTERM, SIGCHLD and
	 * SIGHUP must reach the thread that polls the ring buffer. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	/* poll or epoll, not select: a run with many probes holds descriptors
	 * beyond FD_SETSIZE */
	m->daemon = mhd.start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO, 0, NULL, NULL,
				     on_request, m, MHD_OPTION_LISTEN_SOCKET, m->fd,
				     MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!m->daemon) {
		fprintf(stderr, "%s: cannot start the metrics server\n", m->prog);
		return -1;
	}
	return 0;
}

void metrics_close(struct metrics *m)
{
	if (!m)
		return;
	if (m->daemon)
		mhd.stop_daemon(m->daemon);
	else
		close(m->fd);
	metrics_free_labels(m->labels, m->nlabels);
	free(m);
}
