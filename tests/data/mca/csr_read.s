# Reads of a scratch CSR.
.option norvc
csrr a0, sscratch
csrr a1, sscratch
