# zz-pagefault.S: demand paging, minikernel-sv39.elf only (assembled with
# --defsym SV39=1; in minikernel.elf this file is empty, so that build's
# bytes do not change). Named to link last, so no existing code moves.
#
# knob_pagefault_bench = 1 (a kernel knob; it exists only in the sv39 build,
# so a scenario that sets it on minikernel.elf is refused at load as naming
# an unknown symbol) runs will-it-scale's page_fault1 shape: a user program
# stores once into each page of a fresh anonymous area, and every first
# store takes a store page fault that the kernel serves by mapping a zeroed
# page. The path follows Linux 6.12 by function (the code is the
# minikernel's own, in syscall.S's compiled-C shape):
#
#   user store          the store to an unmapped page: scause 15, stval = the
#                       address, sepc = the store
#   handle_exception    saves pt_regs, dispatches by scause through
#                       excp_vect_table (traps.S) to do_page_fault
#   do_page_fault       (arch/riscv/kernel/traps.c) handle_page_fault, then
#                       irqs off and irqentry_exit: from U-mode,
#                       irqentry_exit_to_user_mode (vector.S), the exit work
#   handle_page_fault   (arch/riscv/mm/fault.c) a fault from the kernel is an
#                       oops (do_trap_unknown, as before); irqs back on if
#                       the user had them; the vma holding the address
#                       (lock_vma_under_rcu; one vma, pf_vma) and
#                       access_error (a store needs VM_WRITE, a fetch
#                       VM_EXEC, a load VM_READ); outside it or not allowed:
#                       bad_area, SIGSEGV (exit 139); then handle_mm_fault,
#                       and VM_FAULT_OOM kills with SIGKILL (exit 137)
#   handle_mm_fault     (mm/memory.c, with __handle_mm_fault folded in) counts
#                       the fault, walks pgd -> pmd -> pte (Sv39 folds p4d
#                       and pud into the pgd) and, the pte being none,
#                       calls do_anonymous_page; a present pte is a stale
#                       translation: flush_tlb_fix_spurious_fault
#   do_anonymous_page   a zeroed page (vma_alloc_zeroed_movable_folio: the
#                       next page of pf_pool, cleared by clear_page), the
#                       entry mk_pte(page, vm_page_prot) made dirty and
#                       writable for a writable vma, the mm's anon counter,
#                       set_pte_at, then update_mmu_cache's local flush
#   ret_from_exception  sret to the store, which runs again and now lands
#
# The flush. Priv spec §4.2.1 ("Supervisor Memory-Management Fence
# Instruction"): a hart may cache translations, invalid ones included, and
# only SFENCE.VMA orders a PTE store before later implicit reads of the
# page tables. Changing an invalid PTE to a valid leaf is the one case the
# spec lets software fence lazily: until it does, the old (invalid) entry
# may still be used and the retried store may fault again, and the handler
# of that second fault must then fence. Linux's update_mmu_cache_range
# does not wait for that: after set_pte_at it flushes the one page on this
# hart (local_flush_tlb_page, `sfence.vma addr`, rs2 = x0: every address
# space), unless the hart has Svvptc, which bounds how long an invalid
# entry can linger (this hart does not). do_anonymous_page does the same,
# so the retried store never faults twice; handle_mm_fault's present-pte
# case is the lazy scheme's second fault, which never happens here. The
# area's page-table pages are linked at boot and fenced once then.
#
# What the minikernel leaves out: mmap(2) (pagefault_setup reserves the area
# at boot, as if the program had mapped it before its loop), locks (one
# hart, one thread), the memcg charge, the LRU and the rmap, the shared zero
# page (Linux maps it read-only on a read fault and copies on the first
# write; here a read fault gets its own page, as a write does), huge pages,
# allocating page-table pages at the first fault in each 2 MiB (__pte_alloc:
# here they exist from boot, so every fault takes the same path; a missing
# one is what a failed allocation is, VM_FAULT_OOM), and the buddy
# allocator (pf_pool is a bump pointer over PF_AREA_PAGES pages, one per
# page the area can hold, so it runs out only with the area).
#
# The benchmark program (pf_user_start): warm-up pages (knob_warmup), then
# the timed ones (knob_iterations), each touched once, in address order;
# more than PF_AREA_PAGES in all is refused with exit(2) before the first
# store. The measured window runs from the first pf_timed_loop to
# pf_timed_done, one iteration per pf_timed_loop pass.
#
# Hand count per timed iteration (knob_ras_friendly_entry = 0; the
# RAS-friendly entry is one less). Rules as kernel.S's: the faulting store
# counts once where it traps and once when it runs again; `la` is auipc +
# addi, `call` a jal, `li 4096` one lui.
#   user                                                          5
#     addi (pages touched); sd (faults); sd (again); add; bltu
#   entry: handle_exception (kernel.S's count)                   64
#   fault                                                       148
#     do_page_fault: prologue 5, mv, jal, csrci, mv, jal,
#       epilogue 5                                               15
#     handle_page_fault: prologue 6; mv; ld addr; ld status,
#       andi, bnez (from U); andi, beqz, csrsi (irqs on) 8; the
#       vma: la 2, ld, bltu, ld, bgeu 6; access_error: ld cause,
#       ld flags, li, andi, beq (a store) 5; beqz 1; mv, jal 2;
#       andi, bnez 2; epilogue 6                                 36
#     handle_mm_fault: prologue 4; the counter 5 (la 2, ld, addi,
#       sd); la root 2; pgd and pmd steps 9 each (srli, andi,
#       slli, add, ld, andi, beqz, srli, slli); the pte slot 4
#       (srli, andi, slli, add); ld, bnez 2; jal 1; epilogue 4    40
#     do_anonymous_page: prologue 7; 3 mv; jal; beqz; mk_pte 8
#       (srli, slli, ld, or, ld, andi, beqz, ori); the counter
#       5; sd (set_pte_at); sfence.vma; li; epilogue 7           35
#     vma_alloc_zeroed_movable_folio: prologue 5; la 2, ld, la 2,
#       bgeu, lui, add, sd (the pool) 9; mv, jal, mv 3;
#       epilogue 5                                               22
#   zero: clear_page: lui, add; 64 x (8 sd + addi + bltu) = 640
#     (4096 / 8 = 512 stores, 8 to a loop); ret                 643
#   exit                                                         60
#     irqentry_exit_to_user_mode (no work pending, no V):
#       prologue 5, mv, csrci, ld, andi, beqz, andi, beqz,
#       epilogue 5                                               17
#     ret_from_exception (kernel.S's count, to U)                43
#   total                                                       920
# One trap per iteration (cause 15), no other. Linux's clear_page without
# Zicboz is memset, whose loop stores more registers a pass; the 512 stores
# are the same.

