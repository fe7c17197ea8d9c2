# init/seccomp-arg1.S: trapscope's /init program "seccomp-arg1" (include/init.inc,
# include/init-seccomp.inc): seccomp filter testing args[0] against 1 constant, installed before the getppid loop.
	.equ INIT_VECTOR, 0
	.equ INIT_SETUP, 1
	.equ INIT_SECCOMP, 1
	.equ INIT_SECCOMP_ARGS, 1
.macro init_banner_text
	.ascii "trapscope-init: seccomp-arg1 loop (seccomp filter testing args[0] against 1 constant; then getppid)\n"
.endm
	.include "init.inc"
	.include "init-seccomp.inc"
