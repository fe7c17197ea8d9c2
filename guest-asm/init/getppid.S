# init/getppid.S: trapscope's /init program "getppid" (see include/init.inc).
	.equ INIT_VECTOR, 0
	.include "init.inc"