.ifdef SV39
	.include "minikernel-defs.inc"
	.include "minikernel-abi.inc"
	.include "minikernel-signal.inc"
	.include "minikernel-pagefault.inc"
	.include "sv39.inc"

	.section .kernel.text, "ax", @progbits

# pagefault_setup(): sv39_enable's tail call when knob_pagefault_bench is
# set, with translation on. The area's vma (what mmap would have made),
# its page-table pages linked under the root (non-leaf entries, V only,
# priv spec §4.3.2), a fence for them, and the program to start (as init=
# would name another).
	.globl pagefault_setup
	.type pagefault_setup, @function
pagefault_setup:
	la	a0, pf_vma
	li	a1, PF_AREA_BASE
	sd	a1, VMA_START(a0)
	li	a2, PF_AREA_SIZE
	add	a1, a1, a2
	sd	a1, VMA_END(a0)
	li	a1, PTE_V | PTE_R | PTE_U | PTE_A	# PAGE_COPY: read-only,
	sd	a1, VMA_PAGE_PROT(a0)			# young, user
	li	a1, VM_READ | VM_WRITE
	sd	a1, VMA_FLAGS(a0)
	la	a0, pf_pmd			# root[PF_VPN2] -> pf_pmd
	srli	a0, a0, PAGE_SHIFT
	slli	a0, a0, 10
	ori	a0, a0, PTE_V
	la	a1, sv39_root
	sd	a0, PF_VPN2 * 8(a1)
	la	a0, pf_pte			# pf_pmd[PF_VPN1] -> pf_pte
	srli	a0, a0, PAGE_SHIFT
	slli	a0, a0, 10
	ori	a0, a0, PTE_V
	la	a1, pf_pmd
	sd	a0, PF_VPN1 * 8(a1)
	sfence.vma
	la	a0, pf_user_start
	csrw	sepc, a0
	ret
	.size pagefault_setup, .-pagefault_setup

