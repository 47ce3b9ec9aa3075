/*
 * cfi.c - the unwind rule of one code address, read from its module's
 * .eh_frame: the address is found with _dl_find_object (lock-free,
 * async-signal-safe, no allocation), its FDE by binary search in
 * .eh_frame_hdr, and the CIE's and FDE's call frame instructions are run up
 * to the address.
 *
 * lk_cfi_row_at() gives the whole row: the CFA rule and where each of the
 * 17 registers of the caller is, DWARF expressions included (left for the
 * careful unwinder to evaluate), and whether the CIE marks a signal frame.
 * lk_cfi_rule_at() reduces it to the rule of a "standard" frame, which the
 * fast unwinder caches: CFA = %rsp or %rbp + offset, return address at
 * CFA - 8, %rbp unchanged or saved at CFA + offset, %rsp = CFA. Any other
 * row is LK_CFI_SLOW: that stack goes to the careful unwinder.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

#include "preload/cfi.h"

/* A bounded reader over one CIE or FDE; errors make ok 0. */
struct rd {
	const uint8_t *p, *end;
	int ok;
};

static uint64_t rd_u(struct rd *r, int size)
{
	uint64_t v = 0;
	if (r->end - r->p < size) {
		r->ok = 0;
		return 0;
	}
	memcpy(&v, r->p, (size_t)size); /* x86-64: little endian */
	r->p += size;
	return v;
}

static void rd_skip(struct rd *r, uint64_t n)
{
	if (n > (uint64_t)(r->end - r->p))
		r->ok = 0;
	else
		r->p += n;
}

static uint64_t rd_uleb(struct rd *r)
{
	uint64_t v = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		if (r->p >= r->end)
			break;
		uint8_t b = *r->p++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	r->ok = 0;
	return 0;
}

static int64_t rd_sleb(struct rd *r)
{
	uint64_t v = 0;
	int shift = 0;
	while (shift < 64 && r->p < r->end) {
		uint8_t b = *r->p++;
		v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				v |= ~(uint64_t)0 << shift;
			return (int64_t)v;
		}
	}
	r->ok = 0;
	return 0;
}

/* A pointer in DW_EH_PE encoding `enc`; pcrel is applied unless `raw`. */
static uint64_t rd_ptr(struct rd *r, uint8_t enc, int raw)
{
	uintptr_t at = (uintptr_t)r->p;
	uint64_t v;
	switch (enc & 0x0f) {
	case 0x00: v = rd_u(r, 8); break;                      /* absptr */
	case 0x03: v = rd_u(r, 4); break;                      /* udata4 */
	case 0x04: v = rd_u(r, 8); break;                      /* udata8 */
	case 0x0b: v = (uint64_t)(int64_t)(int32_t)rd_u(r, 4); break; /* sdata4 */
	case 0x0c: v = rd_u(r, 8); break;                      /* sdata8 */
	default: r->ok = 0; return 0;
	}
	if (raw || (enc & 0x70) == 0)
		return v;
	if ((enc & 0x70) == 0x10 && !(enc & 0x80))
		return v + at;
	r->ok = 0;
	return 0;
}

struct cie {
	uint64_t code_align;
	int64_t data_align;
	uint8_t fde_enc;
	uint8_t signal_frame;
	int has_z;
	struct rd insns;
};

static int parse_augmentation(const char *aug, struct rd *a, struct cie *c)
{
	for (const char *s = aug + 1; *s; s++) {
		if (*s == 'R')
			c->fde_enc = (uint8_t)rd_u(a, 1);
		else if (*s == 'L')
			rd_u(a, 1);
		else if (*s == 'P')
			rd_ptr(a, (uint8_t)rd_u(a, 1) & 0x7f, 1);
		else if (*s == 'S')
			c->signal_frame = 1;
		else
			return -1;
	}
	return a->ok ? 0 : -1;
}

