# SPDX-License-Identifier: GPL-2.0
#
# Loaded after stats.awk by the benchmark reports (unmap.awk,
# faultaround.awk, reclaim.awk): how they read their input, collect their
# warnings and, for unmap and reclaim, open the report.
# Runs are named NAME.CONFIG.REP (scenario or benchmark, configuration,
# rep); the input is host-meta.txt and guest-meta.txt ("key value" lines),
# the records of bench/records.py on stdin ("-") and the runs' own files,
# NAME.CONFIG.REP.KIND.

function base(p,   n, a) { n = split(p, a, "/"); return a[n] }
# addrun(id): S, C, T of the run named NAME.CONFIG.REP, added to the runs
# of NAME.CONFIG (tag[S, C, 1..ntag[S, C]]) when first seen, S to isscen
# and C to isconf; 0 for a warm-up run or another name
function addrun(id,   fp) {
	if (split(id, fp, ".") != 3 || fp[3] == "warmup") return 0
	S = fp[1]; C = fp[2]; T = fp[3]
	if (!((S, C, T) in seen)) { seen[S, C, T] = 1; tag[S, C, ++ntag[S, C]] = T }
	if (!(S in isscen)) isscen[S] = 1
	if (!(C in isconf)) isconf[C] = 1
	return 1
}
# filekind(path): "meta", "rec" (stdin), KIND of a run's file (its run
# added: S, C, T) or "skip"
function filekind(path,   f, n, fp) {
	f = base(path)
	if (f == "host-meta.txt" || f == "guest-meta.txt") return "meta"
	if (path == "-") return "rec"
	n = split(f, fp, ".")
	return (n == 4 && addrun(fp[1] "." fp[2] "." fp[3])) ? fp[4] : "skip"
}
# metaline(): the current "key value" line into meta[key]; the first wins
function metaline(   k) { k = $1; $1 = ""; sub(/^ /, ""); if (!(k in meta)) meta[k] = $0 }
# inorder(list, a, set): a[1..n] = the words of list, then the other keys
# of set (found in the input, not known to the report: last); returns n
function inorder(list, a, set,   n, k, i, known) {
	n = split(list, a, " ")
	for (k in set) { known = 0; for (i = 1; i <= n; i++) if (a[i] == k) known = 1; if (!known) a[++n] = k }
	return n
}
function warn(m) { W[++nw] = m }
# warnings(): the "Warnings" section, when there is any
function warnings(   k) {
	if (!nw) return
	print ""
	print "## Warnings"
	print ""
	for (k = 1; k <= nw; k++) print "- **WARNING** " W[k]
}

# report_head(title): the report's title, where it was measured (tcg, and
# TCG, its italic tag for the tables' headings; accel "box": make
# bench-box, on the machine itself, no emulator), the note (-v note=...)
# and the command, commit and date lines
function report_head(title) {
	tcg = (meta["accel"] == "box") ? "measured on " meta["guest_cpu_model"] ", " meta["guest_cpus"] " CPUs" : \
		(meta["accel"] == "kvm") ? "measured in a KVM guest, " meta["vcpus"] " vCPUs" : \
		"measured in a QEMU TCG guest (software emulation), " (meta["guest_cpus"] != "" ? meta["guest_cpus"] : meta["vcpus"]) " vCPUs"
	TCG = "_(" tcg ")_"
	print "# foliotune: " title
	print ""
	if (meta["accel"] == "box")
		print "**" tcg "** (machine " meta["host"] ", not an emulator: hardware figures). " \
			"Other work on the machine adds noise: trust differences larger than the spread of the reps."
	else
		print "**" tcg "** (guest CPU: " meta["guest_cpu_model"] "; host: " meta["host_cpu"] ", " meta["host_cpus"] " CPUs). " \
			"Absolute figures are emulator figures, not hardware figures; only ratios between runs of the same boot mean anything."
	print ""
	if (note != "") { print "> **Note:** " note; print "" }
	print "- command: `" meta["command"] "`"
	print "- commit: `" meta["commit"] "`"
	print "- date: " meta["date"] " (guest: " meta["guest_date"] ")"
}