# do_page_fault(regs): excp_vect_table[12], [13] and [15]. A fault from the
# kernel never comes back here (handle_page_fault ends the run), so
# irqentry_exit's user branch is the only one kept.
	.globl do_page_fault
	.type do_page_fault, @function
do_page_fault:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	addi	s0, sp, 32
	mv	s1, a0
	call	handle_page_fault		# (regs)
	csrci	sstatus, SR_SIE			# local_irq_disable()
	mv	a0, s1
	call	irqentry_exit_to_user_mode	# (regs): the exit work
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	addi	sp, sp, 32
	ret
	.size do_page_fault, .-do_page_fault

# handle_page_fault(regs)
#   s1 = regs, s2 = addr
	.globl handle_page_fault
	.type handle_page_fault, @function
handle_page_fault:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	sd	s2, 0(sp)
	addi	s0, sp, 32
	mv	s1, a0
	ld	s2, PT_BADADDR(a0)		# addr = regs->badaddr (stval)
	ld	a5, PT_STATUS(a0)
	andi	a4, a5, SR_SPP
	bnez	a4, 9f				# !user_mode(regs): an oops
	andi	a5, a5, SR_SPIE
	beqz	a5, 1f
	csrsi	sstatus, SR_SIE			# local_irq_enable()
1:
	la	a0, pf_vma			# lock_vma_under_rcu(mm, addr)
	ld	a5, VMA_START(a0)
	bltu	s2, a5, 6f
	ld	a5, VMA_END(a0)
	bgeu	s2, a5, 6f			# no vma holds it: bad_area
	ld	a4, PT_CAUSE(s1)		# access_error(cause, vma)
	ld	a5, VMA_FLAGS(a0)
	li	a3, CAUSE_STORE_PAGE_FAULT
	andi	a2, a5, VM_WRITE
	beq	a4, a3, 2f
	li	a3, CAUSE_FETCH_PAGE_FAULT
	andi	a2, a5, VM_EXEC
	beq	a4, a3, 2f
	andi	a2, a5, VM_READ			# a load
2:
	beqz	a2, 6f				# SEGV_ACCERR
	mv	a1, s2
	call	handle_mm_fault			# (vma, addr) -> vm_fault_t
	andi	a0, a0, VM_FAULT_ERROR
	bnez	a0, 7f
3:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	ld	s2, 0(sp)
	addi	sp, sp, 32
	ret
6:
	# bad_area: do_trap(regs, SIGSEGV, code, addr) -> force_sig_fault
	# (here the SI_KERNEL siginfo of force_sig); the exit work delivers it.
	li	a0, SIGSEGV_NR
	call	force_sig
	j	3b
7:
	# mm_fault_error: VM_FAULT_OOM, pagefault_out_of_memory(): the OOM
	# killer's only choice is this process.
	li	a0, SIGKILL_NR
	call	force_sig
	j	3b
9:
	mv	a0, s1
	j	do_trap_unknown			# does not return
	.size handle_page_fault, .-handle_page_fault

# handle_mm_fault(vma, addr) -> vm_fault_t (Linux also passes the fault's
# flags and regs: nothing below reads them).
	.globl handle_mm_fault
	.type handle_mm_fault, @function
handle_mm_fault:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	sd	s0, 0(sp)
	addi	s0, sp, 16
	la	a5, stat_pgfault		# count_vm_event(PGFAULT)
	ld	a4, 0(a5)
	addi	a4, a4, 1
	sd	a4, 0(a5)
	la	a5, sv39_root			# pgd_offset(mm, addr): mm->pgd
	srli	a4, a1, 30
	andi	a4, a4, 511
	slli	a4, a4, 3
	add	a5, a5, a4
	ld	a5, 0(a5)
	andi	a4, a5, PTE_V
	beqz	a4, 8f				# pud_alloc would allocate
	srli	a5, a5, 10
	slli	a5, a5, PAGE_SHIFT		# the pmd table (kernel VA = PA)
	srli	a4, a1, 21
	andi	a4, a4, 511
	slli	a4, a4, 3
	add	a5, a5, a4
	ld	a5, 0(a5)
	andi	a4, a5, PTE_V
	beqz	a4, 8f				# pte_alloc would allocate
	srli	a5, a5, 10
	slli	a5, a5, PAGE_SHIFT		# the pte table
	srli	a4, a1, PAGE_SHIFT
	andi	a4, a4, 511
	slli	a4, a4, 3
	add	a2, a5, a4			# vmf->pte
	ld	a5, 0(a2)			# handle_pte_fault()
	bnez	a5, 7f
	call	do_anonymous_page		# pte_none: (vma, addr, pte)
