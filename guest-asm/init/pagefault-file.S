# init/pagefault-file.S: trapscope's /init program "pagefault-file"
# (include/init-path.inc): a page fault on a file that is in the page cache
# per iteration, the shape of lmbench's lat_pagefault (map a file, touch its
# pages). The file is /pf on the initramfs's root, which is ramfs (or tmpfs):
# written once, 16 MiB, so every page of it is in the page cache, then mapped
# shared and read-only. Each iteration loads from the next 64 KiB window of
# the mapping: the load faults (scause 13, load page fault, priv spec Table
# 3.6), and the kernel's path is handle_exception -> do_page_fault ->
# handle_mm_fault -> do_read_fault -> the file's fault-around
# (filemap_map_pages: it maps the cached pages of the fault's 64 KiB window,
# fault_around_bytes by default, at once) -> ret_from_exception, and `sret`
# runs the load again, which now retires. One touch per window makes every
# touch fault once, as lat_pagefault's spread of touches does. After 256
# windows the init unmaps the file and maps it again (its pages stay cached).
# The mapping is placed 2 MiB-aligned (inside an inaccessible anonymous
# reservation), so the page-table page each 2 MiB of touches needs comes at
# the same iterations on every kernel: 0, 32, 64 ... of each mapping (three
# in the 100 timed after the default snapshot), averaged into the figure.
#
# User side per iteration, by hand: add, the load (faults, then retires on
# its second run), addi, bltu: 4 instructions retired.
#
# The marker is the load itself, `init_touch`, as pagefault's store:
# `trapscope snapshot --init pagefault-file` counts it once per iteration
# (the faulting run and its retry are one execution).

	.equ FILE_SIZE,		16 << 20
	.equ WINDOW,		64 << 10	# fault_around_bytes' default
	.equ CHUNK,		64 << 10	# the bytes one write(2) writes
	.equ ALIGN_2M,		2 << 20
	.equ PROT_NONE,		0x0
	.equ PROT_READ,		0x1
	.equ MAP_SHARED_FIXED,	0x11		# MAP_SHARED | MAP_FIXED
	.equ MAP_PRIV_ANON,	0x22		# MAP_PRIVATE | MAP_ANONYMOUS
	.equ O_RDWR_CREAT,	0x42		# O_RDWR | O_CREAT
	.equ AT_FDCWD,		-100
	.equ SYS_openat,	56

.macro init_banner_text
	.ascii "trapscope-init: pagefault-file loop (one fault on a cached file page per iteration)\n"
.endm
	.include "init-path.inc"

	init_msg init_msg_open, "openat of /pf failed\n"
	init_msg init_msg_write, "writing /pf failed\n"
	init_msg init_msg_mmap, "mmap of /pf failed\n"
	init_msg init_msg_munmap, "munmap of /pf failed\n"

	.section .rodata, "a", @progbits
init_pf_path:
	.asciz "/pf"

	.bss
	.balign 4096
init_chunk:					# zeros, written to /pf
	.skip CHUNK

	.text
	.globl init_main
	.type init_main, @function
init_main:
	li	a0, AT_FDCWD
	la	a1, init_pf_path
	li	a2, O_RDWR_CREAT
	li	a3, 0600
	li	a7, SYS_openat
	ecall
	bltz	a0, 6f
	mv	s7, a0				# the file
	li	s8, FILE_SIZE / CHUNK		# writes to make
0:	mv	a0, s7
	la	a1, init_chunk
	li	a2, CHUNK
	li	a7, SYS_write
	ecall
	li	t0, CHUNK
	bne	a0, t0, 7f			# short or failed: give up
	addi	s8, s8, -1
	bnez	s8, 0b
	# Reserve FILE_SIZE + 2 MiB, inaccessible, for a 2 MiB-aligned place.
	li	a0, 0
	li	a1, FILE_SIZE + ALIGN_2M
	li	a2, PROT_NONE
	li	a3, MAP_PRIV_ANON
	li	a4, -1
	li	a5, 0
	li	a7, SYS_mmap
	ecall
	li	t0, -4096
	bgeu	a0, t0, 8f			# [-4095, -1]: an error
	li	t0, ALIGN_2M - 1
	add	s2, a0, t0
	not	t0, t0
	and	s2, s2, t0			# the file's place: 2 MiB-aligned
	li	s1, 0				# finished iterations (x9)
	li	s5, WINDOW
1:	mv	a0, s2
	li	a1, FILE_SIZE
	li	a2, PROT_READ
	li	a3, MAP_SHARED_FIXED
	mv	a4, s7
	li	a5, 0
	li	a7, SYS_mmap
	ecall
	bne	a0, s2, 8f			# MAP_FIXED gives s2, or an error
	sub	s3, s2, s5			# the window before the first
	li	t0, FILE_SIZE - WINDOW
	add	s4, s2, t0			# the last window
	# The loop's top is not the load: the load runs twice per iteration
	# (the fault, then the retry), and the top must run once.
	.globl init_loop
init_loop:					# 4 user instructions an iteration
	add	s3, s3, s5			# the next window
	.globl init_touch
init_touch:
	ld	t1, 0(s3)			# faults: not mapped yet; then retires
	addi	s1, s1, 1
	bltu	s3, s4, init_loop
	# Every window touched: unmap the file and map it again.
	mv	a0, s2
	li	a1, FILE_SIZE
	li	a7, SYS_munmap
	ecall
	bnez	a0, 9f
	j	1b
6:	init_die init_msg_open, a0
7:	init_die init_msg_write, a0
8:	init_die init_msg_mmap, a0
9:	init_die init_msg_munmap, a0
	.size init_main, .-init_main
