// SPDX-License-Identifier: GPL-2.0
/* A listed symbol reached through the GOT: an unsupported relocation. */
unsigned long g(void)
{
	unsigned long v;

	__asm__("movq hidden_var@GOTPCREL(%%rip), %0" : "=r" (v));
	return v;
}
