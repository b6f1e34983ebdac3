// jemalloc replaces malloc for the whole `herald` process once linked (its
// symbols come before glibc's in the lookup order). Only mallctl is declared
// here: <jemalloc/jemalloc.h> would declare malloc a second time next to
// Glibc's, which Swift sees as two modules exporting the same function.
#include <stddef.h>

int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen);
