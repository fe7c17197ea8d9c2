# Fused multiply-adds chained through the addend (rs3).
.option norvc
fmadd.d fa0, fa1, fa2, fa0
fmadd.d fa0, fa1, fa2, fa0
