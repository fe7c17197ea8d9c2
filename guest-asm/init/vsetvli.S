# init/vsetvli.S: trapscope's /init program "vsetvli" (see include/init.inc).
	.equ INIT_VECTOR, 2
	.include "init.inc"
