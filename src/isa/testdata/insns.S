# Test vectors for src/isa: every instruction form the decoder covers.
#
# The fixture insns.txt is generated from this file with the real GNU assembler
# and objdump; the Rust tests only read the committed fixture. Regenerate with
# (from the repository root):
#
#   sh src/isa/testdata/regen.sh
#
# which runs:
#   riscv64-linux-gnu-as -march=rv64gcv -o /tmp/insns.o src/isa/testdata/insns.S
#   riscv64-linux-gnu-ld -Ttext=0x80000000 -o /tmp/insns.elf /tmp/insns.o
#   riscv64-linux-gnu-objdump -d /tmp/insns.elf | (filter in regen.sh) > insns.txt
#
# Labels named case_* mark instructions whose decoded fields the tests check by
# hand. The region between pairs_begin and pairs_end alternates a compressed
# instruction with its 32-bit expansion; the tests check both decode alike.

	.option norelax		# resolve branch offsets here, not at link time
	.globl _start
	.text
_start:
	.option norvc
	nop
# ---- RV64I: unprivileged spec ch. 2 (RV32I) and ch. 5 (RV64I) ----
case_lui:
	lui	a0, 0x12345
case_lui_neg:
	lui	t0, 0xfffff
	lui	s11, 0
	auipc	a0, 0
case_auipc:
	auipc	gp, 0x80000
case_jal_ra:
	jal	ra, fwd
case_j:
	jal	zero, case_jal_ra
	jal	t0, fwd
	jal	s0, case_jal_ra
case_ret:
	jalr	zero, 0(ra)
case_jr_t0:
	jalr	zero, 0(t0)
case_jalr_t1:
	jalr	ra, 0(t1)
case_jalr_t0_t0:
	jalr	t0, 0(t0)
	jalr	zero, 8(t0)
	jalr	ra, -4(a0)
case_jalr_a0_a1:
	jalr	a0, 16(a1)
	jalr	t0, 0(ra)
	jalr	ra, 0(t0)
	jalr	zero, 0(zero)
case_beq:
	beq	a0, a1, fwd
	bne	a0, a1, case_jal_ra
case_blt_back:
	blt	a0, a1, case_jal_ra
	bge	a0, a1, fwd
	bltu	a0, a1, case_jal_ra
	bgeu	a0, a1, fwd
	beq	a0, zero, fwd
	bne	a0, zero, case_jal_ra
	blt	a0, zero, fwd
	bge	a0, zero, case_jal_ra
	bge	zero, a0, fwd
	blt	zero, a0, case_jal_ra
	beq	zero, a0, fwd
	bltu	zero, a0, fwd
	bgeu	a0, zero, fwd
case_lb:
	lb	a0, -1(a1)
	lh	a0, 2(a1)
	lw	a0, -2048(a1)
case_ld:
	ld	a0, 2047(sp)
	lbu	a0, 0(a1)
	lhu	t6, 6(s1)
case_lwu:
	lwu	a0, 4(a1)
	sb	a0, -1(a1)
	sh	a0, 2(a1)
	sw	a0, 4(a1)
case_sd:
	sd	ra, -8(sp)
case_addi:
	addi	sp, sp, -16
case_li:
	addi	a0, zero, 2047
case_mv:
	addi	a0, a1, 0
case_nop:
	addi	zero, zero, 0
	addi	zero, zero, 1
	slti	a0, a1, -5
	sltiu	a0, a1, 5
	sltiu	a0, a1, 1
	xori	a0, a1, 7
	xori	a0, a1, -1
	ori	a0, a1, -2048
	andi	a0, a1, 255
	andi	a0, a1, 15
case_slli:
	slli	a0, a1, 63
	slli	a0, a1, 0
	srli	a0, a1, 1
case_srai:
	srai	a0, a1, 33
case_add:
	add	a0, a1, a2
	add	a0, zero, a2
case_sub:
	sub	a0, a1, a2
	sub	a0, zero, a2
	sll	a0, a1, a2
	slt	a0, a1, a2
	slt	a0, a1, zero
	slt	a0, zero, a2
	sltu	a0, a1, a2
	sltu	a0, zero, a2
	xor	a0, a1, a2
	srl	a0, a1, a2
case_sra:
	sra	a0, a1, a2
	or	a0, a1, a2
	and	a0, a1, a2
case_addiw:
	addiw	a0, a1, -1
	addiw	a0, a1, 0
	slliw	a0, a1, 31
	srliw	a0, a1, 3
