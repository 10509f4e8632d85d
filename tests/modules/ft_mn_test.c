// SPDX-License-Identifier: GPL-2.0
/*
 * ft_mn_test - test-only module: a secondary MMU for foliotune's tests
 * (tests/guest/test-mmu-notifier.sh).  Every open() of
 * /sys/kernel/debug/ft_mn_test/notifier registers one mmu_notifier on the
 * opener's mm; its release unregisters it.  The notifier's young
 * callbacks count their calls, record each call's range and answer, and
 * answer "young" for the pages the test marked, as a secondary MMU that
 * used them would: clear_flush_young and clear_young clear the mark of
 * every page of their range (an accessed bit, cleared), test_young leaves
 * it.
 *
 * Commands, one per write():
 *   young ADDR NR   mark NR pages from ADDR (page aligned, hex) young;
 *                   at most FT_MN_MARKS marks of FT_MN_MARK_PAGES pages
 *   reset           forget the marks, the counts and the records
 * Invalid input fails with an errno and changes nothing.
 *
 * A read gives the counts, then one line per recorded call (the first
 * FT_MN_RECORDS since the open or the last reset; the rest are counted
 * as dropped):
 *   calls CLEAR_FLUSH_YOUNG CLEAR_YOUNG TEST_YOUNG
 *   young N                    calls that answered young
 *   dropped N
 *   cfy|cy|ty START END YOUNG  (hex START and END, END exclusive)
 *
 * An open file holds a reference on the module, so it cannot go while a
 * notifier is registered.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/debugfs.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define FT_MN_MARKS		16
#define FT_MN_MARK_PAGES	4096
/* MGLRU's aging asks about every PTE of the mm: 8192 records overflowed once */
#define FT_MN_RECORDS		32768

/*
 * The young callbacks return int on 6.x kernels and bool on 7.x ones:
 * take the type the kernel's own ops declare.
 */
#define FT_MN_YOUNG_T \
	typeof(((struct mmu_notifier_ops *)NULL)->clear_young(NULL, NULL, 0, 0))

enum ft_mn_op { FT_MN_CFY, FT_MN_CY, FT_MN_TY, FT_MN_OPS };

static const char * const ft_mn_op_names[FT_MN_OPS] = { "cfy", "cy", "ty" };

struct ft_mn_mark {
	unsigned long start;
	unsigned int nr;
	unsigned long *young;	/* one bit per page, set: reads young */
};

struct ft_mn_rec {
	unsigned long start, end;
	u8 op;
	bool young;
};

struct ft_mn {
	struct mmu_notifier sub;
	struct mm_struct *mm;
	spinlock_t lock;	/* everything below; taken under the PTL */
	struct ft_mn_mark marks[FT_MN_MARKS];
	unsigned int nr_marks;
	unsigned long calls[FT_MN_OPS];
	unsigned long young, dropped;
	unsigned int nr;
	struct ft_mn_rec *rec;
};

static struct dentry *ft_mn_dir;

/*
 * Whether a page of [start, end) is marked young; @clear: unmark every
 * page of the range.  Lock held.
 */
static bool ft_mn_young(struct ft_mn *mn, unsigned long start,
			unsigned long end, bool clear)
{
	bool young = false;
	unsigned int i;

	for (i = 0; i < mn->nr_marks; i++) {
		struct ft_mn_mark *m = &mn->marks[i];
		unsigned long s = max(start, m->start);
		unsigned long e = min(end, m->start + m->nr * PAGE_SIZE);
		unsigned long first, last;

		if (s >= e)
			continue;
		first = (s - m->start) >> PAGE_SHIFT;
		last = DIV_ROUND_UP(e - m->start, PAGE_SIZE);
		if (find_next_bit(m->young, last, first) >= last)
			continue;
		young = true;
		if (clear)
			bitmap_clear(m->young, first, last - first);
	}
	return young;
}

