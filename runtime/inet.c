/*
 * inet_ntoa(), inet_ntoa6() and inet_ntop() values (DCC_K_INET: a form
 * word, then the address bytes in network order) -> the text DTrace's
 * kernel writes for them: "a.b.c.d" for IPv4; for IPv6, lower-case hex
 * groups without leading zeros and one "::" standing for a run of zero
 * groups, chosen as DTrace chooses it (a run of a single group is
 * compressed too), and an IPv4-mapped (::ffff:a.b.c.d) or -compatible
 * (::a.b.c.d) address ending in its dotted quad, or, for inet_ntoa6(),
 * written as the dotted quad alone. link_ntop() values: the Ethernet (6)
 * or InfiniBand (20) address bytes as two lower-case hex digits each,
 * separated by ':', as DTrace for Linux writes them; "" for a link type it
 * does not know. Everywhere else the value is printed as a string holding
 * that text.
 */
#include <stdio.h>
#include <string.h>
#include "rt.h"

/* Text is built from its end, right to left, as the address is scanned. */
struct rbuf {
	char *buf;
	size_t pos;
};

static void put(struct rbuf *r, char c)
{
	if (r->pos > 0)
		r->buf[--r->pos] = c;
}

static void put_num(struct rbuf *r, unsigned v, unsigned base)
{
	do {
		put(r, "0123456789abcdef"[v % base]);
		v /= base;
	} while (v);
}

/* the last four bytes as a dotted quad */
static void put_quad(struct rbuf *r, const uint8_t *a)
{
	for (int i = 3; i >= 0; i--) {
		put_num(r, a[i], 10);
		if (i)
			put(r, '.');
	}
}

/* The zero run "::" replaces: scanning the bytes, a run opens at a zero
 * byte starting a group and closes at the next nonzero byte or the last
 * byte; it wins when it spans more bytes than the best run so far has
 * whole zero groups (at least 2 to start with). *first is -1 if none. */
static void zero_run(const uint8_t *a, int *first, int *len)
{
	int open = -1;

	*first = -1;
	*len = 1;
	for (int i = 0; i < 16; i++) {
		if (a[i] == 0 && open < 0 && i % 2 == 0) {
			open = i;
			continue;
		}
		if (open < 0 || (a[i] == 0 && i != 15))
			continue;
		if (i - open > *len) {
			*first = open;
			*len = i - i % 2 - open + (a[i] == 0 ? 2 : 0);
		}
		open = -1;
	}
}

static bool embeds_v4(const uint8_t *a)
{
	static const uint8_t zero[12];

	if (!memcmp(a, zero, 10) && a[10] == 0xff && a[11] == 0xff)
		return true; /* IPv4-mapped */
	if (memcmp(a, zero, 12))
		return false;
	/* IPv4-compatible, but not :: or ::1 */
	return (a[12] | a[13] | a[14]) != 0 || a[15] > 1;
}

static void v6_text(const uint8_t *a, bool quad_alone, struct rbuf *r)
{
	int first, len, last = 14;

	zero_run(a, &first, &len);
	if (embeds_v4(a)) {
		put_quad(r, a + 12);
		if (quad_alone)
			return;
		last = 10;
	}
	for (int i = last; i >= 0; i -= 2) {
		if (i == first + len - 2) {
			put(r, ':');
			put(r, ':');
			i -= len - 2;
			continue;
		}
		if (i < 14 && i != first - 2)
			put(r, ':');
		put_num(r, (unsigned)a[i] << 8 | a[i + 1], 16);
	}
}

/* link_ntop(): "xx:xx:..." of the address bytes, "" for an unknown type */
static void link_text(const uint8_t *a, uint64_t form, char *buf, size_t n)
{
	int len = form == DCC_INET_ETHER ? 6 : form == DCC_INET_IB ? 20 : 0;
	size_t at = 0;

	if (n)
		buf[0] = '\0';
	for (int i = 0; i < len && at < n; i++)
		at += (size_t)snprintf(buf + at, n - at, i ? ":%02x" : "%02x", a[i]);
}

void rt_inet_text(const char *p, uint32_t size, char *buf, size_t n)
{
	uint64_t form;
	const uint8_t *a = (const uint8_t *)p + 8;
	char tmp[RT_INET_LEN];
	struct rbuf r = { tmp, sizeof(tmp) };

	memcpy(&form, p, sizeof(form));
	/* the form is the record's, the size the metadata's: an InfiniBand
	 * address (20 bytes) in an inet_ntoa() value of 24 would be read past
	 * its end (found by fuzz_consumer) */
	if (size < 8 + (form == DCC_INET_IB ? 20u : 16u))
		form = 0;
	if (form >= DCC_INET_ETHER && form <= DCC_INET_LINK_NONE) {
		link_text(a, form, buf, n);
		return;
	}
	put(&r, '\0');
	if (form == DCC_INET_4)
		put_quad(&r, a);
	else if (form == DCC_INET_6 || form == DCC_INET_6A)
		v6_text(a, form == DCC_INET_6A, &r);
	else
		put(&r, '?');
	snprintf(buf, n, "%s", tmp + r.pos);
}

bool rt_inet_string(const struct rt_val *v, char *buf, unsigned strsize, struct rt_val *out)
{
	if (v->kind != DCC_K_INET)
		return false;
	rt_inet_text(v->p, v->size, buf, RT_INET_LEN);
	/* DTrace writes the text into a string of strsize characters */
	if (strsize < RT_INET_LEN)
		buf[strsize] = '\0';
	*out = (struct rt_val){ .kind = DCC_K_STRING, .size = (uint32_t)strlen(buf) + 1,
				.p = buf };
	return true;
}