case_sraiw:
	sraiw	a0, a1, 3
case_addw:
	addw	a0, a1, a2
case_subw:
	subw	a0, a1, a2
	subw	a0, zero, a2
	sllw	a0, a1, a2
	srlw	a0, a1, a2
	sraw	a0, a1, a2
# Degenerate operands, where objdump must choose between aliases
	.insn	4, 0x00004063	# blt zero, zero
	.insn	4, 0x00005063	# bge zero, zero
	.insn	4, 0x00002033	# slt zero, zero, zero
	.insn	4, 0x00003033	# sltu zero, zero, zero
	.insn	4, 0x40000033	# sub zero, zero, zero
# ---- FENCE (ch. 2.7), Zifencei (ch. 3), ECALL/EBREAK (ch. 2.8) ----
case_fence:
	fence	iorw, iorw
	fence	rw, rw
	fence	r, w
	fence	i, o
	fence.tso
case_pause:
	.insn	4, 0x0100000f	# fence w,0: Zihintpause "pause"
case_fence_i:
	fence.i
case_ecall:
	ecall
case_ebreak:
	ebreak
case_unimp:
	.insn	4, 0xc0001073	# csrrw zero, cycle, zero: "unimp"
# ---- M: ch. 7 ----
case_mul:
	mul	a0, a1, a2
	mulh	a0, a1, a2
	mulhsu	a0, a1, a2
	mulhu	a0, a1, a2
case_div:
	div	a0, a1, a2
	divu	a0, a1, a2
	rem	a0, a1, a2
	remu	a0, a1, a2
case_mulw:
	mulw	a0, a1, a2
	divw	a0, a1, a2
	divuw	a0, a1, a2
	remw	a0, a1, a2
case_remuw:
	remuw	a0, a1, a2
# ---- A: ch. 8 ----
case_lr_w:
	lr.w	a0, (a1)
	lr.d.aq	a0, (a1)
case_sc_d:
	sc.d	a0, a2, (a1)
	sc.w.rl	a0, a2, (a1)
	sc.w.aqrl a0, a2, (a1)
case_amoswap_w:
	amoswap.w	a0, a2, (a1)
	amoadd.w	a0, a2, (a1)
	amoxor.w.aq	a0, a2, (a1)
	amoand.w.rl	a0, a2, (a1)
	amoor.w.aqrl	a0, a2, (a1)
	amomin.w	a0, a2, (a1)
	amomax.w	a0, a2, (a1)
	amominu.w	a0, a2, (a1)
	amomaxu.w	a0, a2, (a1)
	amoswap.d	a0, a2, (a1)
case_amoadd_d:
	amoadd.d	zero, a2, (a1)
	amoxor.d	a0, a2, (a1)
	amoand.d	a0, a2, (a1)
	amoor.d		a0, a2, (a1)
	amomin.d	a0, a2, (a1)
	amomax.d	a0, a2, (a1)
	amominu.d	a0, a2, (a1)
case_amomaxu_d:
	amomaxu.d.aqrl	a0, a2, (a1)
# ---- Zicsr: ch. 9 ----
case_csrrw:
	csrrw	a0, sscratch, a1
case_csrrs:
	csrrs	a0, sstatus, zero
	csrrs	a0, sstatus, a1
case_csrrc:
	csrrc	a0, sie, a1
	csrrw	zero, stvec, a1
	csrrs	zero, sip, a1
	csrrc	zero, sip, a1
case_csrrwi:
	csrrwi	a0, sepc, 5
	csrrsi	a0, scause, 31