static int parse_cie(const uint8_t *at, struct cie *c)
{
	uint32_t len;
	memcpy(&len, at, 4);
	if (len == 0 || len == 0xffffffffu)
		return -1;
	struct rd r = {at + 4, at + 4 + len, 1};
	if (rd_u(&r, 4) != 0)
		return -1;
	uint64_t version = rd_u(&r, 1);
	const char *aug = (const char *)r.p;
	size_t alen = strnlen(aug, (size_t)(r.end - r.p));
	if (alen == (size_t)(r.end - r.p) || (version != 1 && version != 3))
		return -1;
	r.p += alen + 1;
	c->code_align = rd_uleb(&r);
	c->data_align = rd_sleb(&r);
	uint64_t ra = version == 1 ? rd_u(&r, 1) : rd_uleb(&r);
	c->fde_enc = 0;
	c->signal_frame = 0;
	c->has_z = aug[0] == 'z';
	if (ra != LK_REG_RA)
		return -1;
	if (c->has_z) {
		uint64_t n = rd_uleb(&r);
		if (!r.ok || n > (uint64_t)(r.end - r.p))
			return -1;
		struct rd a = {r.p, r.p + n, 1};
		if (parse_augmentation(aug, &a, c) != 0)
			return -1;
		r.p += n;
	} else if (aug[0]) {
		return -1;
	}
	c->insns = r;
	return r.ok ? 0 : -1;
}

static void set_reg(struct lk_cfi_row *row, uint64_t reg, uint8_t where, int64_t v)
{
	if (reg < LK_REGS)
		row->reg[reg] = (struct lk_cfi_reg){.v = v, .where = where};
}

/* A DWARF expression of the instruction stream, or 0 when it is too long. */
static int take_expr(struct rd *r, const uint8_t **expr, uint16_t *len)
{
	uint64_t n = rd_uleb(r);
	*expr = r->p;
	rd_skip(r, n);
	*len = (uint16_t)n;
	return r->ok && n <= UINT16_MAX;
}

static void set_expr(struct rd *r, struct lk_cfi_row *row, uint8_t where)
{
	uint64_t reg = rd_uleb(r);
	const uint8_t *expr;
	uint16_t len;
	if (take_expr(r, &expr, &len) && reg < LK_REGS)
		row->reg[reg] = (struct lk_cfi_reg){.expr = expr, .len = len, .where = where};
	else if (reg < LK_REGS)
		r->ok = 0;
}

static void restore_reg(struct lk_cfi_row *row, const struct lk_cfi_row *init, uint64_t reg)
{
	if (reg < LK_REGS)
		row->reg[reg] = init->reg[reg];
}

#define STATE_DEPTH 4

/* Run instructions until the row covering pc; *loc is the row's start.
 * `init` is the CIE's row (for DW_CFA_restore), NULL while running it.
 * Returns 1 when pc was reached, 0 at the end, -1 on what we do not handle. */
