/*
 * dtrun as a fleet's service: --metrics scraped directly (the exact
 * exposition text of a counter, a sum and a quantize histogram) and by a
 * real Prometheus server (its HTTP API returns the count a trigger made),
 * a port in use refused in one line, and -o's file reopened on SIGHUP.
 */
#include "e2e.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>

/* A TCP port of 127.0.0.1 that is free now. */
static int free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	cr_assert(fd >= 0);
	cr_assert(!bind(fd, (struct sockaddr *)&a, sizeof(a)));
	cr_assert(!getsockname(fd, (struct sockaddr *)&a, &len));
	close(fd);
	return ntohs(a.sin_port);
}

/* GET http://127.0.0.1:port/path: the body of a 200 reply (kept), NULL
 * for no connection or another status. */
static char *http_get(int port, const char *path)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	char *buf = NULL, chunk[4096], *body;
	size_t len = 0;
	ssize_t n;

	cr_assert(fd >= 0);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		return NULL;
	}
	dprintf(fd, "GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n", path);
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		e2e_bg_append(&buf, &len, chunk, (size_t)n);
	close(fd);
	e2e_keep(buf);
	if (!buf || strncmp(buf, "HTTP/1.", 7) || strncmp(buf + 8, " 200 ", 5) ||
	    !(body = strstr(buf, "\r\n\r\n")))
		return NULL;
	return body + 4;
}

static const char counting[] =
	"syscall::getppid:entry\n/execname == \"getppid_n\"/\n{\n"
	"\t@calls[execname] = count();\n"
	"\t@bytes[execname, \"a\\\"b\"] = sum(10);\n"
	"\t@lat = quantize(5);\n"
	"}\n";

/* dtrun --metrics PORT obj, up (its matched line printed). */
static void start_dtrun(struct e2e_bg *b, const char *obj, const char *listen, const char *x)
{
	const char *argv[] = { DTRUN_BIN, "--metrics", listen, "-x", x, obj, NULL };
	e2e_bg_start(b, argv);
	bool up = e2e_bg_wait_err(b, "matched", 20);
	if (!up) {
		struct run_result r;
		kill(b->pid, SIGKILL);
		e2e_bg_finish(b, &r, 10);
		cr_assert_fail("dtrun did not start; stderr:\n%s", r.err);
	}
}

/* SIGTERM: END runs, the aggregations print, status 0. */
static void stop_dtrun(struct e2e_bg *b, const char *want_out)
{
	struct run_result r;
	kill(b->pid, SIGTERM);
	e2e_bg_finish(b, &r, 20);
	e2e_expect(&r, 0, want_out);
	run_result_free(&r);
}

E2E_TEST(fleet, metrics_exposition_text)
{
	const char *obj = e2e_build("metrics", counting);
	int port = free_port();
	struct e2e_bg b;
	struct run_result r;

	start_dtrun(&b, obj, e2e_fmt("127.0.0.1:%d", port), "metrics_labels=prog,what");
	e2e_run(&r, e2e_trigger("getppid_n"), "3", NULL);
	run_result_free(&r);
	char *got = http_get(port, "/metrics");
	const char *script = "metrics.d"; /* an object names its script by its base name */
	cr_assert_not_null(got, "no reply from the metrics endpoint");
	e2e_assert_bytes("/metrics", got, e2e_fmt(
		"# HELP dcc_calls count() of @calls in %s\n"
		"# TYPE dcc_calls counter\n"
		"dcc_calls{prog=\"getppid_n\"} 3\n"
		"# HELP dcc_bytes sum() of @bytes in %s\n"
		"# TYPE dcc_bytes counter\n"
		"dcc_bytes{prog=\"getppid_n\",what=\"a\\\"b\"} 30\n"
		"# HELP dcc_lat quantize() of @lat in %s\n"
		"# TYPE dcc_lat histogram\n"
		"dcc_lat_bucket{le=\"0\"} 0\n"
		"dcc_lat_bucket{le=\"1\"} 0\n"
		"dcc_lat_bucket{le=\"3\"} 0\n"
		"dcc_lat_bucket{le=\"7\"} 3\n"
		"dcc_lat_bucket{le=\"+Inf\"} 3\n"
		"dcc_lat_count 3\n", script, script, script));
	cr_assert_null(http_get(port, "/"), "/ is not the metrics");
	stop_dtrun(&b, e2e_fmt("\n\n%s%s\n"
		"           value  ------------- Distribution ------------- count    \n"
		"               2 |                                         0        \n"
		"               4 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 3        \n"
		"               8 |                                         0        \n\n",
		e2e_agg_row("getppid_n", 3),
		e2e_fmt("  %-50s  %-50s %16d\n", "getppid_n", "a\"b", 30)));
}