case_csrrci:
	csrrci	a0, stval, 1
	csrrwi	zero, satp, 0
	csrrsi	zero, sstatus, 2
	csrrci	zero, sstatus, 2
	csrrs	a0, scounteren, zero
	csrrw	a0, mstatus, a1
	csrrs	a0, misa, zero
	csrrw	zero, medeleg, a1
	csrrw	zero, mideleg, a1
	csrrs	zero, mie, a1
	csrrw	zero, mtvec, a1
	csrrw	zero, mcounteren, a1
	csrrw	a0, mscratch, a0
	csrrs	a0, mepc, zero
	csrrs	a0, mcause, zero
	csrrs	a0, mtval, zero
	csrrs	a0, mip, zero
	csrrs	a0, cycle, zero
	csrrs	a0, time, zero
	csrrs	a0, instret, zero
	csrrs	a0, cycle, a1
	csrrs	a0, mcycle, zero
	csrrs	a0, minstret, zero
	csrrs	a0, mhartid, zero
	csrrs	a0, fflags, zero
	csrrs	a0, frm, zero
	csrrs	a0, fcsr, zero
	csrrw	a0, fcsr, a1
	csrrw	zero, fcsr, a1
	csrrw	a0, frm, a1
	csrrw	zero, frm, a1
	csrrw	zero, fflags, a1
	csrrwi	zero, frm, 1
	csrrwi	a0, fflags, 1
	csrrwi	a0, frm, 2
	csrrwi	zero, fflags, 3
	csrrs	zero, fflags, zero
	csrrs	a0, vstart, zero
	csrrs	a0, vxsat, zero
	csrrs	a0, vxrm, zero
	csrrs	a0, vcsr, zero
	csrrs	a0, vl, zero
	csrrs	a0, vtype, zero
	csrrs	a0, vlenb, zero
case_csr_unknown:
	csrrs	a0, 0x7c0, zero
	csrrw	zero, 0x5c0, a1
# ---- Privileged: priv spec §3.3 (mret, wfi), §4.2 (sret, sfence.vma) ----
case_sret:
	sret
case_mret:
	mret
case_wfi:
	wfi
case_sfence_vma:
	sfence.vma
	sfence.vma	a0
case_sfence_vma_2:
	sfence.vma	a0, a1
# ---- F: ch. 11, D: ch. 12 ----
case_flw:
	flw	fa0, 4(a0)
case_fld:
	fld	fs0, -8(sp)
case_fsw:
	fsw	fa0, 4(a0)
case_fsd:
	fsd	ft11, 2040(sp)
case_fadd_s:
	fadd.s	fa0, fa1, fa2
	fadd.s	fa0, fa1, fa2, rtz
	fadd.s	fa0, fa1, fa2, rne
	fadd.s	fa0, fa1, fa2, rdn
	fadd.s	fa0, fa1, fa2, rup
	fadd.s	fa0, fa1, fa2, rmm
	fsub.s	fa0, fa1, fa2
	fmul.s	fa0, fa1, fa2
	fdiv.s	fa0, fa1, fa2
	fsqrt.s	fa0, fa1
	fsgnj.s	fa0, fa1, fa2
	fsgnjn.s fa0, fa1, fa2
	fsgnjx.s fa0, fa1, fa2
	fsgnj.s	fa0, fa1, fa1
	fsgnjn.s fa0, fa1, fa1
	fsgnjx.s fa0, fa1, fa1
	fmin.s	fa0, fa1, fa2
	fmax.s	fa0, fa1, fa2
	fcvt.w.s a0, fa1
	fcvt.w.s a0, fa1, rtz
	fcvt.wu.s a0, fa1
	fcvt.l.s a0, fa1
	fcvt.lu.s a0, fa1
	fcvt.s.w fa0, a1
	fcvt.s.wu fa0, a1
	fcvt.s.l fa0, a1
	fcvt.s.lu fa0, a1
case_fmv_x_w:
	fmv.x.w	a0, fa1
	fmv.w.x	fa0, a1
	feq.s	a0, fa1, fa2
	flt.s	a0, fa1, fa2
	fle.s	a0, fa1, fa2
	fclass.s a0, fa1
case_fmadd_s:
	fmadd.s	fa0, fa1, fa2, fa3
	fmsub.s	fa0, fa1, fa2, fa3
	fnmsub.s fa0, fa1, fa2, fa3
	fnmadd.s fa0, fa1, fa2, fa3, rup
case_fadd_d:
	fadd.d	ft0, ft1, ft2
	fsub.d	fa0, fa1, fa2
	fmul.d	fa0, fa1, fa2
	fdiv.d	fa0, fa1, fa2
	fsqrt.d	fa0, fa1
	fsgnj.d	fa0, fa1, fa2
	fsgnjn.d fa0, fa1, fa2
	fsgnjx.d fa0, fa1, fa2
	fmv.d	fa0, fa1
	fneg.d	fa0, fa1
	fabs.d	fa0, fa1
	fmin.d	fa0, fa1, fa2
	fmax.d	fa0, fa1, fa2
	fcvt.s.d fa0, fa1
	fcvt.d.s fa0, fa1
	fcvt.w.d a0, fa1
	fcvt.wu.d a0, fa1
	fcvt.l.d a0, fa1
	fcvt.lu.d a0, fa1, rtz
	fcvt.d.w fa0, a1
	fcvt.d.wu fa0, a1
	fcvt.d.l fa0, a1
	fcvt.d.lu fa0, a1
	fmv.x.d	a0, fa1
