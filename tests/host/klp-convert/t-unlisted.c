// SPDX-License-Identifier: GPL-2.0
/* An undefined symbol that is neither exported nor listed: refused. */
extern void secret_fn(void);
extern void exp_fn(int x);

void g(void)
{
	exp_fn(1);
	secret_fn();
}
