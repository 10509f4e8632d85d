// SPDX-License-Identifier: GPL-2.0
/*
 * knobs.c - debugfs knobs with one strict parser for all of them.
 *
 * A knob is a 0600 file holding one unsigned decimal.  A write must be the
 * whole value in one write(2) at offset 0: digits only, optionally followed
 * by one newline, no sign, no base prefix, no spaces.  Anything else fails
 * with EINVAL (ERANGE past 64 bits) and leaves
 * the value unchanged.  simple_attr would accept "0x1", "+1" or " 1";
 * people scripting knobs deserve to learn about their typo instead.
 * Writes to one knob are serialised by its own mutex, so a knob's setter
 * sees one writer at a time.
 */
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/uaccess.h>

#include "internal.h"

/* Longest accepted write: 20 digits of U64_MAX and a newline. */
#define FT_KNOB_MAX_WRITE	21

static ssize_t ft_knob_read(struct file *file, char __user *buf,
				   size_t count, loff_t *ppos)
{
	struct ft_knob *knob = file->private_data;
	char tmp[FT_KNOB_MAX_WRITE + 2];
	int len;

	len = scnprintf(tmp, sizeof(tmp), "%llu\n", knob->get(knob));
	return simple_read_from_buffer(buf, count, ppos, tmp, len);
}

int foliotune_knob_parse(const char *s, size_t len, u64 *val)
{
	char tmp[FT_KNOB_MAX_WRITE + 1];
	size_t i;

	if (len && s[len - 1] == '\n')
		len--;
	if (!len || len > FT_KNOB_MAX_WRITE - 1)
		return len ? -ERANGE : -EINVAL;
	for (i = 0; i < len; i++)
		if (!isdigit(s[i]))
			return -EINVAL;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	return kstrtou64(tmp, 10, val);
}

static ssize_t ft_knob_write(struct file *file, const char __user *buf,
				    size_t count, loff_t *ppos)
{
	struct ft_knob *knob = file->private_data;
	char tmp[FT_KNOB_MAX_WRITE];
	u64 val;
	int ret;

	if (*ppos)
		return -EINVAL;		/* no partial or continued writes */
	if (count > sizeof(tmp))
		return -EINVAL;
	if (copy_from_user(tmp, buf, count))
		return -EFAULT;
	ret = foliotune_knob_parse(tmp, count, &val);
	if (ret)
		return ret;
	if (val < knob->min || val > knob->max)
		return -EINVAL;

	mutex_lock(&knob->lock);
	ret = knob->set(knob, val);
	mutex_unlock(&knob->lock);
	if (ret)
		return ret;
	*ppos = count;
	return count;
}

static const struct file_operations ft_knob_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = ft_knob_read,
	.write = ft_knob_write,
	.llseek = default_llseek,
};

#define FT_KNOB_ENTRY(name, ...)					\
	[FT_KNOB_##name] = &foliotune_knob_##name,
static struct ft_knob *const ft_knobs[FT_NR_KNOBS] = {
	FOLIOTUNE_KNOBS(FT_KNOB_ENTRY)
};
#undef FT_KNOB_ENTRY

static const char *const ft_knob_names[FT_NR_KNOBS] = {
	FOLIOTUNE_KNOBS(FOLIOTUNE_NAME_STRING)
};

/* One file per knob of the header, named as the header spells it. */
void foliotune_knobs_debugfs_init(struct dentry *dir)
{
	int i;

	for (i = 0; i < FT_NR_KNOBS; i++) {
		mutex_init(&ft_knobs[i]->lock);
		debugfs_create_file(ft_knob_names[i], 0600, dir, ft_knobs[i],
				    &ft_knob_fops);
	}
}