case_fmv_d_x:
	fmv.d.x	fa0, a1
	feq.d	a0, fa1, fa2
	flt.d	a0, fa1, fa2
	fle.d	a0, fa1, fa2
	fclass.d a0, fa1
	fmadd.d	fa0, fa1, fa2, fa3
	fmsub.d	fa0, fa1, fa2, fa3
	fnmsub.d fa0, fa1, fa2, fa3
	fnmadd.d fs11, ft10, ft9, ft8
# ---- V: only classified here (OP-V, and LOAD-FP/STORE-FP vector widths) ----
case_vsetvli:
	vsetvli	t0, a0, e32, m1, ta, ma
	vadd.vv	v1, v2, v3
	vle32.v	v1, (a0)
case_vse8:
	vse8.v	v1, (a0)
	vle64.v	v8, (a1)
	vfadd.vf v1, v2, fa0
fwd:
	nop
# ---- C: ch. 16 (RVC), quadrants 0-2 ----
	.option rvc
case_c_addi4spn:
	c.addi4spn a0, sp, 16
	c.addi4spn s1, sp, 1020
case_c_fld:
	c.fld	fa0, 8(a1)
	c.fld	fs1, 248(a5)
case_c_lw:
	c.lw	a0, 4(a1)
	c.lw	a5, 124(s0)
case_c_ld:
	c.ld	a0, 8(a1)
	c.ld	a2, 248(a3)
case_c_fsd:
	c.fsd	fa0, 8(a1)
case_c_sw:
	c.sw	a0, 4(a1)
case_c_sd:
	c.sd	a0, 248(a1)
case_c_nop:
	c.nop
case_c_addi:
	c.addi	sp, -16
	c.addi	a0, 31
	c.addi	a0, -32
case_c_addiw:
	c.addiw	a0, -1
	c.addiw	a0, 0
case_c_li:
	c.li	a0, 5
	c.li	a0, -32
	c.li	t6, 0
case_c_lui:
	c.lui	a0, 1
case_c_lui_neg:
	c.lui	a0, 0xfffe0
	c.lui	a0, 31
case_c_addi16sp:
	c.addi16sp sp, -32
	c.addi16sp sp, 496
	c.addi16sp sp, -512
case_c_srli:
	c.srli	a0, 3
	c.srli	a0, 63
case_c_srai:
	c.srai	a1, 32
case_c_andi:
	c.andi	a0, -1
	c.andi	a0, 15
case_c_sub:
	c.sub	a0, a1
	c.xor	a0, a1
	c.or	a0, a1
	c.and	a0, a1
case_c_subw:
	c.subw	a0, a1
case_c_addw:
	c.addw	s1, a5
case_c_j:
	c.j	cfwd
	c.j	case_c_j
	c.j	.+2046
	c.j	.-2048
case_c_beqz:
	c.beqz	a0, case_c_j
case_c_bnez:
	c.bnez	a5, cfwd
	c.beqz	s0, .+254
	c.bnez	s1, .-256
case_c_slli:
	c.slli	a0, 1
	c.slli	s11, 63
case_c_fldsp:
	c.fldsp	fa0, 8(sp)
	c.fldsp	ft11, 504(sp)
case_c_lwsp:
	c.lwsp	a0, 4(sp)
	c.lwsp	t6, 252(sp)
case_c_ldsp:
	c.ldsp	ra, 8(sp)
	c.ldsp	a0, 504(sp)
case_c_jr:
	c.jr	t0
case_c_ret:
	c.jr	ra
case_c_mv:
	c.mv	a0, a1
case_c_ebreak:
	c.ebreak
case_c_jalr:
	c.jalr	t1
	c.jalr	ra
case_c_jalr_t0:
	c.jalr	t0
case_c_add:
	c.add	a0, a1
case_c_fsdsp:
	c.fsdsp	fa0, 8(sp)
	c.fsdsp	fs11, 504(sp)
case_c_swsp:
	c.swsp	a0, 4(sp)
	c.swsp	t6, 252(sp)
case_c_sdsp:
	c.sdsp	ra, 8(sp)
	c.sdsp	a0, 504(sp)
cfwd:
	c.nop
