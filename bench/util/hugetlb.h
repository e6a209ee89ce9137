/*
 * hugetlb.h - the machine's reserved huge pages (hugetlbfs, vm.nr_hugepages),
 * what fio's iomem=mmaphuge (an anonymous MAP_HUGETLB mapping) needs: mem:
 * mmaphuge is exported as fio's where they suffice (suite/fio_map.c).
 */
#ifndef IOMATRIX_HUGETLB_H
#define IOMATRIX_HUGETLB_H

#include <stdint.h>

/* The default huge page size in bytes (Hugepagesize), 2 MiB when
 * /proc/meminfo does not say. */
uint64_t hugetlb_page_bytes(void);
/* Bytes of reserved huge pages free now (HugePages_Free x Hugepagesize);
 * 0 when none or /proc/meminfo cannot be read. */
uint64_t hugetlb_free_bytes(void);
/* len rounded up to whole huge pages of page bytes */
static inline uint64_t hugetlb_round(uint64_t len, uint64_t page)
{
	return (len + page - 1) / page * page;
}

#endif
