# init/vector-v1.S: trapscope's /init program "vector-v1" (see include/init.inc).
	.equ INIT_VECTOR, 1
	.include "init.inc"
