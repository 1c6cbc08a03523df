// What a miss of the processor's address-translation cache (TLB) costs on this machine, and
// whether the host maps a guest's 2 MB pages whole.
//
//     cc -O2 -o /tmp/tlb-reach Benchmarks/fleet/tlb-reach.c && /tmp/tlb-reach
//
// A chain of dependent loads visits N pages of 4 KB in random order, 16 cache lines in each (so
// the data, 1 MB per 1,024 pages, stays in the last-level cache). The pages lie either side by
// side (N/512 pages of 2 MB: "packed") or one per 2 MB page ("spread"), on transparent huge pages
// (madvise). If the host maps the guest's 2 MB pages whole, packed pages cost no more past the
// TLB's 2,048 entries (a few 2 MB entries cover them); if it maps them with 4 KB pages, packed
// pages jump somewhere past 2,048 as spread ones do (by 4,096 at the latest: the processor may
// combine neighbouring 4 KB entries), and the jump is what a TLB miss costs. Spread pages take
// 2 MB of memory each, so they stop at 4,096 pages (8 GB).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

// Nanoseconds per dependent load over `pages` pages of 4 KB, packed or spread.
static double nanosecondsPerLoad(size_t pages, int spread) {
    const size_t huge = (size_t)2 << 20, linesPerPage = 16, loads = 10000000;
    size_t span = spread ? pages * huge : pages * 4096 + huge;
    char *raw = mmap(NULL, span + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) { perror("mmap"); exit(1); }
    char *base = (char *)(((uintptr_t)raw + huge - 1) & ~(uintptr_t)(huge - 1));
    madvise(base, span, MADV_HUGEPAGE);
    size_t count = pages * linesPerPage;
    size_t *offset = malloc(count * sizeof *offset), *order = malloc(count * sizeof *order);
    for (size_t page = 0; page < pages; page++)
        for (size_t line = 0; line < linesPerPage; line++)
            offset[page * linesPerPage + line] = (spread ? page * huge : page * 4096) + ((line * 5) % 64) * 64;
    for (size_t i = 0; i < count; i++) order[i] = i;
    uint64_t state = 88172645463325252ULL;
    for (size_t i = count - 1; i > 0; i--) {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17;
        size_t j = state % (i + 1), kept = order[i];
        order[i] = order[j]; order[j] = kept;
    }
    for (size_t i = 0; i < count; i++)
        *(char **)(base + offset[order[i]]) = base + offset[order[(i + 1) % count]];
    char *cursor = base + offset[order[0]];
    for (size_t i = 0; i < count; i++) cursor = *(char **)cursor;  // warm up
    double start = seconds();
    for (size_t i = 0; i < loads; i++) cursor = *(char **)cursor;
    double elapsed = seconds() - start;
    if (cursor == NULL) puts("");  // keeps the chain live
    munmap(raw, span + huge);
    free(offset);
    free(order);
    return elapsed / loads * 1e9;
}

int main(void) {
    const size_t sizes[] = {256, 1024, 2048, 4096, 8192, 16384};
    printf("4 KB pages  packed ns/load  spread ns/load\n");
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        printf("%10zu  %13.1f", sizes[i], nanosecondsPerLoad(sizes[i], 0));
        if (sizes[i] <= 4096) printf("  %14.1f", nanosecondsPerLoad(sizes[i], 1));
        printf("\n");
    }
    return 0;
}
