// SPDX-License-Identifier: GPL-2.0
/* A listed symbol referenced from __jump_table: must be refused. */
extern int hidden_var;

int g(void)
{
	return hidden_var;
}

__asm__(".pushsection __jump_table, \"aw\"\n"
	".balign 8\n"
	".long 0, 0\n"
	".quad hidden_var - .\n"
	".popsection\n");
