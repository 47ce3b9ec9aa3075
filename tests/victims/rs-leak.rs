// rs-leak: a Rust program that leaks 1,000 bytes from a free function and
// 480 bytes from a method of a generic type (std's System allocator, i.e.
// malloc), then clears the stack it used so that no stale copy of either
// pointer is left behind. The names come out demangled: rs_leak::make_table,
// rs_leak::Pool<T>::grow.
use std::mem;

pub struct Pool<T> {
    items: Vec<T>,
}

impl<T: Clone> Pool<T> {
    #[inline(never)]
    pub fn grow(&mut self, n: usize) {
        self.items.reserve_exact(n); // LINE:rs-grow
    }
}

#[inline(never)]
fn make_table(n: usize) -> Vec<u64> {
    vec![7u64; n] // LINE:rs-table
}

#[inline(never)]
fn leak_both() {
    let t = make_table(125);
    mem::forget(t);
    let mut p: Pool<[u8; 48]> = Pool { items: Vec::new() };
    p.grow(10);
    mem::forget(p);
}

#[inline(never)]
fn clear_stack() {
    let buf = [0u8; 16384];
    unsafe { std::ptr::read_volatile(&buf[16383]) };
}

fn main() {
    leak_both();
    clear_stack();
    println!("leaked");
}
