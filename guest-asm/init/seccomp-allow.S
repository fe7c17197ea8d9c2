# init/seccomp-allow.S: trapscope's /init program "seccomp-allow" (include/init.inc,
# include/init-seccomp.inc): seccomp allow-list the action cache answers, installed before the getppid loop.
	.equ INIT_VECTOR, 0
	.equ INIT_SETUP, 1
	.equ INIT_SECCOMP, 2
	.equ INIT_SECCOMP_ARGS, 0
.macro init_banner_text
	.ascii "trapscope-init: seccomp-allow loop (seccomp allow-list the action cache answers; then getppid)\n"
.endm
	.include "init.inc"
	.include "init-seccomp.inc"
