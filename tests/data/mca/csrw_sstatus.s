# A write of sstatus between ALU ops.
.option norvc
addi a0, a0, 1
csrw sstatus, a1
addi a2, a2, 1
