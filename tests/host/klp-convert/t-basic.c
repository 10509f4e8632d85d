// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for a module after the final link: references to listed
 * (non-exported) vmlinux symbols mixed with references to exported ones,
 * in .text, .init.text and .data, plus the __versions and .modinfo that
 * modpost would have added.  Built with kernel-like flags (-mcmodel=kernel
 * -fno-pic), so the relocation types are the kernel's: PLT32 for calls,
 * PC32 for RIP-relative loads, 32S for absolute addresses, 64 in data.
 */
struct modversion_info {
	unsigned long crc;
	char name[64 - sizeof(unsigned long)];
};

extern void hidden_fn(int x);		/* listed, a function */
extern int hidden_var;			/* listed, data */
extern void dup_fn(void);		/* listed with a sympos */
extern void exp_fn(int x);		/* exported */
extern int exp_var;			/* exported */
extern void weak_fn(void) __attribute__((weak));	/* neither: weak is fine */

/* R_X86_64_64 in .data, mixed. */
int *table[] = { &exp_var, &hidden_var, &exp_var };
/* Takes a listed function's address: the tool warns about IBT. */
void (*fnptr)(int) = hidden_fn;

int f1(int x)
{
	exp_fn(x);
	hidden_fn(x);
	dup_fn();
	exp_fn(hidden_var);
	return exp_var + hidden_var;
}

unsigned long f2(void)
{
	return (unsigned long)&hidden_var;	/* R_X86_64_32S */
}

void f3(void)
{
	if (weak_fn)
		weak_fn();
}

__attribute__((section(".init.text"))) int init_fn(void)
{
	hidden_fn(1);
	exp_fn(2);
	return 0;
}

/* What modpost writes; the CRC 0 entries came from the private symvers. */
static const struct modversion_info versions[]
__attribute__((used, section("__versions"), aligned(8))) = {
	{ 0x11111111, "exp_fn" },
	{ 0, "hidden_fn" },
	{ 0x22222222, "exp_var" },
	{ 0, "hidden_var" },
	{ 0, "dup_fn" },
	{ 0x33333333, "module_layout" },
};

static const char modinfo[] __attribute__((used, section(".modinfo"))) =
	"license=GPL\0name=t_basic\0livepatch=Y";

/* Debug-like, not loaded: a reference there is left alone. */
__asm__(".pushsection .comment.klp_test, \"\", @progbits\n"
	".quad hidden_var\n"
	".popsection\n");
