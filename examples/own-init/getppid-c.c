/*
 * Your own init for `trapscope snapshot --init PATH`, in C: the getppid
 * loop of lmbench's lat_syscall, written as a user would write a
 * benchmark. The kernel runs it as /init (PID 1), so it never exits: an
 * init that exits panics the kernel.
 *
 * Build (no libc: the initramfs holds nothing but this file):
 *   riscv64-linux-gnu-gcc -static -nostdlib -ffreestanding -fno-builtin \
 *     -O2 -march=rv64imac_zicsr -mabi=lp64 -g -o getppid-c.elf getppid-c.c
 * (rv64gc and lp64d on a kernel with CONFIG_FPU.)
 *
 * trapscope finds the measured loop by two global labels:
 *   init_loop   the top of the loop, run once per iteration;
 *   init_ecall  the marker, run exactly once per iteration: the snapshot
 *               stops before its --at-th run.
 * Both sit in inline asm inside functions the compiler may not inline or
 * duplicate (noinline), so that each label names one instruction.
 */

#define SYS_getppid 173 /* asm-generic/unistd.h */

/* One getppid, its ecall labelled as the marker. */
static long __attribute__((noinline)) marked_getppid(void)
{
	register long a7 __asm__("a7") = SYS_getppid;
	register long a0 __asm__("a0");
	__asm__ volatile(".globl init_ecall\n"
			 "init_ecall:\n\t"
			 "ecall"
			 : "=r"(a0)
			 : "r"(a7)
			 : "memory");
	return a0;
}

/* The loop's top, labelled: a function of its own, called once per
 * iteration, so the label is run exactly once each time round. */
static void __attribute__((noinline)) loop_top(void)
{
	__asm__ volatile(".globl init_loop\ninit_loop:" ::: "memory");
}

void __attribute__((noreturn)) _start(void)
{
	for (;;) {
		loop_top();
		marked_getppid();
	}
}