E2E_TEST(fleet, metrics_port_in_use)
{
	const char *obj = e2e_build("metrics", counting);
	int port = free_port();
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct run_result r;

	cr_assert(!bind(fd, (struct sockaddr *)&a, sizeof(a)) && !listen(fd, 1));
	e2e_run(&r, DTRUN_BIN, "--metrics", e2e_fmt("127.0.0.1:%d", port), obj, NULL);
	close(fd);
	e2e_expect(&r, 1, "");
	cr_assert_str_eq(r.err, e2e_fmt("dtrun: cannot serve metrics on 127.0.0.1:%d: Address "
					"already in use\n", port));
	run_result_free(&r);
	/* dcc run shares the loader; the script compiles, nothing loads */
	cr_assert(!bind((fd = socket(AF_INET, SOCK_STREAM, 0)), (struct sockaddr *)&a, sizeof(a)) &&
		  !listen(fd, 1));
	e2e_run(&r, DCC_BIN, "run", "--metrics", e2e_fmt("127.0.0.1:%d", port),
		e2e_tmp("metrics.d"), NULL);
	close(fd);
	e2e_expect(&r, 1, "");
	cr_assert_str_eq(r.err, e2e_fmt("dcc: cannot serve metrics on 127.0.0.1:%d: Address "
					"already in use\n", port));
	run_result_free(&r);
	e2e_run(&r, DTRUN_BIN, "--metrics", "127.0.0.1:99999", obj, NULL);
	e2e_expect(&r, 1, "");
	cr_assert_str_eq(r.err, "dtrun: --metrics 127.0.0.1:99999: not [ADDR:]PORT (a port from 1 "
			 "to 65535, an IPv6 address in brackets)\n");
	run_result_free(&r);
	e2e_run(&r, DTRUN_BIN, "--metrics", "9", "-x", "metrics_labels=a,le", obj, NULL);
	e2e_expect(&r, 1, "");
	cr_assert_str_eq(r.err, "dtrun: failed to set option metrics_labels to 'a,le': \"le\" is "
			 "the histograms' bucket label\n");
	run_result_free(&r);
}

/* Wait for Prometheus's instant query to return one series; its value. */
static char *prom_value(struct e2e_bg *prom, int port, const char *query, double timeout_s)
{
	double end = e2e_now() + timeout_s;
	const char *path = e2e_fmt("/api/v1/query?query=%s", query);
	for (;;) {
		char *body = http_get(port, path), *v;
		if (body && (v = strstr(body, "\"value\":[")) && (v = strstr(v, ",\"")))
			return e2e_fmt("%.*s", (int)strcspn(v + 2, "\""), v + 2);
		if (e2e_now() > end)
			return e2e_fmt("(nothing: %s)", body ? body : "no reply");
		e2e_bg_pump(prom, 200);
	}
}

E2E_TEST(fleet, prometheus_scrapes_the_count)
{
	const char *obj = e2e_build("metrics", counting);
	int port = free_port(), pport = free_port();
	const char *yml = e2e_tmp("prometheus.yml");
	const char *conf = e2e_fmt("global:\n  scrape_interval: 1s\n"
				   "scrape_configs:\n  - job_name: dcc\n    scrape_interval: 1s\n"
				   "    static_configs:\n      - targets: ['127.0.0.1:%d']\n", port);
	struct e2e_bg b, prom;
	struct run_result r;

	cr_assert_eq(access("/usr/bin/prometheus", X_OK), 0,
		     "/usr/bin/prometheus is missing (setup.sh installs Debian's prometheus)");
	cr_assert_eq(write_file(yml, conf, strlen(conf)), 0);
	start_dtrun(&b, obj, e2e_fmt("127.0.0.1:%d", port), "metrics_labels=prog");
	e2e_run(&r, e2e_trigger("getppid_n"), "7", NULL);
	run_result_free(&r);
	const char *pargv[] = { "/usr/bin/prometheus", e2e_fmt("--config.file=%s", yml),
				e2e_fmt("--storage.tsdb.path=%s", e2e_tmp("tsdb")),
				e2e_fmt("--web.listen-address=127.0.0.1:%d", pport), NULL };
	e2e_bg_start(&prom, pargv);
	char *v = prom_value(&prom, pport, "dcc_calls%7Bprog%3D%22getppid_n%22%7D", 40);
	char *c = prom_value(&prom, pport, "dcc_lat_bucket%7Ble%3D%227%22%7D", 10);
	kill(-prom.pid, SIGTERM);
	e2e_bg_finish(&prom, &r, 20);
	cr_assert_str_eq(v, "7", "Prometheus's dcc_calls; its log:\n%s", r.err);
	cr_assert_str_eq(c, "7", "Prometheus's dcc_lat_bucket{le=\"7\"}; its log:\n%s", r.err);
	run_result_free(&r);
	stop_dtrun(&b, e2e_fmt("\n\n%s%s\n"
		"           value  ------------- Distribution ------------- count    \n"
		"               2 |                                         0        \n"
		"               4 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 7        \n"
		"               8 |                                         0        \n\n",
		e2e_agg_row("getppid_n", 7),
		e2e_fmt("  %-50s  %-50s %16d\n", "getppid_n", "a\"b", 70)));
}