static int run(struct rd *r, const struct cie *c, struct lk_cfi_row *row,
	       const struct lk_cfi_row *init, uint64_t *loc, uint64_t pc)
{
	struct lk_cfi_row saved[STATE_DEPTH];
	int depth = 0;
	while (r->p < r->end && r->ok) {
		uint8_t op = *r->p++;
		uint64_t reg, delta = 0;
		switch (op & 0xc0) {
		case 0x40: delta = (op & 0x3f) * c->code_align; goto advance;
		case 0x80:
			set_reg(row, op & 0x3f, LK_CFI_OFFSET, (int64_t)rd_uleb(r) * c->data_align);
			continue;
		case 0xc0:
			if (!init)
				return -1;
			restore_reg(row, init, op & 0x3f);
			continue;
		}
		switch (op) {
		case 0x00: continue;                                  /* nop */
		case 0x01:                                            /* set_loc */
			if (!init)
				return -1;
			reg = rd_ptr(r, c->fde_enc, 0);
			if (reg < *loc)
				return -1;
			delta = reg - *loc;
			goto advance;
		case 0x02: delta = rd_u(r, 1) * c->code_align; goto advance;
		case 0x03: delta = rd_u(r, 2) * c->code_align; goto advance;
		case 0x04: delta = rd_u(r, 4) * c->code_align; goto advance;
		case 0x05:                                            /* offset_extended */
			reg = rd_uleb(r);
			set_reg(row, reg, LK_CFI_OFFSET, (int64_t)rd_uleb(r) * c->data_align);
			continue;
		case 0x06:                                            /* restore_extended */
			reg = rd_uleb(r);
			if (!init)
				return -1;
			restore_reg(row, init, reg);
			continue;
		case 0x07: set_reg(row, rd_uleb(r), LK_CFI_UNDEF, 0); continue;
		case 0x08: set_reg(row, rd_uleb(r), LK_CFI_SAME, 0); continue;
		case 0x09:                                            /* register */
			reg = rd_uleb(r);
			set_reg(row, reg, LK_CFI_REGISTER, (int64_t)rd_uleb(r));
			continue;
		case 0x0a:
			if (depth == STATE_DEPTH)
				return -1;
			saved[depth++] = *row;
			continue;
		case 0x0b:
			if (depth == 0)
				return -1;
			*row = saved[--depth]; /* the CFA rule too, as GCC expects */
			continue;
		case 0x0c:
			row->cfa_reg = (int)rd_uleb(r);
			row->cfa_off = (int64_t)rd_uleb(r);
			row->cfa_expr = NULL;
			continue;
		case 0x0d: row->cfa_reg = (int)rd_uleb(r); row->cfa_expr = NULL; continue;
		case 0x0e: row->cfa_off = (int64_t)rd_uleb(r); continue;
		case 0x0f:                                            /* def_cfa_expression */
			if (!take_expr(r, &row->cfa_expr, &row->cfa_len))
				return -1;
			continue;
		case 0x10: set_expr(r, row, LK_CFI_EXPR); continue;    /* expression */
		case 0x16: set_expr(r, row, LK_CFI_VAL_EXPR); continue;/* val_expression */
		case 0x11:                                            /* offset_extended_sf */
			reg = rd_uleb(r);
			set_reg(row, reg, LK_CFI_OFFSET, rd_sleb(r) * c->data_align);
			continue;
		case 0x12:                                            /* def_cfa_sf */
			row->cfa_reg = (int)rd_uleb(r);
			row->cfa_off = rd_sleb(r) * c->data_align;
			row->cfa_expr = NULL;
			continue;
		case 0x13: row->cfa_off = rd_sleb(r) * c->data_align; continue;
		case 0x14:                                            /* val_offset */
			reg = rd_uleb(r);
			set_reg(row, reg, LK_CFI_VAL_OFFSET, (int64_t)rd_uleb(r) * c->data_align);
			continue;
		case 0x15:                                            /* val_offset_sf */
			reg = rd_uleb(r);
			set_reg(row, reg, LK_CFI_VAL_OFFSET, rd_sleb(r) * c->data_align);
			continue;
		case 0x2e: rd_uleb(r); continue;                      /* GNU_args_size */
		case 0x2f:                                  /* GNU_negative_offset_extended */
			reg = rd_uleb(r);
			set_reg(row, reg, LK_CFI_OFFSET, -(int64_t)rd_uleb(r) * c->data_align);
			continue;
		default: return -1;
		}
	advance:
		if (!init)
			return -1; /* a CIE does not advance */
		if (*loc + delta > pc)
			return 1;
		*loc += delta;
	}
	return r->ok ? 0 : -1;
}

/* The FDE for pc through the module's .eh_frame_hdr, or NULL. */
static const uint8_t *find_fde(const uint8_t *hdr, uintptr_t pc)
{
	/* version 1; eh_frame_ptr any; count udata4; table datarel sdata4 */
	if (hdr[0] != 1 || hdr[2] != 0x03 || hdr[3] != 0x3b)
		return NULL;
	struct rd r = {hdr + 4, hdr + 4 + 16, 1};
	rd_ptr(&r, hdr[1], 0);
	uint32_t count = (uint32_t)rd_u(&r, 4);
	if (!r.ok || count == 0)
		return NULL;
	const int32_t *table = (const int32_t *)(const void *)r.p;
	intptr_t base = (intptr_t)hdr, target = (intptr_t)pc;
	uint32_t lo = 0, hi = count; /* find the last entry <= pc */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (base + table[2 * mid] <= target)
			lo = mid;
		else
			hi = mid;
	}
	if (base + table[2 * lo] > target)
		return NULL;
	return (const uint8_t *)(base + table[2 * lo + 1]);
}

