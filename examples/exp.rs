use unicorn_engine::unicorn_const::{Arch, Mode, Permission, HookType};
use unicorn_engine::{RegisterRISCV as R, Unicorn};
fn main() {
    let elf = std::fs::read("/tmp/exp/t.elf").unwrap();
    let f = object::File::parse(&*elf).unwrap();
    use object::{Object, ObjectSection};
    let text = f.section_by_name(".text").unwrap().data().unwrap().to_vec();
    let mut uc = Unicorn::new(Arch::RISCV, Mode::RISCV64).unwrap();
    uc.mem_map(0x8000_0000, 0x10000, Permission::ALL).unwrap();
    uc.mem_map(0x1000, 0x1000, Permission::ALL).unwrap();
    uc.mem_write(0x8000_0000, &text).unwrap();
    uc.add_intr_hook(|uc, intno| {
        let pc = uc.reg_read(R::PC).unwrap();
        let p = uc.reg_read(R::PRIV).unwrap();
        println!("INTR {intno} pc={pc:#x} priv={p}");
        if intno == 8 || intno==4 || intno==2 || intno==6 || intno==5 { /* continue at pc */ }
    }).unwrap();
    uc.add_block_hook(1,0, |uc, addr, size| {
        println!("BLOCK {addr:#x} size {size}");
        let _ = uc;
    }).unwrap();
    let stopat = std::env::args().nth(1).map(|s| u64::from_str_radix(&s,16).unwrap());
    if let Some(a) = stopat { uc.add_code_hook(a, a, |uc, addr, _| { println!("CODE stop at {addr:#x}"); uc.emu_stop().unwrap(); }).unwrap(); }
    let _ = HookType::CODE;
    let mut pc = 0x8000_0000u64;
    for i in 0..12 {
        let r = uc.emu_start(pc, 0xffff_ffff_ffff_fff0, 0, if stopat.is_some() {0} else {3});
        let npc = uc.reg_read(R::PC).unwrap();
        println!("run {i}: {r:?} -> pc={npc:#x} a0={:#x} a3={} ms={:#x}", uc.reg_read(R::A0).unwrap(), uc.reg_read(R::A3).unwrap(), uc.reg_read(R::MSTATUS).unwrap());
        pc = npc;
        if r.is_err() { pc += 4; }
        if npc == 0x8000_0030 && r.is_err() { }
    }
}
