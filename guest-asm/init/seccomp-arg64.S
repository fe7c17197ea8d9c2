# init/seccomp-arg64.S: trapscope's /init program "seccomp-arg64" (include/init.inc,
# include/init-seccomp.inc): seccomp filter testing args[0] against 64 constants, installed before the getppid loop.
	.equ INIT_VECTOR, 0
	.equ INIT_SETUP, 1
	.equ INIT_SECCOMP, 1
	.equ INIT_SECCOMP_ARGS, 64
.macro init_banner_text
	.ascii "trapscope-init: seccomp-arg64 loop (seccomp filter testing args[0] against 64 constants; then getppid)\n"
.endm
	.include "init.inc"
	.include "init-seccomp.inc"