/* The row of the FDE at `fde` for pc: 0; -1 if pc is outside it, -2 if
 * it cannot be read. */
static int fde_row(const uint8_t *fde, uintptr_t pc, struct lk_cfi_row *row)
{
	uint32_t len, cie_off;
	memcpy(&len, fde, 4);
	if (len == 0 || len == 0xffffffffu)
		return -2;
	struct rd r = {fde + 4, fde + 4 + len, 1};
	cie_off = (uint32_t)rd_u(&r, 4);
	if (cie_off == 0)
		return -2;
	struct cie c;
	if (parse_cie(fde + 4 - cie_off, &c) != 0)
		return -2;
	uint64_t start = rd_ptr(&r, c.fde_enc, 0);
	uint64_t range = rd_ptr(&r, c.fde_enc & 0x0f, 1);
	if (!r.ok)
		return -2;
	if (pc < start || pc - start >= range)
		return -1;
	if (c.has_z)
		rd_skip(&r, rd_uleb(&r));
	memset(row, 0, sizeof(*row)); /* every register LK_CFI_SAME */
	row->cfa_reg = LK_REG_RSP;
	row->cfa_off = 8;
	row->signal_frame = c.signal_frame;
	uint64_t loc = start;
	if (run(&c.insns, &c, row, NULL, &loc, pc) != 0)
		return -2;
	struct lk_cfi_row init = *row;
	return run(&r, &c, row, &init, &loc, pc) < 0 ? -2 : 0;
}

LK_HIDDEN int lk_cfi_row_at(uintptr_t pc, struct lk_cfi_row *row)
{
	struct dl_find_object obj;
	if (_dl_find_object((void *)pc, &obj) != 0 || !obj.dlfo_eh_frame)
		return -1;
	const uint8_t *fde = find_fde(obj.dlfo_eh_frame, pc);
	return fde ? fde_row(fde, pc, row) : -1;
}

/* The row as a fast rule, or LK_CFI_SLOW. */
static struct lk_cfi_rule to_rule(const struct lk_cfi_row *row)
{
	struct lk_cfi_rule slow = {.flags = LK_CFI_SLOW}, rule = {0};
	const struct lk_cfi_reg *ra = &row->reg[LK_REG_RA], *rbp = &row->reg[LK_REG_RBP];
	const struct lk_cfi_reg *rsp = &row->reg[LK_REG_RSP];
	if (row->signal_frame)
		return slow;
	if (ra->where == LK_CFI_UNDEF) /* the outermost frame */
		return (struct lk_cfi_rule){.flags = LK_CFI_LAST};
	if (row->cfa_expr || (row->cfa_reg != LK_REG_RSP && row->cfa_reg != LK_REG_RBP) ||
	    row->cfa_off <= -(1 << 29) || row->cfa_off >= (1 << 29))
		return slow;
	if (ra->where != LK_CFI_OFFSET || ra->v != -8)
		return slow;
	if (rsp->where != LK_CFI_SAME && rsp->where != LK_CFI_UNDEF)
		return slow;
	if (rbp->where == LK_CFI_OFFSET) {
		if (rbp->v <= -(1 << 14) || rbp->v >= (1 << 14) || rbp->v == 0)
			return slow;
		rule.rbp_off = (int16_t)rbp->v;
	} else if (rbp->where != LK_CFI_SAME && rbp->where != LK_CFI_UNDEF) {
		return slow;
	}
	rule.cfa_off = (int32_t)row->cfa_off;
	rule.flags = row->cfa_reg == LK_REG_RBP ? LK_CFI_RBP_BASED : 0;
	return rule;
}

LK_HIDDEN struct lk_cfi_rule lk_cfi_rule_at(uintptr_t pc)
{
	struct lk_cfi_row row;
	int rc = lk_cfi_row_at(pc, &row);
	if (rc != 0)
		return (struct lk_cfi_rule){.flags = rc == -1 ? LK_CFI_NO_FDE : LK_CFI_SLOW};
	return to_rule(&row);
}