1:
	ld	ra, 8(sp)
	ld	s0, 0(sp)
	addi	sp, sp, 16
	ret
7:
	sfence.vma a1				# flush_tlb_fix_spurious_fault()
	li	a0, 0
	j	1b
8:
	li	a0, VM_FAULT_OOM
	j	1b
	.size handle_mm_fault, .-handle_mm_fault

# do_anonymous_page(vma, addr, pte) -> vm_fault_t
#   s1 = vma, s2 = addr, s3 = pte
	.globl do_anonymous_page
	.type do_anonymous_page, @function
do_anonymous_page:
	addi	sp, sp, -48
	sd	ra, 40(sp)
	sd	s0, 32(sp)
	sd	s1, 24(sp)
	sd	s2, 16(sp)
	sd	s3, 8(sp)
	addi	s0, sp, 48
	mv	s1, a0
	mv	s2, a1
	mv	s3, a2
	call	vma_alloc_zeroed_movable_folio	# (vma, addr) -> page or NULL
	beqz	a0, 2f
	srli	a0, a0, PAGE_SHIFT		# mk_pte(page, vma->vm_page_prot)
	slli	a0, a0, 10
	ld	a5, VMA_PAGE_PROT(s1)
	or	a0, a0, a5
	ld	a5, VMA_FLAGS(s1)
	andi	a5, a5, VM_WRITE
	beqz	a5, 1f
	ori	a0, a0, PTE_W | PTE_D		# pte_mkwrite(pte_mkdirty())
1:
	la	a5, pf_mm_anon_pages		# inc_mm_counter(MM_ANONPAGES)
	ld	a4, 0(a5)
	addi	a4, a4, 1
	sd	a4, 0(a5)
	sd	a0, 0(s3)			# set_pte_at(): mapped
	sfence.vma s2				# update_mmu_cache(): this page
	li	a0, 0
3:
	ld	ra, 40(sp)
	ld	s0, 32(sp)
	ld	s1, 24(sp)
	ld	s2, 16(sp)
	ld	s3, 8(sp)
	addi	sp, sp, 48
	ret
2:
	li	a0, VM_FAULT_OOM
	j	3b
	.size do_anonymous_page, .-do_anonymous_page

# vma_alloc_zeroed_movable_folio(vma, addr) -> page or NULL: the next page
# of the pool, cleared (folio_zero_user -> clear_user_highpage ->
# clear_page).   s1 = the page
	.globl vma_alloc_zeroed_movable_folio
	.type vma_alloc_zeroed_movable_folio, @function
vma_alloc_zeroed_movable_folio:
	addi	sp, sp, -32
	sd	ra, 24(sp)
	sd	s0, 16(sp)
	sd	s1, 8(sp)
	addi	s0, sp, 32
	la	a5, pf_pool_next
	ld	s1, 0(a5)
	la	a4, pf_pool_end
	bgeu	s1, a4, 2f			# none left
	li	a4, PAGE_SIZE
	add	a4, s1, a4
	sd	a4, 0(a5)
	mv	a0, s1
	call	clear_page
	mv	a0, s1
1:
	ld	ra, 24(sp)
	ld	s0, 16(sp)
	ld	s1, 8(sp)
	addi	sp, sp, 32
	ret
2:
	li	a0, 0
	j	1b
	.size vma_alloc_zeroed_movable_folio, .-vma_alloc_zeroed_movable_folio

# clear_page(page): 4096 zero bytes, one 64-byte line a pass. Leaf.
	.globl clear_page
	.type clear_page, @function
clear_page:
	li	a1, PAGE_SIZE
	add	a1, a0, a1
