/* dcc's C++ operator new/delete (dcc/driver/cxx_alloc.c): alignment, reuse
 * of a freed block by its size class, large and over-aligned blocks, the
 * nothrow forms' NULL, every delete form finding its block's origin.
 * The file is compiled in here, so this test's own C++ allocations (LLVM
 * in dcccomp) go through it too. Without it under AddressSanitizer. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "../dcc/driver/cxx_alloc.c"

#if !DCC_ASAN

/* fills a block, so that a block shorter than asked or overlapping its
 * header shows as a corrupted neighbour or tag */
static void *filled(void *p, size_t n, int byte)
{
	cr_assert_not_null(p);
	memset(p, byte, n);
	return p;
}

Test(cxx_alloc, small_blocks_are_16_aligned_and_distinct)
{
	void *blocks[4097];
	for (size_t n = 0; n <= 4096; n++) {
		blocks[n] = filled(_Znwm(n), n, (int)(n & 0xff));
		cr_assert_eq((uintptr_t)blocks[n] % 16, 0, "size %zu", n);
	}
	for (size_t n = 1; n <= 4096; n++) {
		unsigned char *b = blocks[n];
		cr_assert_eq(b[0], n & 0xff, "size %zu overwritten", n);
		cr_assert_eq(b[n - 1], n & 0xff, "size %zu overwritten", n);
	}
	for (size_t n = 0; n <= 4096; n++)
		_ZdlPvm(blocks[n], n);
}

Test(cxx_alloc, a_freed_block_is_reused_by_its_size_class_only)
{
	void *a = _Znwm(40);	/* class of 33..48 bytes */
	_ZdlPv(a);
	void *other = _Znwm(100);
	cr_assert_neq(other, a);
	void *same = _Znwm(48);
	cr_assert_eq(same, a);
	_ZdaPv(other);
	cr_assert_eq(_Znam(97), other);	/* new[] and delete[] share the lists */
	_ZdlPvRKSt9nothrow_t(same, NULL);
	cr_assert_eq(_ZnwmRKSt9nothrow_t(33, NULL), a);
}

Test(cxx_alloc, large_blocks_come_from_malloc_and_go_back)
{
	size_t sizes[] = { 4097, 8192, 1 << 20 };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		void *p = filled(_Znwm(sizes[i]), sizes[i], 0x5a);
		cr_assert_eq((uintptr_t)p % 16, 0);
		cr_assert_eq(*tag_of(p), LARGE);
		_ZdlPvm(p, sizes[i]);
	}
}

Test(cxx_alloc, over_aligned_blocks_keep_their_alignment)
{
	size_t aligns[] = { 32, 64, 4096 };
	for (size_t i = 0; i < sizeof(aligns) / sizeof(aligns[0]); i++) {
		size_t a = aligns[i];
		void *p = filled(_ZnwmSt11align_val_t(100, a), 100, 0x11);
		cr_assert_eq((uintptr_t)p % a, 0, "align %zu", a);
		cr_assert_eq(*tag_of(p), ALIGNED + a);
		_ZdlPvmSt11align_val_t(p, 100, a);
		void *q = filled(_ZnamSt11align_val_tRKSt9nothrow_t(5000, a, NULL), 5000, 0x22);
		cr_assert_eq((uintptr_t)q % a, 0, "align %zu", a);
		_ZdaPvSt11align_val_t(q, a);
	}
	/* 16 is the blocks' own alignment: a small block of its class */
	void *s = _ZnwmSt11align_val_t(24, 16);
	cr_assert_eq(*tag_of(s), 2);
	_ZdlPvSt11align_val_tRKSt9nothrow_t(s, 16, NULL);
}

Test(cxx_alloc, nothrow_forms_return_null_when_the_size_cannot_be_had)
{
	cr_assert_null(_ZnwmRKSt9nothrow_t(SIZE_MAX - 8, NULL));
	cr_assert_null(_ZnamRKSt9nothrow_t(SIZE_MAX, NULL));
	cr_assert_null(_ZnwmSt11align_val_tRKSt9nothrow_t(SIZE_MAX - 64, 64, NULL));
}

Test(cxx_alloc, deleting_null_does_nothing)
{
	_ZdlPv(NULL);
	_ZdaPvm(NULL, 8);
	_ZdlPvSt11align_val_t(NULL, 64);
}

#else

Test(cxx_alloc, not_built_under_asan, .disabled = true)
{
}

#endif
