# init/seccomp-errno.S: trapscope's /init program "seccomp-errno" (include/init.inc,
# include/init-seccomp.inc): seccomp filter returning ERRNO(EPERM) for getppid, installed before the getppid loop.
	.equ INIT_VECTOR, 0
	.equ INIT_SETUP, 1
	.equ INIT_SECCOMP, 3
	.equ INIT_SECCOMP_ARGS, 0
.macro init_banner_text
	.ascii "trapscope-init: seccomp-errno loop (seccomp filter returning ERRNO(EPERM) for getppid; then getppid)\n"
.endm
	.include "init.inc"
	.include "init-seccomp.inc"
