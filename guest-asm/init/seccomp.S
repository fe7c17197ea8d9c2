# init/seccomp.S: trapscope's /init program "seccomp" (include/init.inc,
# include/init-seccomp.inc): seccomp filter testing args[0] against 8 constants, installed before the getppid loop.
	.equ INIT_VECTOR, 0
	.equ INIT_SETUP, 1
	.equ INIT_SECCOMP, 1
	.equ INIT_SECCOMP_ARGS, 8
.macro init_banner_text
	.ascii "trapscope-init: seccomp loop (seccomp filter testing args[0] against 8 constants; then getppid)\n"
.endm
	.include "init.inc"
	.include "init-seccomp.inc"
