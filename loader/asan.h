/*
 * DCC_ASAN: 1 in a build with AddressSanitizer, else 0 (GCC says so by
 * __SANITIZE_ADDRESS__, clang by __has_feature). The dcc and dtrun
 * programs then leave the heap (hugeheap.c, start_memory.c), C++'s
 * operators (cxx_alloc.c) and exit()'s checks (dcc's main) to it.
 */
#ifndef DCC_ASAN_H
#define DCC_ASAN_H

#if defined(__SANITIZE_ADDRESS__)
#define DCC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DCC_ASAN 1
#endif
#endif
#ifndef DCC_ASAN
#define DCC_ASAN 0
#endif

#endif
