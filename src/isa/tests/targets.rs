//! Jump and branch targets by name, and auipc pairs, on encodings and
//! addresses GNU objdump printed for the minikernel (its `<sym+off>` form is
//! what `disasm_named` is given here as the name).

use crate::isa::{decode_word, disasm_named, jump_target, pair_target};

fn named(raw: u32, pc: u64, target: u64, name: &str) -> String {
    let i = decode_word(raw).unwrap();
    disasm_named(&i, pc, |a| (a == target).then(|| name.to_string()))
}

#[test]
fn jumps_and_branches_print_their_target_by_name() {
    // 80200490: 034000ef  jal 802004c4 <syscall_enter_from_user_mode>
    let jal = decode_word(0x0340_00ef).unwrap();
    assert_eq!(jump_target(&jal, 0x8020_0490), Some(0x8020_04c4));
    assert_eq!(
        named(
            0x0340_00ef,
            0x8020_0490,
            0x8020_04c4,
            "syscall_enter_from_user_mode"
        ),
        "jal syscall_enter_from_user_mode"
    );
    // 8020018a: e411  bnez s0, 80200196 <ret_from_exception+0x12> (RVC)
    assert_eq!(
        named(0xe411, 0x8020_018a, 0x8020_0196, "ret_from_exception+0x12"),
        "bnez s0, ret_from_exception+0x12"
    );
    // 80200498: 00a7ec63  bltu a5, a0, 802004b0 <do_trap_ecall_u+0x4a>
    assert_eq!(
        named(
            0x00a7_ec63,
            0x8020_0498,
            0x8020_04b0,
            "do_trap_ecall_u+0x4a"
        ),
        "bltu a5, a0, do_trap_ecall_u+0x4a"
    );
    // No name known: the address stays.
    assert_eq!(named(0xe411, 0x8020_018a, 0, "x"), "bnez s0, 0x80200196");
    // Not a pc-relative jump: no target, text unchanged.
    let ret = decode_word(0x8082).unwrap();
    assert_eq!(jump_target(&ret, 0x1000), None);
    assert_eq!(named(0x8082, 0x1000, 0x1000, "x"), "ret");
}

#[test]
fn an_auipc_and_the_instruction_using_its_register_form_an_address() {
    // 8020049e: 00002797  auipc a5, 0x2
    // 802004a2: 02a78793  addi a5, a5, 42 # 802024c8 <sys_call_table>
    let auipc = decode_word(0x0000_2797).unwrap();
    let addi = decode_word(0x02a7_8793).unwrap();
    assert_eq!(pair_target(&auipc, 0x8020_049e, &addi), Some(0x8020_24c8));
    // 8020018e: 00823823  sd s0, 16(tp): its base is not the auipc's rd.
    let sd = decode_word(0x0082_3823).unwrap();
    assert_eq!(pair_target(&auipc, 0x8020_049e, &sd), None);
    // The addi alone, after something that is not an auipc.
    assert_eq!(pair_target(&sd, 0x8020_049e, &addi), None);
}