# ---- C HINTs (§16.7, Table 16.3): legal, no architectural effect ----
case_c_hints:
	.insn	2, 0x0005	# c.nop 1
	.insn	2, 0x0501	# c.addi a0, 0
	.insn	2, 0x4005	# c.li zero, 1
	.insn	2, 0x6005	# c.lui zero, 1
	.insn	2, 0x0006	# c.slli zero, 1
	.insn	2, 0x0502	# c.slli a0, 0 (c.slli64)
	.insn	2, 0x8101	# c.srli a0, 0 (c.srli64)
	.insn	2, 0x8501	# c.srai a0, 0 (c.srai64)
	.insn	2, 0x802e	# c.mv zero, a1
	.insn	2, 0x902e	# c.add zero, a1
# ---- Compressed / 32-bit expansion pairs ----
pairs_begin:
	c.addi4spn a0, sp, 16;	.option norvc; addi a0, sp, 16;	.option rvc
	c.fld	fa0, 8(a1);	.option norvc; fld fa0, 8(a1);	.option rvc
	c.lw	a0, 124(a1);	.option norvc; lw a0, 124(a1);	.option rvc
	c.ld	a0, 248(a1);	.option norvc; ld a0, 248(a1);	.option rvc
	c.fsd	fa0, 8(a1);	.option norvc; fsd fa0, 8(a1);	.option rvc
	c.sw	a0, 4(a1);	.option norvc; sw a0, 4(a1);	.option rvc
	c.sd	a0, 8(a1);	.option norvc; sd a0, 8(a1);	.option rvc
	c.nop;			.option norvc; addi zero, zero, 0; .option rvc
	c.addi	a0, -32;	.option norvc; addi a0, a0, -32; .option rvc
	c.addiw	a0, 31;		.option norvc; addiw a0, a0, 31; .option rvc
	c.li	a0, -1;		.option norvc; addi a0, zero, -1; .option rvc
	c.lui	a0, 0xfffff;	.option norvc; lui a0, 0xfffff;	.option rvc
	c.lui	s0, 0x1f;	.option norvc; lui s0, 0x1f;	.option rvc
	c.addi16sp sp, -512;	.option norvc; addi sp, sp, -512; .option rvc
	c.srli	a0, 63;		.option norvc; srli a0, a0, 63;	.option rvc
	c.srai	a0, 1;		.option norvc; srai a0, a0, 1;	.option rvc
	c.andi	a0, -32;	.option norvc; andi a0, a0, -32; .option rvc
	c.sub	a0, a1;		.option norvc; sub a0, a0, a1;	.option rvc
	c.xor	a0, a1;		.option norvc; xor a0, a0, a1;	.option rvc
	c.or	a0, a1;		.option norvc; or a0, a0, a1;	.option rvc
	c.and	a0, a1;		.option norvc; and a0, a0, a1;	.option rvc
	c.subw	a0, a1;		.option norvc; subw a0, a0, a1;	.option rvc
	c.addw	a0, a1;		.option norvc; addw a0, a0, a1;	.option rvc
	c.j	.+2046;		.option norvc; jal zero, .+2046; .option rvc
	c.j	.-2048;		.option norvc; jal zero, .-2048; .option rvc
	c.beqz	a0, .-256;	.option norvc; beq a0, zero, .-256; .option rvc
	c.bnez	a0, .+254;	.option norvc; bne a0, zero, .+254; .option rvc
	c.slli	a0, 63;		.option norvc; slli a0, a0, 63;	.option rvc
	c.fldsp	fa0, 504(sp);	.option norvc; fld fa0, 504(sp); .option rvc
	c.lwsp	a0, 252(sp);	.option norvc; lw a0, 252(sp);	.option rvc
	c.ldsp	a0, 504(sp);	.option norvc; ld a0, 504(sp);	.option rvc
	c.jr	t0;		.option norvc; jalr zero, 0(t0); .option rvc
	c.mv	a0, a1;		.option norvc; add a0, zero, a1; .option rvc
	c.ebreak;		.option norvc; ebreak;		.option rvc
	c.jalr	t1;		.option norvc; jalr ra, 0(t1);	.option rvc
	c.add	a0, a1;		.option norvc; add a0, a0, a1;	.option rvc
	c.fsdsp	fa0, 504(sp);	.option norvc; fsd fa0, 504(sp); .option rvc
	c.swsp	a0, 252(sp);	.option norvc; sw a0, 252(sp);	.option rvc
	c.sdsp	a0, 504(sp);	.option norvc; sd a0, 504(sp);	.option rvc
pairs_end:
	c.nop