/* Poll until path holds want (true) or 10 s pass. */
static bool file_becomes(const char *path, const char *want)
{
	double end = e2e_now() + 10;
	for (;;) {
		char *got = e2e_keep(read_file(path, NULL));
		if (got && !strcmp(got, want))
			return true;
		if (e2e_now() > end)
			return false;
		usleep(50 * 1000);
	}
}

/* logrotate's way: move the file away, SIGHUP; what follows goes to a new
 * file at the path, what came before stays in the moved one. */
E2E_TEST(fleet, sighup_reopens_the_output_file)
{
	const char *obj = e2e_build("rotate", "BEGIN\n{\n\tprintf(\"begin\\n\");\n}\n"
				    "syscall::getppid:entry\n/execname == \"getppid_n\"/\n{\n"
				    "\tprintf(\"%d\\n\", n++);\n}\n");
	const char *log = e2e_tmp("trace.log"), *old = e2e_tmp("trace.log.1");
	const char *argv[] = { DTRUN_BIN, "-q", "-o", log, obj, NULL };
	struct e2e_bg b;
	struct run_result r;

	e2e_bg_start(&b, argv);
	/* BEGIN runs once every probe is attached */
	bool up = file_becomes(log, "begin\n");
	e2e_run(&r, e2e_trigger("getppid_n"), "2", NULL);
	run_result_free(&r);
	bool before = up && file_becomes(log, "begin\n0\n1\n");
	cr_assert_eq(rename(log, old), 0);
	kill(b.pid, SIGHUP);
	struct stat st;
	for (int i = 0; i < 200 && stat(log, &st); i++)
		usleep(50 * 1000);
	e2e_run(&r, e2e_trigger("getppid_n"), "2", NULL);
	run_result_free(&r);
	bool after = file_becomes(log, "2\n3\n");
	kill(b.pid, SIGTERM);
	e2e_bg_finish(&b, &r, 20);
	cr_assert(before, "before the rotation: %s",
		  e2e_show(e2e_keep(read_file(old, NULL) ?: strdup(""))));
	e2e_expect(&r, 0, "");
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	cr_assert(after, "the new file: %s", e2e_show(e2e_keep(read_file(log, NULL) ?: strdup(""))));
	e2e_assert_bytes("the moved file", e2e_keep(read_file(old, NULL)), "begin\n0\n1\n");
	/* SIGTERM's newline and the trace's end close the new file */
	e2e_assert_bytes("the new file", e2e_keep(read_file(log, NULL)), "2\n3\n\n\n");
	run_result_free(&r);
}

/* samples/systemd/dtrun@.service's command as systemd would run it (no
 * terminal, stdin /dev/null, DTRUN_OPTS empty), stopped with its KillSignal:
 * END runs, the aggregations print, status 0, nothing stays loaded. */
E2E_TEST(fleet, service_unit_stops_cleanly)
{
	char *unit = e2e_keep(read_file(e2e_fmt("%s/../samples/systemd/dtrun@.service",
						 TESTS_SRC_DIR), NULL));
	cr_assert_not_null(unit);
	cr_assert_not_null(strstr(unit, "\nKillSignal=SIGTERM\n"));
	cr_assert_not_null(strstr(unit, "\nRestart=on-failure\n"));
	char *exec = strstr(unit, "\nExecStart=");
	cr_assert_not_null(exec);
	exec = e2e_keep(strndup(exec + 11, strcspn(exec + 11, "\n")));
	cr_assert_str_eq(exec, "/usr/bin/dtrun -q $DTRUN_OPTS /etc/dcc/%i.bpf.o");

	const char *obj = e2e_build("svc", "BEGIN\n{\n\tprintf(\"up\\n\");\n}\n"
				    "syscall::getppid:entry\n/execname == \"getppid_n\"/\n"
				    "{\n\t@[probefunc] = count();\n}\n"
				    "END\n{\n\tprintf(\"end\\n\");\n}\n");
	const char *argv[] = { DTRUN_BIN, "-q", obj, NULL }; /* the ExecStart above */
	struct e2e_bg b;
	struct run_result r;
	e2e_bg_start(&b, argv);
	/* BEGIN runs once the probes are in */
	double end = e2e_now() + 20;
	while (!strstr(b.obuf, "up\n") && e2e_now() < end && e2e_bg_pump(&b, 50))
		;
	e2e_run(&r, e2e_trigger("getppid_n"), "5", NULL);
	run_result_free(&r);
	kill(b.pid, SIGTERM);
	e2e_bg_finish(&b, &r, 20);
	cr_assert_str_empty(r.err, "stderr:\n%s", r.err);
	e2e_expect(&r, 0, e2e_fmt("up\n\nend\n\n%s", e2e_agg_row("getppid", 5)));
	run_result_free(&r);
}