1:
	sd	zero, 0(a0)
	sd	zero, 8(a0)
	sd	zero, 16(a0)
	sd	zero, 24(a0)
	sd	zero, 32(a0)
	sd	zero, 40(a0)
	sd	zero, 48(a0)
	sd	zero, 56(a0)
	addi	a0, a0, 64
	bltu	a0, a1, 1b
	ret
	.size clear_page, .-clear_page

# ---------------------------------------------------------------------------
	.section .kernel.data, "aw", @progbits
	.balign 8
	.globl knob_pagefault_bench
	.type knob_pagefault_bench, @object
knob_pagefault_bench:
	.dword 0				# 1: run pf_user_start
	.size knob_pagefault_bench, .-knob_pagefault_bench
# The mm's one vma: empty (start = end) until pagefault_setup, so a user
# page fault without the benchmark is a SIGSEGV.
	.globl pf_vma
	.type pf_vma, @object
pf_vma:
	.skip VMA_SIZE
	.size pf_vma, .-pf_vma
	.globl pf_pool_next
	.type pf_pool_next, @object
pf_pool_next:
	.dword pf_pool				# the next free page
	.size pf_pool_next, .-pf_pool_next
# Counters: faults handle_mm_fault saw (PGFAULT), pages mapped (the mm's
# MM_ANONPAGES).
	.globl stat_pgfault
	.type stat_pgfault, @object
stat_pgfault:
	.dword 0
	.size stat_pgfault, .-stat_pgfault
	.globl pf_mm_anon_pages
	.type pf_mm_anon_pages, @object
pf_mm_anon_pages:
	.dword 0
	.size pf_mm_anon_pages, .-pf_mm_anon_pages

	.section .kernel.bss, "aw", @nobits
	.balign 4096
# The area's page-table pages: its pmd table and its pte table.
	.globl pf_pmd
	.type pf_pmd, @object
pf_pmd:
	.skip PAGE_SIZE
	.size pf_pmd, .-pf_pmd
	.globl pf_pte
	.type pf_pte, @object
pf_pte:
	.skip PAGE_SIZE
	.size pf_pte, .-pf_pte
# The pages the area's faults get, one per page it holds.
	.globl pf_pool
	.type pf_pool, @object
pf_pool:
	.skip PF_AREA_SIZE
	.size pf_pool, .-pf_pool
	.globl pf_pool_end
pf_pool_end:

# ---------------------------------------------------------------------------
# The user program.
	.section .user.text, "ax", @progbits

	.globl pf_user_start
	.type pf_user_start, @function
pf_user_start:
	la	sp, pf_user_stack_top
	ld	s0, knob_warmup
	ld	s1, knob_iterations
	li	a5, PF_AREA_PAGES		# more pages than the area holds:
	bgtu	s0, a5, 8f			# exit(2) before the first touch
	bgtu	s1, a5, 8f
	add	a4, s0, s1
	bgtu	a4, a5, 8f
	li	s2, PF_AREA_BASE		# the next page to touch
	li	s3, PAGE_SIZE
	li	s4, 0				# pages touched so far
	beqz	s0, 2f
1:	# warm-up: the same first touches, untimed
	addi	s4, s4, 1
	sd	s2, 0(s2)
	add	s2, s2, s3
	bltu	s4, s0, 1b
2:
	add	s1, s1, s0			# the last page's count
	bgeu	s4, s1, 4f
	# trapscope's measured window: from the first pf_timed_loop to
	# pf_timed_done; each pass through pf_timed_loop is an iteration. The
	# loop top is not the store, which runs twice a pass.
	.globl pf_timed_loop
pf_timed_loop:
3:
	addi	s4, s4, 1
	sd	s2, 0(s2)			# a fresh page: store page fault,
	add	s2, s2, s3			# then the store again
	bltu	s4, s1, 3b
	.globl pf_timed_done
pf_timed_done:
4:
	li	a1, 0
	j	9f
8:
	li	a1, 2
9:
	li	a0, SYS_exit
	call	syscall				# does not return
5:	j	5b
	.size pf_user_start, .-pf_user_start

	.section .user.bss, "aw", @nobits
	.balign 16
pf_user_stack:
	.skip 1024
pf_user_stack_top:
.endif
