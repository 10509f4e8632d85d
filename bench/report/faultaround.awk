# SPDX-License-Identifier: GPL-2.0
#
# The report of bench/faultaround-report.sh: the raw files of
# bench/faultaround.sh (SCEN.CONFIG.REP.{rec,out,auto}, metadata) in,
# results.md out; the raw files and how figures are compared are described
# there.  Needs stats.awk and runs.awk.

# stats(s, c, key): S_n, S_min, S_med, S_max of val[s, c, rep, key] over
# the reps (st_get())
function stats(s, c, key) { return st_get(s "|" c "|" key) }
function med(s, c, key) { return stats(s, c, key) }
# workloads(s): the workloads of scenario s, as names wl[] and metric keys
# wk[] (lower is better); returns how many (0: none judged)
function workloads(s,   n, q) {
	if (s in islaunch) { wl[1] = s; wk[1] = "avg"; return 1 }
	if (s in isspawn) { wl[1] = s; wk[1] = "spawn_ns"; return 1 }
	if (!(s in isseq)) return 0
	for (q = 1; q <= npat; q++) { wl[++n] = s "/" pats[q]; wk[n] = "p:" pats[q] ":nspp" }
	return n
}
# queue(): every numeric value for its median and spread, and the runs of
# every two configurations of a workload paired by rep (each rep runs every
# configuration once, in an order rotated by one per rep) for the paired
# verdict; then foliotune stats on all of them (stats.awk)
function queue(   k, f, i, j, a, s, c, b, t, w, nw2, key) {
	for (k in val) {
		split(k, f, SUBSEP)
		if (f[4] ~ /^(exit|module|error|summary)$/ || val[k] !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) continue
		st_sample(f[1] "|" f[2] "|" f[4], val[k])
	}
	for (i = 1; i <= ns; i++) {
		s = sord[i]
		nw2 = workloads(s)
		for (w = 1; w <= nw2; w++) for (j = 1; j <= nc; j++) for (a = 1; a <= nc; a++) {
			c = cord[j]; b = cord[a]; key = wk[w]
			if (c == b) continue
			for (k = 1; k <= ntag[s, c]; k++) {
				t = tag[s, c, k]
				if ((s, c, t, key) in val && (s, b, t, key) in val)
					st_pair(s "|" c "|" b "|" key, val[s, b, t, key], val[s, c, t, key])
			}
		}
	}
	st_run()
}
# paired(s, c, b, key): foliotune stats' verdict on c against b paired by
# rep (B = c): P_v, P_p, P_t, P_n (st_pv())
function paired(s, c, b, key) { return st_pv(s "|" c "|" b "|" key) }
# versus(s, c, b, key): c against b, lower is better: the ratio of the
# medians, a difference only when the paired test shows one
function versus(s, c, b, key,   r) {
	SP_c = med(s, c, key); SP_b = med(s, b, key)
	if (SP_c == "" || SP_b == "" || SP_b == 0) return "-"
	r = SP_c / SP_b
	paired(s, c, b, key)
	if (P_v == "lower" || P_v == "higher")
		return sprintf("%.2f (%+.0f%%, %s, p %.3g)", r, (r - 1) * 100, P_v == "lower" ? "faster" : "slower", P_p)
	return sprintf("%.2f: %s", r, P_v == "" ? "no pairs" : P_t)
}
# target(s, c, b, key, tol): is c's median within tol (1.05: 5%) of b's?
# "met"; else "not met" when the pairs show c slower than b, else "not
# shown" (with fewer than 6 pairs: "not shown (N pairs)", no difference can
# be shown at p < 0.05)
function target(s, c, b, key, tol) {
	SP_c = med(s, c, key); SP_b = med(s, b, key)
	if (SP_c == "" || SP_b == "") return "-"
	if (SP_c <= tol * SP_b) return "met"
	paired(s, c, b, key)
	if (P_v == "higher") return "not met"
	if (P_v == "few") { fewpairs = 1; return "not shown (" P_n " pairs)" }
	return "not shown"
}
function ms(x) { return x == "" ? "-" : sprintf("%.1f", x) }
function num(x) { return x == "" ? "-" : (x == int(x) ? sprintf("%d", x) : sprintf("%.1f", x)) }
function ratio(x, b) {
	if (x == "" || b == "" || b == 0) return "-"
	return sprintf("%.2f (%+.0f%%)", x / b, (x / b - 1) * 100)
}
function pctchg(x, b) {
	if (x == "" || b == "") return ""
	if (b == 0) return (x == 0) ? "" : " (n/a)"
	return sprintf(" (%+.0f%%)", (x / b - 1) * 100)
}
function kb(b) { return (b >= 1048576 && b % 1048576 == 0) ? (b / 1048576) "M" : ((b >= 1024 && b % 1024 == 0) ? (b / 1024) "K" : b) }
# kv(line, key): the value of key=VALUE in a "word key=value ..." line
function kv(line, key,   i, n, a) {
	n = split(line, a, " ")
	for (i = 1; i <= n; i++) if (index(a[i], key "=") == 1) return substr(a[i], length(key) + 2)
	return ""
}

