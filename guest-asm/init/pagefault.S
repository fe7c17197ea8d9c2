# init/pagefault.S: trapscope's /init program "pagefault" (include/init-path.inc):
# one fresh anonymous page touched per iteration, the shape of will-it-scale's
# page_fault1: map a region, store to each of its pages in turn (each store
# takes a page fault: scause 15, store/AMO page fault, priv spec Table 3.6),
# unmap it, map it again. The kernel's path per iteration is handle_exception
# -> do_page_fault -> handle_page_fault -> handle_mm_fault (a zeroed page,
# its PTE) -> ret_from_exception, and `sret` runs the store again, which now
# retires.
#
# The region is 16 MiB (4096 pages), so the snapshot's iteration (100 by
# default), the 110 trapscope times after it and a `verify` of 1000 more all
# fall in one mapping. Its start is aligned to 2 MiB (a page table's reach
# in Sv39), so a page-table page is allocated at iterations 0, 512, 1024 ...
# of each mapping and never in the window after the default snapshot.
# MADV_NOHUGEPAGE keeps a kernel with transparent huge pages from answering
# one fault with 2 MiB (its EINVAL on a kernel without them is ignored).
#
# User side per iteration, by hand: add, the store (faults, then retires on
# its second run), addi, bltu: 4 instructions retired.
#
# The marker is the store itself, `init_touch`: `trapscope snapshot --init
# pagefault` counts it once per iteration (the faulting run and its retry are
# one execution) and stops before the store that faults.

	.equ REGION,		16 << 20
	.equ ALIGN_2M,		2 << 20
	.equ PAGE,		4096
	.equ PROT_RW,		0x3		# PROT_READ | PROT_WRITE
	.equ MAP_PRIV_ANON,	0x22		# MAP_PRIVATE | MAP_ANONYMOUS
	.equ MADV_NOHUGEPAGE,	15

.macro init_banner_text
	.ascii "trapscope-init: pagefault loop (one fresh anonymous page stored to per iteration)\n"
.endm
	.include "init-path.inc"

	init_msg init_msg_mmap, "mmap of the 16 MiB region failed\n"
	init_msg init_msg_munmap, "munmap of the region failed\n"

	.text
	.globl init_main
	.type init_main, @function
init_main:
	li	s1, 0				# finished iterations (x9)
	li	s5, PAGE
1:	# Map REGION + 2 MiB, so that a 2 MiB-aligned REGION lies inside.
	li	a0, 0
	li	a1, REGION + ALIGN_2M
	li	a2, PROT_RW
	li	a3, MAP_PRIV_ANON
	li	a4, -1
	li	a5, 0
	li	a7, SYS_mmap
	ecall
	li	t0, -4096
	bgeu	a0, t0, 8f			# [-4095, -1]: an error
	mv	s6, a0				# the mapping, for munmap
	li	t0, ALIGN_2M - 1
	add	s2, a0, t0
	not	t0, t0
	and	s2, s2, t0			# the region: 2 MiB-aligned
	mv	a0, s2
	li	a1, REGION
	li	a2, MADV_NOHUGEPAGE
	li	a7, SYS_madvise
	ecall					# EINVAL without THP: ignored
	sub	s3, s2, s5			# the page before the first
	li	t0, REGION - PAGE
	add	s4, s2, t0			# the region's last page
	# The loop's top is not the store: the store runs twice per iteration
	# (the fault, then the retry), and the top must run once.
	.globl init_loop
init_loop:					# 4 user instructions an iteration
	add	s3, s3, s5			# the next page
	.globl init_touch
init_touch:
	sd	s1, 0(s3)			# faults: a fresh page; then retires
	addi	s1, s1, 1
	bltu	s3, s4, init_loop
	# The region is used up: unmap it all and map again.
	mv	a0, s6
	li	a1, REGION + ALIGN_2M
	li	a7, SYS_munmap
	ecall
	bnez	a0, 9f
	j	1b
8:	init_die init_msg_mmap, a0
9:	init_die init_msg_munmap, a0
	.size init_main, .-init_main