/* One callback: count it, record it, answer it. */
static bool ft_mn_call(struct mmu_notifier *sub, enum ft_mn_op op,
		       unsigned long start, unsigned long end)
{
	struct ft_mn *mn = container_of(sub, struct ft_mn, sub);
	bool young;

	spin_lock(&mn->lock);
	young = ft_mn_young(mn, start, end, op != FT_MN_TY);
	mn->calls[op]++;
	if (young)
		mn->young++;
	if (mn->nr < FT_MN_RECORDS) {
		mn->rec[mn->nr].start = start;
		mn->rec[mn->nr].end = end;
		mn->rec[mn->nr].op = op;
		mn->rec[mn->nr].young = young;
		mn->nr++;
	} else {
		mn->dropped++;
	}
	spin_unlock(&mn->lock);
	return young;
}

static FT_MN_YOUNG_T ft_mn_clear_flush_young(struct mmu_notifier *sub,
					     struct mm_struct *mm,
					     unsigned long start,
					     unsigned long end)
{
	return ft_mn_call(sub, FT_MN_CFY, start, end);
}

static FT_MN_YOUNG_T ft_mn_clear_young(struct mmu_notifier *sub,
				       struct mm_struct *mm,
				       unsigned long start, unsigned long end)
{
	return ft_mn_call(sub, FT_MN_CY, start, end);
}

static FT_MN_YOUNG_T ft_mn_test_young(struct mmu_notifier *sub,
				      struct mm_struct *mm,
				      unsigned long address)
{
	return ft_mn_call(sub, FT_MN_TY, address, address + PAGE_SIZE);
}

static const struct mmu_notifier_ops ft_mn_ops = {
	.clear_flush_young = ft_mn_clear_flush_young,
	.clear_young = ft_mn_clear_young,
	.test_young = ft_mn_test_young,
};

/* ---- the file: one notifier per open ---- */

static void *ft_mn_seq_at(struct seq_file *s, loff_t pos)
{
	struct ft_mn *mn = s->private;
	unsigned int nr;

	if (pos == 0)
		return SEQ_START_TOKEN;
	spin_lock(&mn->lock);
	nr = mn->nr;
	spin_unlock(&mn->lock);
	/* record pos - 1, as a token that is neither NULL nor the header's */
	return pos <= nr ? (void *)(uintptr_t)(pos + 1) : NULL;
}

static void *ft_mn_seq_start(struct seq_file *s, loff_t *pos)
{
	return ft_mn_seq_at(s, *pos);
}

static void *ft_mn_seq_next(struct seq_file *s, void *v, loff_t *pos)
{
	return ft_mn_seq_at(s, ++*pos);
}

static void ft_mn_seq_stop(struct seq_file *s, void *v)
{
}

static int ft_mn_seq_show(struct seq_file *s, void *v)
{
	struct ft_mn *mn = s->private;
	unsigned long calls[FT_MN_OPS], young, dropped;
	unsigned int i = (uintptr_t)v - 2;
	struct ft_mn_rec rec;
	bool have;

	if (v == SEQ_START_TOKEN) {
		spin_lock(&mn->lock);
		memcpy(calls, mn->calls, sizeof(calls));
		young = mn->young;
		dropped = mn->dropped;
		spin_unlock(&mn->lock);
		seq_printf(s, "calls %lu %lu %lu\nyoung %lu\ndropped %lu\n",
			   calls[FT_MN_CFY], calls[FT_MN_CY], calls[FT_MN_TY],
			   young, dropped);
		return 0;
	}
	spin_lock(&mn->lock);
	have = i < mn->nr;
	if (have)
		rec = mn->rec[i];
	spin_unlock(&mn->lock);
	if (have)
		seq_printf(s, "%s %lx %lx %d\n", ft_mn_op_names[rec.op],
			   rec.start, rec.end, rec.young);
	return 0;
}

static const struct seq_operations ft_mn_seq_ops = {
	.start = ft_mn_seq_start,
	.next = ft_mn_seq_next,
	.stop = ft_mn_seq_stop,
	.show = ft_mn_seq_show,
};

static void ft_mn_free_marks(struct ft_mn_mark *marks, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		bitmap_free(marks[i].young);
}