FNR == 1 { kind = filekind(FILENAME) }
kind == "skip" { next }
kind == "meta" { metaline(); next }
kind == "rec" {
	# ID KEY VALUE, ID set NAME VALUE OLD, ID counter SOURCE NAME DELTA, ...
	split($0, fld, "\t")
	if (!addrun(fld[1])) next
	if (fld[2] == "counter") {
		key = (fld[3] == "foliotune" ? "ft:" : "vm:") fld[4]
		val[S, C, T, key] = fld[5]
		if (fld[3] == "vmstat") vmkey[fld[4]] = 1
		if (fld[5] != 0) moved[S, key] = 1
	}
	else if (fld[2] == "wall_seconds") val[S, C, T, "wall"] = fld[3]
	else if (fld[2] == "exit_code") val[S, C, T, "exit"] = fld[3]
	else if (fld[2] == "exit_signal") val[S, C, T, "exit"] = "signal " fld[3]
	else if (fld[2] == "module") val[S, C, T, "module"] = fld[3]
	else if (fld[2] == "command" && !((S, C) in cmd)) cmd[S, C] = fld[3]
	else if (fld[2] == "set" && !((S, C, fld[3]) in setseen)) { setseen[S, C, fld[3]] = 1; sets[S, C] = sets[S, C] " -s " fld[3] "=" fld[4] }
	next
}
kind == "out" {
	if ($1 == "round") {
		r = kv($0, "round")
		val[S, C, T, "r" r ":avg"] = kv($0, "avg_ms")
		val[S, C, T, "r" r ":max"] = kv($0, "max_ms")
		val[S, C, T, "r" r ":majflt"] = kv($0, "majflt")
		val[S, C, T, "r" r ":minflt"] = kv($0, "minflt")
		split("cg_pgscan cg_pgsteal cg_workingset_refault_file cg_workingset_refault_anon cg_pgrefill cg_pgactivate cg_pgdeactivate", ck, " ")
		for (i = 1; i in ck; i++) { x = kv($0, ck[i]); if (x != "") val[S, C, T, "r" r ":" ck[i]] = x }
		if (r + 0 > nround) nround = r + 0
		islaunch[S] = 1
	} else if ($1 == "summary") {
		val[S, C, T, "avg"] = kv($0, "avg_ms")
		val[S, C, T, "max"] = kv($0, "max_ms")
		val[S, C, T, "majflt"] = kv($0, "majflt")
		val[S, C, T, "minflt"] = kv($0, "minflt")
		x = kv($0, "oom_kill"); if (x != "") val[S, C, T, "oom"] = x
		x = kv($0, "peak_kb"); if (x != "") val[S, C, T, "peak"] = x
		val[S, C, T, "summary"] = 1
	} else if ($1 == "config" && !(S in lconfig) && index($0, "apps=")) {
		lconfig[S] = $0; sub(/^config /, "", lconfig[S])
	} else if ($1 == "read") {
		pt = kv($0, "pattern")
		if (!(pt in ispat)) { ispat[pt] = 1; pats[++npat] = pt }
		# several passes of one pattern: sum
		val[S, C, T, "p:" pt ":minflt"] += kv($0, "minflt")
		val[S, C, T, "p:" pt ":majflt"] += kv($0, "majflt")
		val[S, C, T, "p:" pt ":ms"] += kv($0, "ms")
		val[S, C, T, "p:" pt ":touched"] += kv($0, "touched")
		# the metric of a pattern: time per touched page over all its passes
		val[S, C, T, "p:" pt ":nspp"] = val[S, C, T, "p:" pt ":ms"] * 1e6 / val[S, C, T, "p:" pt ":touched"]
		isseq[S] = 1
	} else if ($1 == "spawns") {
		# "spawns N seconds S ns_per_spawn X"
		val[S, C, T, "summary"] = 1
		val[S, C, T, "spawns"] = $2
		val[S, C, T, "spawn_ns"] = $6
		isspawn[S] = 1
	} else if ($1 == "failed") {
		val[S, C, T, "spawn_failed"] = $2
	} else if ($1 == "total") {
		val[S, C, T, "summary"] = 1
		val[S, C, T, "seq_ms"] = kv($0, "ms")
		val[S, C, T, "seq_minflt"] = kv($0, "minflt")
	} else if ($1 == "error") {
		val[S, C, T, "error"] = $0
	}
	next
}
kind == "auto" {
	# "SECONDS BYTES": windows in the order seen
	if (NF == 2) {
		w = kb($2)
		if (autolast[S, C, T] != w) { autoseq[S, C, T] = autoseq[S, C, T] (autoseq[S, C, T] == "" ? "" : ">") w; autolast[S, C, T] = w }
		autosecs[S, C, T] = $1
	}
	next
}

