/*
 * Every CO-RE relocation kind libbpf knows, for `dcc verify` tests (the
 * compiler emits only field byte offsets so far): built with clang -g at test
 * time. Checked against BTF files the tests write, where struct dcc_kt,
 * struct dcc_kd and enum dcc_ke are laid out differently.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct dcc_kt {
	int a;
	unsigned int flags : 3, mode : 5;
	signed char small;
	struct dcc_kt *next;
	long arr[4];
};

enum dcc_ke { DCC_KE_A = 1, DCC_KE_B = 7 };

typedef struct dcc_kt dcc_kt_t;

SEC("raw_tp/sys_enter")
int dcc_kinds(void *ctx)
{
	struct dcc_kt *t = (void *)bpf_get_current_task();
	long v = 0;

	(void)ctx;
	v += BPF_CORE_READ(t, next, a);                              /* byte_off x2 */
	v += bpf_core_field_exists(t->small);                        /* field_exists */
	v += bpf_core_field_size(t->arr);                            /* byte_sz */
	v += BPF_CORE_READ_BITFIELD_PROBED(t, mode);                 /* byte_off, byte_sz,
									lshift, rshift,
									signed */
	v += BPF_CORE_READ(t, arr[2]);                               /* byte_off */
	v += bpf_core_type_exists(struct dcc_kt);                    /* type_exists */
	v += bpf_core_type_size(dcc_kt_t);                           /* type_size */
	v += bpf_core_type_id_kernel(struct dcc_kt);                 /* target_type_id */
	v += bpf_core_enum_value_exists(enum dcc_ke, DCC_KE_B);      /* enumval_exists */
	v += bpf_core_enum_value(enum dcc_ke, DCC_KE_B);             /* enumval_value */
	return (int)v;
}

/* Fields read by load instructions that libbpf rewrites in place. */
struct dcc_kd {
	int a;
	unsigned int u;
	int s;
} __attribute__((preserve_access_index));

SEC("raw_tp/sys_exit")
int dcc_direct(void *ctx)
{
	struct dcc_kd k, *p = &k;

	(void)ctx;
	__builtin_memset(&k, 0, sizeof(k));
	asm volatile("" : "+r"(p));                                  /* hide the stack */
	return p->a + (int)p->u + p->s;                              /* byte_off x3 */
}

char _license[] SEC("license") = "GPL";
