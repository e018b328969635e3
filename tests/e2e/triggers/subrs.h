/*
 * The buffer the subrs trigger writes (tests/e2e/test_subrs.c reads it
 * back through copyin(), copyinto() and the inet functions): an IPv4
 * address, IPv6 addresses chosen for DTrace's "::" rules, and some text.
 */
#ifndef DCC_TRIGGER_SUBRS_H
#define DCC_TRIGGER_SUBRS_H

#include <stdint.h>

#define SUBRS_NV6 8

struct subrs_buf {
	uint8_t v4[4];
	uint8_t pad[4];
	uint8_t v6[SUBRS_NV6][16];
	char text[16];
};

#define SUBRS_BUF_INIT { \
	.v4 = { 192, 168, 1, 10 }, \
	.v6 = { \
		{ 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x14, 0x4f, 0xff, 0xfe, 0x0b, 0x76, 0xc8 }, \
		{ 0 }, \
		{ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 }, \
		{ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 168, 1, 10 }, \
		{ 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1 }, \
		{ 0, 1, 0, 0, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7 }, \
		{ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4 }, \
		{ 0x20, 0x01, 0x0d, 0xb8, 0x12, 0x34, 0, 0, 0, 0, 0, 0, 0xab, 0xcd, 0, 0 }, \
	}, \
	.text = "hello, world", \
}

#endif