END {
	ns = inorder("launch-zram launch-noswap launch-zram-classic launch-noswap-classic seqread spawn", sord, isscen)
	nc = inorder("stock fa4k mkold1 mkold2 auto auto200 autoage", cord, isconf)
	queue()

	sdesc["launch-zram"] = "app launch, zram swap, MGLRU on (Vinayak Menon's 2016 report: \"with swap\")"
	sdesc["launch-noswap"] = "app launch, no swap, MGLRU on (Vinayak Menon's 2016 report: \"without swap\")"
	sdesc["launch-zram-classic"] = "app launch, zram swap, lru_gen disabled: classic active/inactive LRU, as the 3.18 kernel of Vinayak Menon's report"
	sdesc["launch-noswap-classic"] = "app launch, no swap, lru_gen disabled"
	sdesc["seqread"] = "reads through a cached, mapped " meta["seq_mb"] " MiB xfs file, no memory pressure"
	sdesc["spawn"] = "process creation in the unixbench pattern: fork+exec of /bin/true and of /bin/sh -c with two external commands, one at a time, no memory pressure (the 2016 revert: old pre-mapped PTEs cost x86 an accessed-bit update per used page)"
	cdesc["stock"] = "fault_around_bytes=64K, mkold 0 (young pre-mapped PTEs: the stock x86 kernel)"
	cdesc["fa4k"] = "fault_around_bytes=4K (fault-around off: what Vinayak Menon's report measured against 64K)"
	cdesc["mkold1"] = "64K, fault_around_mkold=1: pre-mapped PTEs old except the faulting run (arm64's behaviour)"
	cdesc["mkold2"] = "64K, fault_around_mkold=2: only the faulting PTE young (Kirill Shutemov's patch + its follow-up)"
	cdesc["auto"] = "fault_around_auto=1, fault_around_auto_max_bytes=" meta["auto_max"] ", mkold 0"
	cdesc["auto200"] = "as auto, fault_around_auto_period_ms=200 (the default period is 1000)"
	cdesc["autoage"] = "as auto, fault_around_auto_age=1: the tuner also maps pre-mapped PTEs old (as mkold 2) under file reclaim pressure, young otherwise"

	ncpu = (meta["guest_cpus"] != "" ? meta["guest_cpus"] : meta["vcpus"])
	# accel "box": make bench-box, on the machine itself (no emulator)
	tcg = (meta["accel"] == "box") ? "measured on " meta["guest_cpu_model"] ", " ncpu " CPUs" : \
		(meta["accel"] == "kvm") ? "measured in a KVM guest, " ncpu " vCPUs" : \
		"measured in a QEMU TCG guest (software emulation), " ncpu " vCPUs"
	TCG = "_(" tcg ")_"

	print "# foliotune: fault-around under memory pressure (the 2016 linux-mm app-launch measurements)"
	print ""
	if (meta["accel"] == "box")
		print "**" tcg "** (machine " meta["host"] ", not an emulator: hardware figures; load average " \
			meta["host_loadavg_before"] " before, " meta["host_loadavg_after"] " after). Other work on the machine adds noise: " \
			"trust differences larger than the spread of the reps."
	else
		print "**" tcg "** (guest CPU: " meta["guest_cpu_model"] "; host: " meta["host_cpu"] ", " meta["host_cpus"] " CPUs, load average " \
			meta["host_loadavg_before"] " before, " meta["host_loadavg_after"] " after). Absolute times are emulator times, not hardware " \
			"times, and whatever else runs on the host shares its CPUs (the load average says how much): only ratios between runs of this boot " \
			"mean anything, and small ratios are noise."
	print ""
	print "- command: `" meta["command"] "`"
	print "- commit: `" meta["commit"] "` (" meta["commit_full"] ")"
	print "- date: " meta["date"] " (guest: " meta["guest_date"] ")"
	print "- guest: kernel " meta["guest_kernel"] ", " meta["guest_cpus"] " vCPUs, MemTotal " int(meta["guest_mem_kb"] / 1024) " MiB, read_ahead_kb " \
		meta["read_ahead_kb"] ", THP `" meta["thp_enabled"] "`, lru_gen " meta["lru_gen"] " (default), zram " meta["zram_mb"] " MiB; module " meta["module_build"]
	print "- parameters: BENCH_REPS=" meta["reps"] ", scenarios: " meta["only"] ", configurations: " meta["configs"] "; apps " meta["apps"] \
		", rounds " meta["rounds"] ", per-app files " meta["app_mb"] " MiB, framework " meta["fw_mb"] " MiB, heap " meta["anon_mb"] \
		" MiB per app, memcg memory.max " meta["limit_mb"] " MiB" (meta["launch_args"] != "" ? ", extra args `" meta["launch_args"] "`" : "") \
		"; seqread " meta["seq_mb"] " MiB, patterns " meta["seq_patterns"] ", " meta["seq_passes"] " passes"
	print "- run time: guest " meta["guest_seconds"] " s (setup " meta["setup_seconds"] " s, timed runs " meta["timed_phase_seconds"] " s), host " \
		meta["host_seconds"] " s (estimate was " meta["estimate_seconds"] " s); test box exit status " meta["vmrun_exit"]
	print "- method: one boot; for each rep, each scenario, each configuration (order rotated by one per rep) one run of " \
		"`foliotune record -l SCEN.CONFIG -s KNOB=VALUE... -o raw/SCEN.CONFIG.REP.rec -- CMD` after syncfs of the xfs and compaction " \
		"(ft_applaunch drops its files from the page cache itself); " \
		(meta["warmup"] == "0" ? "no warm-up run" : "one unrecorded stock warm-up run first") ". Knobs each configuration sets:"
	for (j = 1; j <= nc; j++) {
		c = cord[j]; x = ""
		for (i = 1; i <= ns && x == ""; i++) if ((sord[i], c) in sets) x = sets[sord[i], c]
		if (x != "") print "  - **" c "**: " (c in cdesc ? cdesc[c] : "") (x != "" ? " - `" substr(x, 2) "`" : "")
	}
	split(meta["host_loadavg_before"], la, " "); split(meta["host_loadavg_after"], lb, " ")
	if (meta["host_cpus"] > 0 && (la[1] > meta["host_cpus"] || lb[3] > meta["host_cpus"]))
		warn("the host was busy (load average " la[1] " before, " lb[3] " over the last 15 min after, on " meta["host_cpus"] \
			" CPUs): launch and read times are noisy, trust only differences larger than the spread of the reps; " \
			"the counter deltas do not depend on the host load")
	if (meta["fatal"] != "") warn("the guest script stopped early: " meta["fatal"])
	if (meta["reps"] != "" && meta["reps"] + 0 < 6)
		warn("BENCH_REPS=" meta["reps"] ": configurations are compared in pairs of runs of the same rep, and with " meta["reps"] \
			" pairs no difference can be shown at p < 0.05 (the exact signed-rank test needs 6; bench/README.md): the verdicts below " \
			"say so instead of \"no difference\"; the medians stand")
	if (meta["vmrun_exit"] != "" && meta["vmrun_exit"] != "0") warn("test box exit status " meta["vmrun_exit"] " (see raw/console.log)")

	# ---- per-run checks ----
	for (i = 1; i <= ns; i++) {
		s = sord[i]
		for (j = 1; j <= nc; j++) {
			c = cord[j]
			for (k = 1; k <= ntag[s, c]; k++) {
				t = tag[s, c, k]; id = s "." c "." t
				if (!((s, c, t, "exit") in val)) warn(id ": no record file (raw/" id ".rec)")
				else if (val[s, c, t, "exit"] != "0") warn(id ": exit status " val[s, c, t, "exit"])
				if ((s, c, t, "error") in val) warn(id ": " val[s, c, t, "error"])
				if (!((s, c, t, "summary") in val)) warn(id ": no summary line in the output")
				if (val[s, c, t, "spawn_failed"] > 0) warn(id ": " val[s, c, t, "spawn_failed"] " spawned children did not exit 0")
				if (val[s, c, t, "oom"] > 0) warn(id ": " val[s, c, t, "oom"] " OOM kill(s) in the memcg: lower BENCH_ANON_MB or raise BENCH_LIMIT_MB")
				if (val[s, c, t, "module"] != "" && val[s, c, t, "module"] != "loaded") warn(id ": module " val[s, c, t, "module"])
				if (s in islaunch) {
					# the point of the scenario: round 2 must reclaim and refault
					last = "r" nround ":"
					scan = val[s, c, t, last "cg_pgscan"] + 0; steal = val[s, c, t, last "cg_pgsteal"] + 0
					rf = val[s, c, t, "vm:workingset_refault_file"] + val[s, c, t, "vm:workingset_refault_anon"]
					if (nround < 2) warn(id ": only one round: nothing is launched again")
					else if (scan <= 0 || steal <= 0 || rf <= 0) {
						warn(id ": NO RECLAIM in round " nround " (memcg pgscan " scan ", pgsteal " steal ", workingset_refault " rf \
							"): the memcg is too large for the apps; lower BENCH_LIMIT_MB")
						noreclaim[s] = 1
					}
				}
			}
		}
	}
	warnings()

	# ---- launch latency ----
	for (i = 1; i <= ns; i++) {
		s = sord[i]
		if (!(s in islaunch)) continue
		stats(s, "stock", "avg"); ba = S_med
		stats(s, "stock", "max"); bm = S_med
		r2 = "r" nround
		b2a = med(s, "stock", r2 ":avg"); b2m = med(s, "stock", r2 ":max")
		print ""
		print "## " s ": launch latency " TCG
		print ""
		print sdesc[s] ". " meta["apps"] " apps launched one after another, " nround " rounds (round 1 cold launches, later rounds resume the " \
			"apps still alive). Per run: avg and max over all launches; min / median / max of that over the reps; " \
			"\"vs stock, paired\": the configuration's avg against stock's of the same rep, by `foliotune stats` (exact Wilcoxon signed-rank " \
			"test, 95% Hodges-Lehmann interval): faster or slower at p < 0.05, or why no difference is shown. " \
			"\"run wall s\": the whole ft_applaunch run, including the untimed use phases (where much of the thrashing happens) and the exits." \
			(s in noreclaim ? " **No reclaim in the last round in some runs: see the warnings.**" : "")
		print ""
		print "| config | n | avg launch ms (min / med / max) | avg vs stock | vs stock, paired | max launch ms (min / med / max) | max vs stock | round " nround " avg ms (med) | vs stock | round " nround " max ms (med) | vs stock | run wall s (med) |"
		print "|---|---:|---|---:|---|---|---:|---:|---:|---:|---:|---:|"
		for (j = 1; j <= nc; j++) {
			c = cord[j]
			if (!ntag[s, c]) continue
			stats(s, c, "avg"); n = S_n; a = ms(S_min) " / **" ms(S_med) "** / " ms(S_max); am = S_med
			spread = "-"
			if (c != "stock" && n > 0 && ba != "") {
				paired(s, c, "stock", "avg")
				spread = (P_v == "lower") ? sprintf("faster, p %.3g", P_p) : (P_v == "higher") ? sprintf("slower, p %.3g", P_p) : \
					(P_v == "" ? "no pairs" : P_t)
			}
			stats(s, c, "max"); m = ms(S_min) " / **" ms(S_med) "** / " ms(S_max); mm = S_med
			x2a = med(s, c, r2 ":avg"); x2m = med(s, c, r2 ":max")
			print "| " c " | " n " | " a " | " (c == "stock" ? "1" : ratio(am, ba)) " | " spread " | " m " | " (c == "stock" ? "1" : ratio(mm, bm)) \
				" | " ms(x2a) " | " (c == "stock" ? "1" : ratio(x2a, b2a)) " | " ms(x2m) " | " (c == "stock" ? "1" : ratio(x2m, b2m)) \
				" | " sprintf("%.1f", med(s, c, "wall")) " |"
		}
		# per round, memcg view
		print ""
		print "Per round (median over the reps; cg_* = deltas of the run's memcg memory.stat over the round; faults = the apps' own getrusage):"
		print ""
		print "| config | round | avg ms | max ms | majflt | minflt | cg pgscan | cg pgsteal | cg refault file | cg refault anon | cg pgrefill | cg pgactivate | cg pgdeactivate |"
		print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
		for (j = 1; j <= nc; j++) {
			c = cord[j]
			if (!ntag[s, c]) continue
			for (r = 1; r <= nround; r++) {
				p = "r" r ":"
				print "| " c " | " r " | " ms(med(s, c, p "avg")) " | " ms(med(s, c, p "max")) " | " num(med(s, c, p "majflt")) " | " num(med(s, c, p "minflt")) \
					" | " num(med(s, c, p "cg_pgscan")) " | " num(med(s, c, p "cg_pgsteal")) " | " num(med(s, c, p "cg_workingset_refault_file")) \
					" | " num(med(s, c, p "cg_workingset_refault_anon")) " | " num(med(s, c, p "cg_pgrefill")) \
					" | " num(med(s, c, p "cg_pgactivate")) " | " num(med(s, c, p "cg_pgdeactivate")) " |"
			}
		}
	}

	# ---- Vinayak Menon's table: /proc/vmstat + foliotune counters side by side ----
	nrow = split("vm:workingset_refault_file vm:workingset_refault_anon vm:workingset_activate_file vm:workingset_activate_anon " \
		"vm:pgpgin vm:pgpgout ft:pgpgoutclean vm:pswpin vm:pswpout vm:pgactivate vm:pgdeactivate " \
		"ft:pageref_activate ft:pageref_activate_vm_exec ft:pageref_keep vm:pgmajfault vm:pgfault vm:pgrefill", rows, " ")
	# every pgscan_*, pgsteal_*, allocstall_* /proc/vmstat has, sorted
	nx = 0
	for (k in vmkey) if (k ~ /^(pgscan|pgsteal|allocstall)_/) xk[++nx] = k
	for (a = 2; a <= nx; a++) { tt = xk[a]; for (b = a - 1; b >= 1 && xk[b] > tt; b--) xk[b + 1] = xk[b]; xk[b + 1] = tt }
	for (a = 1; a <= nx; a++) rows[++nrow] = "vm:" xk[a]
	split("vm:slabs_scanned vm:pageoutrun ft:fa_events ft:fa_pages_mapped ft:fa_pages_mapped_old ft:fa_unmap_old_ptes " \
		"ft:fa_unmap_young_ptes ft:fa_read_faults ft:fa_read_faults_near ft:fa_auto_changes", more, " ")
	for (a = 1; a in more; a++) rows[++nrow] = more[a]

	for (i = 1; i <= ns; i++) {
		s = sord[i]
		if (!ntag[s, "stock"] && !ntag[s, cord[1]]) continue
		print ""
		print "## " s ": /proc/vmstat and foliotune counters, as in the 2016 thread " TCG
		print ""
		print "Median over the reps of each counter's delta over the whole run (both rounds); (%) = vs stock. `foliotune:` rows are the module's " \
			"counters (pgpgoutclean and pageref_* are the four debug counters of Vinayak Menon's report, counted by kprobes on the stock kernel). " \
			(s in islaunch ? "The pressure here is the memcg limit: 6.12 counts memcg limit reclaim in pgscan_anon/file and pgsteal_anon/file " \
			"but not in pgscan_/pgsteal_kswapd/direct, pgrefill or allocstall_* (mm/vmscan.c: only if !cgroup_reclaim()), so those " \
			"rows of his table stay 0 or absent; the memcg's own pgscan/pgsteal/pgrefill are in the per-round table above. " : "") \
			"pgscan_*/pgsteal_*/allocstall_* rows that never moved in this scenario are left out."
		line = "| counter |"; sep = "|---|"
		for (j = 1; j <= nc; j++) if (ntag[s, cord[j]]) { line = line " " cord[j] " |"; sep = sep "---:|" }
		print ""
		print line
		print sep
		for (a = 1; a <= nrow; a++) {
			key = rows[a]
			if (key ~ /^vm:(pgscan|pgsteal|allocstall)_/ && !((s, key) in moved)) continue
			nm = key; sub(/^vm:/, "", nm); sub(/^ft:/, "foliotune: ", nm)
			base0 = med(s, "stock", key)
			line = "| " nm " |"; any = 0
			for (j = 1; j <= nc; j++) {
				c = cord[j]
				if (!ntag[s, c]) continue
				x = med(s, c, key)
				if (x != "") any = 1
				line = line " " num(x) (c == "stock" ? "" : pctchg(x, base0)) " |"
			}
			if (any) print line
		}
	}

	# ---- seqread ----
	for (i = 1; i <= ns; i++) {
		s = sord[i]
		if (!(s in isseq)) continue
		print ""
		print "## " s ": fault-around's own case, no memory pressure " TCG
		print ""
		print sdesc[s] ": the file is read into the page cache with read(2) first, then per pattern passes of mmap + touch + munmap " \
			(meta["seq_seconds"] + 0 > 0 ? "for " meta["seq_seconds"] " s (at least " meta["seq_passes"] " passes), so that a tuner with a period of a second acts and its steady state counts" : meta["seq_passes"] " times") ". " \
			"Per run, minor faults (getrusage), touched pages and time of the touch loops summed over the passes of a pattern; " \
			"the metric is ns per touched page over the whole pattern run (the first periods of the auto modes, at the window they started from, included): min / median / max over the reps."
		print ""
		print "| pattern | config | n | touched pages (med) | minflt (med) | minflt per touched page | ns per page (min / med / max) | ns per page vs stock |"
		print "|---|---|---:|---:|---:|---:|---|---:|---:|"
		for (q = 1; q <= npat; q++) {
			pt = pats[q]
			bns = med(s, "stock", "p:" pt ":nspp")
			for (j = 1; j <= nc; j++) {
				c = cord[j]
				if (!ntag[s, c]) continue
				mf = med(s, c, "p:" pt ":minflt"); tc = med(s, c, "p:" pt ":touched")
				stats(s, c, "p:" pt ":nspp"); n = S_n
				nsv = sprintf("%.0f / **%.0f** / %.0f", S_min, S_med, S_max); mm = S_med
				print "| " pt " | " c " | " n " | " num(tc) " | " num(mf) " | " (tc > 0 ? sprintf("%.3f", mf / tc) : "-") " | " nsv " | " \
					(c == "stock" ? "1" : ratio(mm, bns)) " |"
			}
		}
	}

	# ---- spawn ----
	for (i = 1; i <= ns; i++) {
		s = sord[i]
		if (!(s in isspawn)) continue
		print ""
		print "## " s ": the cost side, process creation " TCG
		print ""
		print sdesc[s] ". " meta["spawn_seconds"] " s per run; the metric is wall ns per completed fork+exec+exit+wait: min / median / max over the reps. " \
			"**TCG does not model what the hardware pays to set an accessed bit in a PTE** (on x86 a microcoded page walk per first touch of an old PTE): " \
			"the emulator sets it in software at about the cost of any other store, so this table can show the cost of the extra faults and of the tuner, " \
			"not the cost that made the 2016 patch regress. Run it on a real machine (`make bench-box` there) for that."
		print ""
		print "| config | n | spawns (med) | ns per spawn (min / med / max) | vs stock | pgfault (med) | fa_pages_mapped_old (med) |"
		print "|---|---:|---:|---|---|---:|---:|"
		for (j = 1; j <= nc; j++) {
			c = cord[j]
			if (!ntag[s, c]) continue
			stats(s, c, "spawn_ns"); n = S_n
			nsv = sprintf("%.0f / **%.0f** / %.0f", S_min, S_med, S_max)
			print "| " c " | " n " | " num(med(s, c, "spawns")) " | " nsv " | " (c == "stock" ? "1" : versus(s, c, "stock", "spawn_ns")) \
				" | " num(med(s, c, "vm:pgfault")) " | " num(med(s, c, "ft:fa_pages_mapped_old")) " |"
		}
	}

	# ---- which configuration won, against the spread ----
	print ""
	print "## Which configuration won " TCG
	print ""
	print "Per workload (lower is better): the configuration with the lowest median, against stock and against the runner-up. " \
		"A difference is called one only when `foliotune stats` shows it on the runs paired by rep (exact Wilcoxon signed-rank test, " \
		"p < 0.05, and a 95% Hodges-Lehmann interval clear of 1): \"faster\" or \"slower\" with its p; otherwise its words say why not, " \
		"and with fewer than 6 pairs no difference can be shown at p < 0.05 at all."
	print ""
	print "| workload | winner | median | vs stock | vs runner-up (runner-up) |"
	print "|---|---|---:|---|---|"
	for (i = 1; i <= ns; i++) {
		s = sord[i]
		nw2 = workloads(s)
		for (w = 1; w <= nw2; w++) {
			win = ""; winv = ""; run = ""; runv = ""
			for (j = 1; j <= nc; j++) {
				c = cord[j]
				if (!ntag[s, c]) continue
				x = med(s, c, wk[w])
				if (x == "") continue
				if (winv == "" || x < winv) { run = win; runv = winv; win = c; winv = x }
				else if (runv == "" || x < runv) { run = c; runv = x }
			}
			if (win == "") continue
			print "| " wl[w] " | " win " | " sprintf("%.1f", winv) " | " (win == "stock" ? "-" : versus(s, win, "stock", wk[w])) \
				" | " (run == "" ? "-" : versus(s, win, run, wk[w]) " (" run ")") " |"
		}
	}

	# ---- the targets: auto vs the best static setting, mkold under pressure ----
	# near best: a tuner within 5% of the best static setting on each
	# workload (launch: median avg launch ms; seqread: median ns per touched
	# page); no regression: a tuner at most 2% worse than stock; fewer
	# faults: the mkold direction of Kirill Shutemov's patch, fewer major
	# faults and swap-ins than stock under pressure (launch scenarios).
	nstat = split("stock fa4k mkold1 mkold2", statics, " ")
	ntuner = split("auto auto200 autoage", tuners, " ")
	print ""
	print "## Targets " TCG
	print ""
	print "Workload metric: launch = median over the reps of the average launch time; seqread = median ns per touched page of the pattern; " \
		"spawn = median ns per spawn. best static = the lowest of " nstat " static (size, age) configurations (stock fa4k mkold1 mkold2). " \
		"Targets: **near best**, a tuner within 5% of it; **no regression**, a tuner never more than 2% worse than stock (both on medians). " \
		"A miss is \"not met\" only when the runs paired by rep show the tuner slower (`foliotune stats`: exact Wilcoxon signed-rank test, p < 0.05, " \
		"95% Hodges-Lehmann interval clear of 1); otherwise \"not shown\": no difference these reps can show (\"N pairs\": with fewer than 6 pairs " \
		"none can be shown at p < 0.05). " \
		"**Fewer faults**: mkold1/mkold2 with fewer pgmajfault and pswpin than stock under pressure (medians of the run deltas)."
	print ""
	print "| workload | best static | best | auto | auto / best | near best | no regression | auto200 | auto200 / best | near best | no regression | autoage | autoage / best | near best | no regression |"
	print "|---|---|---:|---:|---:|---|---|---:|---:|---|---|---:|---:|---|---|"
	for (i = 1; i <= ns; i++) {
		s = sord[i]
		nw2 = workloads(s)
		for (w = 1; w <= nw2; w++) {
			best = ""; bestc = ""
			for (j = 1; j <= nstat; j++) {
				if (!ntag[s, statics[j]]) continue
				x = med(s, statics[j], wk[w])
				if (x != "" && (best == "" || x < best)) { best = x; bestc = statics[j] }
			}
			if (best == "") continue
			line = "| " wl[w] " | " bestc " | " sprintf("%.1f", best)
			bstock = ntag[s, "stock"] ? med(s, "stock", wk[w]) : ""
			for (a = 1; a <= ntuner; a++) {
				ac = tuners[a]
				x = ntag[s, ac] ? med(s, ac, wk[w]) : ""
				if (x == "") { line = line " | - | - | - | -"; continue }
				vnear = target(s, ac, bestc, wk[w], 1.05)
				vnoreg = bstock == "" ? "-" : target(s, ac, "stock", wk[w], 1.02)
				t1 = vnear; sub(/ \(.*/, "", t1); t3 = vnoreg; sub(/ \(.*/, "", t3)
				tally[ac, "near", t1]++; tally[ac, "noreg", t3]++; tallied[ac] = 1
				line = line " | " sprintf("%.1f", x) " | " sprintf("%.2f", x / best) " | " vnear " | " vnoreg
				if ((s in islaunch) && bstock > 0) {
					lsum[ac] += log(x / bstock); ln[ac]++
					lper[ac] = lper[ac] (lper[ac] == "" ? "" : ", ") s " " sprintf("%.2f", x / bstock)
				}
			}
			print line " |"
		}
	}
	print ""
	for (a = 1; a <= ntuner; a++) {
		ac = tuners[a]
		if (!(ac in tallied)) continue
		printf "- **%s**: near best met %d, not shown %d, not met %d; no regression met %d, not shown %d, not met %d", ac,
			tally[ac, "near", "met"], tally[ac, "near", "not shown"], tally[ac, "near", "not met"],
			tally[ac, "noreg", "met"], tally[ac, "noreg", "not shown"], tally[ac, "noreg", "not met"]
		if (ln[ac])
			printf "; against stock over the %d pressure (launch) scenarios, geometric mean of the median ratios %.2f (%s)", ln[ac], exp(lsum[ac] / ln[ac]), lper[ac]
		print ""
	}
	print ""
	print "| scenario | config | pgmajfault vs stock | pswpin vs stock | fewer faults (major faults and swap-ins) |"
	print "|---|---|---:|---:|---|"
	for (i = 1; i <= ns; i++) {
		s = sord[i]
		if (!(s in islaunch)) continue
		bm = med(s, "stock", "vm:pgmajfault"); bs = med(s, "stock", "vm:pswpin")
		for (j = 3; j <= 4; j++) {
			c = statics[j]
			if (!ntag[s, c]) continue
			m = med(s, c, "vm:pgmajfault"); w2 = med(s, c, "vm:pswpin")
			v = (m < bm && (bs == 0 ? w2 == 0 : w2 < bs)) ? "yes" : ((m > bm || w2 > bs) ? "no (reversed)" : "no change")
			print "| " s " | " c " | " num(m) " vs " num(bm) pctchg(m, bm) " | " num(w2) " vs " num(bs) pctchg(w2, bs) " | " v " |"
		}
	}

	# ---- auto mode: windows it chose ----
	hdr = 0
	nac = split("auto auto200 autoage", acs, " ")
	for (i = 1; i <= ns; i++) for (a = 1; a <= nac; a++) {
		s = sord[i]; ac = acs[a]
		for (k = 1; k <= ntag[s, ac]; k++) {
			t = tag[s, ac, k]
			if (!((s, ac, t) in autoseq)) continue
			if (!hdr) {
				print ""
				print "## fault_around_auto: the windows it chose"
				print ""
				print "fault_around_bytes sampled once a second during each auto run (consecutive repeats collapsed; auto200 changes up to 5 times between samples: fa_auto_changes counts them all)."
				print ""
				print "| scenario | config | rep | samples (s) | fault_around_bytes over time | fa_auto_changes |"
				print "|---|---|---:|---:|---|---:|"
				hdr = 1
			}
			print "| " s " | " ac " | " t " | " autosecs[s, ac, t] " | " autoseq[s, ac, t] " | " num(val[s, ac, t, "ft:fa_auto_changes"]) " |"
		}
	}

	# ---- commands ----
	print ""
	print "## Exact commands"
	print ""
	print "Host: `" meta["command"] "` at commit `" meta["commit"] "`. In the guest, per run:"
	print ""
	for (i = 1; i <= ns; i++) {
		s = sord[i]
		for (j = 1; j <= nc; j++) {
			c = cord[j]
			if (!((s, c) in cmd)) continue
			print "- " s "." c ": `userspace/foliotune record -l " s "." c sets[s, c] " -o raw/" s "." c ".REP.rec -- " cmd[s, c] "`"
		}
	}
	for (i = 1; i <= ns; i++) if (sord[i] in lconfig) {
		print ""
		print "ft_applaunch reported: `" lconfig[sord[i]] "` (wset_file_pages: file pages the apps touch, summed over the apps)"
		break
	}
}