static int ft_mn_mark(struct ft_mn *mn, unsigned long addr, unsigned int nr)
{
	unsigned long *young;
	int ret = -ENOSPC;

	if (!nr || nr > FT_MN_MARK_PAGES || !PAGE_ALIGNED(addr) ||
	    addr + (unsigned long)nr * PAGE_SIZE < addr)
		return -EINVAL;
	young = bitmap_zalloc(nr, GFP_KERNEL);
	if (!young)
		return -ENOMEM;
	bitmap_fill(young, nr);
	spin_lock(&mn->lock);
	if (mn->nr_marks < FT_MN_MARKS) {
		mn->marks[mn->nr_marks].start = addr;
		mn->marks[mn->nr_marks].nr = nr;
		mn->marks[mn->nr_marks].young = young;
		mn->nr_marks++;
		ret = 0;
	}
	spin_unlock(&mn->lock);
	if (ret)
		bitmap_free(young);
	return ret;
}

static void ft_mn_reset(struct ft_mn *mn)
{
	struct ft_mn_mark marks[FT_MN_MARKS];
	unsigned int n;

	spin_lock(&mn->lock);
	n = mn->nr_marks;
	memcpy(marks, mn->marks, n * sizeof(marks[0]));
	mn->nr_marks = 0;
	memset(mn->calls, 0, sizeof(mn->calls));
	mn->young = 0;
	mn->dropped = 0;
	mn->nr = 0;
	spin_unlock(&mn->lock);
	ft_mn_free_marks(marks, n);
}

static ssize_t ft_mn_write(struct file *file, const char __user *ubuf,
			   size_t len, loff_t *ppos)
{
	struct ft_mn *mn = ((struct seq_file *)file->private_data)->private;
	unsigned long addr;
	unsigned int nr;
	char buf[64];
	int ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sysfs_streq(buf, "reset")) {
		ft_mn_reset(mn);
		return len;
	}
	if (sscanf(buf, "young %lx %u", &addr, &nr) != 2)
		return -EINVAL;
	ret = ft_mn_mark(mn, addr, nr);
	return ret ? ret : len;
}

static void ft_mn_free(struct ft_mn *mn)
{
	ft_mn_free_marks(mn->marks, mn->nr_marks);
	kvfree(mn->rec);
	kfree(mn);
}

static int ft_mn_open(struct inode *inode, struct file *file)
{
	struct ft_mn *mn;
	int ret;

	if (!current->mm)
		return -EINVAL;
	mn = kzalloc(sizeof(*mn), GFP_KERNEL);
	if (!mn)
		return -ENOMEM;
	spin_lock_init(&mn->lock);
	mn->rec = kvcalloc(FT_MN_RECORDS, sizeof(*mn->rec), GFP_KERNEL);
	if (!mn->rec) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = seq_open(file, &ft_mn_seq_ops);
	if (ret)
		goto err_free;
	((struct seq_file *)file->private_data)->private = mn;
	mn->sub.ops = &ft_mn_ops;
	mn->mm = current->mm;
	ret = mmu_notifier_register(&mn->sub, mn->mm);
	if (ret)
		goto err_seq;
	return 0;

err_seq:
	seq_release(inode, file);
err_free:
	ft_mn_free(mn);
	return ret;
}

static int ft_mn_release(struct inode *inode, struct file *file)
{
	struct ft_mn *mn = ((struct seq_file *)file->private_data)->private;

	/* waits for the callbacks in flight (SRCU); the mm may be gone */
	mmu_notifier_unregister(&mn->sub, mn->mm);
	ft_mn_free(mn);
	return seq_release(inode, file);
}

static const struct file_operations ft_mn_fops = {
	.owner = THIS_MODULE,
	.open = ft_mn_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.write = ft_mn_write,
	.release = ft_mn_release,
};

static int __init ft_mn_test_init(void)
{
	struct dentry *f;

	ft_mn_dir = debugfs_create_dir("ft_mn_test", NULL);
	if (IS_ERR(ft_mn_dir))
		return PTR_ERR(ft_mn_dir);
	f = debugfs_create_file("notifier", 0600, ft_mn_dir, NULL, &ft_mn_fops);
	if (IS_ERR(f)) {
		debugfs_remove_recursive(ft_mn_dir);
		return PTR_ERR(f);
	}
	return 0;
}

static void __exit ft_mn_test_exit(void)
{
	debugfs_remove_recursive(ft_mn_dir);
}

module_init(ft_mn_test_init);
module_exit(ft_mn_test_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("foliotune test: a secondary MMU (mmu_notifier) that records its young calls");
